package operator

import (
	"errors"
	"io"

	"github.com/sift-agent/sift/confined"
)

// capturedOutput is one capture file as the kernel read it from its own
// descriptor after the cell: all of it in Head when it fit the limit (the
// file is then gone), else its head and tail (the file kept).
type capturedOutput struct {
	Head []byte `json:"head"` // base64 in the JSON
	Tail []byte `json:"tail"`
	Size int64  `json:"size"`
	Kept bool   `json:"kept"`
}

// cellOutput is a cell's captured stdout or stderr and the file kept when
// it was cut. The kernel sends it through its reply pipe, so the host
// opens nothing the cell could have replaced; only when there is no reply
// (the kernel died or was killed) is the file read, by descriptor.
func (k *Kernel) cellOutput(got bool, c *capturedOutput, rel string, drop bool) (text, keptFile string) {
	if !got || c == nil {
		return k.collectOutput(rel, drop)
	}
	if drop {
		return "", ""
	}
	if !c.Kept {
		return string(c.Head), ""
	}
	return joinCut(string(c.Head), string(c.Tail), c.Size-int64(len(c.Head)+len(c.Tail))), rel
}

// collectOutput reads a cell's captured output file: all of it when it
// fits MaxOutputBytes (and the file is removed), otherwise head and tail
// around a marker, the file kept and named. A replay's output is dropped.
//
// The file lies in a directory the cell can write, so it is opened
// beneath the workspace by descriptor (package confined): a link, FIFO or
// hard link the cell left in its place is refused, and said so.
func (k *Kernel) collectOutput(rel string, drop bool) (text, keptFile string) {
	r, err := confined.OpenRoot(k.ws.root)
	if err != nil {
		return "", ""
	}
	defer r.Close()
	f, err := r.Open(rel)
	if errors.Is(err, confined.ErrRefused) {
		_ = r.Remove(rel)
		return "[sift: the captured output was not read: " + err.Error() + "]\n", ""
	}
	if err != nil {
		return "", ""
	}
	defer f.Close()
	if drop {
		_ = r.Remove(rel)
		return "", ""
	}
	fi, err := f.Stat()
	if err != nil {
		return "", ""
	}
	limit := int64(k.cfg.MaxOutputBytes)
	if fi.IsDir() {
		return "", ""
	}
	if fi.Size() <= limit {
		data, _ := io.ReadAll(io.LimitReader(f, limit))
		_ = r.Remove(rel)
		return string(data), ""
	}
	head := make([]byte, limit/2)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	tail := make([]byte, limit-limit/2)
	m, _ := f.ReadAt(tail, fi.Size()-int64(len(tail)))
	tail = tail[:m]
	return joinCut(string(head), string(tail), fi.Size()-int64(n+m)), rel
}
