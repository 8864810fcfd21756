package server

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/session"
)

// Schedule refreshes a finished session at the times a cron expression
// names, on the newest file of a data directory that matches a pattern,
// or (with neither) on the databases the session queried, as they are
// then.
// Every server and worker given the schedule watches the clock; each
// firing is taken by exactly one of them (a claim in the shared store),
// which runs it, or queues it for a worker.
type Schedule struct {
	// Name tells schedules apart: letters, digits, '.', '_' and '-'.
	Name string `json:"name"`
	// Cron is a standard five-field cron expression ("0 7 * * 1": Mondays
	// at 07:00, in the server's time zone), or a descriptor (@daily).
	Cron string `json:"cron"`
	// Session is the finished session to refresh.
	Session string `json:"session"`
	// DataDir names one of the server's data directories (Config.DataDirs)
	// and Pattern is a file name pattern in it ("sales-*.csv"): the newest
	// matching file (by modification time) is the new data. Both empty:
	// the session's queries run again on its databases, opened from the
	// server's configuration (Config.Databases).
	DataDir string `json:"data_dir,omitempty"`
	Pattern string `json:"pattern,omitempty"`
	// Approve applies a mapping of renamed columns; without it such a
	// firing fails and says which columns were renamed.
	Approve bool `json:"approve,omitempty"`
}

// scheduleName is what a schedule's name may hold.
var scheduleName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// scheduleTTL is how long the claim on one firing lasts: long after any
// server could still try to take the same firing.
const scheduleTTL = 7 * 24 * time.Hour

// parseSchedules checks the schedules against the data directories and
// returns their cron schedules.
func parseSchedules(scheds []Schedule, dataDirs map[string]string) ([]cron.Schedule, error) {
	seen := map[string]bool{}
	var out []cron.Schedule
	for _, sc := range scheds {
		switch {
		case !scheduleName.MatchString(sc.Name):
			return nil, fmt.Errorf("schedule %q: give a name of letters, digits, '.', '_' and '-' (at most 64)", sc.Name)
		case seen[sc.Name]:
			return nil, fmt.Errorf("schedule %s is named twice; give each its own name", sc.Name)
		case session.ValidateID(sc.Session) != nil:
			return nil, fmt.Errorf("schedule %s: session %q is not a session id", sc.Name, sc.Session)
		case sc.DataDir == "" && sc.Pattern == "":
			// The session's databases.
		case dataDirs[sc.DataDir] == "":
			return nil, fmt.Errorf("schedule %s: no data directory named %q; give one of the server's --data-dir names (or neither data_dir nor pattern, to query the session's databases again)", sc.Name, sc.DataDir)
		}
		if _, err := filepath.Match(sc.Pattern, ""); sc.DataDir != "" && (err != nil || sc.Pattern == "" || filepath.Base(sc.Pattern) != sc.Pattern) {
			return nil, fmt.Errorf("schedule %s: pattern %q is not a file name pattern (such as sales-*.csv)", sc.Name, sc.Pattern)
		}
		cs, err := cron.ParseStandard(sc.Cron)
		if err != nil {
			return nil, fmt.Errorf("schedule %s: cron %q: %w", sc.Name, sc.Cron, err)
		}
		seen[sc.Name] = true
		out = append(out, cs)
	}
	return out, nil
}

// startSchedules watches the clock for each schedule until the server
// shuts down.
func (s *Server) startSchedules(crons []cron.Schedule) {
	for i, cs := range crons {
		sc := s.cfg.Schedules[i]
		go func() {
			for {
				next := cs.Next(time.Now())
				t := time.NewTimer(time.Until(next))
				select {
				case <-s.runCtx.Done():
					t.Stop()
					return
				case <-s.drainStarted:
					t.Stop()
					return
				case <-t.C:
				}
				if _, err := s.fire(s.runCtx, sc, next); err != nil {
					s.log.Warn("a scheduled refresh failed", "schedule", sc.Name, "err", err)
				}
			}
		}()
	}
}

// fire takes the firing of sc at tick, unless another server or worker
// took it, and starts (or queues) its refresh. It returns the new
// session's id, "" when another took the firing. A firing that cannot run
// (no file matches, the session cannot be refreshed on it) is a failed
// session that says why.
func (s *Server) fire(ctx context.Context, sc Schedule, tick time.Time) (string, error) {
	claim := fmt.Sprintf("schedule.%s.%s", sc.Name, tick.UTC().Format("20060102T150405Z"))
	// Each attempt is an owner of its own: a firing taken once, even by
	// this server, is never taken again.
	err := s.store.Claims.Acquire(ctx, claim, session.Holder{ID: session.NewID(), What: "schedule " + sc.Name + " on " + s.cfg.WorkerName}, scheduleTTL)
	if errors.Is(err, session.ErrClaimed) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("schedule %s: take the firing of %s: %w", sc.Name, tick.Format(time.RFC3339), err)
	}
	id := session.NewIDContext(ctx)
	s.metrics.scheduleFirings.Inc()
	req := agents.RefreshRequest{Session: sc.Session, Approve: sc.Approve, SessionID: id}
	if sc.DataDir == "" {
		req.Databases = s.recordedDatabases(sc.Session)
	} else {
		file, err := newestMatch(s.cfg.DataDirs[sc.DataDir], sc.Pattern)
		if err != nil {
			return id, s.failFiring(ctx, id, sc, tick, err)
		}
		req.Files = []string{file}
	}
	plan, err := s.sift.PlanRefresh(ctx, req)
	if err == nil && plan.NeedsApproval && !sc.Approve {
		err = &agents.MappingError{Plan: plan}
	}
	if err != nil {
		return id, s.failFiring(ctx, id, sc, tick, err)
	}
	// Recorded before the run starts, so the session is found (and its
	// events streamed) from now on.
	now := time.Now().UTC()
	st := &staged{ID: id, Created: now, Started: now, Question: plan.Question}
	if err := os.MkdirAll(s.stagedDir(id), 0o755); err != nil {
		return id, s.failFiring(ctx, id, sc, tick, err)
	}
	if err := s.writeStaged(st); err != nil {
		return id, s.failFiring(ctx, id, sc, tick, err)
	}
	if s.runq != nil {
		_, err = s.enqueue(ctx, id, queuedJob{Kind: jobRefresh, Refresh: &req})
	} else {
		_, err = s.startRun(ctx, id, func(ctx context.Context) iter.Seq[event.Event] { return s.sift.Refresh(ctx, req) }, nil)
	}
	if err != nil {
		return id, s.failFiring(ctx, id, sc, tick, err)
	}
	s.notifyWhenDone(sc, tick, id)
	return id, nil
}

// failFiring records a firing that could not run as a failed session,
// linked to the schedule's session, with the reason.
func (s *Server) failFiring(ctx context.Context, id string, sc Schedule, tick time.Time, why error) error {
	s.metrics.scheduleFailures.Inc()
	err := fmt.Errorf("schedule %s, firing of %s: %w", sc.Name, tick.Format(time.RFC3339), why)
	m := session.Meta{ID: id, Question: fmt.Sprintf("Scheduled refresh %s of session %s", sc.Name, sc.Session), Status: session.StatusFailed, Error: err.Error(), Parent: sc.Session, Origin: session.OriginRefresh}
	if perr := s.store.Sessions.Put(context.WithoutCancel(ctx), m); perr != nil {
		return fmt.Errorf("%w (and recording it failed: %v)", err, perr)
	}
	s.notifyWhenDone(sc, tick, id)
	return err
}

// newestMatch is the newest regular file in dir whose name matches
// pattern.
func newestMatch(dir, pattern string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("read the data directory: %w", err)
	}
	var best string
	var bestTime time.Time
	for _, e := range entries {
		if ok, _ := filepath.Match(pattern, e.Name()); !ok || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if best == "" || info.ModTime().After(bestTime) {
			best, bestTime = filepath.Join(dir, e.Name()), info.ModTime()
		}
	}
	if best == "" {
		return "", fmt.Errorf("no file in the data directory matches %s", pattern)
	}
	return best, nil
}
