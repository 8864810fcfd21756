package preview

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// writeParquet writes a table of groups × perGroup rows as Parquet, one
// row group per group: region (text, every 7th missing), day (timestamp),
// d (date), revenue (double), qty (int64), ok (bool), price (decimal 9,2)
// and st (a struct, nested), written with props.
func writeParquet(t *testing.T, path string, groups, perGroup int, props ...parquet.WriterProperty) {
	t.Helper()
	prim := func(name string, rep parquet.Repetition, lt schema.LogicalType, typ parquet.Type) schema.Node {
		return schema.MustPrimitive(schema.NewPrimitiveNodeLogical(name, rep, lt, typ, -1, -1))
	}
	req, opt := parquet.Repetitions.Required, parquet.Repetitions.Optional
	st := schema.MustGroup(schema.NewGroupNode("st", req, schema.FieldList{prim("a", req, nil, parquet.Types.Int32)}, -1))
	root := schema.MustGroup(schema.NewGroupNode("schema", req, schema.FieldList{
		prim("region", opt, schema.StringLogicalType{}, parquet.Types.ByteArray),
		prim("day", req, schema.NewTimestampLogicalType(false, schema.TimeUnitMicros), parquet.Types.Int64),
		prim("d", req, schema.DateLogicalType{}, parquet.Types.Int32),
		prim("revenue", req, nil, parquet.Types.Double),
		prim("qty", req, nil, parquet.Types.Int64),
		prim("ok", req, nil, parquet.Types.Boolean),
		prim("price", req, schema.NewDecimalLogicalType(9, 2), parquet.Types.Int32),
		st,
	}, -1))
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := file.NewParquetWriter(out, root, file.WithWriterProps(parquet.NewWriterProperties(props...)))
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	row := 0
	for range groups {
		rg := w.AppendRowGroup()
		n := perGroup
		var regions []parquet.ByteArray
		var regionDefs []int16
		var days, qtys []int64
		var ds, prices, as []int32
		var revenues []float64
		var oks []bool
		for i := row; i < row+n; i++ {
			if i%7 == 6 {
				regionDefs = append(regionDefs, 0)
			} else {
				regionDefs = append(regionDefs, 1)
				regions = append(regions, parquet.ByteArray("r"+string(rune('0'+i%4))))
			}
			day := start.AddDate(0, 0, i)
			days = append(days, day.UnixMicro())
			ds = append(ds, int32(day.Unix()/86400))
			revenues = append(revenues, float64(i*7%100)+0.5)
			qtys = append(qtys, int64(i*3))
			oks = append(oks, i%2 == 0)
			prices = append(prices, int32(i*125-300))
			as = append(as, int32(i))
		}
		row += n
		next := func() file.ColumnChunkWriter {
			cw, err := rg.NextColumn()
			if err != nil {
				t.Fatal(err)
			}
			return cw
		}
		check := func(_ int64, err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		cw := next()
		check(cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(regions, regionDefs, nil))
		cw.Close()
		cw = next()
		check(cw.(*file.Int64ColumnChunkWriter).WriteBatch(days, nil, nil))
		cw.Close()
		cw = next()
		check(cw.(*file.Int32ColumnChunkWriter).WriteBatch(ds, nil, nil))
		cw.Close()
		cw = next()
		check(cw.(*file.Float64ColumnChunkWriter).WriteBatch(revenues, nil, nil))
		cw.Close()
		cw = next()
		check(cw.(*file.Int64ColumnChunkWriter).WriteBatch(qtys, nil, nil))
		cw.Close()
		cw = next()
		check(cw.(*file.BooleanColumnChunkWriter).WriteBatch(oks, nil, nil))
		cw.Close()
		cw = next()
		check(cw.(*file.Int32ColumnChunkWriter).WriteBatch(prices, nil, nil))
		cw.Close()
		cw = next()
		check(cw.(*file.Int32ColumnChunkWriter).WriteBatch(as, nil, nil))
		cw.Close()
		if err := rg.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestParquetPreview(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sales.parquet")
	writeParquet(t, path, 2, 30)
	// Opened reads only from the open file: the name is gone by then.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	p, err := Opened(context.Background(), f, path, Options{MaxRows: 5})
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind != KindParquet || len(p.Sheets) != 1 {
		t.Fatalf("kind %q, %d sheets", p.Kind, len(p.Sheets))
	}
	s := p.Sheets[0]
	var cols []string
	for _, c := range s.Columns {
		cols = append(cols, c.Name+":"+c.Type)
	}
	want := []string{"region:text", "day:datetime", "d:date", "revenue:float", "qty:int", "ok:bool", "price:float"}
	if !slices.Equal(cols, want) {
		t.Errorf("columns %v, want %v", cols, want)
	}
	if s.RowCount != 60 || !s.RowCountExact {
		t.Errorf("row count %d exact %v, want 60 exact", s.RowCount, s.RowCountExact)
	}
	if len(s.Rows) != 5 {
		t.Fatalf("%d rows, want 5", len(s.Rows))
	}
	if got, want := s.Rows[1], []string{"r1", "2024-01-02 00:00:00", "2024-01-02", "7.5", "3", "false", "-1.75"}; !slices.Equal(got, want) {
		t.Errorf("row 1 %q, want %q", got, want)
	}
	if s.Rows[0][6] != "-3.00" {
		t.Errorf("price of row 0 %q, want -3.00", s.Rows[0][6])
	}
	// Statistics over every row, both row groups.
	if s.StatsRows != 60 || len(s.Stats) != len(s.Columns) {
		t.Fatalf("stats over %d rows for %d columns", s.StatsRows, len(s.Stats))
	}
	if st := s.Stats[0]; st.Missing != 8 || !slices.Equal(st.Values, []string{"r0", "r1", "r2", "r3"}) {
		t.Errorf("region stats %+v: want 8 missing and values r0..r3", st)
	}
	if st := s.Stats[4]; st.Min != "0" || st.Max != "177" {
		t.Errorf("qty min %q max %q, want 0 and 177 (the second row group's last)", st.Min, st.Max)
	}
	if st := s.Stats[1]; st.Max != "2024-02-29 00:00:00" {
		t.Errorf("day max %q", st.Max)
	}
	if !strings.Contains(s.Note, "nested columns not shown: st (struct)") {
		t.Errorf("note %q must name the nested column st", s.Note)
	}
	text := CompactAll([]Previewed{{Path: path, Preview: p}}, Options{MaxRows: 5})
	for _, w := range []string{"parquet", "60 rows × 7 columns", "revenue (float)", "r1 | 2024-01-02 00:00:00"} {
		if !strings.Contains(text, w) {
			t.Errorf("compact preview lacks %q:\n%s", w, text)
		}
	}
}

// TestParquetPreviewBounded: past StatsMaxBytes worth of cells the
// statistics stop at the first rows, while the count stays exact.
func TestParquetPreviewBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.parquet")
	writeParquet(t, path, 3, 1000)
	p, err := File(context.Background(), path, Options{MaxRows: 4, StatsMaxBytes: 8 * 7 * 100})
	if err != nil {
		t.Fatal(err)
	}
	s := p.Sheets[0]
	if s.RowCount != 3000 || !s.RowCountExact || s.StatsRows != 100 || len(s.Rows) != 4 {
		t.Errorf("rows %d exact %v, stats over %d, %d sample rows; want 3000 exact, 100, 4", s.RowCount, s.RowCountExact, s.StatsRows, len(s.Rows))
	}
}

func TestParquetPreviewCorrupt(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.parquet")
	writeParquet(t, good, 1, 40)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	footer := len(data) - 8
	hugeFooter := bytes.Clone(data)
	copy(hugeFooter[footer:], []byte{0xff, 0xff, 0xff, 0x7f})
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"truncated", data[:len(data)-100], "truncated"},
		{"not parquet", []byte("region,revenue\nr1,5\nr2,7\n"), "does not start with Parquet's magic"},
		{"tiny", []byte("PAR1"), "too small"},
		{"footer longer than the file", hugeFooter, "more than the file holds"},
		{"encrypted footer", append(bytes.Clone(data[:footer+4]), "PARE"...), "encrypted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".parquet")
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := File(context.Background(), path, Options{})
			if !errors.Is(err, ErrParquetUnreadable) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want ErrParquetUnreadable naming %s and saying %q, got %v", path, c.want, err)
			}
		})
	}
	// Every single damaged byte gives a preview or an error, never a
	// panic: a page, a level or the footer's thrift gone wrong.
	path := filepath.Join(dir, "damaged.parquet")
	for i := 4; i < footer; i += 7 {
		d := bytes.Clone(data)
		d[i] ^= 0xa5
		if err := os.WriteFile(path, d, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := File(context.Background(), path, Options{}); err != nil && !errors.Is(err, ErrParquetUnreadable) {
			t.Fatalf("byte %d damaged: %v", i, err)
		}
	}
}

// TestParquetMisnamed: Parquet content under another name is binary, with
// a hint to name it .parquet.
func TestParquetMisnamed(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "sales.parquet")
	writeParquet(t, src, 1, 10)
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sales.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := File(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind != KindBinary || !strings.Contains(p.Note, "name it .parquet") {
		t.Errorf("kind %q note %q", p.Kind, p.Note)
	}
}
