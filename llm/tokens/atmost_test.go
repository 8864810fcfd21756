package tokens

import (
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
)

func TestRequestAtMostBoundsTheCount(t *testing.T) {
	tools := []*schema.ToolInfo{{
		Name: "python", Desc: "Run Python code in the session's kernel.",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"code": {Type: schema.String, Desc: "the code", Required: true},
		}),
	}}
	requests := map[string][]*schema.Message{
		"plain":   {schema.SystemMessage("You are an analyst."), schema.UserMessage("Which region sells most?")},
		"chinese": {schema.UserMessage("哪个地区的销售额增长最快？请按月份列出。")},
		"tool calls": {
			schema.UserMessage("go"),
			{Role: schema.Assistant, Name: "executor", ToolCalls: []schema.ToolCall{{ID: "c1", Function: schema.FunctionCall{Name: "python", Arguments: `{"code":"print(1)"}`}}}},
			schema.ToolMessage("1", "c1"),
		},
		"long runs": {schema.UserMessage(strings.Repeat("-", 3000) + strings.Repeat(" ", 1500) + "x")},
		"empty":     {},
	}
	for name, msgs := range requests {
		for _, model := range []string{"gpt-4o", "gpt-4"} {
			exact, bound := Request(model, msgs, tools), RequestAtMost(msgs, tools)
			if bound < exact {
				t.Errorf("%s (%s): bound %d < count %d: a request the bound lets through could overflow the window", name, model, bound, exact)
			}
		}
	}
}

func TestRequestAtMostLoadsNoEncoder(t *testing.T) {
	old := encoders
	encoders = map[string]*lazyEncoder{EncodingO200K: {name: EncodingO200K}, EncodingCL100K: {name: EncodingCL100K}}
	t.Cleanup(func() { encoders = old })
	counted.reset()
	RequestAtMost([]*schema.Message{schema.UserMessage("a question no count cache has seen 7f3a")}, nil)
	for name, e := range encoders {
		if e.enc != nil {
			t.Fatalf("RequestAtMost loaded the %s encoder", name)
		}
	}
}
