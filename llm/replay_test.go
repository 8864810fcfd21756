package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
)

// converse plays a two-agent conversation through Wrap: the planner is
// asked once, then the coder calls a tool and answers. toolResult is what
// the tool "printed"; system is the coder's prompt.
func converse(t *testing.T, planner, coder model.ToolCallingChatModel, system, toolResult string, traj *Trajectory) (string, error) {
	t.Helper()
	ctx := context.Background()
	p := Wrap(planner, "planner", nil, WithTrajectory(traj))
	if _, err := p.Generate(ctx, []*schema.Message{schema.SystemMessage("plan it"), schema.UserMessage("total?")}); err != nil {
		return "", err
	}
	c, err := Wrap(coder, "code", nil, WithTrajectory(traj)).WithTools([]*schema.ToolInfo{{Name: "python", Desc: "run"}})
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
func record(t *testing.T) []TrajectoryRecord {
	t.Helper()
	s := scripted.New(
		scripted.Reply{Message: scripted.Text("one step")},
		scripted.Reply{Message: scripted.ToolCall("python", `{"code":"print(1+1)"}`)},
		scripted.Reply{Message: scripted.Text("the total is 2")},
	)
	var buf bytes.Buffer
	if _, err := converse(t, s.ModelFor("planner"), s.ModelFor("code"), "you write python", "stdout: 2\n(ran 10ms)", NewTrajectory(&buf, TrajectoryConfig{})); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadTrajectory(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Fatalf("recorded %d calls, want 3", len(recs))
	}
	return recs
}

func TestReplayUnchangedHasNoDivergence(t *testing.T) {
	rp := NewReplay(record(t), ReplayConfig{})
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
	rp := NewReplay(record(t), ReplayConfig{})
	if _, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "you write careful python", "stdout: 2", nil); err != nil {
		t.Fatal(err)
	}
	d := rp.Divergences()
	if len(d) != 2 {
		t.Fatalf("divergences = %v, want both coder calls", d)
	}
	first := d[0]
	if first.Call != 2 || first.Agent != "code" || first.Record != 2 || first.Kind != DivergedRequest || first.Message != 1 {
		t.Errorf("first divergence = %+v, want call 2 of code, line 2, message 1", first)
	}
	if !strings.Contains(first.Got, "careful") || strings.Contains(first.Recorded, "careful") {
		t.Errorf("divergence does not show the changed prompt: %s", first)
	}
}

func TestReplayChangedToolResultShowsNumber(t *testing.T) {
	rp := NewReplay(record(t), ReplayConfig{})
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
	rp := NewReplay(recs[:2], ReplayConfig{})
	_, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "you write python", "stdout: 2", nil)
	if !errors.Is(err, ErrReplayUnanswerable) {
		t.Fatalf("err = %v, want ErrReplayUnanswerable", err)
	}
	if d := rp.Divergences(); len(d) != 1 || d[0].Kind != DivergedUnanswerable || d[0].Call != 3 {
		t.Errorf("divergences = %v, want call 3 unanswerable", d)
	}

	rp = NewReplay(append(recs, recs[2]), ReplayConfig{})
	if _, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "you write python", "stdout: 2\n(ran 10ms)", nil); err != nil {
		t.Fatal(err)
	}
	if d := rp.Divergences(); len(d) != 1 || d[0].Kind != DivergedUnused || d[0].Record != 4 {
		t.Errorf("divergences = %v, want line 4 unused", d)
	}
}

func TestReplayToolsDiverge(t *testing.T) {
	recs := record(t)
	recs[1].Tools = []string{"python", "sql_query"}
	rp := NewReplay(recs, ReplayConfig{})
	if _, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "you write python", "stdout: 2", nil); err != nil {
		t.Fatal(err)
	}
	if d := rp.Divergences(); len(d) == 0 || d[0].Kind != DivergedTools || d[0].Call != 2 {
		t.Errorf("divergences = %v, want tools at call 2", d)
	}
}

func TestReplayLiveTakesOverAfterDivergence(t *testing.T) {
	live := scripted.New(scripted.Reply{Message: scripted.ToolCall("python", `{"code":"print(3)"}`)}, scripted.Reply{Message: scripted.Text("live total 3")})
	rp := NewReplay(record(t), ReplayConfig{Live: func(agent string) model.ToolCallingChatModel { return live.ModelFor(agent) }})
	var buf bytes.Buffer
	got, err := converse(t, rp.ModelFor("planner"), rp.ModelFor("code"), "a new prompt", "stdout: 3", NewTrajectory(&buf, TrajectoryConfig{}))
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
	recs, err := ReadTrajectory(&buf)
	if err != nil {
		t.Fatal(err)
	}
	again := NewReplay(recs, ReplayConfig{})
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
		change   func(*TrajectoryTool)
		part     string
		recorded string
	}{
		{"description", func(d *TrajectoryTool) { d.Description = "run Python 2" }, "description", "run Python 2"},
		{"parameters", func(d *TrajectoryTool) { d.Parameters = json.RawMessage(`{"type":"object"}`) }, "parameters", `{"type":"object"}`},
		{"not recorded", func(d *TrajectoryTool) { *d = TrajectoryTool{} }, "", ""},
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
			rp := NewReplay(recs, ReplayConfig{})
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
			if len(d) != 2 || d[0].Kind != DivergedTools || d[0].Call != 2 || d[0].Tool != "python" || d[0].ToolPart != tc.part || d[0].Recorded != tc.recorded {
				t.Fatalf("divergences = %+v, want python's %s at calls 2 and 3", d, tc.part)
			}
			if want := "call 2 (code, recording line 2): the " + tc.part + " of tool python differs"; !strings.HasPrefix(d[0].String(), want) {
				t.Errorf("divergence reads %q, want it to start %q", d[0], want)
			}
		})
	}
}

// The same schema compares equal however its keys and required fields are
// ordered (OpenAI clients send "required" sorted).
func TestToolSchemaComparesSorted(t *testing.T) {
	a := sortedJSON([]byte(`{"type":"object","required":["sql","limit"],"properties":{"sql":{"type":"string"},"limit":{"type":"integer"}}}`))
	b := sortedJSON([]byte(`{"properties":{"limit":{"type":"integer"},"sql":{"type":"string"}},"required":["limit","sql"],"type":"object"}`))
	if string(a) != string(b) {
		t.Errorf("%s != %s", a, b)
	}
}

// An exchange captured from a real provider, in OpenAI's shape, with the
// key in a header and in a message.
const openAIRecording = `{"agent":"planner","headers":{"Authorization":"Bearer sk-live1234567890abcdef"},"request":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"plan it"},{"role":"user","content":"total?"}]},"response":{"choices":[{"message":{"role":"assistant","content":"one step"}}],"usage":{"prompt_tokens":9,"completion_tokens":2}}}
{"agent":"code","request":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"you write python"},{"role":"user","content":[{"type":"text","text":"total?"}]}],"tools":[{"type":"function","function":{"name":"python","description":"run","parameters":null}}]},"response":{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"python","arguments":"{\"code\":\"print(1+1)\"}"}}]}}]}}
{"agent":"code","request":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"you write python"},{"role":"user","content":"total?"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"python","arguments":"{\"code\":\"print(1+1)\"}"}}]},{"role":"tool","tool_call_id":"call_a","content":"stdout: 2"}],"tools":[{"type":"function","function":{"name":"python","description":"run"}}]},"response":{"choices":[{"message":{"role":"assistant","content":"the total is 2"}}]}}
`

func TestReplayOpenAIShapedRecording(t *testing.T) {
	recs, err := ReadTrajectory(strings.NewReader(openAIRecording))
	if err != nil {
		t.Fatal(err)
	}
	if recs[0].Usage == nil || recs[0].Usage.PromptTokens != 9 || recs[1].Response.ToolCalls[0].Name != "python" || recs[1].Tools[0] != "python" {
		t.Fatalf("parsed records = %+v", recs)
	}
	rp := NewReplay(recs, ReplayConfig{})
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

func TestReadTrajectoryRejectsOtherLines(t *testing.T) {
	_, err := ReadTrajectory(strings.NewReader("{\"request\":[]}\n{\"hello\":1}\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("err = %v, want one naming line 2", err)
	}
}

func TestRedactorRemovesKeys(t *testing.T) {
	r := NewRedactor("hunter2-secret-value", "abc")
	line := []byte(`{"headers":{"Authorization":"Bearer abc.def.ghi-12345","X-Api-Key":"plainvalue"},"request":{"messages":[{"role":"user","content":"my key is sk-proj-AbCdEf0123456789 and api_key=q1w2e3r4t5 and hunter2-secret-value; abc stays"}]},"n":12345678901234567}`)
	got := string(r.JSON(line))
	for _, leak := range []string{"sk-proj-AbCdEf0123456789", "abc.def.ghi-12345", "plainvalue", "q1w2e3r4t5", "hunter2-secret-value"} {
		if strings.Contains(got, leak) {
			t.Errorf("redacted line still holds %q: %s", leak, got)
		}
	}
	for _, keep := range []string{"abc stays", "api_key=" + Redacted, "12345678901234567", `"Authorization":"` + Redacted + `"`} {
		if !strings.Contains(got, keep) {
			t.Errorf("redacted line lost %q: %s", keep, got)
		}
	}
	if got := r.String("Authorization: Bearer tok_1234567890"); got != "Authorization: Bearer "+Redacted {
		t.Errorf("String = %q", got)
	}
}

// Steps that ran side by side interleave their calls differently on
// replay: each step is answered from its own recorded calls, in order.
func TestReplayAnswersEachStepFromItsOwnCalls(t *testing.T) {
	call := func(m model.ToolCallingChatModel, step int, text string) (string, error) {
		out, err := m.Generate(WithStep(context.Background(), step), []*schema.Message{schema.SystemMessage("you write python"), schema.UserMessage(text)})
		if err != nil {
			return "", err
		}
		return out.Content, nil
	}
	s := scripted.NewResponder(func(req scripted.Request) (*schema.Message, error) {
		return scripted.Text("answer to " + req.Messages[len(req.Messages)-1].Content), nil
	})
	var buf bytes.Buffer
	rec := Wrap(s.ModelFor("code"), "code", nil, WithTrajectory(NewTrajectory(&buf, TrajectoryConfig{})))
	order := []struct {
		step int
		text string
	}{{1, "north first"}, {3, "south first"}, {1, "north second"}, {3, "south second"}}
	for _, c := range order {
		if _, err := call(rec, c.step, c.text); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := ReadTrajectory(&buf)
	if err != nil {
		t.Fatal(err)
	}
	rp := NewReplay(recs, ReplayConfig{})
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
