package preview

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPreviewEmptyAndBinary(t *testing.T) {
	random := make([]byte, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	random[10] = 0 // make sure a NUL is there
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), random[:100]...)
	tests := []struct {
		name, file string
		data       []byte
		wantKind   string
		wantNote   string
	}{
		{"empty csv", "e.csv", nil, KindEmpty, "empty"},
		{"empty xlsx", "e.xlsx", nil, KindEmpty, "empty"},
		{"empty unknown", "e", nil, KindEmpty, "empty"},
		{"random bytes", "blob.bin", random, KindBinary, "cannot be previewed as text"},
		{"png image", "chart.png", png, KindBinary, "cannot be previewed as text"},
		{"binary named csv", "data.csv", random, KindBinary, ".csv extension does not match its content"},
		{"legacy xls", "old.xls", append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 512)...), KindBinary, "legacy .xls"},
		{"control characters without NUL", "ctl.dat", []byte(strings.Repeat("\x01\x02\x03abc", 100)), KindBinary, "cannot be previewed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPreview(t, writeFile(t, tt.file, tt.data), Options{})
			if p.Kind != tt.wantKind || !strings.Contains(p.Note, tt.wantNote) {
				t.Errorf("kind %q note %q, want %q with a note containing %q", p.Kind, p.Note, tt.wantKind, tt.wantNote)
			}
			if p.Size != int64(len(tt.data)) || p.Encoding != "" || len(p.Sheets)+len(p.Lines) != 0 {
				t.Errorf("size %d encoding %q sheets %d lines %d; want the size only", p.Size, p.Encoding, len(p.Sheets), len(p.Lines))
			}
			text := p.Compact(Options{})
			if !strings.Contains(text, "("+tt.wantKind+"; ") || !strings.Contains(text, tt.wantNote) {
				t.Errorf("compact preview does not say it plainly:\n%s", text)
			}
		})
	}
}

func TestPreviewErrors(t *testing.T) {
	dir := t.TempDir()
	missing := dir + "/nope.csv"
	_, err := File(context.Background(), missing, Options{})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: err = %v, want fs.ErrNotExist naming %s", err, missing)
	}
	_, err = File(context.Background(), dir, Options{})
	if !errors.Is(err, ErrNotRegularFile) || !strings.Contains(err.Error(), dir) {
		t.Errorf("directory: err = %v, want ErrNotRegularFile naming %s", err, dir)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = File(ctx, writeFile(t, "a.csv", []byte("a\n1\n")), Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
}

func TestKindByExtension(t *testing.T) {
	got := map[string]string{}
	for _, name := range []string{"a.csv", "a.TSV", "a.tab", "a.xlsx", "a.XLSM", "a.txt", "a.md", "a.json", "a.jsonl", "a.ndjson", "a.parquet", "a.PQ", "a"} {
		got[name] = kindByExtension(name)
	}
	want := map[string]string{
		"a.csv": KindCSV, "a.TSV": KindTSV, "a.tab": KindTSV, "a.xlsx": KindXLSX, "a.XLSM": KindXLSX,
		"a.txt": KindText, "a.md": KindText, "a.json": KindJSON, "a.jsonl": KindJSONL, "a.ndjson": KindJSONL,
		"a.parquet": KindParquet, "a.PQ": KindParquet, "a": "",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestTruncateRunes(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"longer than ten", 10, "longer th…"},
		{"北京上海广州深圳", 4, "北京上…"},
		{"two\nlines\tand tab", 40, "two lines and tab"},
		{"abc", 1, "…"},
		{"abc", 0, "abc"},
	}
	for _, tt := range tests {
		if got := truncateRunes(tt.in, tt.n); got != tt.want {
			t.Errorf("truncateRunes(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestPreviewOptionsDefaults(t *testing.T) {
	got := Options{}.withDefaults()
	want := Options{
		MaxRows: 20, MaxColumns: 20, MaxCellChars: 40, MaxLineChars: 200, MaxLines: 20,
		MaxChars: 4000, MaxTotalChars: 16000, TypeSampleRows: 200, ExactCountLimit: 64 << 20,
		MaxSheets: 20, MaxScanRows: 100000, JSONScanBytes: 2 << 20, StatsMaxBytes: 16 << 20, MaxUnzipBytes: 2 << 30,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got)\n%s", diff)
	}
	if got := (Options{MaxRows: 500}).withDefaults().TypeSampleRows; got != 500 {
		t.Errorf("TypeSampleRows = %d, want raised to MaxRows 500", got)
	}
}

// TestSameTables: options that differ only in what a preview shows, how
// it counts rows and what it calls the file find the same tables; those
// that change how columns are typed or which sheets are read do not.
func TestSameTables(t *testing.T) {
	base := Options{ExactCountLimit: 1}
	tests := []struct {
		name string
		o    Options
		same bool
	}{
		{"defaults", Options{}, true},
		{"what is shown", Options{MaxRows: 5, MaxColumns: 3, MaxCellChars: 1 << 10, MaxLineChars: 9, MaxLines: 2, MaxChars: 1 << 20, MaxTotalChars: 1 << 22}, true},
		{"counting and statistics", Options{ExactCountLimit: 1 << 40, StatsMaxBytes: 1}, true},
		{"counting with the statistics only", Options{CountWithStatsOnly: true}, true},
		{"named from a base", Options{BaseDir: "/w"}, true},
		{"more rows shown than typed", Options{MaxRows: 500}, false},
		{"typed from fewer rows", Options{TypeSampleRows: 50}, false},
		{"fewer sheets", Options{MaxSheets: 2}, false},
		{"JSON read less far", Options{JSONScanBytes: 1 << 10}, false},
	}
	for _, tt := range tests {
		if got := SameTables(base, tt.o); got != tt.same {
			t.Errorf("%s: SameTables = %v, want %v", tt.name, got, tt.same)
		}
	}
}

func TestPreviewNamesFilesRelativeToBaseDir(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "input"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "input", "a.csv")
	if err := os.WriteFile(p, []byte("x,y\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := All(context.Background(), []string{p, filepath.Join(root, "input", "missing.csv")}, Options{BaseDir: root})
	for _, want := range []string{"## input/a.csv (", "## input/missing.csv\nerror"} {
		if !strings.Contains(got, want) {
			t.Errorf("preview lacks %q:\n%s", want, got)
		}
	}
	if got := All(context.Background(), []string{p}, Options{}); !strings.HasPrefix(got, "## a.csv (") {
		t.Errorf("without BaseDir the base name is used:\n%s", got)
	}
}

// TestCountWithStatsOnly: with CountWithStatsOnly, a CSV too large for
// statistics over every row gets its row count estimated, with no pass
// over the file to count it; one small enough for them keeps its exact
// count; without it both are counted.
func TestCountWithStatsOnly(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("id,name,amount\n")
	for i := 0; b.Len() < 3<<20; i++ {
		fmt.Fprintf(&b, "%d,name %d,%d.%02d\n", i, i%97, i%1000, i%100)
	}
	rows := strings.Count(b.String(), "\n") - 1
	path := filepath.Join(dir, "big.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		opts  Options
		exact bool
	}{
		{"counted", Options{StatsMaxBytes: 2 << 20}, true},
		{"past the statistics, estimated", Options{StatsMaxBytes: 2 << 20, CountWithStatsOnly: true}, false},
		{"within the statistics, counted", Options{StatsMaxBytes: 4 << 20, CountWithStatsOnly: true}, true},
	} {
		p, err := File(context.Background(), path, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		sh := p.Sheets[0]
		if sh.RowCountExact != tt.exact || (tt.exact && sh.RowCount != rows) {
			t.Errorf("%s: %d rows (exact %v), want exact %v (%d rows)", tt.name, sh.RowCount, sh.RowCountExact, tt.exact, rows)
		}
	}
}
