package usage

import (
	"strings"
	"testing"
)

func TestMarkdownCountsCallsPerAgentAndStep(t *testing.T) {
	u := &Usage{
		AgentUsage: AgentUsage{Calls: 3, PromptTokens: 300, CompletionTokens: 30, Cost: 0.01},
		PerAgent:   map[string]*AgentUsage{"planner": {Calls: 1, PromptTokens: 100, CompletionTokens: 10}, "executor": {Calls: 2, PromptTokens: 200, CompletionTokens: 20, Cost: 0.01}},
		PerStep:    map[int]*AgentUsage{0: {Calls: 1}, 1: {Calls: 2}},
	}
	md := Markdown(u)
	for _, want := range []string{"## Usage", "3 model calls, 300 prompt + 30 completion tokens, about $0.0100.", "| executor | 2 | 200 | 20 | $0.0100 |", "| planner | 1 | 100 | 10 | – |", "| outside steps | 1 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if zh := MarkdownIn(u, true); !strings.Contains(zh, "## 用量") || !strings.Contains(zh, "调用模型 3 次") {
		t.Errorf("MarkdownIn(chinese):\n%s", zh)
	}
	if md := Markdown(nil); !strings.Contains(md, "No language model was called.") {
		t.Errorf("Markdown(nil) = %q", md)
	}
	s := &SessionUsage{Usage: *u, Questions: []QuestionUsage{{Question: 1, AgentUsage: AgentUsage{Calls: 1}}, {Question: 2, AgentUsage: AgentUsage{Calls: 2}}}}
	if md := SessionMarkdown(s); !strings.Contains(md, "| 2 | 2 | 0 | 0 | – |") {
		t.Errorf("SessionMarkdown lacks question 2's line:\n%s", md)
	}
}
