package preview

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPreviewText(t *testing.T) {
	long := strings.Repeat("长", 300)
	tests := []struct {
		name, file string
		data       []byte
		opts       Options
		wantLines  []string
		wantCount  int
		wantEnc    string
	}{
		{
			name: "markdown", file: "notes.md",
			data:      []byte("# Title\n\nSome text.\r\nLast line without newline"),
			wantLines: []string{"# Title", "", "Some text.", "Last line without newline"},
			wantCount: 4, wantEnc: EncodingUTF8,
		},
		{
			name: "first lines only, long lines cut", file: "a.txt",
			data:      []byte("one\ntwo\nthree\n" + long + "\n"),
			opts:      Options{MaxLines: 2, MaxLineChars: 10},
			wantLines: []string{"one", "two"},
			wantCount: 4, wantEnc: EncodingUTF8,
		},
		{
			name: "long line cut to MaxLineChars", file: "a.txt",
			data:      []byte(long + "\nend\n"),
			opts:      Options{MaxLineChars: 10},
			wantLines: []string{strings.Repeat("长", 9) + "…", "end"},
			wantCount: 2, wantEnc: EncodingUTF8,
		},
		{
			name: "gb18030 text", file: "cn.txt",
			data:      encodeText(t, "第一行\n第二行\n", EncodingGB18030, false),
			wantLines: []string{"第一行", "第二行"},
			wantCount: 2, wantEnc: EncodingGB18030,
		},
		{
			name: "utf-16 text", file: "w.txt",
			data:      encodeText(t, "hello\nworld\n", EncodingUTF16LE, true),
			wantLines: []string{"hello", "world"},
			wantCount: 2, wantEnc: EncodingUTF16LE,
		},
		{
			name: "unknown extension sniffed as text", file: "README",
			data:      []byte("plain\ntext\n"),
			wantLines: []string{"plain", "text"},
			wantCount: 2, wantEnc: EncodingUTF8,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPreview(t, writeFile(t, tt.file, tt.data), tt.opts)
			if diff := cmp.Diff(tt.wantLines, p.Lines); diff != "" {
				t.Errorf("lines (-want +got)\n%s", diff)
			}
			if p.Kind != KindText || p.Encoding != tt.wantEnc || p.LineCount != tt.wantCount || !p.LineCountExact {
				t.Errorf("kind %q encoding %q lines %d exact %v; want text, %q, %d exact", p.Kind, p.Encoding, p.LineCount, p.LineCountExact, tt.wantEnc, tt.wantCount)
			}
		})
	}
}

func TestPreviewTextLineCount(t *testing.T) {
	const lines = 100000 // about 3.4 MiB, more than the sampled head
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "log line %06d: something happened here\n", i)
	}
	path := filepath.Join(t.TempDir(), "big.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	p := mustPreview(t, path, Options{})
	if p.LineCount != lines || !p.LineCountExact {
		t.Errorf("streamed count %d exact=%v, want %d exact", p.LineCount, p.LineCountExact, lines)
	}
	p = mustPreview(t, path, Options{ExactCountLimit: 1 << 20})
	if p.LineCountExact || p.LineCount < lines*98/100 || p.LineCount > lines*102/100 {
		t.Errorf("estimated count %d exact=%v, want about %d, not exact", p.LineCount, p.LineCountExact, lines)
	}
	if !strings.Contains(p.Compact(Options{}), "~100,000 lines") {
		t.Errorf("compact preview does not mark the estimate:\n%s", p.Compact(Options{}))
	}
}

func TestLineCounter(t *testing.T) {
	tests := []struct {
		text              string
		lines, nonBlankLn int
	}{
		{"", 0, 0},
		{"a", 1, 1},
		{"a\n", 1, 1},
		{"a\n\n  \nb", 4, 2},
		{"\r\n\r\n", 2, 0},
	}
	for _, tt := range tests {
		for _, chunk := range []int{1, 2, 100} {
			var c lineCounter
			for i := 0; i < len(tt.text); i += chunk {
				c.write([]byte(tt.text[i:min(i+chunk, len(tt.text))]))
			}
			lines, nonBlank := c.finish()
			if lines != tt.lines || nonBlank != tt.nonBlankLn {
				t.Errorf("%q in %d-byte chunks: %d lines, %d non-blank; want %d, %d", tt.text, chunk, lines, nonBlank, tt.lines, tt.nonBlankLn)
			}
		}
	}
}
