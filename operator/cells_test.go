package operator

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestErrorLine(t *testing.T) {
	tests := map[string]string{
		"": "",
		"Traceback (most recent call last):\n  File \"work/.cells/cell-0002.py\", line 1, in <module>\nKeyError: 'k'\n": "KeyError: 'k'",
		"Traceback (most recent call last):\n  File \"x\", line 1\npandas.errors.ParserError: bad\n":                    "pandas.errors.ParserError: bad",
		"  File \"work/.cells/cell-0001.py\", line 1\n    def f(:\n          ^\nSyntaxError: invalid syntax\n":          "SyntaxError: invalid syntax",
		"timed out after 2s: the cell was interrupted\nTraceback (most recent call last):\nKeyboardInterrupt\n":         "timed out after 2s: the cell was interrupted",
		"\nSystemExit: 3\n": "SystemExit: 3",
	}
	for in, want := range tests {
		if got := errorLine(in); got != want {
			t.Errorf("errorLine(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestHeadString(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string
	}{
		{"short", 10, "short"},
		{"abcdef", 3, "abc"},
		{"aé", 2, "a"}, // é is two bytes: not split
	}
	for _, tt := range tests {
		if got := headString(tt.in, tt.limit); got != tt.want {
			t.Errorf("headString(%q, %d) = %q; want %q", tt.in, tt.limit, got, tt.want)
		}
	}
}

func TestCellRecordsRoundTrip(t *testing.T) {
	root := t.TempDir()
	if got, err := ReadCells(root); err != nil || got != nil {
		t.Fatalf("ReadCells without a log = %v, %v; want none", got, err)
	}
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	res := &RunResult{Stdout: string(make([]byte, 3000)), Error: "Traceback (most recent call last):\nValueError: x\n",
		Files: []string{"out/a.csv"}, Duration: 1500 * time.Millisecond}
	first := newCellRecord(1, 1, "raise ValueError('x')", res, at)
	second := newCellRecord(2, 1, "1", &RunResult{}, at)
	for _, r := range []CellRecord{first, second} {
		if err := appendCellRecord(root, r); err != nil {
			t.Fatal(err)
		}
	}
	// A line cut short by a crash is skipped.
	f, err := os.OpenFile(filepath.Join(root, CellsLogFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"cell": 3, "code": "tru`)
	f.Close()
	got, err := ReadCells(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []CellRecord{
		{Cell: 1, Generation: 1, Code: "raise ValueError('x')", Error: "ValueError: x", Stdout: string(make([]byte, cellStdoutHead)),
			Files: []string{"out/a.csv"}, Duration: 1.5, Time: at},
		{Cell: 2, Generation: 1, Code: "1", OK: true, Time: at},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadCells (-want +got):\n%s", diff)
	}
	if n := lastRecordedCell(got); n != 2 {
		t.Errorf("lastRecordedCell = %d; want 2", n)
	}
	if n := lastRecordedGeneration(got); n != 1 {
		t.Errorf("lastRecordedGeneration = %d; want 1", n)
	}
}
