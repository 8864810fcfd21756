package preview

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// Parquet is read with Apache Arrow's pure-Go reader (arrow-go, already in
// the module graph through duckdb-go): through the open *os.File, so a
// session's file is read as it was opened, and with no cgo, so this
// low-level package imports nothing of tools/ or DuckDB.

// ErrParquetUnreadable is wrapped by File when a Parquet file cannot be
// read: it is truncated, corrupt, encrypted or not Parquet at all.
var ErrParquetUnreadable = errors.New("the Parquet file could not be read; it may be truncated, corrupt or encrypted (write it again, or export the data as CSV)")

// Bounds of a Parquet preview, whatever the file claims.
const (
	// parquetMaxFooter is the largest footer (the schema and row-group
	// metadata) read; real ones are kilobytes to a few MiB.
	parquetMaxFooter = 64 << 20
	// parquetMaxAlloc is the largest single buffer the reader may take:
	// a page whose header claims more is refused, not allocated.
	parquetMaxAlloc = 256 << 20
	// parquetBatch is how many values are decoded at a time.
	parquetBatch = 1024
	// parquetCellBytes is the bytes of delimited text a cell stands for
	// when StatsMaxBytes is turned into a number of cells to gather
	// statistics from.
	parquetCellBytes = 8
)

var parquetMagic = []byte("PAR1")

// looksParquet reports whether head starts as a Parquet file does.
func looksParquet(head []byte) bool { return bytes.HasPrefix(head, parquetMagic) }

// previewParquet fills p from a Parquet file: the columns of its schema
// with their types, the exact row count from its footer, the first
// MaxRows rows, and column statistics over the first rows (every row when
// the rows times the columns fit StatsMaxBytes/parquetCellBytes cells).
// It reads the footer and, column by column, only the pages those rows
// are in, so time and memory stay bounded whatever the file's size. A
// file the reader cannot make sense of is an error wrapping
// ErrParquetUnreadable, never a panic.
func previewParquet(ctx context.Context, p *FilePreview, f *os.File, opts Options) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrParquetUnreadable, r)
		}
	}()
	if err := checkParquetFrame(f, p.Size); err != nil {
		return fmt.Errorf("%w: %s", ErrParquetUnreadable, err)
	}
	alloc := &cappedAllocator{Allocator: memory.NewGoAllocator()}
	props := parquet.NewReaderProperties(alloc)
	props.BufferedStreamEnabled = true
	props.BufferSize = 64 << 10
	rd, err := file.NewParquetReader(io.NewSectionReader(f, 0, p.Size), file.WithReadProps(props))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrParquetUnreadable, err)
	}
	md := rd.MetaData()
	if md.NumRows < 0 || md.NumRows > math.MaxInt32*int64(max(rd.NumRowGroups(), 1)) {
		return fmt.Errorf("%w: the footer claims %d rows", ErrParquetUnreadable, md.NumRows)
	}
	sc := md.Schema
	root := sc.Root()
	sheet := SheetPreview{Name: p.Name, RowCount: int(md.NumRows), RowCountExact: true}
	// Each top-level primitive field is a column, as DuckDB's read_parquet
	// shows it, read from its leaf; a nested one (struct, list, map) is
	// named in the note only: a preview has no cells for it, and the
	// built-in analyses do not group or sum by it.
	leafOf := map[schema.Node]int{}
	for i := 0; i < sc.NumColumns(); i++ {
		if c := sc.Column(i); c.MaxRepetitionLevel() == 0 && c.SchemaNode().Parent() == root {
			leafOf[c.SchemaNode()] = i
		}
	}
	var nested, leaves []int
	for j := range root.NumFields() {
		field := root.Field(j)
		leaf, ok := leafOf[field]
		if !ok {
			nested = append(nested, j)
			continue
		}
		leaves = append(leaves, leaf)
		sheet.Columns = append(sheet.Columns, Column{Name: truncateRunes(field.Name(), opts.MaxCellChars), Type: parquetColumnType(sc.Column(leaf))})
	}
	cols := max(len(sheet.Columns), 1)
	statsRows := min(sheet.RowCount, max(opts.MaxRows, int(opts.StatsMaxBytes/parquetCellBytes)/cols))
	sampleRows := min(sheet.RowCount, opts.MaxRows)
	sheet.Rows = make([][]string, sampleRows)
	for i := range sheet.Rows {
		sheet.Rows[i] = make([]string, len(sheet.Columns))
	}
	acc := newStatsAccumulator(sheet.Columns)
	for j, leaf := range leaves {
		n := 0
		err := readParquetColumn(ctx, rd, alloc, leaf, statsRows, func(v string) {
			if n < sampleRows {
				sheet.Rows[n][j] = truncateRunes(v, opts.MaxCellChars)
			}
			acc.cols[j].add(strings.TrimSpace(v))
			n++
		})
		if err == nil && n < statsRows {
			err = fmt.Errorf("the footer claims %d rows but its data ends after %d", sheet.RowCount, n)
		}
		if err != nil {
			return fmt.Errorf("%w: column %q: %v", ErrParquetUnreadable, sc.Column(leaf).Name(), err)
		}
	}
	acc.rows = statsRows
	sheet.Stats, sheet.StatsRows = acc.result(), statsRows
	notes := []string{"Parquet: row count from the file's footer, column types from its schema"}
	if len(nested) > 0 {
		var names []string
		for _, j := range nested {
			f := root.Field(j)
			names = append(names, fmt.Sprintf("%s (%s)", truncateRunes(f.Name(), opts.MaxCellChars), nestedKind(f)))
		}
		notes = append(notes, fmt.Sprintf("nested columns not shown: %s", strings.Join(names, ", ")))
	}
	sheet.Note = strings.Join(notes, "; ")
	p.Sheets = []SheetPreview{sheet}
	return nil
}

// nestedKind names the shape of a nested top-level field.
func nestedKind(n schema.Node) string {
	switch {
	case n.RepetitionType() == parquet.Repetitions.Repeated:
		return "repeated"
	case n.LogicalType() != nil && n.LogicalType().Equals(schema.ListLogicalType{}):
		return "list"
	case n.LogicalType() != nil && n.LogicalType().Equals(schema.MapLogicalType{}):
		return "map"
	}
	return "struct"
}

// checkParquetFrame checks what the reader would otherwise trust: the
// magic bytes at both ends and a footer length that fits the file and
// parquetMaxFooter.
func checkParquetFrame(f *os.File, size int64) error {
	if size < 12 {
		return fmt.Errorf("%d bytes is too small for a Parquet file", size)
	}
	var head, tail [8]byte
	if _, err := f.ReadAt(head[:4], 0); err != nil {
		return fmt.Errorf("read its head: %v", err)
	}
	if _, err := f.ReadAt(tail[:], size-8); err != nil {
		return fmt.Errorf("read its footer: %v", err)
	}
	switch {
	case !bytes.Equal(head[:4], parquetMagic):
		return errors.New("it does not start with Parquet's magic bytes (PAR1): it is another kind of file")
	case bytes.Equal(tail[4:], []byte("PARE")):
		return errors.New("its footer is encrypted, and Sift does not decrypt Parquet")
	case !bytes.Equal(tail[4:], parquetMagic):
		return errors.New("it does not end with Parquet's magic bytes (PAR1): it is truncated or corrupt")
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	switch {
	case n+12 > size:
		return fmt.Errorf("its footer claims %d bytes, more than the file holds: it is truncated or corrupt", n)
	case n > parquetMaxFooter:
		return fmt.Errorf("its footer claims %d MiB, more than Sift previews (%d MiB)", n>>20, parquetMaxFooter>>20)
	}
	return nil
}

// cappedAllocator refuses any buffer that would take the reader's
// outstanding bytes (allocated, not yet freed) past parquetMaxAlloc: a
// page header can claim up to 2 GiB, and a column chunk's reader holds
// three buffers sized from its headers (the compressed page, the
// dictionary, the data page). previewParquet turns the panic into an
// error, and starts the count again at each column chunk: the reader of
// the one before is dropped (its buffers are garbage, arrow-go's Go
// allocator frees nothing itself).
type cappedAllocator struct {
	memory.Allocator
	used atomic.Int64
}

func (a *cappedAllocator) Allocate(size int) []byte {
	a.charge(size)
	return a.Allocator.Allocate(size)
}

func (a *cappedAllocator) Reallocate(size int, b []byte) []byte {
	a.charge(size - len(b))
	return a.Allocator.Reallocate(size, b)
}

func (a *cappedAllocator) Free(b []byte) {
	a.used.Add(-int64(len(b)))
	a.Allocator.Free(b)
}

func (a *cappedAllocator) charge(size int) {
	if size > parquetMaxAlloc {
		panic(fmt.Sprintf("a page claims %d MiB, more than Sift reads at once (%d MiB)", size>>20, parquetMaxAlloc>>20))
	}
	if used := a.used.Add(int64(size)); used > parquetMaxAlloc {
		a.used.Add(-int64(size))
		panic(fmt.Sprintf("a column chunk's pages claim %d MiB in all, more than Sift reads at once (%d MiB)", used>>20, parquetMaxAlloc>>20))
	}
}

// parquetColumnType is the preview type of a primitive column.
func parquetColumnType(c *schema.Column) string {
	switch c.LogicalType().(type) {
	case schema.DateLogicalType:
		return ColumnDate
	case schema.TimestampLogicalType:
		return ColumnDatetime
	case schema.DecimalLogicalType, schema.Float16LogicalType:
		return ColumnFloat
	case schema.NullLogicalType:
		return ColumnEmpty
	case schema.TimeLogicalType, schema.StringLogicalType, schema.EnumLogicalType,
		schema.JSONLogicalType, schema.BSONLogicalType, schema.UUIDLogicalType:
		return ColumnText
	}
	switch c.PhysicalType() {
	case parquet.Types.Boolean:
		return ColumnBool
	case parquet.Types.Int32, parquet.Types.Int64:
		return ColumnInt
	case parquet.Types.Float, parquet.Types.Double:
		return ColumnFloat
	case parquet.Types.Int96:
		return ColumnDatetime
	}
	return ColumnText
}

// batchReader is a typed column chunk reader of values of type T.
type batchReader[T any] interface {
	ReadBatch(batchSize int64, values []T, defLvls, repLvls []int16) (int64, int, error)
}

// readParquetColumn calls emit with the text of the first limit values
// of leaf column i ("" for a null), row group after row group.
func readParquetColumn(ctx context.Context, rd *file.Reader, alloc *cappedAllocator, i, limit int, emit func(string)) error {
	c := rd.MetaData().Schema.Column(i)
	maxDef := c.MaxDefinitionLevel()
	for g := 0; g < rd.NumRowGroups() && limit > 0; g++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		alloc.used.Store(0) // the chunk before's reader is dropped
		cr, err := rd.RowGroup(g).Column(i)
		if err != nil {
			return err
		}
		var n int
		switch r := cr.(type) {
		case *file.BooleanColumnChunkReader:
			n, err = readBatches(ctx, r, limit, maxDef, strconv.FormatBool, emit)
		case *file.Int32ColumnChunkReader:
			n, err = readBatches(ctx, r, limit, maxDef, int32Formatter(c), emit)
		case *file.Int64ColumnChunkReader:
			n, err = readBatches(ctx, r, limit, maxDef, int64Formatter(c), emit)
		case *file.Int96ColumnChunkReader:
			n, err = readBatches(ctx, r, limit, maxDef, func(v parquet.Int96) string { return formatTimestamp(v.ToTime(), false) }, emit)
		case *file.Float32ColumnChunkReader:
			n, err = readBatches(ctx, r, limit, maxDef, func(v float32) string { return formatFloat(float64(v), 32) }, emit)
		case *file.Float64ColumnChunkReader:
			n, err = readBatches(ctx, r, limit, maxDef, func(v float64) string { return formatFloat(v, 64) }, emit)
		case *file.ByteArrayColumnChunkReader:
			n, err = readBatches(ctx, r, limit, maxDef, func(v parquet.ByteArray) string { return formatBytes(c, v) }, emit)
		case *file.FixedLenByteArrayColumnChunkReader:
			n, err = readBatches(ctx, r, limit, maxDef, func(v parquet.FixedLenByteArray) string { return formatBytes(c, v) }, emit)
		default:
			return fmt.Errorf("unsupported physical type %s", c.PhysicalType())
		}
		if err != nil {
			return err
		}
		limit -= n
	}
	return nil
}

// readBatches reads up to limit rows of a flat column from r, nulls as "".
func readBatches[T any](ctx context.Context, r batchReader[T], limit int, maxDef int16, format func(T) string, emit func(string)) (int, error) {
	values := make([]T, min(limit, parquetBatch))
	defs := make([]int16, len(values))
	read := 0
	for read < limit {
		if err := ctx.Err(); err != nil {
			return read, err
		}
		want := min(limit-read, len(values))
		levels, got, err := r.ReadBatch(int64(want), values[:want], defs[:want], nil)
		if err != nil {
			return read, err
		}
		if levels == 0 {
			break
		}
		if levels > int64(want) || got > int(levels) {
			return read, fmt.Errorf("the reader returned %d levels and %d values for %d asked", levels, got, want)
		}
		v := 0
		for k := range int(levels) {
			if maxDef > 0 && defs[k] < maxDef {
				emit("")
				continue
			}
			if v >= got {
				return read, errors.New("fewer values than the definition levels say")
			}
			emit(format(values[v]))
			v++
		}
		read += int(levels)
	}
	return read, nil
}

// int32Formatter formats INT32 values by their logical type: dates,
// times of day, decimals, unsigned and plain integers.
func int32Formatter(c *schema.Column) func(int32) string {
	switch lt := c.LogicalType().(type) {
	case schema.DateLogicalType:
		return func(v int32) string { return time.Unix(int64(v)*86400, 0).UTC().Format("2006-01-02") }
	case schema.DecimalLogicalType:
		return func(v int32) string { return formatDecimal(big.NewInt(int64(v)), int(lt.Scale())) }
	case schema.TimeLogicalType:
		return func(v int32) string { return formatTimeOfDay(time.Duration(v) * unitDuration(lt.TimeUnit())) }
	case schema.IntLogicalType:
		if !lt.IsSigned() {
			return func(v int32) string { return strconv.FormatUint(uint64(uint32(v)), 10) }
		}
	}
	return func(v int32) string { return strconv.FormatInt(int64(v), 10) }
}

// int64Formatter formats INT64 values by their logical type.
func int64Formatter(c *schema.Column) func(int64) string {
	switch lt := c.LogicalType().(type) {
	case schema.TimestampLogicalType:
		unit := unitDuration(lt.TimeUnit())
		return func(v int64) string { return formatTimestamp(unixIn(v, unit), lt.IsAdjustedToUTC()) }
	case schema.DecimalLogicalType:
		return func(v int64) string { return formatDecimal(big.NewInt(v), int(lt.Scale())) }
	case schema.TimeLogicalType:
		return func(v int64) string { return formatTimeOfDay(time.Duration(v) * unitDuration(lt.TimeUnit())) }
	case schema.IntLogicalType:
		if !lt.IsSigned() {
			return func(v int64) string { return strconv.FormatUint(uint64(v), 10) }
		}
	}
	return func(v int64) string { return strconv.FormatInt(v, 10) }
}

// unitDuration is one tick of a Parquet time unit.
func unitDuration(u schema.TimeUnitType) time.Duration {
	switch u {
	case schema.TimeUnitMillis:
		return time.Millisecond
	case schema.TimeUnitNanos:
		return time.Nanosecond
	}
	return time.Microsecond
}

// unixIn is the time v ticks of unit after the Unix epoch.
func unixIn(v int64, unit time.Duration) time.Time {
	per := int64(time.Second / unit)
	sec, frac := v/per, v%per
	if frac < 0 {
		sec, frac = sec-1, frac+per
	}
	return time.Unix(sec, frac*int64(unit)).UTC()
}

// formatTimestamp writes a timestamp as DuckDB and pandas print one (and
// the preview's datetime layouts read): "2024-01-31 08:00:00", with the
// fraction when there is one, in RFC 3339 when it is an instant in UTC.
func formatTimestamp(t time.Time, utc bool) string {
	if utc {
		return t.UTC().Format(time.RFC3339Nano)
	}
	return t.UTC().Format("2006-01-02 15:04:05.999999999")
}

// formatTimeOfDay writes a time of day as 15:04:05 with its fraction.
func formatTimeOfDay(d time.Duration) string {
	return time.Unix(0, int64(d)).UTC().Format("15:04:05.999999999")
}

// formatFloat writes a float as DuckDB and pandas print one: its
// shortest exact form, a whole number with ".0", without an exponent in
// the ordinary range.
func formatFloat(x float64, bits int) string {
	if a := math.Abs(x); a != 0 && (a < 1e-6 || a >= 1e21) || math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, bits)
	}
	s := strconv.FormatFloat(x, 'f', -1, bits)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// formatDecimal writes unscaled × 10^-scale exactly (in E notation for a
// scale no decimal has, which only a corrupt schema declares).
func formatDecimal(unscaled *big.Int, scale int) string {
	s := new(big.Int).Abs(unscaled).String()
	if scale > 100 {
		return unscaled.String() + "e-" + strconv.Itoa(scale)
	}
	if scale > 0 {
		if len(s) <= scale {
			s = strings.Repeat("0", scale-len(s)+1) + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if unscaled.Sign() < 0 {
		s = "-" + s
	}
	return s
}

// formatBytes writes a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value by its
// logical type: a decimal's number, a UUID, a half float, an interval, or
// the text itself (bytes that are not UTF-8 in hex).
func formatBytes(c *schema.Column, b []byte) string {
	switch lt := c.LogicalType().(type) {
	case schema.DecimalLogicalType:
		n := new(big.Int).SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 {
			n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
		return formatDecimal(n, int(lt.Scale()))
	case schema.UUIDLogicalType:
		if len(b) == 16 {
			h := hex.EncodeToString(b)
			return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
		}
	case schema.Float16LogicalType:
		if len(b) == 2 {
			return formatFloat(float64(float16.FromBits(binary.LittleEndian.Uint16(b)).Float32()), 32)
		}
	}
	if c.ConvertedType() == schema.ConvertedTypes.Interval && len(b) == 12 {
		return fmt.Sprintf("%d months %d days %d ms", binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:]))
	}
	if utf8.Valid(b) {
		return string(b)
	}
	return `\x` + hex.EncodeToString(b[:min(len(b), 32)])
}
