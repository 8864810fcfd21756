package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/sift-agent/sift/generic"
)

// Sentinel errors of the event log.
var (
	// ErrEventLogClosed means Append was called after Close.
	ErrEventLogClosed = errors.New("event log is closed")
	// ErrCorruptEventLog means a line other than the last one is not a JSON
	// event, so the log was damaged by something other than a crash.
	ErrCorruptEventLog = errors.New("corrupt event log")
)

// EventLog appends events to a JSON Lines file (events.jsonl), one event per
// line. It is safe for concurrent use. Each line goes to the file in one
// write, so a crash leaves at most a truncated last line, which ReadEvents
// skips and OpenEventLog removes before appending.
type EventLog struct {
	mu     sync.Mutex
	f      *os.File
	path   string
	closed bool
}

// OpenEventLog opens the event log at path for appending, creating it (mode
// 0644) when missing; its directory must exist. A truncated last line left
// by a crash is cut off first, so new events start on a line of their own.
func OpenEventLog(path string) (*EventLog, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open event log %s: %w; check that the workspace exists and is writable", path, err)
	}
	if err := endWithNewline(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("open event log %s: repair last line: %w", path, err)
	}
	return &EventLog{f: f, path: path}, nil
}

// tailChunk is how much endWithNewline reads at a time, going backwards.
const tailChunk = 4096

// endWithNewline makes f end with a complete line: a last line that is
// valid JSON only lacks its newline and gets one; anything else after the
// last newline is a write cut short by a crash and is cut off.
func endWithNewline(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	size := info.Size()
	if size == 0 {
		return nil
	}
	// Find the offset just past the last newline.
	start := int64(0)
	buf := make([]byte, tailChunk)
	for end := size; end > 0; {
		off := max(end-tailChunk, 0)
		n, err := f.ReadAt(buf[:end-off], off)
		if err != nil && err != io.EOF {
			return err
		}
		chunk := buf[:n]
		if end == size && len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			return nil
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			start = off + int64(i) + 1
			break
		}
		end = off
	}
	tail := make([]byte, size-start)
	if _, err := f.ReadAt(tail, start); err != nil && err != io.EOF {
		return err
	}
	if json.Valid(tail) {
		_, err := f.Write([]byte{'\n'})
		return err
	}
	return f.Truncate(start)
}

// Append writes e as one JSON line. A zero Time is set to now. Since Err is
// not part of the JSON, its message goes into Text when Text is empty.
func (l *EventLog) Append(e generic.Event) error {
	if e.Err != nil && e.Text == "" {
		e.Text = e.Err.Error()
	}
	if e.Time.IsZero() {
		e.Time = time.Now().UTC()
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("append %s event to %s: encode: %w", e.Kind, l.path, err)
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return fmt.Errorf("append %s event to %s: %w", e.Kind, l.path, ErrEventLogClosed)
	}
	if _, err := l.f.Write(line); err != nil {
		return fmt.Errorf("append %s event to %s: %w; check free disk space", e.Kind, l.path, err)
	}
	return nil
}

// Close syncs the log to disk and closes it. Closing twice is not an error.
func (l *EventLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	syncErr := l.f.Sync()
	closeErr := l.f.Close()
	if err := errors.Join(syncErr, closeErr); err != nil {
		return fmt.Errorf("close event log %s: %w", l.path, err)
	}
	return nil
}

// ReadEvents reads every event of the log at path, in order. A last line
// without a newline that is not valid JSON (a write a crash cut short) is
// skipped, and blank lines are ignored; any other line that is not a JSON
// event is an error wrapping ErrCorruptEventLog that names its line number.
// Error events get Err back from their Text.
func ReadEvents(path string) ([]generic.Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read events %s: %w", path, err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	var events []generic.Event
	for lineNo := 1; ; lineNo++ {
		// ReadBytes, not a Scanner: a line (a long tool result) can be
		// larger than any fixed buffer.
		line, readErr := r.ReadBytes('\n')
		if readErr != nil && readErr != io.EOF {
			return nil, fmt.Errorf("read events %s: line %d: %w", path, lineNo, readErr)
		}
		complete := readErr == nil
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			var e generic.Event
			if err := json.Unmarshal(trimmed, &e); err != nil {
				if !complete {
					break
				}
				return nil, fmt.Errorf("read events %s: line %d: %w: %w; remove or fix that line", path, lineNo, ErrCorruptEventLog, err)
			}
			if e.Kind == generic.EventError && e.Text != "" {
				e.Err = errors.New(e.Text)
			}
			events = append(events, e)
		}
		if !complete {
			break
		}
	}
	return events, nil
}
