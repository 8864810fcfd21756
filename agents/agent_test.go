package agents

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
)

// memCheckpoints is an embedder's own checkpoint store.
type memCheckpoints struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *memCheckpoints) Get(_ context.Context, id string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[id]
	return b, ok, nil
}

func (s *memCheckpoints) Set(_ context.Context, id string, b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[id] = b
	return nil
}

// TestAgentAsksAndResumesUnderAnEmbeddersRunner: Sift's agent, run by
// the embedder's own adk.Runner and checkpoint store, waits for the
// person's answer and goes on from the checkpoint with it, leaving the
// answer in its plan.
func TestAgentAsksAndResumesUnderAnEmbeddersRunner(t *testing.T) {
	script := scripted.New(
		call(toolCreatePlan, steps("Count the rows of the right sheet")),
		call("ask_user", map[string]any{"question": "Which sheet?", "choices": []string{"2023", "2024"}}),
		scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
			last := req.Messages[len(req.Messages)-1]
			if last.Role != schema.Tool || !strings.Contains(last.Content, "2024") {
				return scripted.Text("FAILED: no answer reached me: " + last.Content), nil
			}
			return scripted.ToolCall("python", `{"code": "print('rows in 2024: 12')"}`), nil
		}},
		echoToolResult(""),
		call(toolSubmitResult, map[string]any{"answer": "12 rows in 2024"}),
		text("# Rows\n\n12 [step 1]."),
	)
	s := httpSift(t, script, nil)
	ctx := context.Background()
	a, err := s.NewAgent(ctx, AgentConfig{Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: a, CheckPointStore: &memCheckpoints{m: map[string][]byte{}}})
	var asked *event.Interrupt
	for ev := range drainADK(t, runner.Query(ctx, "how many rows?", adk.WithCheckPointID("c1"))) {
		if in := interruptOf(ev); in != nil {
			asked = in
		}
	}
	if asked == nil || asked.Prompt != "Which sheet?" {
		t.Fatalf("want the agent to ask, got %+v", asked)
	}
	answer, err := AnswerFor(event.InterruptQuestion, asked.Choices, false, "2", "")
	if err != nil {
		t.Fatal(err)
	}
	events, err := runner.ResumeWithParams(ctx, "c1", &adk.ResumeParams{Targets: map[string]any{asked.ID: answer}})
	if err != nil {
		t.Fatal(err)
	}
	for range drainADK(t, events) {
	}
	fp, err := SessionPlan(a.Workdir())
	if err != nil || fp.Result == nil || fp.Result.Answer != "12 rows in 2024" {
		t.Fatalf("want the answer in the plan, got %+v (%v)", fp, err)
	}
	if script.Remaining() != 0 {
		t.Errorf("%d replies unused", script.Remaining())
	}
}

// drainADK yields an ADK run's events, failing the test on an error event.
func drainADK(t *testing.T, it *adk.AsyncIterator[*adk.AgentEvent]) func(func(*adk.AgentEvent) bool) {
	t.Helper()
	return func(yield func(*adk.AgentEvent) bool) {
		for {
			ev, ok := it.Next()
			if !ok {
				return
			}
			if ev.Err != nil {
				t.Fatalf("event error: %v", ev.Err)
			}
			if !yield(ev) {
				return
			}
		}
	}
}
