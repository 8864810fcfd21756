package agents

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
)

// resolveLastMonth plays a planner that reads today's date from its system
// prompt and plans for the month before it, as a model resolving "last
// month" does.
var todayRe = regexp.MustCompile(`## Today\n(\d{4}-\d{2}-\d{2})`)

func resolveLastMonth(req scripted.Request) (*schema.Message, error) {
	m := todayRe.FindStringSubmatch(req.Messages[0].Content)
	if m == nil {
		return scripted.ToolCall(toolCreatePlan, `{"steps":[{"index":1,"description":"no date in the prompt"}]}`), nil
	}
	today, _ := time.Parse("2006-01-02", m[1])
	last := today.AddDate(0, 0, -today.Day()).Format("2006-01")
	return scripted.ToolCall(toolCreatePlan, `{"steps":[{"index":1,"description":"Total revenue of `+last+`"}]}`), nil
}

func TestRelativeDatesResolveAgainstTheInjectedClock(t *testing.T) {
	for _, tt := range []struct {
		now  time.Time
		want string
	}{
		{time.Date(2024, 2, 15, 9, 0, 0, 0, time.UTC), "Total revenue of 2024-01"},
		{time.Date(2025, 1, 3, 9, 0, 0, 0, time.UTC), "Total revenue of 2024-12"},
	} {
		script := scripted.New(
			scripted.Reply{Func: resolveLastMonth},
			text("Nothing to compute."),
			call(toolSubmitResult, map[string]any{"answer": "See the plan."}),
			text("# Last month\n\nSee the plan [step 1]."),
		)
		ctx := WithClock(context.Background(), func() time.Time { return tt.now })
		var done []string
		for e := range httpSift(t, script, nil).Run(ctx, Request{Mode: ModePlan, Question: "What was last month's revenue?"}) {
			if e.Plan != nil && len(e.Plan.Steps) > 0 {
				done = append(done, e.Plan.Steps[0].Description)
			}
		}
		if len(done) == 0 || done[len(done)-1] != tt.want {
			t.Errorf("clock %s: plan %q, want %q", tt.now.Format("2006-01-02"), done, tt.want)
		}
		date := tt.now.Format("2006-01-02")
		for i, req := range script.Requests() {
			has := strings.Contains(req.Messages[0].Content, "## Today\n"+date)
			if replanner := offers(req, toolSubmitResult); replanner && has {
				t.Errorf("request %d, the replanner's, carries today's date, billed after every step", i)
			} else if !replanner && !has {
				t.Errorf("request %d's system prompt lacks today's date %s", i, date)
			}
		}
	}
}

// offers reports whether req offered the tool named name.
func offers(req scripted.Request, name string) bool {
	for _, t := range req.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}
