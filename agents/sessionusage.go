package agents

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/trajectory"
)

// The files a session's usage is read from.
const (
	// trajectoryFile records every model call of every run of a session.
	trajectoryFile = "trajectory.jsonl"
	// usageFile holds the usage of the session's latest run.
	usageFile = "usage.json"
)

// SessionUsage returns the model usage of the session whose workspace is
// root, summed over all its questions and runs (a resume, a follow-up and
// each question of a chat are runs of their own; each writes usage.json
// anew). It is read from trajectory.jsonl, which records every call, even
// those of a run that was killed; a session without one falls back to the
// latest run's usage.json. A line of the trajectory that cannot be read (a
// record cut short by a crash) is skipped and counted in Unreadable.
func SessionUsage(root string) (*event.SessionUsage, error) {
	f, err := os.Open(filepath.Join(root, trajectoryFile))
	if errors.Is(err, fs.ErrNotExist) {
		return latestRunUsage(root)
	}
	if err != nil {
		return nil, fmt.Errorf("read the session's usage: %w", err)
	}
	defer f.Close()
	var total llm.Counts
	perAgent := map[string]llm.Counts{}
	perStep := map[int]llm.Counts{}
	perTurn := map[int]llm.Counts{}
	unreadable, err := trajectory.Scan(f, true, func(rec trajectory.Record) {
		c := llm.RecordedCounts(rec)
		total = total.Add(c)
		perAgent[rec.Agent] = perAgent[rec.Agent].Add(c)
		perStep[rec.Step] = perStep[rec.Step].Add(c)
		perTurn[rec.Turn] = perTurn[rec.Turn].Add(c)
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	u := &event.SessionUsage{
		Usage:      event.Usage{AgentUsage: agentUsage(total), PerAgent: map[string]*event.AgentUsage{}, PerStep: map[int]*event.AgentUsage{}},
		Unreadable: unreadable,
	}
	for a, c := range perAgent {
		au := agentUsage(c)
		u.PerAgent[a] = &au
	}
	for s, c := range perStep {
		au := agentUsage(c)
		u.PerStep[s] = &au
	}
	// Records made before questions were recorded (turn 0) belong to no
	// question, so then there is no split to show.
	if _, unknown := perTurn[0]; !unknown {
		for turn, c := range perTurn {
			u.Questions = append(u.Questions, event.QuestionUsage{Question: turn, AgentUsage: agentUsage(c)})
		}
		slices.SortFunc(u.Questions, func(a, b event.QuestionUsage) int { return a.Question - b.Question })
	}
	return u, nil
}

// latestRunUsage reads the usage.json of a session recorded without a
// trajectory.
func latestRunUsage(root string) (*event.SessionUsage, error) {
	path := filepath.Join(root, usageFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("the session has neither %s nor %s: no model call was recorded (it may still be starting)", trajectoryFile, usageFile)
	}
	if err != nil {
		return nil, fmt.Errorf("read the session's usage: %w", err)
	}
	var u event.SessionUsage
	if err := json.Unmarshal(b, &u.Usage); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return &u, nil
}
