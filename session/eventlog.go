package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/internal/crashpoint"
	"github.com/sift-agent/sift/internal/stepshare"
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
	// seq is the Seq of the last event in the log.
	seq int64
	// named: the log's directory entry is on disk (the log had events
	// when opened, or its directory was synced since).
	named bool
	// dirty: events were appended since the log was last synced.
	dirty bool
	// limit bounds what each plan step adds to the log.
	limit stepshare.Counter
}

// OpenEventLog opens the event log at path for appending, creating it (mode
// 0600) when missing; its directory must exist. A truncated last line left
// by a crash is cut off first, so new events start on a line of their own.
func OpenEventLog(path string) (*EventLog, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, SessionFileMode)
	if err != nil {
		return nil, fmt.Errorf("open event log %s: %w; check that the workspace exists and is writable", path, err)
	}
	if err := endWithNewline(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("open event log %s: repair last line: %w", path, err)
	}
	limit := stepshare.Counter{Max: DefaultStepLogBytes}
	last, err := lastSeq(f, &limit)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("open event log %s: find the last event: %w", path, err)
	}
	return &EventLog{f: f, path: path, seq: last, named: last > 0, limit: limit}, nil
}

// lastSeq returns the Seq of the last event in f, which ends with a
// complete line: the last line's own seq, or for a log written before
// events had one, the number of events (ReadEvents numbers those lines).
// It gives limit what each plan step wrote already, so that a step's share
// of the log used before a crash still counts after the resume.
func lastSeq(f *os.File, limit *stepshare.Counter) (int64, error) {
	r := bufio.NewReaderSize(io.NewSectionReader(f, 0, 1<<62), 64<<10)
	var n, seq int64
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line: only its end matters for counting (and its
			// step is not read: it counts for no step).
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			n++
			seq = 0
			continue
		}
		if t := bytes.TrimSpace(line); len(t) > 0 {
			n++
			var head struct {
				Seq  int64      `json:"seq"`
				Kind event.Kind `json:"kind"`
				Step *struct {
					Index int `json:"index"`
				} `json:"step"`
				Call *struct {
					Step int `json:"step"`
				} `json:"call"`
			}
			seq = 0
			if eventJSON.Unmarshal(t, &head) == nil {
				seq = head.Seq
				step := 0
				switch {
				case head.Step != nil:
					step = head.Step.Index
				case head.Call != nil:
					step = head.Call.Step
				}
				limit.Restore(step, int64(len(line)), head.Kind == event.Limit)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if seq > 0 {
		return seq, nil
	}
	return n, nil
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

// Append writes e as one JSON line (see Record).
func (l *EventLog) Append(e event.Event) error {
	_, err := l.Record(e)
	return err
}

// Record writes e as one JSON line and returns it as written: numbered
// with the log's next Seq, a zero Time set to now, and, since Err is not
// part of the JSON, Text set to its message when empty. Events are numbered
// in the order they reach the file. Once a plan step has added its limit to
// the log (see LimitStep), the step's work events are not written (the
// error wraps ErrStepLogFull; the first one is replaced by the EventLimit
// that says so, which Record returns instead), and its other events are
// written shortened.
func (l *EventLog) Record(e event.Event) (event.Event, error) {
	if e.Err != nil && e.Text == "" {
		e.Text = e.Err.Error()
	}
	if e.Time.IsZero() {
		e.Time = time.Now().UTC()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return e, fmt.Errorf("append %s event to %s: %w", e.Kind, l.path, ErrEventLogClosed)
	}
	e.Seq = l.seq + 1
	line, err := MarshalEvent(e)
	if err != nil {
		return e, fmt.Errorf("append %s event to %s: encode: %w", e.Kind, l.path, err)
	}
	keep, notice := l.admit(e, len(line)+1)
	if notice != nil {
		if _, err := l.write(*notice); err != nil {
			return e, err
		}
		if keep == nil {
			// The notice stands in for the event it cut.
			return *notice, nil
		}
	}
	if keep == nil {
		e.Seq = 0
		return e, fmt.Errorf("append %s event of step %d to %s: %w", e.Kind, stepOf(e), l.path, ErrStepLogFull)
	}
	if notice == nil && keep.Text == e.Text && keep.Args == e.Args && keep.Step == e.Step {
		return l.writeLine(e, line)
	}
	return l.write(*keep)
}

// write numbers e with the log's next Seq and appends it. Called with
// l.mu held.
func (l *EventLog) write(e event.Event) (event.Event, error) {
	e.Seq = l.seq + 1
	line, err := MarshalEvent(e)
	if err != nil {
		return e, fmt.Errorf("append %s event to %s: encode: %w", e.Kind, l.path, err)
	}
	return l.writeLine(e, line)
}

// writeLine appends line, the encoding of e (numbered l.seq+1), and a
// newline in one write. Called with l.mu held.
func (l *EventLog) writeLine(e event.Event, line []byte) (event.Event, error) {
	line = append(line, '\n')
	if _, err := l.f.Write(line); err != nil {
		return e, fmt.Errorf("append %s event to %s: %w; check free disk space", e.Kind, l.path, err)
	}
	l.seq = e.Seq
	l.dirty = true
	if syncsLog(e.Kind) {
		if err := syncFile(l.f); err != nil {
			return e, fmt.Errorf("append %s event to %s: sync: %w", e.Kind, l.path, err)
		}
		if !l.named {
			// A log this process created: its name must last too.
			syncDir(filepath.Dir(l.path))
			l.named = true
		}
		l.dirty = false
	}
	crashpoint.Wrote(l.path)
	return e, nil
}

// syncsLog says whether an event of kind ends a stretch of the run that a
// power loss must not take back: a step finished, the run waits or is
// done. The log is synced then, and only then: it is the run's write-ahead
// log, and the events between are the same run's progress, redone on
// resume when lost.
func syncsLog(kind event.Kind) bool {
	switch kind {
	case event.StepFinished, event.Interrupted, event.Paused, event.Done:
		return true
	}
	return false
}

// Close syncs the log to disk, unless nothing was appended since it last
// was, and closes it. Closing twice is not an error.
func (l *EventLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	var syncErr error
	if l.dirty {
		syncErr = syncFile(l.f)
	}
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
// Events get Err back from their error text, and events of a log written
// before events were numbered get Seq from their place in it.
func ReadEvents(path string) ([]event.Event, error) {
	t := NewEventTail(path)
	var events []event.Event
	for {
		batch, err := t.Read(0)
		if err != nil {
			return nil, err
		}
		if len(batch) == 0 {
			return events, nil
		}
		for _, le := range batch {
			events = append(events, le.Event)
		}
	}
}
