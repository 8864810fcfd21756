package tokens

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
)

// TestBodyCountsWhatIsSent counts a request body as sent and checks it
// against the count of the same request as Go values: the rules are the
// same, so the numbers are; and what the body holds beyond them (an image
// part, a wider schema than the Go values had) is counted too.
func TestBodyCountsWhatIsSent(t *testing.T) {
	tool := &schema.ToolInfo{Name: "python", Desc: "Run Python code in the session kernel.",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"code": {Type: schema.String, Desc: "the code to run", Required: true},
		})}
	msgs := []*schema.Message{
		schema.SystemMessage("You are a data analyst. Dates: 2024-01-05, 2024-01-06; temperatures 12.75, -3.40."),
		schema.UserMessage("Mean temperature per month?"),
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: "call_1", Type: "function", Function: schema.FunctionCall{Name: "python", Arguments: `{"code":"print(1)"}`}}}},
		schema.ToolMessage("1", "call_1"),
	}
	params := json.RawMessage(ToolSchema(tool))
	type fn struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	wire := map[string]any{
		"model": "gpt-4.1-mini",
		"messages": []map[string]any{
			{"role": "system", "content": msgs[0].Content},
			{"role": "user", "content": msgs[1].Content},
			{"role": "assistant", "tool_calls": []map[string]any{{"id": "call_1", "type": "function", "function": map[string]string{"name": "python", "arguments": `{"code":"print(1)"}`}}}},
			{"role": "tool", "content": "1", "tool_call_id": "call_1"},
		},
		"tools":  []map[string]any{{"type": "function", "function": fn{tool.Name, tool.Desc, params}}},
		"stream": true,
	}
	body, err := json.Marshal(wire)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Body(body)
	if err != nil {
		t.Fatal(err)
	}
	if want := Request("gpt-4.1-mini", msgs, []*schema.ToolInfo{tool}); got.Total != want {
		t.Errorf("Body = %d tokens, Request = %d: the same request must count the same", got.Total, want)
	}
	if want := Tools("gpt-4.1-mini", []*schema.ToolInfo{tool}); got.Tools != want {
		t.Errorf("Body's tools = %d, Tools = %d", got.Tools, want)
	}
	if got.Encoding != EncodingO200K || got.Model != "gpt-4.1-mini" || strings.Join(got.ToolNames, ",") != "python" || got.Bytes != len(body) {
		t.Errorf("Body = %+v", got)
	}

	// An image part and a schema wider than the Go values: the body is the truth.
	wire["messages"] = append(wire["messages"].([]map[string]any), map[string]any{"role": "user", "content": []map[string]any{
		{"type": "text", "text": "and this chart?"}, {"type": "image_url", "image_url": map[string]string{"url": "data:image/png;base64,AAAA"}}}})
	wider := strings.Replace(string(params), `"the code to run"`, `"the code to run, one cell; print what you will report"`, 1)
	wire["tools"] = []map[string]any{{"type": "function", "function": fn{tool.Name, tool.Desc, json.RawMessage(wider)}}}
	body2, _ := json.Marshal(wire)
	got2, err := Body(body2)
	if err != nil {
		t.Fatal(err)
	}
	if extra := got2.Messages - got.Messages; extra != tokensPerMessage+Text("", "user")+Text("", "and this chart?")+tokensPerImage {
		t.Errorf("the multi-part message added %d tokens", extra)
	}
	if got2.Tools <= got.Tools {
		t.Errorf("a wider schema as sent must cost more: %d vs %d", got2.Tools, got.Tools)
	}

	if _, err := Body([]byte("not json")); err == nil || !strings.Contains(err.Error(), "not a chat completions request") {
		t.Errorf("a body that is not JSON: err = %v", err)
	}
}
