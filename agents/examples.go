package agents

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dustin/go-humanize/english"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/memory"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
)

// What worked before: the last successful cell of each finished step is
// kept as an example about the run's data (memory.KindExample), and the
// code agent of a later session on the same data is shown the examples
// most like its question (at most memory.ExampleTokens), which the run
// names in an event and the trajectory holds in the agent's prompt.

// rememberExamples keeps, for each step this question finished, the last
// cell that ran for it without an error, as an example of code that
// worked on the run's data.
func (r *run) rememberExamples(ctx context.Context) {
	store := r.sift.memoryStore()
	if store == nil || r.fromMemory != "" || r.plan == nil || r.ws == nil {
		return
	}
	cells, err := operator.ReadCells(r.ws.Root)
	if err != nil || len(cells) == 0 {
		return
	}
	inputs, err := r.ws.Inputs()
	if err != nil {
		return
	}
	srcs, ok := r.dataSources(ctx, inputs)
	if !ok {
		return
	}
	for _, st := range r.plan.Steps {
		if st.Status != plans.StatusDone {
			continue
		}
		code := lastGoodCell(cells, st.Index)
		if code == "" || len(code) > memory.MaxExampleBytes {
			continue
		}
		e := memory.NewExample(memory.LanguagePython, st.Description, code, srcs, r.ws.ID, time.Now())
		if err := store.Put(context.WithoutCancel(ctx), e); err != nil {
			r.memoryWarning("could not remember the code that worked", err)
			return
		}
	}
}

// lastGoodCell is the code of the last cell run for step that ended
// without an error (a replay repeats an earlier cell, so it is not one).
func lastGoodCell(cells []operator.CellRecord, step int) string {
	for i := len(cells) - 1; i >= 0; i-- {
		c := cells[i]
		if c.OK && !c.Replayed && (c.Step == step || c.Step == 0 && c.Branch == step) {
			return strings.TrimSpace(c.Code)
		}
	}
	return ""
}

// recallExamples readies the code that worked in earlier sessions on the
// run's data for the code agent, and says which in an event.
func (r *run) recallExamples(ctx context.Context, inputs []string) {
	store := r.sift.memoryStore()
	if store == nil {
		return
	}
	srcs, ok := r.dataSources(ctx, inputs)
	if !ok {
		return
	}
	all, err := store.List(ctx)
	if err != nil {
		r.memoryWarning("could not read the memory", err)
		return
	}
	q := r.req.Question
	if r.plan != nil && r.plan.Question != "" {
		q = r.plan.Question
	}
	text, shown := memory.Examples(all, memory.LanguagePython, srcs, q, r.ws.ID, memory.ExampleTokens)
	if len(shown) == 0 {
		return
	}
	r.examples = text
	lines := make([]string, len(shown))
	for i, e := range shown {
		lines[i] = fmt.Sprintf("- %q (session %s, %s; memory entry %s)", e.Question, e.Session, e.Created.Format(time.DateOnly), e.ID)
	}
	r.emit(event.Event{Kind: event.Message, Agent: MemoryAgent, Text: fmt.Sprintf("The code agent is shown %s of code that worked before on this data (forget one with sift memory forget ID):\n%s",
		english.Plural(len(shown), "example", ""), strings.Join(lines, "\n"))})
}
