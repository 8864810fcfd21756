package agents

import (
	"context"
	"iter"

	"github.com/sift-agent/sift/event"
)

// Answer goes on, in this process, with the turn whose data analyst waits
// for the person (the last turn is Pending): answers are keyed by
// interrupt ID, as for Sift.Resume, and the run goes on in the
// conversation's own session with its workspace, operator and databases.
// Once the analysis has its answer the turn is filled in (Turns and the
// history file); it may also ask again. The events end with event.Done.
func (c *Conversation) Answer(ctx context.Context, answers map[string]any) iter.Seq[event.Event] {
	return func(yield func(event.Event) bool) {
		c.mu.Lock()
		defer c.mu.Unlock()
		r := c.sift.newRun(Request{}, func(e event.Event) bool {
			if logged, err := c.log.Record(e); err == nil {
				e = logged
			}
			return yield(e)
		})
		r.lent = &lent{ws: c.ws, op: c.op, sources: c.cfg.Sources}
		c.sift.start(ctx, r, func(r *run, ctx context.Context) { r.resume(ctx, c.ws.ID, answers, resumeOptions{}) })
		if n := len(c.turns); n > 0 && c.turns[n-1].Pending {
			c.settlePending()
			if !c.turns[n-1].Pending {
				_ = c.saveHistory()
			}
		}
	}
}
