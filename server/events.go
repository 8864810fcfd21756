package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"time"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/session"
)

// writeTimeout bounds each write to an event stream: a client that stops
// reading loses its stream, never the run.
const writeTimeout = 30 * time.Second

// retryHint is the reconnection delay the stream asks EventSource
// clients to wait after a dropped connection (the SSE retry: field).
const retryHint = 2 * time.Second

// settleTime is how long a stream of another server's run, once the
// registry says it ended, waits for its done event to reach the log.
const settleTime = 5 * time.Second

// sseWriter writes Server-Sent Events.
type sseWriter struct {
	w  *bufio.Writer
	rc *http.ResponseController
	// last is the Seq of the last numbered event sent.
	last int64
	// done is set once a done event was sent.
	done bool
	// logDone is set when the last event read from the log is a done
	// event (sent or not).
	logDone bool
}

// event sends one event. It carries no event: field, so every event is
// an SSE "message" and EventSource's onmessage gets them all; the kind is
// the data's "kind". Naming SSE events after kinds would make a kind
// "error" look like EventSource's own error (a dropped connection).
func (c *sseWriter) event(seq int64, kind event.Kind, data []byte) {
	if seq > 0 {
		fmt.Fprintf(c.w, "id: %d\n", seq)
		c.last = seq
	}
	fmt.Fprintf(c.w, "data: %s\n\n", data)
	c.done = kind == event.Done
}

// prime starts the stream: the reconnection delay, and the id the stream
// starts after with no data, so a client that is cut off before the
// first event reconnects from here (EventSource sets its last event id
// but dispatches nothing for an event without data).
func (c *sseWriter) prime() {
	fmt.Fprintf(c.w, "retry: %d\nid: %d\n\n", retryHint.Milliseconds(), c.last)
}

func (c *sseWriter) comment(text string) { fmt.Fprintf(c.w, ": %s\n\n", text) }

func (c *sseWriter) flush() error {
	_ = c.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	if err := c.w.Flush(); err != nil {
		return err
	}
	return c.rc.Flush()
}

// handleEvents streams the session's events: what the client missed
// (after Last-Event-ID) from the event log, then live from the run this
// server is doing (fan-out from its one producer), or, for a run another
// server is doing, from the shared log as it grows. The stream ends after
// a done event once no run of the session is going on; a client that goes
// away ends only its own stream.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionID(w, r)
	if !ok {
		return
	}
	last, err := lastEventID(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return
	}
	if _, _, err := s.lookup(r.Context(), id); err != nil {
		requestError(w, err)
		return
	}
	// Take the hub before reading the log: every event of its run is then
	// either in the log already or still to come from the hub.
	s.mu.Lock()
	h := s.hubs[id]
	s.mu.Unlock()
	if h == nil && s.streamOver(r.Context(), id, last) {
		w.WriteHeader(http.StatusNoContent)
		return
	}

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	c := &sseWriter{w: bufio.NewWriterSize(w, 16<<10), rc: http.NewResponseController(w), last: last}
	s.metrics.sseClients.Inc()
	defer s.metrics.sseClients.Dec()

	c.prime()
	tail := session.NewEventTail(s.eventsPath(id))
	if err := replay(c, tail); err != nil {
		c.comment("error: " + err.Error())
		_ = c.flush()
		return
	}
	if err := c.flush(); err != nil {
		return
	}
	beat := time.NewTicker(s.cfg.Heartbeat)
	defer beat.Stop()
	if h != nil {
		s.follow(r, c, h, beat)
		return
	}
	s.followLog(r, c, id, tail, beat)
}

// streamOver reports whether a stream of session id after event last
// would end at once with nothing sent: no run of it is going on (nor
// starting on another server) and its log has no event after last.
func (s *Server) streamOver(ctx context.Context, id string, last int64) bool {
	if s.runGoingOn(ctx, id) {
		return false
	}
	return s.lastLoggedSeq(id) <= last
}

// runGoingOn reports whether the registry says a run of session id is
// going on, or another server accepted its first run a moment ago.
func (s *Server) runGoingOn(ctx context.Context, id string) bool {
	if s.queued(ctx, id) {
		// Queued, worked by a worker, or handed back between two.
		return true
	}
	m, err := s.store.Sessions.Get(ctx, id)
	if errors.Is(err, session.ErrSessionNotFound) {
		// A run another server accepted that has not reached the
		// registry yet.
		st, serr := s.readStaged(id)
		return serr == nil && !st.Started.IsZero() && time.Since(st.Started) < startTimeout
	}
	// A session whose process ended (stopped) has no run going on.
	return err == nil && m.Status == session.StatusRunning && !m.OwnerGone()
}

// replay sends the log's events after c.last.
func replay(c *sseWriter, tail *session.EventTail) error {
	for {
		evs, err := tail.Read(256)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if len(evs) == 0 {
			return nil
		}
		for _, e := range evs {
			c.logDone = e.Event.Kind == event.Done
			if e.Event.Seq > c.last {
				c.event(e.Event.Seq, e.Event.Kind, e.Line)
			}
		}
	}
}

// follow streams a run of this server from its hub.
func (s *Server) follow(r *http.Request, c *sseWriter, h *hub, beat *time.Ticker) {
	next, position := 0, -1
	for {
		v := h.view(next)
		if v.position != position && v.position > 0 {
			c.event(0, "queued", fmt.Appendf(nil, `{"kind":"queued","position":%d}`, v.position))
		}
		position = v.position
		for _, f := range v.frames {
			next++
			if f.seq == 0 || f.seq > c.last {
				c.event(f.seq, f.kind, f.data)
			}
		}
		if err := c.flush(); err != nil {
			return
		}
		if !v.active && len(v.frames) == 0 {
			return
		}
		select {
		case <-v.wake:
		case <-beat.C:
			c.comment("heartbeat")
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		}
	}
}

// followLog streams a session no run of this server is doing: it ends
// at once when the registry says no run is going on, else it follows the
// shared log, where another server appends, until that run's done event.
func (s *Server) followLog(r *http.Request, c *sseWriter, id string, tail *session.EventTail, beat *time.Ticker) {
	poll := time.NewTicker(s.cfg.PollInterval)
	defer poll.Stop()
	// settle is when a stream of a run that ended without a done event
	// in the log stops waiting for one.
	var settle time.Time
	for {
		if !s.runGoingOn(r.Context(), id) {
			// Events logged just before the status changed, and the run's
			// done event, which the log gets just after it.
			if replay(c, tail) == nil {
				_ = c.flush()
			}
			if c.logDone {
				return
			}
			if settle.IsZero() {
				settle = time.Now().Add(settleTime)
			} else if time.Now().After(settle) {
				return
			}
		}
		select {
		case <-poll.C:
		case <-beat.C:
			c.comment("heartbeat")
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		}
		if err := replay(c, tail); err != nil {
			return
		}
		if err := c.flush(); err != nil {
			return
		}
		// A run on this server may have begun meanwhile (an answer sent
		// here); its hub has what the log does not yet.
		s.mu.Lock()
		h := s.hubs[id]
		s.mu.Unlock()
		if h != nil {
			if replay(c, tail) == nil {
				s.follow(r, c, h, beat)
			}
			return
		}
	}
}

// lastEventID reads where the client wants the stream to start.
func lastEventID(r *http.Request) (int64, error) {
	raw := r.Header.Get("Last-Event-ID")
	if raw == "" {
		raw = r.URL.Query().Get("last_event_id")
	}
	if raw == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("Last-Event-ID %q is not an event id (a number the stream sent as id:)", raw)
	}
	return n, nil
}
