package server

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/session"
)

// frame is one event as the stream sends it, encoded once for every
// client.
type frame struct {
	seq  int64
	kind event.Kind
	data []byte
}

// hub is one run of a session on this server, from the moment it is
// accepted (perhaps queued) until its last event: the one producer whose
// events every client of the session's stream gets (fan-out, not a second
// run). Clients read its frames by index; wake is closed and replaced at
// every change, so a client waits on it without polling.
type hub struct {
	id string
	// accepted is when the run was accepted, for its queue wait.
	accepted time.Time
	// trace is the trace context of the request that started the run
	// (traceCarrier): the run's spans join its trace.
	trace map[string]string

	mu       sync.Mutex
	frames   []frame
	active   bool
	position int // place in the queue, 0 once running
	wake     chan struct{}
	// pause asks the run to stop at its next safe point (agents.WithPause).
	pause     chan struct{}
	pauseOnce sync.Once
	// handBack is set when a draining worker asks the run to pause, so
	// that it goes back to the run queue (Config.RunQueue) afterwards.
	handBack atomic.Bool
	// start is closed when the run gets its slot; drop when it is
	// dropped from the queue instead.
	start, drop chan struct{}
	// ended is closed by finish.
	ended     chan struct{}
	endedOnce sync.Once
}

func newHub(id string) *hub {
	return &hub{id: id, accepted: time.Now(), active: true, wake: make(chan struct{}), pause: make(chan struct{}), start: make(chan struct{}), drop: make(chan struct{}), ended: make(chan struct{})}
}

// publish encodes e once and hands it to every client.
func (h *hub) publish(e event.Event) {
	data, err := session.MarshalEvent(e)
	if err != nil {
		data, _ = session.MarshalEvent(event.Event{Kind: e.Kind, Seq: e.Seq, Time: e.Time, Text: "cannot encode event: " + err.Error()})
	}
	h.mu.Lock()
	h.frames = append(h.frames, frame{seq: e.Seq, kind: e.Kind, data: data})
	h.notifyLocked()
	h.mu.Unlock()
}

func (h *hub) notifyLocked() {
	close(h.wake)
	h.wake = make(chan struct{})
}

// setPosition records the run's place in the queue (0: running).
func (h *hub) setPosition(p int) {
	h.mu.Lock()
	if h.position != p {
		h.position = p
		h.notifyLocked()
	}
	h.mu.Unlock()
}

// finish marks the run ended: clients end their streams once they have
// sent every frame.
func (h *hub) finish() {
	h.mu.Lock()
	h.active = false
	h.notifyLocked()
	h.mu.Unlock()
	h.endedOnce.Do(func() { close(h.ended) })
}

// ending reports whether the run has published its done event, so only
// its bookkeeping (the claim, the hub) is left before it ends.
func (h *hub) ending() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(h.frames)
	return n > 0 && h.frames[n-1].kind == event.Done
}

// stopsForThePerson reports whether the run has sent an interrupt: it
// stops to wait for the person, and sends its done event once what it
// started has stopped (its kernel can take seconds), while the page
// already shows the question.
func (h *hub) stopsForThePerson() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, f := range h.frames {
		if f.kind == event.Interrupted {
			return true
		}
	}
	return false
}

func (h *hub) startCh() chan struct{}   { return h.start }
func (h *hub) dropped() <-chan struct{} { return h.drop }

func (h *hub) requestPause() { h.pauseOnce.Do(func() { close(h.pause) }) }

// hubView is what a client sees of a hub at one moment.
type hubView struct {
	frames   []frame // from the index asked for
	active   bool
	position int
	wake     <-chan struct{}
}

func (h *hub) view(from int) hubView {
	h.mu.Lock()
	defer h.mu.Unlock()
	v := hubView{active: h.active, position: h.position, wake: h.wake}
	if from < len(h.frames) {
		// The slice is only ever appended to, so the client may read
		// these elements without the lock.
		v.frames = h.frames[from:len(h.frames):len(h.frames)]
	}
	return v
}

// lastSeq is the Seq of the hub's last numbered frame, or 0.
func (h *hub) lastSeq() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := len(h.frames) - 1; i >= 0; i-- {
		if h.frames[i].seq > 0 {
			return h.frames[i].seq
		}
	}
	return 0
}
