package preview

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// bombSize is what every bomb decodes to: past parquetMaxAlloc.
const bombSize = 400 << 20

// bombEncoder stands in for a codec while a test file is written: its
// page is the bomb, whatever the values.
type bombEncoder struct {
	compress.Codec
	bomb []byte
}

func (b bombEncoder) Encode(dst, _ []byte) []byte { return append(dst[:0], b.bomb...) }
func (b bombEncoder) EncodeLevel(dst, src []byte, _ int) []byte {
	return b.Encode(dst, src)
}

// repeated concatenates n copies of one small frame or member: zstd and
// gzip decode them all as one stream.
func repeated(frame []byte, n int) []byte { return bytes.Repeat(frame, n) }

func zstdBomb(t *testing.T) []byte {
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	return repeated(enc.EncodeAll(make([]byte, 4<<20), nil), bombSize/(4<<20))
}

func gzipBomb(t *testing.T) []byte {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if _, err := w.Write(make([]byte, 4<<20)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return repeated(b.Bytes(), bombSize/(4<<20))
}

func brotliBomb(t *testing.T) []byte {
	var b bytes.Buffer
	w := brotli.NewWriterLevel(&b, 1)
	chunk := make([]byte, 1<<20)
	for range bombSize / len(chunk) {
		if _, err := w.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	return b.Bytes()
}

// snappyBomb is a block whose length prefix claims 1 GiB: the decoder
// sizes its output from it before it decodes a byte.
func snappyBomb(*testing.T) []byte {
	b := binary.AppendUvarint(nil, 1<<30)
	return append(b, 0x0c, 'b', 'o', 'm', 'b') // a 4-byte literal
}

// writeBomb writes a one-row, one-column Parquet file whose only page is
// bomb, compressed with codec, and whose page header declares it holds
// 0 bytes (so the page reader's destination is empty).
func writeBomb(t *testing.T, path string, codec compress.Compression, bomb []byte) {
	t.Helper()
	orig, err := compress.GetCodec(codec)
	if err != nil {
		t.Fatal(err)
	}
	compress.RegisterCodec(codec, bombEncoder{orig, bomb})
	defer compress.RegisterCodec(codec, orig)
	root := schema.MustGroup(schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{
		schema.MustPrimitive(schema.NewPrimitiveNode("n", parquet.Repetitions.Required, parquet.Types.Int32, -1, -1)),
	}, -1))
	var out bytes.Buffer
	w := file.NewParquetWriter(&out, root, file.WithWriterProps(parquet.NewWriterProperties(
		parquet.WithCompression(codec), parquet.WithDictionaryDefault(false))))
	cw, err := w.AppendRowGroup().NextColumn()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cw.(*file.Int32ColumnChunkWriter).WriteBatch([]int32{7}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := out.Bytes()
	rd, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	cc, err := rd.MetaData().RowGroup(0).ColumnChunk(0)
	if err != nil {
		t.Fatal(err)
	}
	// The page header (thrift compact): field 1 type (0x15, DATA_PAGE 0),
	// field 2 uncompressed_page_size (0x15, zigzag varint: 4 bytes of
	// values, 0x08), which becomes 0.
	off := cc.DataPageOffset()
	if hdr := data[off : off+4]; !bytes.Equal(hdr, []byte{0x15, 0x00, 0x15, 0x08}) {
		t.Fatalf("page header starts % x, want 15 00 15 08", hdr)
	}
	data[off+3] = 0
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestParquetDecompressionBomb: a page that decodes to far more than its
// header declares (here 0 bytes, the codecs' own frames claiming 400 MiB
// to 1 GiB) is refused as the page is decoded: the preview is
// ErrParquetUnreadable naming the file and why, and the preview allocates
// nowhere near the bomb (arrow-go's codecs decoded it all, or allocated
// what the snappy block claimed).
func TestParquetDecompressionBomb(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		codec compress.Compression
		bomb  func(*testing.T) []byte
	}{
		{compress.Codecs.Snappy, snappyBomb},
		{compress.Codecs.Zstd, zstdBomb},
		{compress.Codecs.Gzip, gzipBomb},
		{compress.Codecs.Brotli, brotliBomb},
	} {
		name := strings.ToLower(c.codec.String())
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".parquet")
			writeBomb(t, path, c.codec, c.bomb(t))
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := File(context.Background(), path, Options{})
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrParquetUnreadable) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "decodes to more than the 0 bytes its header declares") {
				t.Errorf("want ErrParquetUnreadable naming %s and the page's size, got %v", path, err)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
				t.Errorf("the preview allocated %d MiB for a page declaring 0 bytes", grew>>20)
			}
		})
	}
}

// TestParquetCodecsRoundTrip: the bounded codecs decode what every codec
// encodes into a destination of its size, and refuse one a byte short.
func TestParquetCodecsRoundTrip(t *testing.T) {
	src := bytes.Repeat([]byte("region,revenue\nr1,5\n"), 5000)
	for _, codec := range []compress.Compression{compress.Codecs.Snappy, compress.Codecs.Zstd, compress.Codecs.Gzip, compress.Codecs.Brotli, compress.Codecs.Lz4Raw} {
		c, err := compress.GetCodec(codec)
		if err != nil {
			t.Fatal(err)
		}
		enc := c.Encode(make([]byte, c.CompressBound(int64(len(src)))), src)
		if got := c.Decode(make([]byte, len(src)), enc); !bytes.Equal(got, src) {
			t.Errorf("%s: decoded %d bytes, not the %d encoded", codec, len(got), len(src))
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: a destination a byte short was not refused", codec)
				}
			}()
			c.Decode(make([]byte, len(src)-1), enc)
		}()
	}
}

// TestParquetAllocatorCap: the reader's buffers together stay within
// parquetMaxAlloc, each one under it not being enough (three pages of
// 100 MiB are refused at the third), and freed bytes count no more.
func TestParquetAllocatorCap(t *testing.T) {
	a := &cappedAllocator{Allocator: memory.NewGoAllocator()}
	refused := func(f func()) (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg, _ = r.(string)
			}
		}()
		f()
		return ""
	}
	const page = 100 << 20
	first := a.Allocate(page)
	second := a.Allocate(page / 2)
	second = a.Reallocate(page, second)
	if msg := refused(func() { a.Allocate(page) }); !strings.Contains(msg, "300 MiB in all, more than Sift reads at once (256 MiB)") {
		t.Fatalf("a third 100 MiB page: %q", msg)
	}
	if msg := refused(func() { a.Reallocate(2*page, second) }); msg == "" {
		t.Fatal("growing a page to 200 MiB beside another of 100 MiB was not refused")
	}
	a.Free(first)
	if msg := refused(func() { a.Allocate(page) }); msg != "" {
		t.Fatalf("a page in the place of a freed one: %q", msg)
	}
	if msg := refused(func() { a.Allocate(parquetMaxAlloc + 1) }); !strings.Contains(msg, "a page claims 256 MiB") {
		t.Fatalf("one page over the cap: %q", msg)
	}
}

// TestParquetCompressedPreview: a file written with each codec previews
// as the uncompressed one does, through the bounded decoders.
func TestParquetCompressedPreview(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.parquet")
	writeParquet(t, plain, 3, 1000, parquet.WithCompression(compress.Codecs.Uncompressed))
	want, err := File(context.Background(), plain, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, codec := range []compress.Compression{compress.Codecs.Snappy, compress.Codecs.Zstd, compress.Codecs.Gzip, compress.Codecs.Brotli, compress.Codecs.Lz4Raw} {
		path := filepath.Join(dir, strings.ToLower(codec.String())+".parquet")
		writeParquet(t, path, 3, 1000, parquet.WithCompression(codec), parquet.WithDictionaryDefault(codec != compress.Codecs.Gzip))
		got, err := File(context.Background(), path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", codec, err)
		}
		got.Sheets[0].Name = want.Sheets[0].Name
		if !reflect.DeepEqual(got.Sheets, want.Sheets) {
			t.Errorf("%s: preview differs from the uncompressed file's:\n%+v\nwant\n%+v", codec, got.Sheets[0], want.Sheets[0])
		}
	}
}
