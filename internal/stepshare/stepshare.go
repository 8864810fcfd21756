// Package stepshare bounds what one plan step may add to a session's logs
// (the event log, the cell log): each step has a share of bytes, counted as
// the log is written, so a step's output cannot grow the host's files
// faster than its work. It is the one counter both logs use, and it is
// rebuilt from a log's existing lines when the log is opened again, so a
// share used before a crash still counts after the resume.
package stepshare

import "fmt"

// Default is how much one plan step may add to one of a session's logs:
// 64 MiB. A step of ordinary work writes well under a tenth of this.
const Default = 64 << 20

// Counter counts what each plan step added to one log. The zero value
// counts with no limit until Max is set.
type Counter struct {
	// Max is each step's share in bytes; 0 means no limit.
	Max int64
	// used is what each step added so far, by step index; full marks the
	// steps that reached Max.
	used map[int]int64
	full map[int]bool
}

// Take counts n bytes written for step. ok says they fit in the step's
// share (the caller writes them as they are); once they do not, reached is
// true exactly once, for the write that found the share used up (the
// caller says so in the log then), and the step is full from then on.
// Step 0 (no plan step) is never limited.
func (c *Counter) Take(step int, n int64) (ok, reached bool) {
	if c.Max <= 0 || step == 0 {
		return true, false
	}
	if c.used == nil {
		c.used, c.full = map[int]int64{}, map[int]bool{}
	}
	if !c.full[step] && c.used[step]+n <= c.Max {
		c.used[step] += n
		return true, false
	}
	if c.full[step] {
		return false, false
	}
	c.full[step] = true
	return false, true
}

// Restore counts n bytes that step wrote before the log was reopened, or
// marks it full when the log said its share was used up.
func (c *Counter) Restore(step int, n int64, full bool) {
	if step == 0 {
		return
	}
	if c.used == nil {
		c.used, c.full = map[int]int64{}, map[int]bool{}
	}
	c.used[step] += n
	if full {
		c.full[step] = true
	}
}

// Used returns what step added so far, and whether its share is used up.
func (c *Counter) Used(step int) (int64, bool) {
	return c.used[step], c.full[step]
}

// Size writes n bytes as "64 MiB" when it is a whole number of MiB,
// "1000 bytes" otherwise.
func Size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
