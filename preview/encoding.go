package preview

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// The text encodings DetectEncoding reports and NewDecodingReader accepts.
const (
	// EncodingUTF8 is UTF-8 without a byte order mark.
	EncodingUTF8 = "utf-8"
	// EncodingUTF8BOM is UTF-8 starting with the byte order mark EF BB BF
	// (what Excel writes for "CSV UTF-8").
	EncodingUTF8BOM = "utf-8-bom"
	// EncodingUTF16LE is little-endian UTF-16, with or without a BOM.
	EncodingUTF16LE = "utf-16le"
	// EncodingUTF16BE is big-endian UTF-16, with or without a BOM.
	EncodingUTF16BE = "utf-16be"
	// EncodingGB18030 is the Chinese national encoding, a superset of GBK
	// and GB2312 (what Excel on a Chinese Windows writes for "CSV").
	EncodingGB18030 = "gb18030"
	// EncodingWindows1252 is the Western European code page, the fallback for
	// bytes that are neither UTF-8 nor GB18030; it decodes any byte.
	EncodingWindows1252 = "windows-1252"
)

// ErrUnknownEncoding is returned by NewDecodingReader for an encoding name
// it does not know.
var ErrUnknownEncoding = errors.New("unknown text encoding")

// EncodingSampleSize is how many leading bytes DecodeReader looks at to
// detect the encoding.
const EncodingSampleSize = 64 << 10

var bomUTF8 = []byte{0xEF, 0xBB, 0xBF}

// DetectEncoding guesses the text encoding of sample, the leading bytes of a
// file, and returns one of the Encoding* names. In order it looks for a byte
// order mark, then for the NUL bytes that ASCII text in UTF-16 has at every
// other position, then checks that the sample is valid UTF-8, then that it is
// well-formed GB18030 that looks like Chinese text; otherwise it reports
// windows-1252. A sample cut in the middle of a character is fine. An empty
// sample is UTF-8.
func DetectEncoding(sample []byte) string {
	switch {
	case bytes.HasPrefix(sample, bomUTF8):
		return EncodingUTF8BOM
	case bytes.HasPrefix(sample, []byte{0xFF, 0xFE}):
		return EncodingUTF16LE
	case bytes.HasPrefix(sample, []byte{0xFE, 0xFF}):
		return EncodingUTF16BE
	}
	if enc := utf16ByNULs(sample); enc != "" {
		return enc
	}
	if utf8.Valid(trimPartialRune(sample)) {
		return EncodingUTF8
	}
	if looksGB18030(sample) {
		return EncodingGB18030
	}
	return EncodingWindows1252
}

// utf16ByNULs recognises BOM-less UTF-16 by where its NUL bytes fall: text
// that is mostly ASCII has a NUL as the high byte of most code units, so in
// little-endian the odd positions are often NUL and the even ones almost
// never. Binary data has NULs at both.
func utf16ByNULs(sample []byte) string {
	if len(sample) > 8192 {
		sample = sample[:8192]
	}
	pairs := len(sample) / 2
	if pairs < 2 {
		return ""
	}
	var evenNUL, oddNUL int
	for i := 0; i+1 < len(sample); i += 2 {
		if sample[i] == 0 {
			evenNUL++
		}
		if sample[i+1] == 0 {
			oddNUL++
		}
	}
	// At least a fifth of the code units are ASCII, and the other byte
	// position is (almost) never NUL.
	switch {
	case oddNUL*5 >= pairs && evenNUL*50 <= pairs:
		return EncodingUTF16LE
	case evenNUL*5 >= pairs && oddNUL*50 <= pairs:
		return EncodingUTF16BE
	}
	return ""
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of b, which
// a fixed-size sample often cuts.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}

// looksGB18030 reports whether b is well-formed GB18030 (one-, two- and
// four-byte sequences; a sequence cut by the end of the sample is allowed)
// and looks like Chinese text: most two-byte characters have a trail byte of
// 0xA1 or more, as every GB2312 character does. The second test keeps
// Latin-1 text such as "naïve" (0xEF 0x76, a well-formed but rare pair) from
// passing as Chinese.
func looksGB18030(b []byte) bool {
	var pairs, common int
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			i++
			continue
		}
		if c == 0x80 || c == 0xFF {
			return false
		}
		if i+1 >= len(b) {
			break
		}
		c2 := b[i+1]
		switch {
		case c2 >= 0x40 && c2 <= 0xFE && c2 != 0x7F:
			pairs++
			if c2 >= 0xA1 {
				common++
			}
			i += 2
		case c2 >= 0x30 && c2 <= 0x39:
			if i+3 >= len(b) {
				i = len(b)
				break
			}
			c3, c4 := b[i+2], b[i+3]
			if c3 < 0x81 || c3 > 0xFE || c4 < 0x30 || c4 > 0x39 {
				return false
			}
			i += 4
		default:
			return false
		}
	}
	return pairs == 0 || common*10 >= pairs*6
}

// hasBOM reports whether b starts with a UTF-8 or UTF-16 byte order mark.
func hasBOM(b []byte) bool {
	return bytes.HasPrefix(b, bomUTF8) || bytes.HasPrefix(b, []byte{0xFF, 0xFE}) || bytes.HasPrefix(b, []byte{0xFE, 0xFF})
}

// pythonCodec is the Python codec name that reads text in the encoding with
// its byte order mark removed, for code a model writes (pandas' encoding=).
func pythonCodec(encoding string, bom bool) string {
	switch encoding {
	case EncodingUTF8BOM:
		return "utf-8-sig"
	case EncodingUTF16LE, EncodingUTF16BE:
		if bom {
			return "utf-16"
		}
		return strings.Replace(encoding, "16", "16-", 1)
	case EncodingWindows1252:
		return "cp1252"
	}
	return encoding
}

// NewDecodingReader returns a reader that turns r, text in the named
// encoding (one of the Encoding* names; "utf8", "utf-16", "gbk" and "gb2312"
// are accepted too), into UTF-8. Byte order marks are removed. Bytes that
// are invalid in the encoding become U+FFFD.
func NewDecodingReader(r io.Reader, encoding string) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case EncodingUTF8, "utf8", "":
		return r, nil
	case EncodingUTF8BOM, "utf-8-sig", "utf8bom":
		return transform.NewReader(r, unicode.UTF8BOM.NewDecoder()), nil
	case EncodingUTF16LE, "utf-16", "utf16le", "utf16":
		return transform.NewReader(r, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder()), nil
	case EncodingUTF16BE, "utf16be":
		return transform.NewReader(r, unicode.UTF16(unicode.BigEndian, unicode.UseBOM).NewDecoder()), nil
	case EncodingGB18030, "gbk", "gb2312", "cp936":
		return transform.NewReader(r, simplifiedchinese.GB18030.NewDecoder()), nil
	case EncodingWindows1252, "cp1252", "latin1", "iso-8859-1":
		return transform.NewReader(r, charmap.Windows1252.NewDecoder()), nil
	}
	return nil, fmt.Errorf("decode text: %w %q (use one of utf-8, utf-8-bom, utf-16le, utf-16be, gb18030, windows-1252)", ErrUnknownEncoding, encoding)
}

// DecodeReader detects the encoding of r from its first EncodingSampleSize
// bytes and returns a reader of its text as UTF-8 (byte order mark removed)
// together with the encoding's name. It reads only that sample ahead, so it
// suits files of any size; the read_file tool uses it to show GB18030 or
// UTF-16 files as readable text.
func DecodeReader(r io.Reader) (io.Reader, string, error) {
	br := bufio.NewReaderSize(r, EncodingSampleSize)
	sample, err := br.Peek(EncodingSampleSize)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, "", fmt.Errorf("detect encoding: read sample: %w", err)
	}
	enc := DetectEncoding(sample)
	dr, err := NewDecodingReader(br, enc)
	if err != nil {
		return nil, "", err
	}
	return dr, enc, nil
}

// decodeBytes decodes b from the named encoding into UTF-8. For UTF-8 it
// returns b itself.
func decodeBytes(b []byte, encoding string) ([]byte, error) {
	if encoding == EncodingUTF8 {
		return b, nil
	}
	r, err := NewDecodingReader(bytes.NewReader(b), encoding)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// asciiCompatible reports whether the encoding keeps ASCII bytes (newline,
// quote, comma, tab, semicolon) as themselves and never uses them inside a
// multi-byte character, so structure can be counted on the raw bytes.
// GB18030 is left out: the pipe byte can be the second byte of a character.
func asciiCompatible(encoding string) bool {
	return encoding == EncodingUTF8 || encoding == EncodingUTF8BOM
}
