package agents

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dustin/go-humanize/english"

	"github.com/sift-agent/sift/agents/internal/conversation"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/memory"
)

// What worked before, for the SQL analyst: the SQL of a turn it answered
// is kept as an example about the conversation's databases (by address
// and tables), and the SQL analyst of a later session on them is shown
// the examples most like its request (at most memory.ExampleTokens).

// sqlExamples is the SQL analyst's examples for a request (nil when
// memory is off): the first call says which it shows.
func (a *askRun) sqlExamples(ctx context.Context) func(request string) string {
	c := a.c
	store := c.sift.memoryStore()
	if store == nil || c.cfg.Sources == nil {
		return nil
	}
	var once sync.Once
	return func(request string) string {
		srcs, err := databaseSources(ctx, c.cfg.Sources)
		if err != nil || len(srcs) == 0 {
			return ""
		}
		all, err := store.List(ctx)
		if err != nil {
			return ""
		}
		text, shown := memory.Examples(all, memory.LanguageSQL, srcs, request, c.ws.ID, memory.ExampleTokens)
		if len(shown) > 0 {
			once.Do(func() {
				lines := make([]string, len(shown))
				for i, e := range shown {
					lines[i] = fmt.Sprintf("- %q (session %s, %s; memory entry %s)", e.Question, e.Session, e.Created.Format(time.DateOnly), e.ID)
				}
				a.emit(event.Event{Kind: event.Message, Agent: MemoryAgent, Text: fmt.Sprintf("The SQL analyst is shown %s of SQL that worked before on these databases (forget one with sift memory forget ID):\n%s",
					english.Plural(len(shown), "example", ""), strings.Join(lines, "\n"))})
			})
		}
		return text
	}
}

// rememberSQL keeps the SQL of a turn the SQL analyst answered as an
// example about the conversation's databases.
func (a *askRun) rememberSQL(ctx context.Context, t Turn) {
	c := a.c
	store := c.sift.memoryStore()
	if store == nil || t.Route != conversation.RouteSQL || t.Error != "" || strings.TrimSpace(t.SQL) == "" || len(t.SQL) > memory.MaxExampleBytes {
		return
	}
	srcs, err := databaseSources(ctx, c.cfg.Sources)
	if err != nil || len(srcs) == 0 {
		return
	}
	task := t.Request
	if task == "" {
		task = t.Question
	}
	e := memory.NewExample(memory.LanguageSQL, task, t.SQL, srcs, c.ws.ID, time.Now())
	if err := store.Put(context.WithoutCancel(ctx), e); err != nil {
		a.emit(event.Event{Kind: event.Message, Agent: MemoryAgent, Text: fmt.Sprintf("warning: could not remember the SQL that worked: %v", err)})
	}
}
