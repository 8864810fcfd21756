package main

import (
	"cmp"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/sift-agent/sift/internal/termsafe"
)

// workingLine shows that a run is working while nothing else is printed,
// so that a long model call does not look like a hang: "working… 12s" on
// the last line of a terminal, redrawn every second and cleared before
// anything else is written. It is never drawn on a pipe or with --json.
type workingLine struct {
	// term is the terminal the line is drawn on (stderr).
	term io.Writer
	now  func() time.Time
	// after is the silence before the line shows; every is how often it
	// is redrawn.
	after, every time.Duration

	mu sync.Mutex
	// active is set between start and stop.
	active bool
	// last is when something was last written, or when the run started.
	last time.Time
	// shown says the line is on the screen now.
	shown bool
	// activity is what the run waits for ("Writing code for step 2"),
	// since when; empty when the run did not say.
	activity string
	since    time.Time
}

// doing names what the run waits for from since on, so the line says
// "Planning… 12s" instead of "working… 12s"; an empty activity goes back
// to "working…".
func (w *workingLine) doing(activity string, since time.Time) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.activity, w.since = termsafe.Line(activity), since
}

// workingEvery is how long a run may print nothing before the working line
// shows, and how often it is redrawn.
const workingEvery = time.Second

// newWorkingLine returns streams that clear the working line before they
// write, and the line, shown after every of silence (workingEvery when 0).
// On a pipe, or with asJSON, it returns streams as they are and a nil
// line, whose start does nothing.
func newWorkingLine(streams *ioStreams, asJSON bool, now func() time.Time, every time.Duration) (*ioStreams, *workingLine) {
	if !streams.Terminal || asJSON {
		return streams, nil
	}
	every = cmp.Or(every, workingEvery)
	w := &workingLine{term: streams.ErrOut, now: now, after: every, every: every}
	return &ioStreams{In: streams.In, Out: clearingWriter{w, streams.Out}, ErrOut: clearingWriter{w, streams.ErrOut}, Terminal: true}, w
}

// start draws the line whenever the run has printed nothing for a while,
// until stop, which clears it.
func (w *workingLine) start() (stop func()) {
	if w == nil {
		return func() {}
	}
	w.mu.Lock()
	w.active, w.last = true, w.now()
	w.mu.Unlock()
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(w.every)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				w.draw()
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(quit)
			<-done
			w.mu.Lock()
			defer w.mu.Unlock()
			w.clearLocked()
			w.active = false
		})
	}
}

// draw shows how long the run has been silent, once that is long enough.
func (w *workingLine) draw() {
	w.mu.Lock()
	defer w.mu.Unlock()
	silent := w.now().Sub(w.last)
	if !w.active || silent < w.after {
		return
	}
	if w.activity != "" {
		fmt.Fprintf(w.term, "\r\x1b[2K%s… %ds", w.activity, int(max(w.now().Sub(w.since), silent).Seconds()))
	} else {
		fmt.Fprintf(w.term, "\r\x1b[2Kworking… %ds", int(silent.Seconds()))
	}
	w.shown = true
}

func (w *workingLine) clearLocked() {
	if w.shown {
		fmt.Fprint(w.term, "\r\x1b[2K")
		w.shown = false
	}
}

// clearingWriter clears the working line before it writes, and counts the
// write as the run's latest sign of life.
type clearingWriter struct {
	line *workingLine
	w    io.Writer
}

func (c clearingWriter) Write(p []byte) (int, error) {
	c.line.mu.Lock()
	defer c.line.mu.Unlock()
	c.line.clearLocked()
	c.line.last = c.line.now()
	return c.w.Write(p)
}
