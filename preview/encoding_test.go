package preview

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// encodeText encodes UTF-8 text s as the named encoding; bom adds a byte
// order mark for the UTF-16 encodings.
func encodeText(t testing.TB, s, enc string, bom bool) []byte {
	t.Helper()
	policy := unicode.IgnoreBOM
	if bom {
		policy = unicode.UseBOM
	}
	var out string
	var err error
	switch enc {
	case EncodingUTF8:
		return []byte(s)
	case EncodingUTF8BOM:
		return append([]byte{0xEF, 0xBB, 0xBF}, s...)
	case EncodingUTF16LE:
		out, err = unicode.UTF16(unicode.LittleEndian, policy).NewEncoder().String(s)
	case EncodingUTF16BE:
		out, err = unicode.UTF16(unicode.BigEndian, policy).NewEncoder().String(s)
	case EncodingGB18030:
		out, err = simplifiedchinese.GB18030.NewEncoder().String(s)
	case EncodingWindows1252:
		out, err = charmap.Windows1252.NewEncoder().String(s)
	default:
		t.Fatalf("encodeText: unknown encoding %q", enc)
	}
	if err != nil {
		t.Fatalf("encode %s: %v", enc, err)
	}
	return []byte(out)
}

const chineseCSV = "城市,人口,日期\n北京,21540000,2024-01-31\n上海,24870000,2024-02-29\n广州,18680000,2024-03-31\n"

func TestDetectEncoding(t *testing.T) {
	tests := []struct {
		name   string
		sample []byte
		want   string
	}{
		{"empty", nil, EncodingUTF8},
		{"ascii", []byte("a,b\n1,2\n"), EncodingUTF8},
		{"utf-8 chinese", []byte(chineseCSV), EncodingUTF8},
		{"utf-8 cut inside a character", []byte(chineseCSV)[:5], EncodingUTF8},
		{"utf-8 bom", encodeText(t, chineseCSV, EncodingUTF8BOM, true), EncodingUTF8BOM},
		{"utf-16le bom", encodeText(t, chineseCSV, EncodingUTF16LE, true), EncodingUTF16LE},
		{"utf-16be bom", encodeText(t, chineseCSV, EncodingUTF16BE, true), EncodingUTF16BE},
		{"utf-16le no bom", encodeText(t, chineseCSV, EncodingUTF16LE, false), EncodingUTF16LE},
		{"utf-16be no bom", encodeText(t, chineseCSV, EncodingUTF16BE, false), EncodingUTF16BE},
		{"gb18030", encodeText(t, chineseCSV, EncodingGB18030, false), EncodingGB18030},
		{"gb18030 cut inside a character", encodeText(t, chineseCSV, EncodingGB18030, false)[:8], EncodingGB18030},
		{"gbk four-byte euro sign and rare hanzi", encodeText(t, "价格€,㐀\n", EncodingGB18030, false), EncodingGB18030},
		{"latin-1 is not mistaken for gb18030", encodeText(t, "name,note\nRené,naïve café\nZoë,façade\n", EncodingWindows1252, false), EncodingWindows1252},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DetectEncoding(tt.sample); got != tt.want {
				t.Errorf("DetectEncoding = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDecodeReader(t *testing.T) {
	tests := []struct {
		enc string
		bom bool
	}{
		{EncodingUTF8, false},
		{EncodingUTF8BOM, true},
		{EncodingUTF16LE, true},
		{EncodingUTF16LE, false},
		{EncodingUTF16BE, true},
		{EncodingUTF16BE, false},
		{EncodingGB18030, false},
	}
	// Longer than the detection sample, so decoding must go past it.
	text := strings.Repeat(chineseCSV, 3000)
	for _, tt := range tests {
		name := tt.enc
		if tt.bom {
			name += " with bom"
		}
		t.Run(name, func(t *testing.T) {
			r, enc, err := DecodeReader(bytes.NewReader(encodeText(t, text, tt.enc, tt.bom)))
			if err != nil {
				t.Fatalf("DecodeReader: %v", err)
			}
			if enc != tt.enc {
				t.Errorf("encoding = %q, want %q", enc, tt.enc)
			}
			got, err := io.ReadAll(r)
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			if string(got) != text {
				t.Errorf("decoded text differs; first 80 bytes: %q", got[:min(80, len(got))])
			}
		})
	}
}

func TestDecodeReaderLatin1(t *testing.T) {
	want := "name,note\nRené,naïve café\n"
	r, enc, err := DecodeReader(bytes.NewReader(encodeText(t, want, EncodingWindows1252, false)))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(r)
	if diff := cmp.Diff([]string{EncodingWindows1252, want}, []string{enc, string(got)}); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestNewDecodingReaderAliases(t *testing.T) {
	gbk := encodeText(t, "北京", EncodingGB18030, false)
	for _, name := range []string{"gbk", "GB2312", " gb18030 "} {
		r, err := NewDecodingReader(bytes.NewReader(gbk), name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, _ := io.ReadAll(r)
		if string(got) != "北京" {
			t.Errorf("%s: got %q", name, got)
		}
	}
	if _, err := NewDecodingReader(strings.NewReader("x"), "ebcdic"); !errors.Is(err, ErrUnknownEncoding) {
		t.Errorf("unknown encoding: err = %v, want ErrUnknownEncoding", err)
	}
}

func TestPythonCodec(t *testing.T) {
	tests := []struct {
		enc  string
		bom  bool
		want string
	}{
		{EncodingUTF8, false, "utf-8"},
		{EncodingUTF8BOM, true, "utf-8-sig"},
		{EncodingUTF16LE, true, "utf-16"},
		{EncodingUTF16LE, false, "utf-16-le"},
		{EncodingUTF16BE, false, "utf-16-be"},
		{EncodingGB18030, false, "gb18030"},
		{EncodingWindows1252, false, "cp1252"},
	}
	for _, tt := range tests {
		if got := pythonCodec(tt.enc, tt.bom); got != tt.want {
			t.Errorf("pythonCodec(%q, %v) = %q, want %q", tt.enc, tt.bom, got, tt.want)
		}
	}
}
