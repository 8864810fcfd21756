package session

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sift-agent/sift/event"
)

// LoggedEvent is one event read from a log, with its line: the bytes
// MarshalEvent gives for it, without the newline.
type LoggedEvent struct {
	Event event.Event
	Line  []byte
}

// EventTail reads an event log from its start and, each time Read is
// called again, goes on where it stopped: it follows a log that this or
// another process (sharing the sessions directory) appends to. A line not
// yet complete is left for a later Read. It is not safe for concurrent use.
type EventTail struct {
	path string
	// off is where the next unread line starts; line is its number.
	off  int64
	line int
	// seq is the Seq of the last event read.
	seq int64
}

// NewEventTail returns a tail at the start of the log at path.
func NewEventTail(path string) *EventTail { return &EventTail{path: path} }

// Seq returns the Seq of the last event read.
func (t *EventTail) Seq() int64 { return t.seq }

// Read returns the complete events appended since the last Read, at most
// limit of them (0: all). A missing file fails with an error wrapping
// fs.ErrNotExist; a damaged line (other than an incomplete last one) with
// one wrapping ErrCorruptEventLog that names its line.
func (t *EventTail) Read(limit int) ([]LoggedEvent, error) {
	f, err := os.Open(t.path)
	if err != nil {
		return nil, fmt.Errorf("read events %s: %w", t.path, err)
	}
	defer f.Close()
	if _, err := f.Seek(t.off, io.SeekStart); err != nil {
		return nil, fmt.Errorf("read events %s: %w", t.path, err)
	}
	r := bufio.NewReaderSize(f, 64<<10)
	var out []LoggedEvent
	for limit <= 0 || len(out) < limit {
		// ReadBytes, not a Scanner: a line (a long tool result) can be
		// larger than any fixed buffer.
		line, err := r.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return out, fmt.Errorf("read events %s: line %d: %w", t.path, t.line+1, err)
		}
		if err != nil {
			// An incomplete last line: a write in progress, or one a
			// crash cut short. A complete JSON object only lacks its
			// newline and counts; anything else waits.
			trimmed := bytes.TrimSpace(line)
			if len(trimmed) == 0 || !eventJSON.Valid(trimmed) {
				return out, nil
			}
		}
		t.off += int64(len(line))
		t.line++
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			continue
		}
		e, derr := UnmarshalEvent(trimmed)
		if derr != nil {
			return out, fmt.Errorf("read events %s: line %d: %w: %w; remove or fix that line", t.path, t.line, ErrCorruptEventLog, derr)
		}
		if e.Seq == 0 {
			// A log written before events were numbered.
			e.Seq = t.seq + 1
			if trimmed, derr = MarshalEvent(e); derr != nil {
				return out, fmt.Errorf("read events %s: line %d: %w", t.path, t.line, derr)
			}
		}
		t.seq = e.Seq
		out = append(out, LoggedEvent{Event: e, Line: trimmed})
		if err != nil {
			break
		}
	}
	return out, nil
}
