package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/sift-agent/sift/operator"
)

// writeWorkspaceFile writes raw bytes into the workspace, input/ included
// (the test plays the session that copied the user's files in).
func writeWorkspaceFile(t *testing.T, op operator.Operator, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(op.Root(), rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// numbered returns "line 1\n...line n\n".
func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %d\n", prefix, i)
	}
	return b.String()
}

func TestReadFileText(t *testing.T) {
	op, _ := newOp(t, "", nil)
	writeWorkspaceFile(t, op, "input/notes.txt", []byte(numbered("line", 450)))
	writeWorkspaceFile(t, op, "input/big.csv", []byte("id,name\n"+numbered("row", 300)))
	writeWorkspaceFile(t, op, "input/short.txt", []byte("one\r\ntwo"))
	writeWorkspaceFile(t, op, "input/empty.txt", nil)
	writeWorkspaceFile(t, op, "input/long.txt", []byte(strings.Repeat("é", 3000)+"\nend\n"))
	rf := fileTools(t, op)[ReadFileName]

	tests := []struct {
		name string
		args ReadFileArgs
		want string
	}{
		{name: "range", args: ReadFileArgs{Path: "input/notes.txt", StartLine: 10, EndLine: 12},
			want: "input/notes.txt: lines 10-12 of 450\n    10\tline 10\n    11\tline 11\n    12\tline 12\n" +
				"[438 more lines: call read_file with start_line=13 end_line=212 to read on]\n"},
		{name: "end past the end", args: ReadFileArgs{Path: "input/notes.txt", StartLine: 449, EndLine: 500},
			want: "input/notes.txt: lines 449-450 of 450\n   449\tline 449\n   450\tline 450\n"},
		{name: "csv keeps its header", args: ReadFileArgs{Path: "input/big.csv", StartLine: 5, EndLine: 6},
			want: "input/big.csv: lines 5-6 of 301\n     1\tid,name\n   ...\n     5\trow 4\n     6\trow 5\n" +
				"[295 more lines: call read_file with start_line=7 end_line=206 to read on]\n"},
		{name: "csv from line 2", args: ReadFileArgs{Path: "input/big.csv", StartLine: 2, EndLine: 2},
			want: "input/big.csv: lines 2-2 of 301\n     1\tid,name\n     2\trow 1\n" +
				"[299 more lines: call read_file with start_line=3 end_line=202 to read on]\n"},
		{name: "crlf and no final newline", args: ReadFileArgs{Path: "input/short.txt"},
			want: "input/short.txt: lines 1-2 of 2\n     1\tone\n     2\ttwo\n"},
		{name: "count a last line without newline", args: ReadFileArgs{Path: "input/short.txt", EndLine: 1},
			want: "input/short.txt: lines 1-1 of 2\n     1\tone\n[1 more lines: call read_file with start_line=2 end_line=2 to read on]\n"},
		{name: "empty", args: ReadFileArgs{Path: "input/empty.txt"}, want: "input/empty.txt is empty (0 bytes)."},
		{name: "long line cut at a rune", args: ReadFileArgs{Path: "input/long.txt"},
			want: "input/long.txt: lines 1-2 of 2\n     1\t" + strings.Repeat("é", 2000) + " [... 2000 more bytes on this line]\n     2\tend\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := call(t, rf, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("read_file (-want +got):\n%s", diff)
			}
		})
	}

	got, err := call(t, rf, ReadFileArgs{Path: "input/notes.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "input/notes.txt: lines 1-200 of 450\n") ||
		!strings.HasSuffix(got, "[250 more lines: call read_file with start_line=201 end_line=400 to read on]\n") {
		t.Errorf("default range reply:\n%s", got)
	}
	got, err = call(t, rf, ReadFileArgs{Path: "input/notes.txt", StartLine: 1, EndLine: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "input/notes.txt: lines 1-450 of 450 (at most 1000 lines per call)\n") {
		t.Errorf("capped range reply starts %q", firstLine(got))
	}

	errCases := []struct {
		args ReadFileArgs
		want string
	}{
		{args: ReadFileArgs{Path: "input/notes.txt", StartLine: 500}, want: "start_line 500 is past the end: the file has 450 lines"},
		{args: ReadFileArgs{Path: "input/notes.txt", StartLine: 10, EndLine: 5}, want: "end_line 5 is before start_line 10"},
		{args: ReadFileArgs{Path: "input"}, want: "it is a directory"},
		{args: ReadFileArgs{}, want: "path is required"},
	}
	for _, tt := range errCases {
		if _, err := call(t, rf, tt.args); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("read_file(%+v) error = %v; want %q", tt.args, err, tt.want)
		}
	}
}

func TestReadFileBinary(t *testing.T) {
	op, _ := newOp(t, "", nil)
	writeWorkspaceFile(t, op, "input/blob.bin", []byte{0x89, 'P', 'N', 'G', 0, 0, 0, 0x0d, 0xff, 0x00, 0x10})
	_, err := call(t, fileTools(t, op)[ReadFileName], ReadFileArgs{Path: "input/blob.bin"})
	if err == nil || !strings.Contains(err.Error(), "binary") {
		t.Fatalf("read_file(binary) error = %v; want a binary-file error", err)
	}
}

func TestReadFileGB18030(t *testing.T) {
	op, _ := newOp(t, "", nil)
	text := "地区,金额\n北京,10\n上海,20\n广州,30\n"
	gb, err := simplifiedchinese.GB18030.NewEncoder().String(text)
	if err != nil {
		t.Fatal(err)
	}
	writeWorkspaceFile(t, op, "input/销售.csv", []byte(gb))
	got, err := call(t, fileTools(t, op)[ReadFileName], ReadFileArgs{Path: "input/销售.csv", StartLine: 3, EndLine: 4})
	if err != nil {
		t.Fatal(err)
	}
	want := "input/销售.csv (decoded from gb18030): lines 3-4 of 4\n     1\t地区,金额\n   ...\n     3\t上海,20\n     4\t广州,30\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read_file (-want +got):\n%s", diff)
	}
}

// writeWorkbook saves a workbook with a 250-row "Data" sheet (plus header)
// and a small "Notes" sheet.
func writeWorkbook(t *testing.T, op operator.Operator, rel string) {
	t.Helper()
	wb := excelize.NewFile()
	defer wb.Close()
	if err := wb.SetSheetName("Sheet1", "Data"); err != nil {
		t.Fatal(err)
	}
	if err := wb.SetSheetRow("Data", "A1", &[]any{"id", "city", "amount"}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 250; i++ {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := wb.SetSheetRow("Data", cell, &[]any{i, fmt.Sprintf("city, %d", i), i * 10}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := wb.NewSheet("Notes"); err != nil {
		t.Fatal(err)
	}
	for i, row := range [][]any{{"note"}, {"first"}, {"second"}} {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := wb.SetSheetRow("Notes", cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	if err := wb.SaveAs(filepath.Join(op.Root(), rel)); err != nil {
		t.Fatal(err)
	}
}

func TestReadFileWorkbook(t *testing.T) {
	op, _ := newOp(t, "", nil)
	writeWorkbook(t, op, "input/book.xlsx")
	rf := fileTools(t, op)[ReadFileName]
	tests := []struct {
		name string
		args ReadFileArgs
		want string
	}{
		{name: "row range keeps the header", args: ReadFileArgs{Path: "input/book.xlsx", StartRow: 100, EndRow: 101},
			want: "input/book.xlsx, sheet \"Data\": rows 100-101 of 251 (sheets: \"Data\", \"Notes\")\n" +
				"     1\tid,city,amount\n   ...\n   100\t99,\"city, 99\",990\n   101\t100,\"city, 100\",1000\n" +
				"[150 more rows: call read_file with sheet=\"Data\" start_row=102 end_row=201 to read on]\n"},
		{name: "named sheet", args: ReadFileArgs{Path: "input/book.xlsx", Sheet: "Notes"},
			want: "input/book.xlsx, sheet \"Notes\": rows 1-3 of 3 (sheets: \"Data\", \"Notes\")\n     1\tnote\n     2\tfirst\n     3\tsecond\n"},
		{name: "line numbers work as rows", args: ReadFileArgs{Path: "input/book.xlsx", Sheet: "Notes", StartLine: 3, EndLine: 3},
			want: "input/book.xlsx, sheet \"Notes\": rows 3-3 of 3 (sheets: \"Data\", \"Notes\")\n     1\tnote\n   ...\n     3\tsecond\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := call(t, rf, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("read_file (-want +got):\n%s", diff)
			}
		})
	}
	got, err := call(t, rf, ReadFileArgs{Path: "input/book.xlsx"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "input/book.xlsx, sheet \"Data\": rows 1-100 of 251") ||
		!strings.HasSuffix(got, "[151 more rows: call read_file with sheet=\"Data\" start_row=101 end_row=200 to read on]\n") {
		t.Errorf("default range reply:\n%s", got)
	}
	_, err = call(t, rf, ReadFileArgs{Path: "input/book.xlsx", Sheet: "Missing"})
	if err == nil || !strings.Contains(err.Error(), `there is no sheet "Missing"; the sheets are: "Data", "Notes"`) {
		t.Errorf("unknown sheet error = %v", err)
	}
	_, err = call(t, rf, ReadFileArgs{Path: "input/book.xlsx", Sheet: "Notes", StartRow: 9})
	if err == nil || !strings.Contains(err.Error(), `start_row 9 is past the end: sheet "Notes" has 3 rows`) {
		t.Errorf("past-the-end error = %v", err)
	}
}

func BenchmarkReadFileTail(b *testing.B) {
	root := b.TempDir()
	op, err := operator.NewLocal(operator.LocalConfig{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "input"), 0o755); err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("id,name,amount\n")
	for i := range 200000 {
		fmt.Fprintf(&sb, "%d,name %d,%d.5\n", i, i, i)
	}
	if err := os.WriteFile(filepath.Join(root, "input/big.csv"), []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(sb.Len()))
	args := ReadFileArgs{Path: "input/big.csv", StartLine: 199900}
	for b.Loop() {
		if _, err := readFile(context.Background(), op, args); err != nil {
			b.Fatal(err)
		}
	}
}
