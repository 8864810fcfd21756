package llm

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
)

// siftPlanTool has the shape of Sift's create_plan: steps of objects with
// an integer index and integer needs.
var siftPlanTool = &schema.ToolInfo{
	Name: "create_plan",
	Desc: "Set the plan.",
	ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
		"steps": {Type: schema.Array, Required: true, ElemInfo: &schema.ParameterInfo{Type: schema.Object, SubParams: map[string]*schema.ParameterInfo{
			"index":       {Type: schema.Integer, Required: true},
			"description": {Type: schema.String, Required: true},
			"needs":       {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.Integer}},
		}}},
		"ascending": {Type: schema.Boolean},
		"files":     {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.String}},
		"n":         {Type: schema.Number},
	}),
}

func TestCoerceArgumentsTakesModelsAtTheirWord(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"steps":[{"index":"2","description":"x","needs":"1"}]}`, `{"steps":[{"description":"x","index":2,"needs":[1]}]}`},
		{`{"steps":[{"index":"3","description":"x","needs":"1, 2"}]}`, `{"steps":[{"description":"x","index":3,"needs":[1,2]}]}`},
		{`{"steps":[{"index":1,"description":"x","needs":null}]}`, `{"steps":[{"description":"x","index":1}]}`},
		{`{"steps":[{"index":1,"description":"x","needs":["1","2"]}]}`, `{"steps":[{"description":"x","index":1,"needs":[1,2]}]}`},
		{`{"steps":[{"index":1,"description":"x","needs":"[1, 2]"}]}`, `{"steps":[{"description":"x","index":1,"needs":[1,2]}]}`},
		{`{"steps":{"index":1,"description":"x"}}`, `{"steps":[{"description":"x","index":1}]}`},
		{`{"steps":[],"ascending":"true","files":"out/a.csv","n":"2.5"}`, `{"ascending":true,"files":["out/a.csv"],"n":2.5,"steps":[]}`},
		{`{"steps":[{"index":1,"description":42}]}`, `{"steps":[{"description":"42","index":1}]}`},
		{`{"steps":[{"index":"1","description":"rows where x < 3 & y > 2"}]}`, `{"steps":[{"description":"rows where x < 3 & y > 2","index":1}]}`},
	}
	for _, tt := range tests {
		got, changed := coerceArguments(tt.in, siftPlanTool)
		if !changed || got != tt.want {
			t.Errorf("coerce %s\n got %s (changed %v)\nwant %s", tt.in, got, changed, tt.want)
		}
	}
	// What has no clear meaning, and what already fits, are left alone.
	for _, in := range []string{`{"steps":[{"index":"two","description":"x"}]}`, `{"steps":[{"index":1,"description":"x","needs":[1]}]}`, `not json`} {
		if got, changed := coerceArguments(in, siftPlanTool); changed || got != in {
			t.Errorf("coerce %s = %s, want it unchanged", in, got)
		}
	}
}

// TestWrapSendsUnreadableArgumentsBack: a forced call whose arguments the
// check refuses goes back to the model with what is wrong, as the call's
// tool answer, at most twice.
func TestWrapSendsUnreadableArgumentsBack(t *testing.T) {
	check := func(tool, args string) error {
		var v struct {
			Steps []struct{ Index int } `json:"steps"`
		}
		if err := json.Unmarshal([]byte(args), &v); err != nil {
			return errors.New("index must be a number")
		}
		return nil
	}
	bad := scripted.Reply{Message: scripted.ToolCall("create_plan", `{"steps":[{"index":"two","description":"x"}]}`)}
	good := scripted.Reply{Message: scripted.ToolCall("create_plan", `{"steps":[{"index":"2","description":"x"}]}`)}
	for mode, stream := range modes() {
		t.Run(mode, func(t *testing.T) {
			s := scripted.New(bad, good)
			m, err := Wrap(s.Model(), AgentPlanner, nil, WithArgumentCheck(check)).WithTools([]*schema.ToolInfo{siftPlanTool})
			if err != nil {
				t.Fatal(err)
			}
			msg, _ := runCall(t, m, stream, model.WithToolChoice(schema.ToolChoiceForced))
			if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Function.Arguments != `{"steps":[{"description":"x","index":2}]}` {
				t.Fatalf("reply = %+v, want the second, readable plan", msg.ToolCalls)
			}
			reqs := s.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d model calls, want 2", len(reqs))
			}
			last := reqs[1].Messages[len(reqs[1].Messages)-1]
			if last.Role != schema.Tool || !strings.Contains(last.Content, "index must be a number") {
				t.Errorf("second request ends with %+v, want the error as the tool's answer", last)
			}

			// Never more than two retries: the third reply is returned as it is.
			s = scripted.New(bad, bad, bad, good)
			m, _ = Wrap(s.Model(), AgentPlanner, nil, WithArgumentCheck(check)).WithTools([]*schema.ToolInfo{siftPlanTool})
			runCall(t, m, stream, model.WithToolChoice(schema.ToolChoiceForced))
			if s.Remaining() != 1 {
				t.Errorf("%d replies left, want 1 (three calls)", s.Remaining())
			}
		})
	}
	// Without a forced tool choice nothing is checked.
	s := scripted.New(bad, good)
	m, _ := Wrap(s.Model(), AgentPlanner, nil, WithArgumentCheck(check)).WithTools([]*schema.ToolInfo{siftPlanTool})
	if _, err := m.Generate(context.Background(), []*schema.Message{schema.UserMessage("x")}); err != nil || s.Remaining() != 1 {
		t.Errorf("unforced call: err %v, %d replies left; want one call", err, s.Remaining())
	}
}

// TestNewPlanWithStringsIsTaken: through the real OpenAI-compatible client,
// a plan written with strings for numbers arrives with numbers.
func TestNewPlanWithStringsIsTaken(t *testing.T) {
	m, _, _ := newScripted(t, scripted.Reply{Message: scripted.ToolCall("create_plan", `{"steps":[{"index":"1","description":"load"},{"index":"2","description":"chart","needs":"1"}]}`)})
	mt, err := Wrap(m, AgentPlanner, nil).WithTools([]*schema.ToolInfo{siftPlanTool})
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := runCall(t, mt, true, model.WithToolChoice(schema.ToolChoiceForced))
	var plan struct {
		Steps []struct {
			Index int
			Needs []int
		}
	}
	if len(msg.ToolCalls) != 1 || json.Unmarshal([]byte(msg.ToolCalls[0].Function.Arguments), &plan) != nil ||
		len(plan.Steps) != 2 || plan.Steps[1].Index != 2 || len(plan.Steps[1].Needs) != 1 || plan.Steps[1].Needs[0] != 1 {
		t.Errorf("plan = %+v from %+v", plan, msg.ToolCalls)
	}
}
