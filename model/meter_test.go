package model

import (
	"sync"
	"testing"
	"time"

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
