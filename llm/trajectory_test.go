package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/llm/trajectory"
)

// readRecords parses a trajectory.
func readRecords(t *testing.T, data []byte) []trajectory.Record {
	t.Helper()
	var recs []trajectory.Record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r trajectory.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %q is not a record: %v", sc.Text(), err)
		}
		recs = append(recs, r)
	}
	return recs
}

func TestWrapWritesTrajectory(t *testing.T) {
	boom := errors.New("boom")
	s := scripted.New(
		scripted.Reply{Unoffered: true, Message: &schema.Message{Role: schema.Assistant, Content: "Running it.",
			ToolCalls:    []schema.ToolCall{{ID: "call_9", Function: schema.FunctionCall{Name: "run_python", Arguments: `{'code': 'df.head()',}`}}},
			ResponseMeta: &schema.ResponseMeta{FinishReason: "tool_calls", Usage: &schema.TokenUsage{PromptTokens: 120, CompletionTokens: 12}}}},
		scripted.Reply{Message: noUsage(scripted.Text("The north sells best."))},
		scripted.Reply{Err: boom},
	)
	var buf bytes.Buffer
	traj := trajectory.NewWriter(&buf, trajectory.Config{})
	m, err := Wrap(s.Model(), AgentExecutor, nil, WithModelName("gpt-4o"), WithTrajectory(traj), WithPrices(DefaultPrices())).
		WithTools([]*schema.ToolInfo{planTool, respondTool})
	if err != nil {
		t.Fatal(err)
	}
	history := []*schema.Message{
		schema.SystemMessage("You analyse data."),
		schema.UserMessage("Which region sells best?"),
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: "call_1", Function: schema.FunctionCall{Name: "run_python", Arguments: `{"code": "1"}`}}}},
		schema.ToolMessage("1", "call_1"),
	}
	ctx := WithStep(context.Background(), 2)
	if _, err := m.Generate(ctx, history); err != nil {
		t.Fatal(err)
	}
	sr, err := m.Stream(ctx, history[:2])
	if err != nil {
		t.Fatal(err)
	}
	collect(t, sr)
	if _, err := m.Generate(context.Background(), history[:2], model.WithToolChoice(schema.ToolChoiceForced)); !errors.Is(err, boom) {
		t.Fatalf("error = %v, want boom", err)
	}
	if err := traj.Close(); err != nil {
		t.Fatal(err)
	}

	recs := readRecords(t, buf.Bytes())
	if len(recs) != 3 {
		t.Fatalf("got %d records, want 3", len(recs))
	}
	for i, r := range recs {
		if r.Time.IsZero() || r.LatencyMS < 0 {
			t.Errorf("record %d: time %v, latency %d; want them set", i, r.Time, r.LatencyMS)
		}
	}
	cost, _ := DefaultPrices().Cost("gpt-4o", Counts{PromptTokens: 120, CompletionTokens: 12})
	// The tools as the model reads them, schemas with sorted keys.
	defs := []trajectory.Tool{
		{Name: "create_plan", Description: "Write the plan.", Parameters: json.RawMessage(`{"properties":{"steps":{"items":{"type":"string"},"type":"array"}},"required":["steps"],"type":"object"}`)},
		{Name: "submit_result", Description: "Finish with an answer.", Parameters: json.RawMessage(`{"properties":{"files":{"items":{"type":"string"},"type":"array"},"response":{"type":"string"}},"required":["response"],"type":"object"}`)},
	}
	want := []trajectory.Record{
		{
			Agent: AgentExecutor, Step: 2, Model: "gpt-4o",
			Request: []trajectory.Message{
				{Role: "system", Content: "You analyse data."},
				{Role: "user", Content: "Which region sells best?"},
				{Role: "assistant", ToolCalls: []trajectory.ToolCall{{ID: "call_1", Name: "run_python", Arguments: `{"code": "1"}`}}},
				{Role: "tool", Content: "1", ToolCallID: "call_1"},
			},
			Tools: []string{"create_plan", "submit_result"}, ToolDefs: defs,
			// The reply as the caller got it: arguments repaired.
			Response: &trajectory.Message{Role: "assistant", Content: "Running it.",
				ToolCalls: []trajectory.ToolCall{{ID: "call_9", Name: "run_python", Arguments: `{"code": "df.head()"}`}}},
			Usage: &trajectory.Usage{PromptTokens: 120, CompletionTokens: 12, Cost: cost},
		},
		{
			Agent: AgentExecutor, Step: 2, Model: "gpt-4o", Stream: true,
			Request: []trajectory.Message{
				{Role: "system", Content: "You analyse data."},
				{Role: "user", Content: "Which region sells best?"},
			},
			Tools: []string{"create_plan", "submit_result"}, ToolDefs: defs,
			Response: &trajectory.Message{Role: "assistant", Content: "The north sells best."},
			Usage: &trajectory.Usage{Estimated: true,
				PromptTokens:     CountTokens("gpt-4o", history[:2], []*schema.ToolInfo{planTool, respondTool}),
				CompletionTokens: CountText("gpt-4o", "The north sells best.")},
		},
		{
			Agent: AgentExecutor, Model: "gpt-4o",
			Request: []trajectory.Message{
				{Role: "system", Content: "You analyse data."},
				{Role: "user", Content: "Which region sells best?"},
			},
			Tools: []string{"create_plan", "submit_result"}, ToolDefs: defs, ToolChoiceForced: true,
			Error: "boom",
		},
	}
	// Estimated usage has a price too; compare it separately.
	recs[1].Usage.Cost = 0
	if diff := cmp.Diff(want, recs, cmpopts.IgnoreFields(trajectory.Record{}, "Time", "LatencyMS"), cmpFloat); diff != "" {
		t.Errorf("records mismatch (-want +got):\n%s", diff)
	}
}

func TestTrajectoryMaxContentChars(t *testing.T) {
	var buf bytes.Buffer
	traj := trajectory.NewWriter(&buf, trajectory.Config{MaxContentChars: 30})
	long := strings.Repeat("a", 50) + strings.Repeat("z", 50)
	s := scripted.New(scripted.Reply{Message: scripted.ToolCall("run_python", `{"code": "`+strings.Repeat("x", 100)+`"}`)})
	if _, err := Wrap(s.Model(), AgentCode, nil, WithTrajectory(traj)).Generate(context.Background(), []*schema.Message{schema.UserMessage(long)}); err != nil {
		t.Fatal(err)
	}
	rec := readRecords(t, buf.Bytes())[0]
	wantContent := strings.Repeat("a", 20) + "[... 70 characters cut ...]" + strings.Repeat("z", 10)
	if got := rec.Request[0].Content; got != wantContent {
		t.Errorf("content = %q, want %q", got, wantContent)
	}
	if args := rec.Response.ToolCalls[0].Arguments; !strings.Contains(args, "characters cut") || len(args) > 30+30 {
		t.Errorf("arguments = %q, want them bounded", args)
	}
}

// failingWriter fails every write.
type failingWriter struct{ n int }

func (f *failingWriter) Write(p []byte) (int, error) {
	f.n++
	return 0, errors.New("disk full")
}

func TestTrajectoryWriteErrorDoesNotFailCalls(t *testing.T) {
	w := &failingWriter{}
	traj := trajectory.NewWriter(w, trajectory.Config{})
	s := scripted.New(scripted.Reply{Message: scripted.Text("a")}, scripted.Reply{Message: scripted.Text("b")})
	m := Wrap(s.Model(), AgentCode, nil, WithTrajectory(traj))
	for range 2 {
		if _, err := m.Generate(context.Background(), nil); err != nil {
			t.Fatalf("model call failed because the trajectory could not be written: %v", err)
		}
	}
	if err := traj.Err(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Err() = %v, want the write error", err)
	}
	if w.n != 1 {
		t.Errorf("%d writes tried, want 1: stop after the first error", w.n)
	}
	if err := traj.Close(); err == nil {
		t.Error("Close() = nil, want the write error")
	}
}

func TestOpenTrajectoryThroughRealClient(t *testing.T) {
	// A real OpenAI-compatible client against a local server: the key is
	// sent as a header, and must not reach the trajectory.
	m, _, _ := newScripted(t, scripted.Reply{Message: scripted.Text("done")})
	path := filepath.Join(t.TempDir(), "trajectory.jsonl")
	traj, err := trajectory.Open(path, trajectory.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Wrap(m, AgentReport, nil, WithTrajectory(traj)).Generate(context.Background(), []*schema.Message{schema.UserMessage("report")}); err != nil {
		t.Fatal(err)
	}
	if err := traj.Close(); err != nil {
		t.Fatal(err)
	}
	traj.Write(trajectory.Record{Agent: "after close"})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "test-key") || strings.Contains(strings.ToLower(string(data)), "authorization") {
		t.Errorf("trajectory holds the key or a header:\n%s", data)
	}
	recs := readRecords(t, data)
	if len(recs) != 1 || recs[0].Response == nil || recs[0].Response.Content != "done" {
		t.Errorf("records = %+v, want the one call", recs)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("trajectory file mode = %v, %v; want 0600", st.Mode().Perm(), err)
	}
}
