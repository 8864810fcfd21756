package llm

import (
	"encoding/json"
	"testing"

	"github.com/cloudwego/eino/schema"
)

func TestRepairArguments(t *testing.T) {
	tests := []struct {
		name        string
		in          string
		want        string
		wantChanged bool
	}{
		{"valid is kept", `{"a": 1}`, `{"a": 1}`, false},
		{"empty becomes an object", "  ", `{}`, true},
		{"trailing comma", `{"steps": ["a", "b",],}`, `{"steps": ["a", "b"]}`, true},
		{"single quotes", `{'code': 'print(1)'}`, `{"code": "print(1)"}`, true},
		{"truncated", `{"steps": ["load", "plot"`, `{"steps": ["load", "plot"]}`, true},
		{"fenced", "```json\n{\"a\": 1}\n```", "\n{\"a\": 1}\n", true},
		{"object encoded as a string", `"{\"a\": 1}"`, `{"a":1}`, true},
		{"plain string stays", `"hello"`, `"hello"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, changed := repairArguments(tt.in)
			if got != tt.want || changed != tt.wantChanged {
				t.Errorf("repairArguments(%q) = %q, %v; want %q, %v", tt.in, got, changed, tt.want, tt.wantChanged)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("result %q is not valid JSON", got)
			}
		})
	}
}

func TestExtractJSONObject(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    string
		wantOK  bool
	}{
		{"bare", `{"steps": ["a"]}`, `{"steps":["a"]}`, true},
		{"fenced with prose", "Here is the plan:\n```json\n{\"steps\": [\"a\", \"b\"]}\n```\nLet me know.", `{"steps":["a","b"]}`, true},
		{"fence without info string", "```\n{\"x\": 1}\n```", `{"x":1}`, true},
		{"surrounded by prose", `Sure! {"response": "Total is {42}"} Hope that helps.`, `{"response":"Total is {42}"}`, true},
		{"skips a non-JSON brace first", `Use {placeholder} syntax. {"steps": ["a"]}`, `{"steps":["a"]}`, true},
		{"repairs a broken object", `Plan: {'steps': ['a', 'b'],}`, `{"steps":["a","b"]}`, true},
		{"truncated object", `Plan: {"steps": ["a", "b"`, `{"steps":["a","b"]}`, true},
		{"no object", "I cannot do that.", "", false},
		{"array only", `["a", "b"]`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := extractJSONObject(tt.content)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("extractJSONObject(%q) = %q, %v; want %q, %v", tt.content, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestRecoverToolCall(t *testing.T) {
	searchTool := &schema.ToolInfo{
		Name: "web_search",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"query": {Type: schema.String, Required: true},
			"steps": {Type: schema.Integer},
		}),
	}
	noParams := &schema.ToolInfo{Name: "finish"}
	tests := []struct {
		name     string
		content  string
		tools    []*schema.ToolInfo
		wantName string
		wantArgs string
		wantOK   bool
	}{
		{"one tool takes any object", `{"whatever": 1}`, []*schema.ToolInfo{planTool}, "create_plan", `{"whatever":1}`, true},
		{"two tools: required keys pick the plan", `{"steps": ["a"]}`, []*schema.ToolInfo{planTool, respondTool}, "create_plan", `{"steps":["a"]}`, true},
		{"two tools: required keys pick the result", `{"response": "done", "files": []}`, []*schema.ToolInfo{planTool, respondTool}, "submit_result", `{"response":"done","files":[]}`, true},
		{"complete required set beats a partial match", `{"steps": ["a"]}`, []*schema.ToolInfo{searchTool, planTool}, "create_plan", `{"steps":["a"]}`, true},
		{"no key matches any tool", `{"answer": 42}`, []*schema.ToolInfo{planTool, respondTool}, "", "", false},
		{"tie is not guessed", `{"steps": ["a"]}`, []*schema.ToolInfo{planTool, {Name: "other_plan", ParamsOneOf: planTool.ParamsOneOf}}, "", "", false},
		{"named call", `{"name": "submit_result", "arguments": {"response": "ok"}}`, []*schema.ToolInfo{planTool, respondTool}, "submit_result", `{"response":"ok"}`, true},
		{"named call with string arguments", `{"name": "create_plan", "arguments": "{\"steps\": [\"x\"]}"}`, []*schema.ToolInfo{planTool}, "create_plan", `{"steps":["x"]}`, true},
		{"named call without arguments", `{"tool": "finish"}`, []*schema.ToolInfo{planTool, noParams}, "finish", `{}`, true},
		{"no JSON", "I am done.", []*schema.ToolInfo{planTool}, "", "", false},
		{"no tools", `{"steps": []}`, nil, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc, ok := recoverToolCall(tt.content, tt.tools)
			if ok != tt.wantOK || tc.Function.Name != tt.wantName || tc.Function.Arguments != tt.wantArgs {
				t.Errorf("recoverToolCall = %s(%s), %v; want %s(%s), %v", tc.Function.Name, tc.Function.Arguments, ok, tt.wantName, tt.wantArgs, tt.wantOK)
			}
			if ok && (tc.ID == "" || tc.Type != "function") {
				t.Errorf("recovered call has ID %q and type %q, want both set", tc.ID, tc.Type)
			}
		})
	}
}
