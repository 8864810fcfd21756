package preview

import (
	"bytes"
	"context"
	"fmt"
	"unicode/utf8"
)

// previewText fills p from a plain text file: its first lines, truncated,
// and its line count.
func previewText(ctx context.Context, p *FilePreview, src *fileSample, opts Options) error {
	head, headRaw, err := src.decodedHead()
	if err != nil {
		return fmt.Errorf("decode the head as %s: %w", src.encoding, err)
	}
	p.Lines = firstLines(head, opts.MaxLines, opts.MaxLineChars)
	lines, _, exact, err := countLines(ctx, src, head, headRaw, opts)
	if err != nil {
		return err
	}
	p.LineCount, p.LineCountExact = lines, exact
	return nil
}

// firstLines returns up to n lines of text, each cut to width runes.
func firstLines(text []byte, n, width int) []string {
	var out []string
	for len(out) < n && len(text) > 0 {
		line, rest, found := bytes.Cut(text, []byte("\n"))
		line = bytes.TrimRight(line, "\r")
		out = append(out, truncateRunes(string(line[:min(len(line), width*utf8.UTFMax)]), width))
		text = rest
		if !found {
			break
		}
	}
	return out
}

// countLines counts a text file's lines (and its non-blank ones): from the
// head when it is the whole file, by streaming it when it is smaller than
// ExactCountLimit, and otherwise by estimate from the lines per byte of the
// head and tail samples.
func countLines(ctx context.Context, src *fileSample, head []byte, headRaw int64, opts Options) (lines, nonBlank int, exact bool, err error) {
	switch {
	case src.whole():
		var c lineCounter
		c.write(head)
		lines, nonBlank = c.finish()
		return lines, nonBlank, true, nil
	case src.size < opts.ExactCountLimit:
		var c lineCounter
		if err := src.streamDecoded(ctx, c.write); err != nil {
			return 0, 0, false, fmt.Errorf("count lines: %w", err)
		}
		lines, nonBlank = c.finish()
		return lines, nonBlank, true, nil
	}
	tail, tailRaw, err := src.tail(tailSampleBytes)
	if err != nil {
		return 0, 0, false, fmt.Errorf("read the tail to estimate lines: %w", err)
	}
	var c lineCounter
	c.write(head)
	c.write([]byte(tail))
	sampled, sampledNonBlank := c.finish()
	sampledBytes := headRaw + tailRaw
	return estimateCount(src.size, sampledBytes, sampled), estimateCount(src.size, sampledBytes, sampledNonBlank), false, nil
}

// lineCounter counts lines, and lines with non-space text, in text fed to it
// in chunks; a last line without a newline counts.
type lineCounter struct {
	lines, nonBlank          int
	partial, partialNonBlank bool
}

func (c *lineCounter) write(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		seg := p
		if i >= 0 {
			seg = p[:i]
		}
		if len(seg) > 0 {
			c.partial = true
			if !c.partialNonBlank && len(bytes.TrimSpace(seg)) > 0 {
				c.partialNonBlank = true
			}
		}
		if i < 0 {
			return
		}
		c.lines++
		if c.partialNonBlank {
			c.nonBlank++
		}
		c.partial, c.partialNonBlank = false, false
		p = p[i+1:]
	}
}

func (c *lineCounter) finish() (lines, nonBlank int) {
	lines, nonBlank = c.lines, c.nonBlank
	if c.partial {
		lines++
		if c.partialNonBlank {
			nonBlank++
		}
	}
	return lines, nonBlank
}
