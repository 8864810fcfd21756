package agents

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/session"
)

// TestEventsOnceThroughHTTP runs a whole analysis through the real
// OpenAI-compatible client, streaming and not, and checks that the
// library's iterator and events.jsonl hold each tool call and each agent
// message once: the client runs Eino's callbacks itself, and a wrapper
// that hid this made Eino run them a second time.
func TestEventsOnceThroughHTTP(t *testing.T) {
	for _, stream := range []bool{true, false} {
		name := "generate"
		if stream {
			name = "stream"
		}
		t.Run(name, func(t *testing.T) {
			s := httpSift(t, scripted.New(threeStepScript(false)...), func(c *Config) { c.Stream = stream })
			evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
			done := evs[len(evs)-1]
			if done.Err != nil {
				t.Fatalf("run failed: %v", done.Err)
			}
			checkEventsOnce(t, "iterator", evs)

			f, err := os.Open(filepath.Join(done.Path, "events.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var logged []event.Event
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<24)
			for sc.Scan() {
				e, err := session.UnmarshalEvent(sc.Bytes())
				if err != nil {
					t.Fatalf("events.jsonl: %v", err)
				}
				logged = append(logged, e)
			}
			checkEventsOnce(t, "events.jsonl", logged)
		})
	}
}

// checkEventsOnce fails when a tool call or a message appears twice: three
// python calls (one per step; steps go straight to the code agent), and
// the code agent's answer once per step whether whole or in deltas.
func checkEventsOnce(t *testing.T, where string, evs []event.Event) {
	t.Helper()
	calls := map[string]int{}
	var said strings.Builder
	for _, e := range evs {
		switch {
		case e.Kind == event.ToolCall:
			calls[e.ToolCallID]++
		case e.Kind == event.Message && e.Agent == tree.NameCodeAgent:
			said.WriteString(e.Text)
			if !e.Delta {
				said.WriteString("\n")
			}
		}
	}
	if len(calls) != 3 {
		t.Errorf("%s: %d distinct tool calls, want 3: %v", where, len(calls), calls)
	}
	for id, n := range calls {
		if n != 1 {
			t.Errorf("%s: tool call %s reported %d times", where, id, n)
		}
	}
	if n := strings.Count(said.String(), "Done. Output:"); n != 3 {
		for _, e := range evs {
			t.Logf("%s %s %q", e.Kind, e.Agent, e.Text)
		}
		t.Errorf("%s: the code agent's three answers were reported %d times:\n%s", where, n, said.String())
	}
}
