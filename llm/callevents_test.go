package llm

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/llm/scripted"
)

// Every call, streamed or not, failed or not, is reported as it starts and
// as it ends, with its role, agent turn and step, and the meter has
// counted it by the time its end is reported.
func TestWrapReportsCallStartAndEnd(t *testing.T) {
	boom := errors.New("boom")
	s := scripted.New(
		scripted.Reply{Message: &schema.Message{Role: schema.Assistant, Content: "x",
			ResponseMeta: &schema.ResponseMeta{Usage: &schema.TokenUsage{PromptTokens: 100, CompletionTokens: 7}}}},
		scripted.Reply{Message: &schema.Message{Role: schema.Assistant, Content: "streamed",
			ResponseMeta: &schema.ResponseMeta{Usage: &schema.TokenUsage{PromptTokens: 50, CompletionTokens: 3}}}},
		scripted.Reply{Err: boom},
	)
	var meter Meter
	type seen struct {
		Role, Agent     string
		Step            int
		Done, Failed    bool
		Prompt, Metered int
	}
	var (
		mu  sync.Mutex
		got []seen
	)
	ctx := WithCallObserver(context.Background(), func(c CallInfo) {
		mu.Lock()
		defer mu.Unlock()
		if c.Started.IsZero() {
			t.Error("a call was reported without its start time")
		}
		got = append(got, seen{c.Role, c.Agent, c.Step, c.Done, c.Err != nil, c.Counts.PromptTokens, meter.Total().Calls})
	})
	ctx, end := StartAgent(WithStep(ctx, 2), "step 2")
	defer end(nil)
	m := Wrap(s.Model(), AgentCode, &meter)
	if _, err := m.Generate(ctx, nil); err != nil {
		t.Fatal(err)
	}
	sr, err := m.Stream(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	collect(t, sr)
	if _, err := m.Generate(ctx, nil); !errors.Is(err, boom) {
		t.Fatalf("error = %v, want boom", err)
	}
	want := []seen{
		{AgentCode, "step 2", 2, false, false, 0, 0},
		{AgentCode, "step 2", 2, true, false, 100, 1},
		{AgentCode, "step 2", 2, false, false, 0, 1},
		{AgentCode, "step 2", 2, true, false, 50, 2},
		{AgentCode, "step 2", 2, false, false, 0, 2},
		{AgentCode, "step 2", 2, true, true, 0, 3},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("call reports mismatch (-want +got):\n%s", diff)
	}
}
