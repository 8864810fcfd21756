package templates

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/tools/sqldb"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// encodeText is text in enc.
func encodeText(t testing.TB, text string, enc encoding.Encoding) []byte {
	t.Helper()
	b, err := enc.NewEncoder().Bytes([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTextInEncodingsSameOnDuckDBAsPandas: a text file in GB18030,
// UTF-16 or cp1252 runs through DuckDB from a UTF-8 copy, with the same
// outputs as pandas reading it in that encoding.
func TestTextInEncodingsSameOnDuckDBAsPandas(t *testing.T) {
	// (No ties among the top values: pandas orders ties as its sort
	// leaves them, the DuckDB engine by value.)
	zh := "日期,地区,销售额,备注\n2024-01-05,华东,100,首单\n2024-01-09,华北,250.5,\n2024-02-01,华东,300,复购\n2024-02-11,华南,80,首单\n2024-03-03,华北,49.5,首单\n2024-03-20,华东,120,复购\n2024-03-28,华东,70,退货\n"
	latin := "date,café,amount,note\n2024-01-05,Crème,10.5,€ paid\n2024-01-19,Brûlée,20,naïve\n2024-02-02,Crème,7.25,\n2024-02-23,Façade,40,déjà vu\n2024-03-08,Brûlée,12,€ paid\n2024-03-15,Crème,9,naïve\n2024-03-29,Crème,31,€ paid\n"
	gb := encodeText(t, zh, simplifiedchinese.GB18030)
	utf16 := encodeText(t, latin, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM))
	cp1252 := encodeText(t, latin, charmap.Windows1252)
	shapes := []renderShape{
		{name: "gb18030 profile", file: "销售.csv", data: gb, m: Match{Template: Profile}, lang: LangChinese},
		{name: "gb18030 topn", file: "销售.csv", data: gb, m: Match{Template: TopN, Params: Params{Category: "地区", Measure: "销售额"}}, lang: LangChinese},
		{name: "gb18030 trend", file: "销售.csv", data: gb, m: Match{Template: Trend, Params: Params{Measure: "销售额", Period: "month"}}},
		{name: "gb18030 outliers", file: "销售.csv", data: gb, m: Match{Template: Outliers, Params: Params{IQRK: 0.5}}},
		{name: "utf-16 profile", file: "latin16.csv", data: utf16, m: Match{Template: Profile}},
		{name: "utf-16 pivot", file: "latin16.csv", data: utf16, m: Match{Template: Pivot, Params: Params{Category: "café", Time: "date", Period: "month", Measure: "amount"}}},
		{name: "cp1252 topn", file: "latin.csv", data: cp1252, m: Match{Template: TopN, Params: Params{Category: "café", Measure: "amount"}}},
		{name: "cp1252 distribution", file: "latin.csv", data: cp1252, m: Match{Template: Distribution}},
	}
	checkLikePandas(t, shapes)
}

// TestTranscodeRefusesBytesNotInEncoding: bytes the encoding has no
// character for fail, as pandas fails on them, rather than reading as
// replacement characters; a character split across reads is whole.
func TestTranscodeRefusesBytesNotInEncoding(t *testing.T) {
	var out bytes.Buffer
	// 0x81 0x20 is no GB18030 character; cp1252 has none at 0x81.
	for _, c := range []struct{ enc, data string }{{"gb18030", "a,b\n\x81\x20,1\n"}, {"cp1252", "a,b\nx\x81,1\n"}} {
		out.Reset()
		err := transcode(context.Background(), strings.NewReader(c.data), c.enc, &out)
		var te templateError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), "does not read as "+c.enc) {
			t.Errorf("%s: err = %v, want a templateError saying the file does not read as %s", c.enc, err, c.enc)
		}
	}
	text := strings.Repeat("地区,销售额\n华东,100\n", 20000) // past one read
	out.Reset()
	if err := transcode(context.Background(), bytes.NewReader(encodeText(t, text, simplifiedchinese.GB18030)), "GB18030", &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != text {
		t.Errorf("transcoded text differs from the original (%d bytes, want %d)", out.Len(), len(text))
	}
}

// TestPrepareInputCopiesOnTheHost: the UTF-8 copy DuckDB reads is made
// outside the workspace, from the input opened through the confined
// opener (a linked input is refused), within DuckDB's scratch bound, and
// removed by cleanup.
func TestPrepareInputCopiesOnTheHost(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "input"), 0o755); err != nil {
		t.Fatal(err)
	}
	data := encodeText(t, "地区,销售额\n华东,100\n华北,250\n", simplifiedchinese.GB18030)
	if err := os.WriteFile(filepath.Join(root, "input", "s.csv"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	in, err := prepareInput(ctx, root, "input/s.csv", Params{Encoding: "gb18030"}, sqldb.FilesOptions{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(in.abs(), root) {
		t.Errorf("the copy %s is under the workspace %s", in.abs(), root)
	}
	got, err := os.ReadFile(in.abs())
	if err != nil || string(got) != "地区,销售额\n华东,100\n华北,250\n" {
		t.Errorf("copy = %q, %v", got, err)
	}
	in.cleanup()
	if _, err := os.Stat(in.dir); !os.IsNotExist(err) {
		t.Errorf("cleanup left %s (%v)", in.dir, err)
	}

	if _, err := prepareInput(ctx, root, "input/s.csv", Params{Encoding: "gb18030"}, sqldb.FilesOptions{TempDir: t.TempDir(), TempBytes: 10}); err == nil || !strings.Contains(err.Error(), sqldb.FilesTempEnv) {
		t.Errorf("a copy past the bound: err = %v, want one naming %s", err, sqldb.FilesTempEnv)
	}

	secret := filepath.Join(t.TempDir(), "secret.csv")
	if err := os.WriteFile(secret, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(root, "input", "link.csv")); err != nil {
		t.Fatal(err)
	}
	if _, err := prepareInput(ctx, root, "input/link.csv", Params{Encoding: "gb18030"}, sqldb.FilesOptions{TempDir: t.TempDir()}); err == nil {
		t.Error("a linked input was copied; the confined opener must refuse it")
	}
}

// TestLineEndWriter: line ends outside quotes become LF, whichever write
// a CRLF's two bytes come in; quoted line breaks stay as they are.
func TestLineEndWriter(t *testing.T) {
	in := "a,b\r\n1,\"x\r\ny\"\r2,\"p\rq\"\n3,z\r"
	want := "a,b\n1,\"x\r\ny\"\n2,\"p\rq\"\n3,z\n"
	for cut := 0; cut <= len(in); cut++ {
		var b strings.Builder
		w := &lineEndWriter{w: &b}
		if _, err := w.Write([]byte(in[:cut])); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(in[cut:])); err != nil {
			t.Fatal(err)
		}
		if err := w.close(); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("cut at %d: %q, want %q", cut, b.String(), want)
		}
	}
}
