package templates

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/tools/sqldb"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// utf16Table is a table of n rows in UTF-16 with a byte-order mark.
func utf16Table(t *testing.T, n int) []byte {
	t.Helper()
	var b strings.Builder
	b.WriteString("region,amount\n")
	for i := range n {
		b.WriteString([]string{"东部", "West"}[i%2] + "," + itoa(i%97) + "\n")
	}
	out, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(b.String())
	if err != nil {
		t.Fatal(err)
	}
	return []byte(out)
}

// TestReadingSourceCopiesThroughTheConfinedOpener: the reading engine
// reads a workbook's sheet and a text file in another encoding as the
// DuckDB engine does (prepareInput): an input that is a link to a file
// outside the workspace is refused, not read, and the UTF-8 copy is
// bounded by SIFT_FILES_SQL_TEMP. It still reads the plain cases.
func TestReadingSourceCopiesThroughTheConfinedOpener(t *testing.T) {
	ctx := context.Background()
	r := Reading{Analysis: TopN, Measures: []Measure{{"amount", "sum"}}, GroupBy: []string{"region"}, Order: "desc"}
	host := t.TempDir() // files outside the workspace
	book := outliersWorkbook(t)
	if err := os.WriteFile(filepath.Join(host, "secret.xlsx"), book, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(host, "secret.csv"), utf16Table(t, 50), 0o644); err != nil {
		t.Fatal(err)
	}
	// The plain cases read.
	root := writeInput(t, "t.csv", utf16Table(t, 50))
	tab, err := ReadingTable(ctx, root, "input/t.csv", r)
	if err != nil || len(tab.Rows) != 2 || tab.Rows[1][0] != "东部" {
		t.Fatalf("UTF-16 table: %+v, %v", tab, err)
	}
	root = writeInput(t, "b.xlsx", book)
	br := Reading{Analysis: TopN, Measures: []Measure{{"金额", "sum"}}, GroupBy: []string{"城市"}, Order: "desc", Sheet: "Sheet1"}
	if tab, err := ReadingTable(ctx, root, "input/b.xlsx", br); err != nil || len(tab.Rows) != 3 {
		t.Fatalf("workbook table: %+v, %v", tab, err)
	}
	// Links to host files.
	for _, c := range []struct{ name, target string }{{"b.xlsx", "secret.xlsx"}, {"t.csv", "secret.csv"}} {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "input"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(host, c.target), filepath.Join(root, "input", c.name)); err != nil {
			t.Fatal(err)
		}
		rr := r
		if c.name == "b.xlsx" {
			rr = br
		}
		if tab, err := ReadingTable(ctx, root, "input/"+c.name, rr); err == nil {
			t.Errorf("%s, a link to %s outside the workspace, was read: %+v", c.name, c.target, tab)
		}
	}
	// Sheets stacked.
	if tab, err := ReadingTable(ctx, writeInput(t, "b.xlsx", book), "input/b.xlsx", Reading{Analysis: TopN, Measures: []Measure{{"金额", "sum"}}, GroupBy: []string{"sheet"}, Sheet: "*"}); err != nil || len(tab.Rows) != 1 || tab.Rows[0][0] != "Sheet1" {
		t.Errorf("stacked sheets: %+v, %v", tab, err)
	}
	// A copy past its bound: 47 MiB of GB18030 whose UTF-8 copy is 67
	// MiB, under the least bound, 64 MiB.
	t.Setenv(sqldb.FilesTempEnv, "64MiB")
	enc := simplifiedchinese.GB18030.NewEncoder()
	head, _ := enc.String("地区,amount\n")
	line, _ := enc.String("东部东部东部东部东部,1\n")
	big := append([]byte(head), bytes.Repeat([]byte(line), 47<<20/len(line))...)
	root = writeInput(t, "big.csv", big)
	if _, err := ReadingTable(ctx, root, "input/big.csv", r); err == nil || !strings.Contains(err.Error(), "would pass 64 MiB") {
		t.Errorf("a 67 MiB UTF-8 copy under a 64 MiB bound: err = %v, want the bound named", err)
	}
}
