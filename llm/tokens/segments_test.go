package tokens

import (
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
)

var (
	planTool = &schema.ToolInfo{
		Name: "create_plan",
		Desc: "Write the plan.",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"steps": {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.String}, Required: true},
		}),
	}
	respondTool = &schema.ToolInfo{
		Name: "submit_result",
		Desc: "Finish with an answer.",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"response": {Type: schema.String, Required: true},
		}),
	}
)

func TestSegmentsAddUpToRequest(t *testing.T) {
	msgs := []*schema.Message{
		schema.SystemMessage("You are a planner."),
		{Role: schema.User, Name: "ann", Content: "Plan it."},
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: "c1", Function: schema.FunctionCall{Name: "create_plan", Arguments: `{"steps":["a"]}`}}}},
		schema.ToolMessage("ok", "c1"),
		{Role: schema.User, UserInputMultiContent: []schema.MessageInputPart{{Type: schema.ChatMessagePartTypeText, Text: "and this"}, {Type: schema.ChatMessagePartTypeImageURL}}},
	}
	tools := []*schema.ToolInfo{planTool, respondTool}
	segs := Segments("gpt-4o", msgs, tools)
	if got, want := sum(segs), Request("gpt-4o", msgs, tools); got != want {
		t.Errorf("segments add up to %d, Request says %d", got, want)
	}
	if segs[0].Kind != KindToolsBlock || segs[1].Kind != KindTool || segs[len(segs)-1].Kind != KindReplyPrime {
		t.Errorf("want tools first and the reply prime last, got %+v ... %+v", segs[:2], segs[len(segs)-1])
	}
	// The schema is counted as the client serialises it.
	if js := ToolSchema(planTool); !strings.Contains(segs[1].Text, js) || !strings.Contains(js, `"steps"`) {
		t.Errorf("tool segment %q lacks the schema %q", segs[1].Text, js)
	}
}

func TestCommonPrefix(t *testing.T) {
	const m = "gpt-4o"
	sys := schema.SystemMessage(strings.Repeat("Stable instructions for the executor. ", 50))
	a := Segments(m, []*schema.Message{sys, schema.UserMessage("## Plan\n1. [doing] load\n2. [todo] chart")}, []*schema.ToolInfo{planTool})
	b := Segments(m, []*schema.Message{sys, schema.UserMessage("## Plan\n1. [done] load\n2. [doing] chart")}, []*schema.ToolInfo{planTool})
	stable := Tools(m, []*schema.ToolInfo{planTool}) + Message(m, sys) + tokensPerMessage + Text(m, "user")
	got := CommonPrefix(m, a, b)
	// "## Plan\n1. [d" is shared: a few tokens past the stable part.
	if got < stable || got > stable+Text(m, "## Plan\n1. [d") {
		t.Errorf("CommonPrefix = %d, want the stable %d plus at most the shared text", got, stable)
	}
	if full := CommonPrefix(m, a, a); full != sum(a) {
		t.Errorf("a request shares all %d tokens with itself, got %d", sum(a), full)
	}
	// Different tools change everything after them: nothing is shared
	// beyond the tools block.
	c := Segments(m, []*schema.Message{sys}, []*schema.ToolInfo{respondTool})
	if got := CommonPrefix(m, a, c); got != tokensToolsBlock {
		t.Errorf("requests with different tools share %d tokens, want only the tools block's %d", got, tokensToolsBlock)
	}
	if commonTextPrefix("北京市", "北京人") != "北京" {
		t.Errorf("common prefix must end on a rune boundary: %q", commonTextPrefix("北京市", "北京人"))
	}
}
