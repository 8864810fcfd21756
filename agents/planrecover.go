package agents

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// ErrDamagedState means a session's recorded plan (state.json) cannot be
// read and its event log holds no plan to recover it from: resuming it
// would run its finished steps again as if nothing had been planned.
var ErrDamagedState = errors.New("the session's recorded plan is damaged")

// resumePlan is the recorded plan a resume goes on from. A session with
// no state.json yet (stopped while planning) starts from an empty plan.
// A state.json that cannot be read is not taken for "never planned": the
// plan is recovered from the last plan events.jsonl logged, and note
// says so; with none there, it fails with ErrDamagedState.
func resumePlan(root, question string) (fp *plans.FullPlan, note string, err error) {
	fp, err = tree.LoadPlanState(root)
	if err == nil {
		return fp, "", nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return &plans.FullPlan{Question: question}, "", nil
	}
	evs, lerr := session.ReadEvents(filepath.Join(root, session.EventsFile))
	for i := len(evs) - 1; lerr == nil && i >= 0; i-- {
		if p := evs[i].Plan; p != nil {
			return p.Clone(), fmt.Sprintf("The session's recorded plan (%s) could not be read (%v); it was recovered from the plan its event log recorded last (event %d): steps finished by then are kept.", tree.PlanStateFile, err, evs[i].Seq), nil
		}
	}
	return nil, "", fmt.Errorf("%w: %w, and its event log records no plan to recover it from; look at %s, or ask the question again in a new session", ErrDamagedState, err, filepath.Join(root, tree.PlanStateFile))
}
