package agents

import (
	"context"
	"time"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/session"
)

// Names of the library API whose work is done in the agent tree, the
// prompts or the report: they keep their place in package agents.

// PromptVersion names the revision of the agents' prompts. Bump it
// whenever a prompt changes.
const PromptVersion = prompt.Version

// DefaultParallel is how many plan steps run at the same time unless
// Request.Parallel says otherwise.
const DefaultParallel = tree.DefaultParallel

// ErrBudgetExceeded: the run reached one of its budgets and stopped at a
// safe point; the report says what was found and what is missing.
var ErrBudgetExceeded = tree.ErrBudgetExceeded

// ErrAnswerOnFailedSteps: the run finished, but its answer rests on steps
// that failed: no step succeeded, or the answer cites a step that
// computed nothing. The report says so; the CLI exits with its own code.
var ErrAnswerOnFailedSteps = report.ErrAnswerOnFailedSteps

// Budget bounds what one run may spend. Zero fields mean no bound. It is
// saved with the session, so a resume is bound by it again.
type Budget = session.Budget

// Extensions are what a service that embeds Sift adds to its agents
// without forking: its own tools and sub-agents (offered to the executor
// or the code agent), and the house rules every agent follows (standing
// instructions and a glossary). See the fields for each.
type Extensions = tree.Extensions

// ModelError is a model call that failed after the client's retries: the
// run cannot go on without the model, so it ends with this error.
type ModelError = tree.ModelError

// WithClock returns a context whose runs read the current time from now:
// the date every agent's prompt carries, against which the models resolve
// "last month", "YTD" or "this year". Tests and replays pin it; the time
// zone is now's location. Without it, runs use time.Now.
func WithClock(ctx context.Context, now func() time.Time) context.Context {
	return tree.WithClock(ctx, now)
}

// SessionPlan returns the plan of the session whose workspace is dir, with
// each step's status, as plan.md shows it; an error when the session
// recorded no plan state (it never got as far as planning).
func SessionPlan(dir string) (*plans.FullPlan, error) {
	return tree.LoadPlanState(dir)
}

// SessionQuestions returns the questions asked in the session whose
// workspace is dir, in the order they were asked: the first, then each
// follow-up. It is nil when the session recorded no plan state (it never
// got as far as planning).
func SessionQuestions(dir string) []string {
	fp, err := tree.LoadPlanState(dir)
	if err != nil {
		return nil
	}
	var qs []string
	for _, e := range fp.Earlier {
		qs = append(qs, e.Question)
	}
	return append(qs, fp.Question)
}
