package llm

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
)

func TestMeterConcurrentAdd(t *testing.T) {
	var m Meter
	var wg sync.WaitGroup
	for i := range 100 {
		agent := AgentNames[i%len(AgentNames)]
		wg.Go(func() {
			m.Add(agent, Counts{Calls: 1, PromptTokens: 10, CompletionTokens: 2, Latency: time.Millisecond})
		})
	}
	wg.Wait()
	want := map[string]Counts{}
	for _, a := range AgentNames {
		want[a] = Counts{Calls: 25, PromptTokens: 250, CompletionTokens: 50, Latency: 25 * time.Millisecond}
	}
	if diff := cmp.Diff(want, m.Snapshot()); diff != "" {
		t.Errorf("snapshot mismatch (-want +got):\n%s", diff)
	}
	total := m.Total()
	if diff := cmp.Diff(Counts{Calls: 100, PromptTokens: 1000, CompletionTokens: 200, Latency: 100 * time.Millisecond}, total); diff != "" {
		t.Errorf("total mismatch (-want +got):\n%s", diff)
	}
	if total.TotalTokens() != 1200 {
		t.Errorf("TotalTokens() = %d, want 1200", total.TotalTokens())
	}
}

func TestMeterSnapshotIsACopy(t *testing.T) {
	var m Meter
	m.Add("a", Counts{Calls: 1})
	snap := m.Snapshot()
	snap["a"] = Counts{Calls: 99}
	if got := m.Snapshot()["a"].Calls; got != 1 {
		t.Errorf("Calls = %d after changing a snapshot, want 1", got)
	}
}

func TestNilMeter(t *testing.T) {
	var m *Meter
	m.Add("a", Counts{Calls: 1})
	if len(m.Snapshot()) != 0 || m.Total() != (Counts{}) {
		t.Error("a nil meter must record nothing")
	}
}

func TestMeterByStep(t *testing.T) {
	var m Meter
	m.Add(AgentPlanner, Counts{Calls: 1, PromptTokens: 100})
	m.AddStep(AgentExecutor, 1, Counts{Calls: 1, PromptTokens: 10, CachedTokens: 4, Cost: 0.5})
	m.AddStep(AgentCode, 1, Counts{Calls: 2, PromptTokens: 20, ReasoningTokens: 3, Estimated: 1})
	m.AddStep(AgentExecutor, 2, Counts{Calls: 1, PromptTokens: 30, Unpriced: 1})

	wantAgents := map[string]Counts{
		AgentPlanner:  {Calls: 1, PromptTokens: 100},
		AgentExecutor: {Calls: 2, PromptTokens: 40, CachedTokens: 4, Cost: 0.5, Unpriced: 1},
		AgentCode:     {Calls: 2, PromptTokens: 20, ReasoningTokens: 3, Estimated: 1},
	}
	if diff := cmp.Diff(wantAgents, m.Snapshot()); diff != "" {
		t.Errorf("Snapshot mismatch (-want +got):\n%s", diff)
	}
	wantSteps := map[int]Counts{
		NoStep: {Calls: 1, PromptTokens: 100},
		1:      {Calls: 3, PromptTokens: 30, CachedTokens: 4, ReasoningTokens: 3, Estimated: 1, Cost: 0.5},
		2:      {Calls: 1, PromptTokens: 30, Unpriced: 1},
	}
	if diff := cmp.Diff(wantSteps, m.ByStep()); diff != "" {
		t.Errorf("ByStep mismatch (-want +got):\n%s", diff)
	}
	if got := m.ByAgentStep()[AgentStep{Agent: AgentCode, Step: 1}]; got.Calls != 2 {
		t.Errorf("ByAgentStep[code,1].Calls = %d, want 2", got.Calls)
	}
	var nilMeter *Meter
	if len(nilMeter.ByStep()) != 0 || len(nilMeter.ByAgentStep()) != 0 {
		t.Error("a nil meter must report nothing")
	}
}

func TestWithStep(t *testing.T) {
	ctx := context.Background()
	if s, ok := StepFrom(ctx); ok || s != NoStep {
		t.Errorf("StepFrom(empty) = %d, %v; want NoStep, false", s, ok)
	}
	if s, ok := StepFrom(WithStep(ctx, 3)); !ok || s != 3 {
		t.Errorf("StepFrom(WithStep(3)) = %d, %v; want 3, true", s, ok)
	}
}

func TestCountsOf(t *testing.T) {
	got := countsOf(&schema.TokenUsage{PromptTokens: 100, CompletionTokens: 40, TotalTokens: 140,
		PromptTokenDetails:      schema.PromptTokenDetails{CachedTokens: 64},
		CompletionTokensDetails: schema.CompletionTokensDetails{ReasoningTokens: 30}})
	want := Counts{Calls: 1, PromptTokens: 100, CompletionTokens: 40, CachedTokens: 64, ReasoningTokens: 30}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("countsOf mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Counts{Calls: 1}, countsOf(nil)); diff != "" {
		t.Errorf("countsOf(nil) mismatch (-want +got):\n%s", diff)
	}
}
