package operator

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// cappedBuffer is an io.Writer that keeps the first and the last bytes of
// what is written, up to limit in all, and counts the rest. Code that prints
// a million rows then costs bounded memory, and what it printed first (the
// header) and last (the summary, the error) both survive.
type cappedBuffer struct {
	mu    sync.Mutex
	limit int
	head  []byte
	tail  []byte // ring buffer of the last limit-len(head) bytes
	start int    // index of the oldest byte in tail once it is full
	total int64
}

// newCappedBuffer returns a buffer keeping at most limit bytes: half from
// the start and half from the end.
func newCappedBuffer(limit int) *cappedBuffer {
	return &cappedBuffer{limit: limit}
}

// Write records p; it never fails.
func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	b.total += int64(n)
	headCap := b.limit / 2
	if room := headCap - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	tailCap := b.limit - headCap
	if tailCap <= 0 || len(p) == 0 {
		return n, nil
	}
	if len(p) >= tailCap {
		b.tail = append(b.tail[:0], p[len(p)-tailCap:]...)
		b.start = 0
		return n, nil
	}
	for len(p) > 0 {
		if len(b.tail) < tailCap {
			k := min(tailCap-len(b.tail), len(p))
			b.tail = append(b.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := copy(b.tail[b.start:], p)
		p = p[k:]
		b.start = (b.start + k) % tailCap
	}
	return n, nil
}

// String returns what was kept: everything when it fit, otherwise head and
// tail joined by a marker saying how many bytes were cut.
func (b *cappedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	tail := append(append([]byte{}, b.tail[b.start:]...), b.tail[:b.start]...)
	kept := int64(len(b.head) + len(tail))
	if kept == b.total {
		return string(b.head) + string(tail)
	}
	return joinCut(string(b.head), string(tail), b.total-kept)
}

// capString keeps at most limit bytes of s: head and tail around a marker.
func capString(s string, limit int) string {
	if limit <= 0 || len(s) <= limit {
		return s
	}
	head, tail := s[:limit/2], s[len(s)-(limit-limit/2):]
	return joinCut(head, tail, int64(len(s)-len(head)-len(tail)))
}

// joinCut joins head and tail with a marker for cut bytes, first trimming
// the partial UTF-8 sequences the cut left at the seams.
func joinCut(head, tail string, cut int64) string {
	// At most UTFMax-1 bytes of a split rune sit at each seam; anything
	// more is invalid output of its own and stays as it is.
	for i := 0; i < utf8.UTFMax-1 && len(head) > 0; i++ {
		r, size := utf8.DecodeLastRuneInString(head)
		if r != utf8.RuneError || size != 1 {
			break
		}
		head = head[:len(head)-1]
		cut++
	}
	for i := 0; i < utf8.UTFMax-1 && len(tail) > 0; i++ {
		r, size := utf8.DecodeRuneInString(tail)
		if r != utf8.RuneError || size != 1 {
			break
		}
		tail = tail[1:]
		cut++
	}
	var b strings.Builder
	b.WriteString(head)
	if !strings.HasSuffix(head, "\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[... %d bytes cut ...]\n", cut)
	b.WriteString(tail)
	return b.String()
}
