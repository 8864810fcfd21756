package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/runqueue"
	"github.com/sift-agent/sift/session"
)

// When Redis loses the queue (a restart without persistence, FLUSHALL,
// a failover to an empty replica), the queue makes its stream and group
// again (runqueue), and the servers put back the runs it lost. Redis
// cannot tell which those were; the sessions directory can: every queued
// job is also written to <root>/.queue/<id>.json (jobsDir) when it is
// queued, and removed when its worker is done with it. Reconciling reads
// those records against the queue and the session's log:
//   - a job whose run has ended (the log went past the job's AfterSeq and
//     ends in done) is over: its record goes, and the registry's status
//     is set from the done event when it says otherwise;
//   - a job with an entry in the queue, or whose session's claim a live
//     process holds, is left alone (a worker whose entry Redis lost puts
//     it back itself, keepLease);
//   - any other is queued again, once (Add refuses a second entry).
// Reconciling waits one ClaimTTL after the loss, so that every worker
// still running a run whose entry was lost has renewed its claim first:
// a run that goes on is never queued a second time.

// jobsDir holds the record of every queued job, beside the sessions.
const jobsDir = ".queue"

func (s *Server) jobPath(id string) string { return joinPath(s.root, jobsDir, id+".json") }

// writeJob records the queued job of session id (its queue payload).
func (s *Server) writeJob(id string, payload []byte) {
	dir := joinPath(s.root, jobsDir)
	if err := os.MkdirAll(dir, 0o700); err == nil {
		tmp := s.jobPath(id) + ".tmp"
		if err = os.WriteFile(tmp, payload, 0o600); err == nil {
			err = os.Rename(tmp, s.jobPath(id))
		}
		if err == nil {
			return
		}
		s.log.Warn("record a queued run in the sessions directory; if Redis loses it, it is not put back", "session", id, "err", err)
	}
}

// removeJob removes the record of the job payload of session id, leaving
// a record of a newer job alone.
func (s *Server) removeJob(id string, payload []byte) {
	b, err := os.ReadFile(s.jobPath(id))
	if err == nil && string(b) == string(payload) {
		_ = os.Remove(s.jobPath(id))
	}
}

// lastLogged is the session's last logged event; ok is false when its
// log has none.
func (s *Server) lastLogged(id string) (event.Event, bool) {
	evs, err := session.ReadEvents(s.eventsPath(id))
	if err != nil || len(evs) == 0 {
		return event.Event{}, false
	}
	return evs[len(evs)-1], true
}

// loggedStatus is the status a done event says its run ended in: a
// pause (asked for, or a stop at once) keeps the session resumable.
func loggedStatus(done event.Event) session.Status {
	switch {
	case done.Text == "paused":
		return session.StatusPaused
	case done.Interrupt != nil:
		return session.StatusWaiting
	case done.Err != nil && strings.Contains(done.Err.Error(), context.Canceled.Error()):
		return session.StatusPaused
	case done.Err != nil:
		return session.StatusFailed
	}
	return session.StatusDone
}

// restoreStatus sets the registry's record of session id from its log's
// done event when the record says otherwise (its status write failed,
// or Redis lost it): the log is the truth about how the run ended.
func (s *Server) restoreStatus(ctx context.Context, id string, meta *session.Meta, done event.Event) {
	status := loggedStatus(done)
	if meta != nil && meta.Status == status {
		return
	}
	m := session.Meta{ID: id, Status: status, Workspace: s.workspacePath(id)}
	if meta != nil {
		m = *meta
		m.Status, m.Owner, m.Step = status, nil, nil
	} else if st, err := s.readStaged(id); err == nil {
		m.Question, m.Created, m.Inputs = st.Question, st.Created, st.inputs()
	}
	m.Error, m.Pending = "", nil
	if done.Err != nil {
		m.Error = done.Err.Error()
	}
	if in := done.Interrupt; in != nil {
		m.Pending = &session.Pending{ID: in.ID, Kind: pendingKind(in.Kind), Prompt: in.Prompt, Choices: in.Choices}
	}
	if err := s.store.Sessions.Put(ctx, m); err != nil {
		s.log.Warn("set a session's status from its log", "session", id, "err", err)
		return
	}
	s.log.Info("set a session's status from its log: its run ended while its status could not be recorded", "session", id, "status", status)
}

func pendingKind(kind string) session.PendingKind {
	switch kind {
	case event.InterruptPlanReview:
		return session.PendingPlanReview
	case event.InterruptApproval:
		return session.PendingApproval
	}
	return session.PendingQuestion
}

// reconcileSoon reconciles the queue with the sessions directory one
// ClaimTTL from now, unless a reconcile is already due; why, when not
// empty, is logged.
func (s *Server) reconcileSoon(why string) {
	if s.runq == nil || !s.reconcileDue.CompareAndSwap(false, true) {
		return
	}
	if why != "" {
		s.log.Info(why+"; putting back the sessions that were queued or running and are no longer in the queue, once every live worker has renewed its claims", "in", s.cfg.ClaimTTL)
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		select {
		case <-time.After(s.cfg.ClaimTTL):
		case <-s.drainStarted:
			return
		}
		s.reconcileDue.Store(false)
		if n, err := s.reconcile(s.runCtx); err != nil {
			s.log.Warn("put back the runs Redis lost; trying again", "err", err)
			s.reconcileSoon("the last reconcile failed")
		} else if n > 0 {
			s.log.Info("put back the runs Redis lost", "sessions", n)
		}
	}()
}

// reconcile puts back in the queue every recorded job that is neither
// over, nor queued, nor held by a live process, and returns how many.
func (s *Server) reconcile(ctx context.Context) (int, error) {
	entries, err := os.ReadDir(joinPath(s.root, jobsDir))
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the queued runs' records: %w", err)
	}
	n := 0
	var errs []error
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || session.ValidateID(id) != nil {
			continue
		}
		put, err := s.reconcileJob(ctx, id)
		if err != nil {
			errs = append(errs, err)
		}
		if put {
			n++
		}
	}
	return n, errors.Join(errs...)
}

// reconcileJob reconciles session id's recorded job (see the top of the
// file), reporting whether it queued it again.
func (s *Server) reconcileJob(ctx context.Context, id string) (bool, error) {
	payload, err := os.ReadFile(s.jobPath(id))
	if err != nil {
		return false, nil // done with meanwhile
	}
	job, err := decodeJob(payload)
	if err != nil {
		s.log.Warn("a queued run's record cannot be read; removing it", "session", id, "err", err)
		_ = os.Remove(s.jobPath(id))
		return false, nil
	}
	sctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	if last, ok := s.lastLogged(id); ok && last.Seq > job.AfterSeq && last.Kind == event.Done {
		var meta *session.Meta
		if m, err := s.store.Sessions.Get(sctx, id); err == nil {
			meta = &m
		}
		s.restoreStatus(sctx, id, meta, last)
		s.removeJob(id, payload)
		return false, nil
	}
	active, err := s.runq.Active(sctx, id)
	if err != nil {
		return false, fmt.Errorf("session %s: %w", id, err)
	}
	if active {
		return false, nil
	}
	if err := s.claimFree(sctx, id); err != nil {
		var ref *refusal
		if errors.As(err, &ref) {
			return false, nil // a live process runs it, and puts its entry back
		}
		return false, fmt.Errorf("session %s: %w", id, err)
	}
	if _, err := s.runq.Add(sctx, id, payload); err != nil {
		if errors.Is(err, runqueue.ErrBusy) {
			return false, nil
		}
		return false, err
	}
	s.log.Info("put a run Redis lost back in the queue", "session", id, "kind", job.Kind)
	return true, nil
}

// readopt keeps a run going whose queue entry Redis lost: it takes the
// session's claim again first (so that no reconcile queues the run for
// another worker), then queues the entry again, which the worker that
// takes it works only once this run has ended and let go of the claim
// (claimForWork), and then finds ended (jobRun).
func (s *Server) readopt(h *hub, e *runqueue.Entry) {
	if h.ending() || s.entryFinished(h.id) {
		return
	}
	if err := s.claim(s.runCtx, h.id); err != nil {
		s.log.Warn("take the claim again on a run whose queue entry Redis lost", "session", h.id, "err", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if _, err := s.runq.Add(ctx, e.Session, e.Payload); err == nil {
		s.log.Warn("Redis lost the queue entry of a run going on here; queued it again so it is not lost", "session", h.id)
	} else if !errors.Is(err, runqueue.ErrBusy) {
		s.log.Warn("queue again a run whose entry Redis lost; the sessions directory's record puts it back later", "session", h.id, "err", err)
	}
}

// finishingRegistry is the registry the library writes through on a
// worker: a run's final status (done, failed, waiting) and the removal
// of its queue entry are one MULTI/EXEC, so no worker takes over a run
// whose status says it ended, and no status says running for a run
// whose entry is gone. Every write is retried before it fails.
type finishingRegistry struct {
	session.Registry
	// s is the server, set once it is made (the library is made first).
	s *Server
}

// statusWriteTries and statusWriteBackoff bound the retries of a status
// write: Redis restarting, a disk momentarily full.
const statusWriteTries = 4

var statusWriteBackoff = 250 * time.Millisecond

// Put implements session.Registry.
func (r *finishingRegistry) Put(ctx context.Context, m session.Meta) error {
	var err error
	wait := statusWriteBackoff
	for try := range statusWriteTries {
		if try > 0 {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return errors.Join(err, ctx.Err())
			}
			wait *= 2
		}
		if err = r.put(ctx, m); err == nil {
			return nil
		}
	}
	return err
}

func (r *finishingRegistry) put(ctx context.Context, m session.Meta) error {
	final := m.Status.Finished() || m.Status == session.StatusWaiting
	tx, ok := r.Registry.(session.TxPutter)
	var e *runqueue.Entry
	if r.s != nil && r.s.runq != nil {
		e = r.s.entryOf(m.ID)
	}
	if !final || !ok || e == nil {
		return r.Registry.Put(ctx, m)
	}
	if err := tx.PutWith(ctx, m, func(p redis.Pipeliner) { r.s.runq.DoneIn(ctx, p, e) }); err != nil {
		return err
	}
	// The entry is gone with the status written: the run's lease is not
	// renewed (nor the entry queued again as one Redis lost).
	r.s.finishEntry(m.ID)
	return nil
}

// workedEntries are the queue entries this worker is working, by
// session, and those of them already removed with their run's final
// status (finished).
type workedEntries struct {
	mu       sync.Mutex
	m        map[string]*runqueue.Entry
	finished map[string]bool
}

// finishEntry notes that session id's entry went with its final status.
func (s *Server) finishEntry(id string) {
	s.worked.mu.Lock()
	defer s.worked.mu.Unlock()
	if s.worked.m[id] != nil {
		if s.worked.finished == nil {
			s.worked.finished = map[string]bool{}
		}
		s.worked.finished[id] = true
	}
}

// entryFinished reports whether session id's entry went with its final
// status.
func (s *Server) entryFinished(id string) bool {
	s.worked.mu.Lock()
	defer s.worked.mu.Unlock()
	return s.worked.finished[id]
}

// decodeJob reads a queue payload.
func decodeJob(payload []byte) (queuedJob, error) {
	var job queuedJob
	err := json.Unmarshal(payload, &job)
	return job, err
}

func (s *Server) entryOf(id string) *runqueue.Entry {
	s.worked.mu.Lock()
	defer s.worked.mu.Unlock()
	return s.worked.m[id]
}

func (s *Server) setEntry(id string, e *runqueue.Entry) {
	s.worked.mu.Lock()
	defer s.worked.mu.Unlock()
	if s.worked.m == nil {
		s.worked.m = map[string]*runqueue.Entry{}
	}
	if e == nil {
		delete(s.worked.m, id)
		delete(s.worked.finished, id)
		return
	}
	s.worked.m[id] = e
}
