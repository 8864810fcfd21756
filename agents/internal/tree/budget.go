package tree

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/session"
)

// ErrBudgetExceeded: the run reached one of its budgets and stopped at a
// safe point; the report says what was found and what is missing.
var ErrBudgetExceeded = errors.New("budget reached")

// Budget bounds what one run may spend. Zero fields mean no bound. It is
// saved with the session, so a resume is bound by it again.
type Budget = session.Budget

// BudgetGuard checks a Budget at the run's safe points: before a step,
// before a replan, before the report. Once a bound is reached it stays
// reached, so every later check agrees.
type BudgetGuard struct {
	budget Budget
	meter  *llm.Meter
	start  time.Time
	now    func() time.Time

	mu      sync.Mutex
	steps   int
	reached error
}

func NewBudgetGuard(b Budget, meter *llm.Meter, now func() time.Time) *BudgetGuard {
	if now == nil {
		now = time.Now
	}
	return &BudgetGuard{budget: b, meter: meter, start: now(), now: now}
}

// stepStarted counts a step about to run.
func (g *BudgetGuard) stepStarted() {
	g.mu.Lock()
	g.steps++
	g.mu.Unlock()
}

// check returns an error wrapping ErrBudgetExceeded once a bound is
// reached; beforeStep also counts the step that would start.
func (g *BudgetGuard) check(beforeStep bool) error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.reached != nil {
		return g.reached
	}
	b := g.budget
	total := g.meter.Total()
	switch {
	case b.MaxModelCalls > 0 && total.Calls >= b.MaxModelCalls:
		g.reached = fmt.Errorf("%w: %d model calls of %d allowed (--max-model-calls)", ErrBudgetExceeded, total.Calls, b.MaxModelCalls)
	case b.MaxTokens > 0 && total.TotalTokens() >= b.MaxTokens:
		g.reached = fmt.Errorf("%w: %d tokens of %d allowed (--max-tokens)", ErrBudgetExceeded, total.TotalTokens(), b.MaxTokens)
	case b.MaxCost > 0 && total.Cost >= b.MaxCost:
		g.reached = fmt.Errorf("%w: $%.4f of $%.4f allowed (--max-cost)", ErrBudgetExceeded, total.Cost, b.MaxCost)
	case b.MaxTime > 0 && g.now().Sub(g.start) >= b.MaxTime:
		g.reached = fmt.Errorf("%w: %s of %s allowed (--max-time)", ErrBudgetExceeded, g.now().Sub(g.start).Round(time.Second), b.MaxTime)
	case beforeStep && b.MaxSteps > 0 && g.steps >= b.MaxSteps:
		g.reached = fmt.Errorf("%w: %d steps of %d allowed (--max-steps)", ErrBudgetExceeded, g.steps, b.MaxSteps)
	}
	return g.reached
}

// Exceeded reports the bound reached so far, if any, without checking anew.
func (g *BudgetGuard) Exceeded() error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.reached
}
