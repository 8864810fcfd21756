package preview

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeFile writes data to name in a fresh temporary directory and returns
// its path.
func writeFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func mustPreview(t testing.TB, path string, opts Options) *FilePreview {
	t.Helper()
	p, err := File(context.Background(), path, opts)
	if err != nil {
		t.Fatalf("File(%s): %v", path, err)
	}
	return p
}

func TestPreviewCSVEncodings(t *testing.T) {
	wantSheet := SheetPreview{
		Name:          "cities.csv",
		Columns:       []Column{{"城市", ColumnText}, {"人口", ColumnInt}, {"日期", ColumnDate}},
		Rows:          [][]string{{"北京", "21540000", "2024-01-31"}, {"上海", "24870000", "2024-02-29"}, {"广州", "18680000", "2024-03-31"}},
		RowCount:      3,
		RowCountExact: true,
	}
	tests := []struct {
		enc string
		bom bool
	}{
		{EncodingUTF8, false},
		{EncodingUTF8BOM, true},
		{EncodingGB18030, false},
		{EncodingUTF16LE, true},
		{EncodingUTF16BE, true},
		{EncodingUTF16LE, false},
		{EncodingUTF16BE, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s bom=%v", tt.enc, tt.bom), func(t *testing.T) {
			path := writeFile(t, "cities.csv", encodeText(t, chineseCSV, tt.enc, tt.bom))
			p := mustPreview(t, path, Options{})
			if diff := cmp.Diff([]string{KindCSV, tt.enc, ","}, []string{p.Kind, p.Encoding, p.Delimiter}); diff != "" {
				t.Errorf("kind, encoding, delimiter (-want +got)\n%s", diff)
			}
			if p.BOM != tt.bom {
				t.Errorf("BOM = %v, want %v", p.BOM, tt.bom)
			}
			if codec := pythonCodec(tt.enc, tt.bom); !strings.Contains(p.Compact(Options{}), codec) {
				t.Errorf("compact preview does not name the Python codec %q", codec)
			}
			if diff := cmp.Diff([]SheetPreview{wantSheet}, p.Sheets, ignoreStats); diff != "" {
				t.Errorf("sheets (-want +got)\n%s", diff)
			}
		})
	}
}

func TestPreviewCSVDelimiters(t *testing.T) {
	tests := []struct {
		name, file, text, want string
	}{
		{"comma", "a.csv", "id,name,score\n1,Ann,3.5\n2,Bob,4\n", ","},
		{"tab", "a.tsv", "id\tname\tscore\n1\tAnn\t3.5\n2\tBob\t4\n", "\t"},
		{"tab in a .csv", "a.csv", "id\tname\tscore\n1\tAnn\t3.5\n2\tBob\t4\n", "\t"},
		{"semicolon with decimal commas", "a.csv", "id;name;score\n1;Ann;3,5\n2;Bob;4,25\n", ";"},
		{"pipe", "a.csv", "id|name|score\n1|Ann|3.5\n2|Bob|4\n", "|"},
		{"comma inside quotes is not a delimiter", "a.csv", "id;name;score\n1;\"Ann, Jr\";3.5\n2;\"Bob, Sr\";4\n", ";"},
		{"one column keeps the extension's", "a.tsv", "name\nAnn\nBob\n", "\t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPreview(t, writeFile(t, tt.file, []byte(tt.text)), Options{})
			if p.Delimiter != tt.want {
				t.Fatalf("delimiter = %q, want %q", p.Delimiter, tt.want)
			}
			if tt.want == "\t" && len(p.Sheets[0].Columns) == 1 {
				return
			}
			want := []Column{{"id", ColumnInt}, {"name", ColumnText}, {"score", ColumnFloat}}
			if tt.want == ";" && strings.Contains(tt.text, "3,5") {
				// Decimal commas read as text: the preview does not guess locales.
				want[2].Type = ColumnText
			}
			if diff := cmp.Diff(want, p.Sheets[0].Columns); diff != "" {
				t.Errorf("columns (-want +got)\n%s", diff)
			}
			if got := p.Sheets[0].RowCount; got != 2 {
				t.Errorf("row count = %d, want 2", got)
			}
		})
	}
}

func TestPreviewCSVQuotedNewlinesAndBlankLines(t *testing.T) {
	text := "id,comment\n1,\"line one\nline two\"\n\n2,\"say \"\"hi\"\"\"\n3,plain\r\n"
	p := mustPreview(t, writeFile(t, "q.csv", []byte(text)), Options{})
	want := SheetPreview{
		Name:          "q.csv",
		Columns:       []Column{{"id", ColumnInt}, {"comment", ColumnText}},
		Rows:          [][]string{{"1", "line one line two"}, {"2", `say "hi"`}, {"3", "plain"}},
		RowCount:      3,
		RowCountExact: true,
	}
	if diff := cmp.Diff([]SheetPreview{want}, p.Sheets, ignoreStats); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestPreviewCSVHeaderless(t *testing.T) {
	p := mustPreview(t, writeFile(t, "n.csv", []byte("1,2.5,2024-01-01\n2,3.5,2024-01-02\n")), Options{})
	s := p.Sheets[0]
	want := []Column{{"0", ColumnInt}, {"1", ColumnFloat}, {"2", ColumnDate}}
	if diff := cmp.Diff(want, s.Columns); diff != "" {
		t.Errorf("columns (-want +got)\n%s", diff)
	}
	if s.RowCount != 2 || !strings.Contains(s.Note, "header=None") {
		t.Errorf("row count %d, note %q: want 2 and a header=None note", s.RowCount, s.Note)
	}
}

func TestPreviewCSVBlankAndDuplicateHeaders(t *testing.T) {
	p := mustPreview(t, writeFile(t, "d.csv", []byte("a,,a,a\n1,2,3,4\n")), Options{})
	var names []string
	for _, c := range p.Sheets[0].Columns {
		names = append(names, c.Name)
	}
	if diff := cmp.Diff([]string{"a", "Unnamed: 1", "a.1", "a.2"}, names); diff != "" {
		t.Errorf("names (-want +got)\n%s", diff)
	}
}

// writeCSV writes a CSV of rows data rows (plus a header) with a quoted
// multi-line field every 100 rows, and returns its path.
func writeCSV(t testing.TB, dir string, rows int) string {
	t.Helper()
	path := filepath.Join(dir, "big.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintln(w, "id,date,region,amount,ok,comment")
	regions := []string{"North", "South", "East", "West"}
	for i := range rows {
		comment := "plain"
		if i%100 == 0 {
			comment = "\"two\nlines, quoted\""
		}
		fmt.Fprintf(w, "%d,2024-%02d-%02d,%s,%d.%02d,%v,%s\n", i, i%12+1, i%28+1, regions[i%4], i%1000, i%100, i%2 == 0, comment)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPreviewCSVRowCount(t *testing.T) {
	const rows = 60000 // about 3 MiB: more than the head that is sampled
	path := writeCSV(t, t.TempDir(), rows)
	info, _ := os.Stat(path)
	if info.Size() <= previewHeadBytes {
		t.Fatalf("test file is %d bytes; it must exceed the %d-byte head", info.Size(), previewHeadBytes)
	}
	t.Run("exact below the limit", func(t *testing.T) {
		s := mustPreview(t, path, Options{}).Sheets[0]
		if s.RowCount != rows || !s.RowCountExact {
			t.Errorf("row count = %d exact=%v, want %d exact", s.RowCount, s.RowCountExact, rows)
		}
		want := []Column{{"id", ColumnInt}, {"date", ColumnDate}, {"region", ColumnText}, {"amount", ColumnFloat}, {"ok", ColumnBool}, {"comment", ColumnText}}
		if diff := cmp.Diff(want, s.Columns); diff != "" {
			t.Errorf("columns (-want +got)\n%s", diff)
		}
		if len(s.Rows) != 20 {
			t.Errorf("kept %d rows, want 20", len(s.Rows))
		}
	})
	t.Run("estimated above the limit", func(t *testing.T) {
		s := mustPreview(t, path, Options{ExactCountLimit: 1 << 20}).Sheets[0]
		if s.RowCountExact || s.Note == "" {
			t.Errorf("exact=%v note=%q, want an estimate with a note", s.RowCountExact, s.Note)
		}
		if lo, hi := rows*95/100, rows*105/100; s.RowCount < lo || s.RowCount > hi {
			t.Errorf("estimated %d rows, want within 5%% of %d", s.RowCount, rows)
		}
	})
}

func TestRecordCounterMatchesEncodingCSV(t *testing.T) {
	tests := []string{
		"",
		"a,b\n1,2\n",
		"a,b\n1,2",
		"a,b\r\n1,2\r\n\r\n\r\n3,4",
		"a\n\"x\ny\"\n\"\"\"q\"\"\"\nlast",
		"a,b\n1,\"multi\nline, with \"\"quotes\"\"\n\nand blank\"\n2,3\n",
		"a,b\n5\" screen,2\n3,4\n",
		"\n\n a\n",
	}
	for _, text := range tests {
		r := csv.NewReader(strings.NewReader(text))
		r.LazyQuotes = true
		r.FieldsPerRecord = -1
		recs, err := r.ReadAll()
		if err != nil {
			t.Fatalf("csv %q: %v", text, err)
		}
		for _, chunk := range []int{1, 3, 1 << 10} {
			c := newRecordCounter(',')
			for i := 0; i < len(text); i += chunk {
				c.write([]byte(text[i:min(i+chunk, len(text))]))
			}
			if got := c.finish(); got != len(recs) {
				t.Errorf("%q in %d-byte chunks: counted %d records, encoding/csv reads %d", text, chunk, got, len(recs))
			}
		}
	}
}

func TestEstimateCount(t *testing.T) {
	tests := []struct {
		size, sampled int64
		records, want int
	}{
		{1000, 100, 10, 100},
		{200 << 20, 1 << 20, 12345, 2470000},
		{10, 0, 5, 0},
	}
	for _, tt := range tests {
		if got := estimateCount(tt.size, tt.sampled, tt.records); got != tt.want {
			t.Errorf("estimateCount(%d, %d, %d) = %d, want %d", tt.size, tt.sampled, tt.records, got, tt.want)
		}
	}
}

// BenchmarkPreviewCSV200MB previews a ~200 MB CSV. The preview must read
// only its head and tail, so time stays far under a second and the heap
// grows by far less than the file: the benchmark fails if a preview leaves
// the live heap more than 32 MiB above where it started, or if its
// allocations total more than that.
func BenchmarkPreviewCSV200MB(b *testing.B) {
	const rows = 4_800_000 // about 205 MB
	path := writeCSV(b, b.TempDir(), rows)
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("file: %s (%d bytes)", formatSize(info.Size()), info.Size())
	const heapBound = 32 << 20
	ctx := context.Background()
	var before, after runtime.MemStats
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		p, err := File(ctx, path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		text := p.Compact(Options{})
		b.StopTimer()
		runtime.ReadMemStats(&after)
		if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > heapBound {
			b.Fatalf("heap grew by %s during one preview, want under %s", formatSize(grew), formatSize(heapBound))
		}
		if total := after.TotalAlloc - before.TotalAlloc; total > heapBound {
			b.Fatalf("one preview allocated %s in total, want under %s", formatSize(int64(total)), formatSize(heapBound))
		}
		if s := p.Sheets[0]; s.RowCount < rows*95/100 || s.RowCount > rows*105/100 || s.RowCountExact {
			b.Fatalf("row count %d exact=%v, want an estimate within 5%% of %d", s.RowCount, s.RowCountExact, rows)
		}
		if n := runeLen(text); n > 4000 {
			b.Fatalf("compact preview is %d chars, want at most 4000", n)
		}
		b.StartTimer()
	}
}

func TestPreviewCSVRowCountEncodings(t *testing.T) {
	const rows = 80000 // over 1 MiB in each encoding
	var b strings.Builder
	b.WriteString("编号,城市,金额\n")
	cities := []string{"北京", "上海", "广州", "深圳"}
	for i := range rows {
		fmt.Fprintf(&b, "%d,%s,%d.5\n", i, cities[i%4], i%997)
	}
	tests := []struct {
		enc string
		bom bool
	}{
		{EncodingGB18030, false},
		{EncodingUTF16LE, true},
		{EncodingUTF16BE, false},
	}
	for _, tt := range tests {
		t.Run(tt.enc, func(t *testing.T) {
			data := encodeText(t, b.String(), tt.enc, tt.bom)
			if len(data) <= previewHeadBytes {
				t.Fatalf("test file is %d bytes; it must exceed the sampled head", len(data))
			}
			path := writeFile(t, "cn.csv", data)
			p := mustPreview(t, path, Options{})
			s := p.Sheets[0]
			if p.Encoding != tt.enc || s.RowCount != rows || !s.RowCountExact {
				t.Errorf("streamed: encoding %q, %d rows exact=%v; want %q, %d exact", p.Encoding, s.RowCount, s.RowCountExact, tt.enc, rows)
			}
			if diff := cmp.Diff([]Column{{"编号", ColumnInt}, {"城市", ColumnText}, {"金额", ColumnFloat}}, s.Columns); diff != "" {
				t.Errorf("columns (-want +got)\n%s", diff)
			}
			s = mustPreview(t, path, Options{ExactCountLimit: 1 << 20}).Sheets[0]
			if s.RowCountExact || s.RowCount < rows*95/100 || s.RowCount > rows*105/100 {
				t.Errorf("estimated: %d rows exact=%v, want about %d, not exact", s.RowCount, s.RowCountExact, rows)
			}
		})
	}
}

// BenchmarkPreviewCSVExactCount previews a ~60 MB CSV, just under the
// exact-count limit, so the whole file is streamed once to count its rows.
func BenchmarkPreviewCSVExactCount(b *testing.B) {
	const rows = 1_400_000 // about 60 MB
	path := writeCSV(b, b.TempDir(), rows)
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	if info.Size() >= 64<<20 {
		b.Fatalf("file is %d bytes; it must stay under the 64 MiB exact-count limit", info.Size())
	}
	b.SetBytes(info.Size())
	b.ReportAllocs()
	for b.Loop() {
		p, err := File(context.Background(), path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if s := p.Sheets[0]; s.RowCount != rows || !s.RowCountExact {
			b.Fatalf("row count %d exact=%v, want %d exact", s.RowCount, s.RowCountExact, rows)
		}
	}
}
