package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"os"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/runqueue"
	"github.com/sift-agent/sift/session"
)

// The run queue (Config.RunQueue): the API queues every run, resume and
// answered question in Redis (runqueue), and every server that takes runs
// (a worker) takes the next entry when it has a free slot. A worker holds
// the entry's lease and the session's claim while it works it, renewing
// both every PollInterval; after it dies (both expire ClaimTTL later, or
// the claim at once on the same machine) another worker takes the entry
// over and resumes the session from its last checkpoint, after a takeover
// event in the session's log. A worker that shuts down pauses its runs at
// their next safe point and hands them back to the queue.

// queuedJob is what a queue entry says to do.
type queuedJob struct {
	// Kind is jobRun, jobResume, jobAnswer, jobRefresh or jobFork.
	Kind string `json:"kind"`
	// Request is a run's request.
	Request *agents.Request `json:"request,omitempty"`
	// FirstRun is set for a session's first run: its uploaded files go
	// once the workspace has them.
	FirstRun bool `json:"first_run,omitempty"`
	// Refresh is a refresh's request (jobRefresh): the session to run
	// again and the uploaded new data.
	Refresh *agents.RefreshRequest `json:"refresh,omitempty"`
	// Fork is a fork's request (jobFork): the session and the step to go
	// on from.
	Fork *agents.ForkRequest `json:"fork,omitempty"`
	// Answer is an answer's body; the worker builds the library's answer
	// from the session's pending interrupt.
	Answer *answerRequest `json:"answer,omitempty"`
	// AfterSeq is the session's last logged event when the job was
	// queued: a log that goes further shows the job's run has begun.
	AfterSeq int64 `json:"after_seq"`
	// HandedBack is set on the resume of a run a draining worker paused
	// and handed back: the worker that takes it says so in the log.
	HandedBack bool `json:"handed_back,omitempty"`
	// SessionsDir is the absolute sessions directory of the process that
	// queued the job. A worker whose own differs leaves the job alone:
	// it would run the session in a directory the API never reads.
	SessionsDir string `json:"sessions_dir,omitempty"`
	// Trace is the W3C trace context of the request that queued the job
	// (traceparent, tracestate): the worker's run joins its trace.
	Trace map[string]string `json:"trace,omitempty"`
}

// The kinds of queued jobs.
const (
	jobRun    = "run"
	jobResume = "resume"
	jobAnswer = "answer"
)

// openQueue opens the run queue on the store's Redis for cfg; repaired
// is called when Redis lost the queue and this process made it again.
func openQueue(cfg Config, store *session.Backend, repaired func()) (*runqueue.Queue, error) {
	if store.Redis == nil {
		return nil, fmt.Errorf("the run queue lives in Redis, but the store is %s; give --store redis://HOST:PORT/DB (the same for every server and worker)", store.URL)
	}
	consumer := ""
	if !cfg.NoRuns {
		consumer = cfg.WorkerName
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	return runqueue.New(ctx, runqueue.Config{Client: store.Redis, Prefix: store.RedisPrefix, Consumer: consumer, Lease: cfg.ClaimTTL, Repaired: repaired})
}

// DefaultWorkerName names this process as a worker: host name and pid.
func DefaultWorkerName() string {
	host, err := os.Hostname()
	if err != nil {
		host = "host"
	}
	return fmt.Sprintf("%s-%d", host, os.Getpid())
}

// enqueue queues job for session id, refusing a session that has a run
// queued or going on (here, on another worker, or in a sift resume).
func (s *Server) enqueue(ctx context.Context, id string, job queuedJob) (accepted, error) {
	s.mu.Lock()
	draining := s.draining
	s.mu.Unlock()
	if draining {
		return accepted{}, errDraining
	}
	deadline := time.Now().Add(endingWait)
	for {
		last := s.lastLoggedSeq(id)
		err := s.claimFree(ctx, id)
		if err == nil {
			job.AfterSeq, job.SessionsDir = last, s.root
			if job.Trace == nil {
				job.Trace = traceCarrier(ctx)
			}
			payload, merr := json.Marshal(job)
			if merr != nil {
				return accepted{}, fmt.Errorf("queue the run: %w", merr)
			}
			_, err = s.runq.Add(ctx, id, payload)
			if errors.Is(err, runqueue.ErrBusy) {
				err = &refusal{409, codeConflict, fmt.Sprintf("session %s already has a run queued or going on; wait for its done event, or pause it", id)}
			}
			if err == nil {
				s.writeJob(id, payload)
			}
		}
		if err == nil {
			return accepted{ID: id, State: statusQueued, LastEventID: last}, nil
		}
		// A client that asks again the moment it sees a done event is
		// not refused for a run that is only giving its session back.
		var ref *refusal
		if !errors.As(err, &ref) || ref.status != 409 || !s.lastLoggedDone(id) || time.Now().After(deadline) {
			return accepted{}, err
		}
		select {
		case <-ctx.Done():
			return accepted{}, ctx.Err()
		case <-time.After(s.cfg.PollInterval):
		}
	}
}

// lastLoggedDone reports whether the session's last logged event is a
// done event.
func (s *Server) lastLoggedDone(id string) bool {
	evs, err := session.ReadEvents(s.eventsPath(id))
	return err == nil && len(evs) > 0 && evs[len(evs)-1].Kind == event.Done
}

// queued reports whether session id has a run in the queue, waiting or
// being worked.
func (s *Server) queued(ctx context.Context, id string) bool {
	if s.runq == nil {
		return false
	}
	ok, err := s.runq.Active(ctx, id)
	return err == nil && ok
}

// work takes runs from the queue while a slot is free, until Shutdown.
func (s *Server) work(ctx context.Context) {
	defer s.wg.Done()
	failing := false
	for {
		select {
		case s.slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		if s.otherDir.Load() {
			<-s.slots
			<-ctx.Done()
			return
		}
		e, err := s.runq.Next(ctx, time.Second)
		if ctx.Err() != nil {
			<-s.slots
			return
		}
		if err == nil && failing {
			// Redis answers again: what it lost while away (a restart
			// with a snapshot older than its last writes) is put back.
			failing = false
			s.reconcileSoon("Redis answers again")
		}
		if err != nil || e == nil {
			<-s.slots
			if err != nil {
				failing = true
				s.log.Warn("take a run from the queue; trying again", "err", err)
				select {
				case <-time.After(s.cfg.PollInterval):
				case <-ctx.Done():
					return
				}
			}
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() { <-s.slots }()
			s.workEntry(e)
		}()
	}
}

// workEntry works one queue entry to its end: it keeps the entry's lease
// and the session's claim, runs (or, after a takeover, resumes) the
// session, and then removes the entry, or hands it back when this worker
// is draining.
func (s *Server) workEntry(e *runqueue.Entry) {
	id := e.Session
	var job queuedJob
	if err := json.Unmarshal(e.Payload, &job); err != nil || session.ValidateID(id) != nil {
		s.log.Error("a queue entry this worker cannot read; dropping it", "entry", e.ID, "session", id, "err", err)
		s.entryDone(e)
		return
	}
	if job.SessionsDir != "" && job.SessionsDir != s.root {
		// This worker is set up wrong for every run: it puts the entry
		// back, as it was, and takes no more runs (see work), so one
		// that shares the directory gets it.
		s.log.Error("a queued run of a sessions directory this worker does not use; handing it back and taking no more runs: give every server and worker the same --sessions-dir, at the same absolute path, and restart this worker", "session", id, "queued_in", job.SessionsDir, "this_worker", s.root)
		s.otherDir.Store(true)
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		if err := s.runq.Requeue(ctx, e, e.Payload); err != nil {
			s.log.Warn("hand a run back to the queue; another worker takes it over once its lease expires", "session", id, "err", err)
		}
		return
	}
	if e.TakenFrom == "" {
		s.observer.QueueWait(time.Since(e.Enqueued))
	}
	s.observer.WorkerRun(s.cfg.WorkerName)

	h := newHub(id)
	if !s.addHub(h) {
		s.handBack(e, job)
		return
	}
	lost := make(chan struct{})
	go s.keepLease(h, e, lost)
	if !s.claimForWork(h, id) {
		s.endHub(h)
		s.handBack(e, job)
		return
	}
	go s.keepClaim(h)
	s.setEntry(id, e)
	defer s.setEntry(id, nil)

	fn, after, takeover := s.jobRun(e, job)
	if fn != nil {
		if takeover != "" {
			// Only a lease that expired counts as a takeover (a worker
			// died or lost Redis); a run handed back by a draining
			// worker is a deploy going as planned.
			if e.TakenFrom != "" {
				s.observer.Takeover()
			}
			s.logTakeover(h, takeover)
		}
		// A run whose lease is lost stops at once: another worker has
		// it, and a step going on here too would run its cells twice.
		ctx, stop := context.WithCancel(withTrace(s.runCtx, job.Trace))
		go func() {
			select {
			case <-lost:
				stop()
			case <-h.ended:
			}
		}()
		ctx = agents.WithPause(ctx, h.pause)
		rm := s.metrics.startRun()
		var final event.Event
		for ev := range fn(ctx) {
			h.publish(ev)
			rm.event(ev)
			final = ev
		}
		rm.end(final)
		stop()
		if after != nil {
			after()
		}
	}
	s.release(id)
	select {
	case <-lost:
		// Another worker has the entry now.
	default:
		if s.handingBack(h, id) {
			s.handBack(e, queuedJob{Kind: jobResume, HandedBack: true, Trace: job.Trace})
		} else {
			s.entryDone(e)
			s.removeJob(id, e.Payload)
		}
	}
	s.endHub(h)
}

// addHub makes h the session's active run on this server, waiting for a
// run of it that is ending here; it reports false when the server drains.
func (s *Server) addHub(h *hub) bool {
	for {
		s.mu.Lock()
		if s.draining {
			s.mu.Unlock()
			return false
		}
		prev, busy := s.hubs[h.id]
		if !busy {
			s.hubs[h.id] = h
			s.metrics.active.Inc()
			s.mu.Unlock()
			return true
		}
		s.mu.Unlock()
		<-prev.ended
	}
}

// endHub ends h, the session's run on this server.
func (s *Server) endHub(h *hub) {
	s.mu.Lock()
	if s.hubs[h.id] == h {
		delete(s.hubs, h.id)
		s.metrics.active.Dec()
	}
	s.mu.Unlock()
	h.finish()
}

// keepLease renews the entry's lease until h ends; when another worker
// has taken the entry over, it closes lost, which stops the run here.
func (s *Server) keepLease(h *hub, e *runqueue.Entry, lost chan<- struct{}) {
	tick := time.NewTicker(s.cfg.PollInterval)
	defer tick.Stop()
	for {
		select {
		case <-h.ended:
			return
		case <-tick.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		err := s.runq.Renew(ctx, e)
		cancel()
		if errors.Is(err, runqueue.ErrLeaseLost) {
			s.log.Warn("another worker took over a run of this one (its lease expired); stopping it here", "session", h.id)
			close(lost)
			return
		}
		if errors.Is(err, runqueue.ErrEntryGone) {
			s.readopt(h, e)
			continue
		}
		if err != nil {
			s.log.Warn("renew the lease on a run", "session", h.id, "err", err)
		}
	}
}

// claimForWork takes the session's claim for this worker, waiting while
// another process holds it (a worker whose claim has not expired yet, a
// sift resume); it reports false when the server drains first.
func (s *Server) claimForWork(h *hub, id string) bool {
	for {
		err := s.claim(s.runCtx, id)
		if err == nil {
			return true
		}
		s.mu.Lock()
		draining := s.draining
		s.mu.Unlock()
		if draining {
			return false
		}
		var ref *refusal
		if !errors.As(err, &ref) {
			s.log.Warn("take the claim on a queued session; trying again", "session", id, "err", err)
		}
		select {
		case <-time.After(s.cfg.PollInterval):
		case <-h.pause:
			return false
		case <-s.runCtx.Done():
			return false
		}
	}
}

// jobRun says how to work the job now: run it as queued, resume a run
// another worker began (takeover says why, for the session's log), or
// nothing (fn nil) when the run has already ended.
func (s *Server) jobRun(e *runqueue.Entry, job queuedJob) (fn runFunc, after func(), takeover string) {
	id := e.Session
	ctx, cancel := context.WithTimeout(s.runCtx, storeTimeout)
	defer cancel()
	m, err := s.store.Sessions.Get(ctx, id)
	if err != nil && !errors.Is(err, session.ErrSessionNotFound) {
		s.log.Warn("read a queued session's record", "session", id, "err", err)
	}
	var meta *session.Meta
	if err == nil {
		meta = &m
	}
	resume := func(ctx context.Context) iter.Seq[event.Event] { return s.sift.Resume(ctx, id, nil) }
	if last, ok := s.lastLogged(id); ok && last.Seq > job.AfterSeq && last.Kind == event.Done {
		// The run ended, and its worker could not say so (Redis was
		// away): it is never taken over, and its status is the log's.
		s.restoreStatus(ctx, id, meta, last)
		return nil, nil, ""
	}
	begun := s.lastLoggedSeq(id) > job.AfterSeq
	switch {
	case begun && meta != nil && (meta.Status.Finished() || meta.Status == session.StatusWaiting):
		return nil, nil, "" // it ended before its worker could say so
	case begun:
		return resume, nil, fmt.Sprintf("worker %s goes on with the run: worker %s stopped renewing its lease (it died or lost Redis)", s.cfg.WorkerName, e.TakenFrom)
	}
	switch job.Kind {
	case jobRun:
		if job.Request == nil {
			return nil, nil, ""
		}
		req := *job.Request
		fn = func(ctx context.Context) iter.Seq[event.Event] { return s.sift.Run(ctx, req) }
		if job.FirstRun {
			after = func() { s.dropUploads(id) }
		}
		return fn, after, ""
	case jobRefresh:
		if job.Refresh == nil || meta != nil {
			return nil, nil, ""
		}
		req := *job.Refresh
		return func(ctx context.Context) iter.Seq[event.Event] { return s.sift.Refresh(ctx, req) }, func() { s.dropUploads(id) }, ""
	case jobFork:
		if job.Fork == nil || meta != nil {
			return nil, nil, ""
		}
		req := *job.Fork
		return func(ctx context.Context) iter.Seq[event.Event] { return s.sift.Fork(ctx, req) }, nil, ""
	case jobAnswer:
		if meta == nil || meta.Status != session.StatusWaiting || meta.Pending == nil || job.Answer == nil {
			return nil, nil, ""
		}
		answer, err := answerFor(meta.Pending, *job.Answer)
		if err != nil {
			s.log.Warn("a queued answer does not fit the session's question; dropping it", "session", id, "err", err)
			return nil, nil, ""
		}
		answers := map[string]any{meta.Pending.ID: answer}
		return func(ctx context.Context) iter.Seq[event.Event] { return s.sift.Resume(ctx, id, answers) }, nil, ""
	}
	if meta == nil || meta.Status.Finished() || meta.Status == session.StatusWaiting {
		return nil, nil, ""
	}
	if job.HandedBack {
		return resume, nil, fmt.Sprintf("worker %s goes on with the run that worker %s paused and handed back as it shut down", s.cfg.WorkerName, e.HandedBackBy)
	}
	return resume, nil, ""
}

// logTakeover records the takeover event in the session's log, numbered
// after the events of the worker before, and sends it to this server's
// streams of the session.
func (s *Server) logTakeover(h *hub, text string) {
	l, err := session.OpenEventLog(s.eventsPath(h.id))
	if err != nil {
		s.log.Warn("record the takeover in the session's log", "session", h.id, "err", err)
		return
	}
	ev, err := l.Record(event.Event{Kind: event.Takeover, Time: time.Now(), Text: text})
	_ = l.Close()
	if err != nil {
		s.log.Warn("record the takeover in the session's log", "session", h.id, "err", err)
		return
	}
	h.publish(ev)
}

// handingBack reports whether the run that just ended on h is to go back
// to the queue: this worker is draining and paused it (not the person),
// or stopped it at once, so it has not ended.
func (s *Server) handingBack(h *hub, id string) bool {
	s.mu.Lock()
	draining := s.draining
	s.mu.Unlock()
	if !draining || !h.handBack.Load() {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	m, err := s.store.Sessions.Get(ctx, id)
	if err != nil {
		return true
	}
	return !m.Status.Finished() && m.Status != session.StatusWaiting
}

// handBack puts the entry back in the queue with job, for another worker.
func (s *Server) handBack(e *runqueue.Entry, job queuedJob) {
	job.AfterSeq, job.SessionsDir = s.lastLoggedSeq(e.Session), s.root
	payload, err := json.Marshal(job)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		err = s.runq.Requeue(ctx, e, payload)
		cancel()
		s.writeJob(e.Session, payload)
	}
	if err != nil {
		s.log.Warn("hand a run back to the queue; another worker takes it over once its lease expires", "session", e.Session, "err", err)
	}
}

// entryDone removes the entry from the queue.
func (s *Server) entryDone(e *runqueue.Entry) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := s.runq.Done(ctx, e); err != nil && !errors.Is(err, runqueue.ErrLeaseLost) {
		s.log.Warn("remove a finished run from the queue; another worker finds it ended", "session", e.Session, "err", err)
	}
}

// dropUploads removes a session's uploaded files once its workspace has
// them. The record stays: it says when and with what the session was
// created (keepCreation).
func (s *Server) dropUploads(id string) {
	if s.workspaceExists(id) {
		_ = os.RemoveAll(joinPath(s.stagedDir(id), "files"))
	}
}

// startQueue opens the run queue when Config.RunQueue asks for it, and
// starts taking runs from it unless Config.NoRuns.
func (s *Server) startQueue() error {
	s.observer = runqueue.NopObserver{}
	if o, ok := any(s.metrics).(runqueue.QueueObserver); ok {
		s.observer = o
	}
	if !s.cfg.RunQueue {
		return nil
	}
	q, err := openQueue(s.cfg, s.store, func() {
		s.reconcileSoon("Redis lost the run queue (restarted without its data, flushed, or failed over to an empty replica)")
	})
	if err != nil {
		return err
	}
	s.runq = q
	// What Redis lost while no server was running is put back too.
	s.reconcileSoon("")
	s.observer.SetQueueDepth(func() (int64, error) {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		return q.Depth(ctx)
	})
	if s.cfg.NoRuns {
		return nil
	}
	ctx, stop := context.WithCancel(s.runCtx)
	s.stopTaking = stop
	s.slots = make(chan struct{}, s.cfg.MaxRuns)
	s.wg.Add(1)
	go s.work(ctx)
	return nil
}

// WorkerName is this server's name in the run queue, its logs and metrics.
func (s *Server) WorkerName() string { return s.cfg.WorkerName }

// OpsHandler serves only /healthz, /readyz and /metrics (with the
// server's token and origin rules): what a sift worker shows on the
// network.
func (s *Server) OpsHandler() http.Handler {
	mux := http.NewServeMux()
	for _, p := range []string{"GET /healthz", "GET /readyz", "GET /metrics"} {
		mux.Handle(p, s)
	}
	return mux
}

// claimFree checks that no process holds the session's claim (a sift
// resume, a server without the queue) by taking and giving it back under
// an owner of its own: the worker that takes the run takes the claim.
func (s *Server) claimFree(ctx context.Context, id string) error {
	c := s.store.Claims
	if c == nil {
		return nil
	}
	probe := s.holder()
	probe.ID = session.NewID()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	err := c.Acquire(ctx, id, probe, s.cfg.ClaimTTL)
	if err == nil {
		return c.Release(ctx, id, probe.ID)
	}
	var ce *session.ClaimedError
	if errors.As(err, &ce) {
		return &refusal{409, codeConflict, fmt.Sprintf("session %s has a run going on in %s since %s; follow its events, pause it, or wait for its done event", id, ce.Holder, ce.Holder.Since.UTC().Format(time.DateTime+" UTC"))}
	}
	return err
}
