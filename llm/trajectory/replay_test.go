package trajectory_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/llm/trajectory"
)

// converse plays a two-agent conversation through llm.Wrap: the planner is
// asked once, then the coder calls a tool and answers. toolResult is what
// the tool "printed"; system is the coder's prompt.
func converse(t *testing.T, planner, coder model.ToolCallingChatModel, system, toolResult string, traj *trajectory.Writer) (string, error) {
	t.Helper()
	ctx := context.Background()
	p := llm.Wrap(planner, "planner", nil, llm.WithTrajectory(traj))
	if _, err := p.Generate(ctx, []*schema.Message{schema.SystemMessage("plan it"), schema.UserMessage("total?")}); err != nil {
		return "", err
	}
	c, err := llm.Wrap(coder, "code", nil, llm.WithTrajectory(traj)).WithTools([]*schema.ToolInfo{{Name: "python", Desc: "run"}})
	if err != nil {
		return "", err
	}
	msgs := []*schema.Message{schema.SystemMessage(system), schema.UserMessage("total?")}
	call, err := c.Generate(ctx, msgs)
	if err != nil {
		return "", err
	}
	msgs = append(msgs, call, schema.ToolMessage(toolResult, call.ToolCalls[0].ID))
	ans, err := c.Generate(ctx, msgs)
	if err != nil {
		return "", err
	}
	return ans.Content, nil
}

// record makes a recording of converse with a scripted model.
func record(t *testing.T) []trajectory.Record {
	t.Helper()
	s := scripted.New(
		scripted.Reply{Message: scripted.Text("one step")},
		scripted.Reply{Message: scripted.ToolCall("python", `{"code":"print(1+1)"}`)},
		scripted.Reply{Message: scripted.Text("the total is 2")},
	)
	var buf bytes.Buffer
	if _, err := converse(t, s.ModelFor("planner"), s.ModelFor("code"), "you write python", "stdout: 2\n(ran 10ms)", trajectory.NewWriter(&buf, trajectory.Config{})); err != nil {
		t.Fatal(err)
	}
	recs, err := trajectory.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Fatalf("recorded %d calls, want 3", len(recs))
	}
	return recs
}

func TestReplayUnchangedHasNoDivergence(t *testing.T) {
	rp := trajectory.NewReplay(record(t), trajectory.ReplayConfig{})
	// A different timing of the same Python is not a divergence.
	got, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "you write python", "stdout: 2\n(ran 1.52s)", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got != "the total is 2" {
		t.Errorf("answer = %q, want the recorded one", got)
	}
	if d := rp.Divergences(); len(d) != 0 {
		t.Errorf("divergences = %v, want none", d)
	}
	if rp.Calls() != 3 {
		t.Errorf("calls = %d, want 3", rp.Calls())
	}
}

func TestReplayReportsFirstDivergingRequest(t *testing.T) {
	rp := trajectory.NewReplay(record(t), trajectory.ReplayConfig{})
	if _, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "you write careful python", "stdout: 2", nil); err != nil {
		t.Fatal(err)
	}
	d := rp.Divergences()
	if len(d) != 2 {
		t.Fatalf("divergences = %v, want both coder calls", d)
	}
	first := d[0]
	if first.Call != 2 || first.Agent != "code" || first.Record != 2 || first.Kind != trajectory.DivergedRequest || first.Message != 1 {
		t.Errorf("first divergence = %+v, want call 2 of code, line 2, message 1", first)
	}
	if !strings.Contains(first.Got, "careful") || strings.Contains(first.Recorded, "careful") {
		t.Errorf("divergence does not show the changed prompt: %s", first)
	}
}

func TestReplayChangedToolResultShowsNumber(t *testing.T) {
	rp := trajectory.NewReplay(record(t), trajectory.ReplayConfig{})
	if _, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "you write python", "stdout: 3\n(ran 10ms)", nil); err != nil {
		t.Fatal(err)
	}
	d := rp.Divergences()
	if len(d) != 1 || d[0].Message != 4 || !strings.Contains(d[0].Recorded, "stdout: 2") || !strings.Contains(d[0].Got, "stdout: 3") {
		t.Fatalf("divergences = %v, want message 4 with 2 -> 3", d)
	}
}

func TestReplayUnanswerableAndUnused(t *testing.T) {
	recs := record(t)
	rp := trajectory.NewReplay(recs[:2], trajectory.ReplayConfig{})
	_, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "you write python", "stdout: 2", nil)
	if !errors.Is(err, trajectory.ErrUnanswerable) {
		t.Fatalf("err = %v, want trajectory.ErrUnanswerable", err)
	}
	if d := rp.Divergences(); len(d) != 1 || d[0].Kind != trajectory.DivergedUnanswerable || d[0].Call != 3 {
		t.Errorf("divergences = %v, want call 3 unanswerable", d)
	}

	rp = trajectory.NewReplay(append(recs, recs[2]), trajectory.ReplayConfig{})
	if _, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "you write python", "stdout: 2\n(ran 10ms)", nil); err != nil {
		t.Fatal(err)
	}
	if d := rp.Divergences(); len(d) != 1 || d[0].Kind != trajectory.DivergedUnused || d[0].Record != 4 {
		t.Errorf("divergences = %v, want line 4 unused", d)
	}
}

func TestReplayToolsDiverge(t *testing.T) {
	recs := record(t)
	recs[1].Tools = []string{"python", "sql_query"}
	rp := trajectory.NewReplay(recs, trajectory.ReplayConfig{})
	if _, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "you write python", "stdout: 2", nil); err != nil {
		t.Fatal(err)
	}
	if d := rp.Divergences(); len(d) == 0 || d[0].Kind != trajectory.DivergedTools || d[0].Call != 2 {
		t.Errorf("divergences = %v, want tools at call 2", d)
	}
}

func TestReplayLiveTakesOverAfterDivergence(t *testing.T) {
	live := scripted.New(scripted.Reply{Message: scripted.ToolCall("python", `{"code":"print(3)"}`)}, scripted.Reply{Message: scripted.Text("live total 3")})
	rp := trajectory.NewReplay(record(t), trajectory.ReplayConfig{Live: func(agent string) model.ToolCallingChatModel { return live.ModelFor(agent) }})
	var buf bytes.Buffer
	got, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "a new prompt", "stdout: 3", trajectory.NewWriter(&buf, trajectory.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	if got != "live total 3" || live.Calls() != 2 {
		t.Errorf("answer %q after %d live calls, want the live model's after 2", got, live.Calls())
	}
	reqs := live.Requests()
	if len(reqs[0].Tools) != 1 || reqs[0].Tools[0].Name != "python" {
		t.Errorf("live model was not offered the tools: %+v", reqs[0].Tools)
	}
	// The new trajectory is the re-recording: it replays without divergence.
	recs, err := trajectory.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	again := trajectory.NewReplay(recs, trajectory.ReplayConfig{})
	if _, err := converse(t, again.ModelFor("planner"), again.ModelFor("code"), "a new prompt", "stdout: 3", nil); err != nil {
		t.Fatal(err)
	}
	if d := again.Divergences(); len(d) != 0 {
		t.Errorf("re-recording diverges: %v", d)
	}
}

// Much of a prompt is in the tools' descriptions and schemas: a recording
// whose tool text differs from the code's diverges, naming the tool and
// what changed; a recording made before tool texts were recorded compares
// the names only.
func TestReplayToolDefinitionsDiverge(t *testing.T) {
	for _, tc := range []struct {
		name     string
		change   func(*trajectory.Tool)
		part     string
		recorded string
	}{
		{"description", func(d *trajectory.Tool) { d.Description = "run Python 2" }, "description", "run Python 2"},
		{"parameters", func(d *trajectory.Tool) { d.Parameters = json.RawMessage(`{"type":"object"}`) }, "parameters", `{"type":"object"}`},
		{"not recorded", func(d *trajectory.Tool) { *d = trajectory.Tool{} }, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs := record(t)
			if len(recs[1].ToolDefs) != 1 || recs[1].ToolDefs[0].Description != "run" {
				t.Fatalf("recorded tools = %+v, want python's description", recs[1].ToolDefs)
			}
			for i := range recs[1:] {
				tc.change(&recs[1+i].ToolDefs[0])
				if tc.part == "" {
					recs[1+i].ToolDefs = nil
				}
			}
			rp := trajectory.NewReplay(recs, trajectory.ReplayConfig{})
			if _, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "you write python", "stdout: 2\n(ran 10ms)", nil); err != nil {
				t.Fatal(err)
			}
			d := rp.Divergences()
			if tc.part == "" {
				if len(d) != 0 {
					t.Errorf("divergences = %v, want none for a recording with tool names only", d)
				}
				return
			}
			if len(d) != 2 || d[0].Kind != trajectory.DivergedTools || d[0].Call != 2 || d[0].Tool != "python" || d[0].ToolPart != tc.part || d[0].Recorded != tc.recorded {
				t.Fatalf("divergences = %+v, want python's %s at calls 2 and 3", d, tc.part)
			}
			if want := "call 2 (code, recording line 2): the " + tc.part + " of tool python differs"; !strings.HasPrefix(d[0].String(), want) {
				t.Errorf("divergence reads %q, want it to start %q", d[0], want)
			}
		})
	}
}

// An exchange captured from a real provider, in OpenAI's shape, with the
// key in a header and in a message.
const openAIRecording = `{"agent":"planner","headers":{"Authorization":"Bearer sk-live1234567890abcdef"},"request":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"plan it"},{"role":"user","content":"total?"}]},"response":{"choices":[{"message":{"role":"assistant","content":"one step"}}],"usage":{"prompt_tokens":9,"completion_tokens":2}}}
{"agent":"code","request":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"you write python"},{"role":"user","content":[{"type":"text","text":"total?"}]}],"tools":[{"type":"function","function":{"name":"python","description":"run","parameters":null}}]},"response":{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"python","arguments":"{\"code\":\"print(1+1)\"}"}}]}}]}}
{"agent":"code","request":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"you write python"},{"role":"user","content":"total?"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"python","arguments":"{\"code\":\"print(1+1)\"}"}}]},{"role":"tool","tool_call_id":"call_a","content":"stdout: 2"}],"tools":[{"type":"function","function":{"name":"python","description":"run"}}]},"response":{"choices":[{"message":{"role":"assistant","content":"the total is 2"}}]}}
`

func TestReplayOpenAIShapedRecording(t *testing.T) {
	recs, err := trajectory.Read(strings.NewReader(openAIRecording))
	if err != nil {
		t.Fatal(err)
	}
	if recs[0].Usage == nil || recs[0].Usage.PromptTokens != 9 || recs[1].Response.ToolCalls[0].Name != "python" || recs[1].Tools[0] != "python" {
		t.Fatalf("parsed records = %+v", recs)
	}
	rp := trajectory.NewReplay(recs, trajectory.ReplayConfig{})
	got, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "you write python", "stdout: 2", nil)
	if err != nil {
		t.Fatal(err)
	}
	// The recording sent "total?" as a part, the replay as a plain string:
	// the same text either way.
	if d := rp.Divergences(); got != "the total is 2" || len(d) != 0 {
		t.Errorf("answer %q, divergences %v", got, d)
	}
}

// Steps that ran side by side interleave their calls differently on
// replay: each step is answered from its own recorded calls, in order.
func TestReplayAnswersEachStepFromItsOwnCalls(t *testing.T) {
	call := func(m model.ToolCallingChatModel, step int, text string) (string, error) {
		out, err := m.Generate(llm.WithStep(context.Background(), step), []*schema.Message{schema.SystemMessage("you write python"), schema.UserMessage(text)})
		if err != nil {
			return "", err
		}
		return out.Content, nil
	}
	s := scripted.NewResponder(func(req scripted.Request) (*schema.Message, error) {
		return scripted.Text("answer to " + req.Messages[len(req.Messages)-1].Content), nil
	})
	var buf bytes.Buffer
	rec := llm.Wrap(s.ModelFor("code"), "code", nil, llm.WithTrajectory(trajectory.NewWriter(&buf, trajectory.Config{})))
	order := []struct {
		step int
		text string
	}{{1, "north first"}, {3, "south first"}, {1, "north second"}, {3, "south second"}}
	for _, c := range order {
		if _, err := call(rec, c.step, c.text); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := trajectory.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	rp := trajectory.NewReplay(recs, trajectory.ReplayConfig{})
	for _, i := range []int{1, 0, 3, 2} {
		got, err := call(rp.ModelFor("code"), order[i].step, order[i].text)
		if err != nil || got != "answer to "+order[i].text {
			t.Errorf("step %d, %q: got %q, %v", order[i].step, order[i].text, got, err)
		}
	}
	if d := rp.Divergences(); len(d) != 0 {
		t.Errorf("divergences = %v, want none", d)
	}
}

// TestReplaySkipsEmbeddingsCalls: an embeddings call recorded among the
// model calls (llm.MeterEmbeddings) is no answer of the replayed models,
// so it is neither served nor reported unused.
func TestReplaySkipsEmbeddingsCalls(t *testing.T) {
	recs := record(t)
	emb := trajectory.Record{Agent: llm.EmbeddingsAgent, Kind: trajectory.KindEmbeddings, Request: []trajectory.Message{{Role: "user", Content: "total?"}}}
	rp := trajectory.NewReplay(append([]trajectory.Record{emb}, recs...), trajectory.ReplayConfig{})
	if _, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "you write python", "stdout: 2\n(ran 10ms)", nil); err != nil {
		t.Fatal(err)
	}
	if d := rp.Divergences(); len(d) != 0 {
		t.Errorf("divergences = %v, want none", d)
	}
}
