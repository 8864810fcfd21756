package server

import (
	"context"
	"fmt"
	"iter"
	"os"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/session"
)

// runFunc starts the library's run (Sift.Run or Sift.Resume) under ctx.
type runFunc func(ctx context.Context) iter.Seq[event.Event]

// errConflict and errDraining are refusals startRun answers with.
type refusal struct {
	status int
	code   errorCode
	msg    string
}

func (r *refusal) Error() string { return r.msg }

// accepted is what POST .../runs, .../answers and .../resume answer.
type accepted struct {
	ID          string `json:"id"`
	State       string `json:"state"`
	Position    int    `json:"position,omitempty"`
	LastEventID int64  `json:"last_event_id"`
}

// startRun runs fn for session id in the background, now or once a slot
// is free; after is called when the run has ended. The session's claim in
// the shared store is taken first and kept until the run ends, so no
// other server runs or queues the session meanwhile.
func (s *Server) startRun(ctx context.Context, id string, fn runFunc, after func()) (accepted, error) {
	if err := s.waitEnding(ctx, id); err != nil {
		return accepted{}, err
	}
	last := s.lastLoggedSeq(id)
	s.mu.Lock()
	if err := s.refuseLocked(id); err != nil {
		s.mu.Unlock()
		return accepted{}, err
	}
	// Hold the session's place here while the store is asked.
	h := newHub(id)
	h.trace = traceCarrier(ctx)
	s.hubs[id] = h
	s.mu.Unlock()
	unreserve := func() {
		s.mu.Lock()
		delete(s.hubs, id)
		s.mu.Unlock()
		h.finish()
	}
	if err := s.claim(ctx, id); err != nil {
		unreserve()
		return accepted{}, err
	}
	s.mu.Lock()
	if s.draining {
		s.mu.Unlock()
		unreserve()
		s.release(id)
		return accepted{}, errDraining
	}
	defer s.mu.Unlock()
	s.wg.Add(1)
	go s.execute(h, fn, after)
	go s.keepClaim(h)
	if s.running < s.cfg.MaxRuns {
		s.running++
		h.position = 0
		close(h.startCh())
		s.metrics.active.Inc()
		return accepted{ID: id, State: "running", LastEventID: last}, nil
	}
	s.queue = append(s.queue, h)
	h.position = len(s.queue)
	s.metrics.queued.Set(float64(len(s.queue)))
	return accepted{ID: id, State: "queued", Position: h.position, LastEventID: last}, nil
}

// endingWait bounds how long a new run waits for a run that has sent its
// done event to free the session.
const endingWait = 10 * time.Second

// waitEnding waits, up to endingWait, for a run of session id that has
// sent its done event to free the session: a client that asks again the
// moment it sees the done event is not refused for a run that has ended.
// A run that sent an interrupt is waited for too: the page offers the
// answer at the interrupt, before the run's done event.
func (s *Server) waitEnding(ctx context.Context, id string) error {
	s.mu.Lock()
	prev, busy := s.hubs[id]
	s.mu.Unlock()
	if !busy || !(prev.ending() || prev.stopsForThePerson()) {
		return nil
	}
	select {
	case <-prev.ended:
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(endingWait):
	}
	return nil
}

var errDraining = &refusal{503, codeNotReady, "the server is shutting down; try again on another server or after it restarts"}

// refuseLocked says why a run of session id cannot start on this server
// now, if it cannot.
func (s *Server) refuseLocked(id string) error {
	if s.draining {
		return errDraining
	}
	if _, busy := s.hubs[id]; busy {
		return &refusal{409, codeConflict, fmt.Sprintf("session %s already has a run going on; wait for its done event, or pause it", id)}
	}
	return nil
}

// lastLoggedSeq is the Seq of the session's last logged event, or 0.
func (s *Server) lastLoggedSeq(id string) int64 {
	t := session.NewEventTail(s.eventsPath(id))
	for {
		evs, err := t.Read(0)
		if err != nil || len(evs) == 0 {
			return t.Seq()
		}
	}
}

// execute waits for the run's slot, runs it to its end on the server's
// own context (never a request's: the run goes on without clients), and
// hands the slot on.
func (s *Server) execute(h *hub, fn runFunc, after func()) {
	defer s.wg.Done()
	select {
	case <-h.startCh():
	case <-h.dropped():
		s.release(h.id)
		return
	}
	s.metrics.QueueWait(time.Since(h.accepted))
	rm := s.metrics.startRun()
	ctx := agents.WithPause(withTrace(s.runCtx, h.trace), h.pause)
	var final event.Event
	for e := range fn(ctx) {
		h.publish(e)
		rm.event(e)
		final = e
	}
	rm.end(final)
	if after != nil {
		after()
	}
	s.release(h.id)
	s.mu.Lock()
	delete(s.hubs, h.id)
	s.metrics.active.Dec()
	if len(s.queue) > 0 && !s.draining {
		next := s.queue[0]
		s.queue = s.queue[1:]
		next.setPosition(0)
		close(next.startCh())
		s.metrics.active.Inc()
		for i, q := range s.queue {
			q.setPosition(i + 1)
		}
	} else {
		s.running--
	}
	s.metrics.queued.Set(float64(len(s.queue)))
	s.mu.Unlock()
	h.finish()
}

// eventsPath is the session's event log.
func (s *Server) eventsPath(id string) string {
	return s.workspacePath(id, session.EventsFile)
}

// workspacePath is a path in the session's workspace; id must be valid.
func (s *Server) workspacePath(id string, elem ...string) string {
	return joinPath(append([]string{s.root, id}, elem...)...)
}

// workspaceExists reports whether the session has a workspace.
func (s *Server) workspaceExists(id string) bool {
	st, err := os.Stat(s.workspacePath(id))
	return err == nil && st.IsDir()
}
