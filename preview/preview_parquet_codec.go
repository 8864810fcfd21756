package preview

import (
	"bytes"
	"fmt"
	"io"

	"github.com/andybalholm/brotli"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/golang/snappy"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// A page's codec is given a destination of the size the page header
// declares (at most parquetMaxAlloc, through cappedAllocator), but
// arrow-go's own codecs do not stop there: snappy allocates whatever its
// block's length prefix claims (up to 4 GiB), zstd appends past the
// destination as far as the frame goes, and gzip and brotli read the
// whole stream when the declared size is 0. A decompression bomb of a few
// MiB would take the host's memory. The codecs registered here decode into
// the destination only, and refuse a page that decodes to more.
//
// arrow-go's page reader is the only caller of Codec.Decode, always with
// that destination; encoding is arrow-go's own, unchanged.

func init() {
	for _, c := range []struct {
		typ    compress.Compression
		decode func(dst, src []byte) []byte
	}{
		{compress.Codecs.Snappy, decodeSnappy},
		{compress.Codecs.Zstd, decodeZstd},
		{compress.Codecs.Gzip, decodeGzip},
		{compress.Codecs.Brotli, decodeBrotli},
	} {
		base, err := compress.GetCodec(c.typ)
		if err != nil {
			panic(fmt.Sprintf("preview: arrow-go has no %s codec: %v", c.typ, err))
		}
		compress.RegisterCodec(c.typ, boundedCodec{base, c.decode})
	}
	// LZ4_RAW decodes into the destination only (lz4.UncompressBlock), and
	// the deprecated LZ4 (Hadoop framing) has no codec in arrow-go: both
	// are bounded as they are.
}

// boundedCodec is arrow-go's codec with a Decode that never writes or
// allocates past len(dst).
type boundedCodec struct {
	compress.Codec
	decode func(dst, src []byte) []byte
}

func (c boundedCodec) Decode(dst, src []byte) []byte { return c.decode(dst, src) }

// The codec's panics are previewParquet's ErrParquetUnreadable.
func pageTooBig(codec string, size int) string {
	return fmt.Sprintf("a %s page decodes to more than the %d bytes its header declares (a decompression bomb?)", codec, size)
}

func decodeSnappy(dst, src []byte) []byte {
	n, err := snappy.DecodedLen(src)
	if err != nil {
		panic(err)
	}
	if n > len(dst) {
		panic(pageTooBig("snappy", len(dst)))
	}
	out, err := snappy.Decode(dst, src)
	if err != nil {
		panic(err)
	}
	return out
}

// zstdDecoder decodes into the destination's capacity only
// (WithDecodeAllCapLimit), never more than parquetMaxAlloc in all, with a
// window no wider (real writers use 8 MiB, 128 MiB at the highest level).
var zstdDecoder = func() *zstd.Decoder {
	d, err := zstd.NewReader(nil,
		zstd.WithDecodeAllCapLimit(true),
		zstd.WithDecoderMaxMemory(parquetMaxAlloc),
		zstd.WithDecoderMaxWindow(parquetMaxAlloc))
	if err != nil {
		panic(err)
	}
	return d
}()

func decodeZstd(dst, src []byte) []byte {
	out, err := zstdDecoder.DecodeAll(src, dst[:0:len(dst)])
	if err == zstd.ErrDecoderSizeExceeded {
		panic(pageTooBig("zstd", len(dst)))
	}
	if err != nil {
		panic(err)
	}
	return out
}

func decodeGzip(dst, src []byte) []byte {
	r, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		panic(err)
	}
	if _, err := io.ReadFull(r, dst); err != nil {
		panic(err)
	}
	checkStreamEnd(r, "gzip", len(dst))
	return dst
}

func decodeBrotli(dst, src []byte) []byte {
	r := brotli.NewReader(bytes.NewReader(src))
	// As arrow-go's: a stream shorter than dst gives the bytes it has (the
	// page reader then reports the size mismatch).
	n, err := io.ReadFull(r, dst)
	switch err {
	case nil:
		checkStreamEnd(r, "brotli", len(dst))
	case io.EOF, io.ErrUnexpectedEOF:
	default:
		panic(err)
	}
	return dst[:n]
}

// checkStreamEnd refuses a stream with more to give once dst is full.
func checkStreamEnd(r io.Reader, codec string, size int) {
	var one [1]byte
	n, err := io.ReadFull(r, one[:])
	if n > 0 {
		panic(pageTooBig(codec, size))
	}
	if err != io.EOF {
		panic(err)
	}
}
