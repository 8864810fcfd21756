package tree

import (
	"context"
	"strings"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"
)

func TestWrapUpNearTheIterationBound(t *testing.T) {
	mw := wrapUpNear(5)
	st := &adk.ChatModelAgentState{Messages: []adk.Message{schema.SystemMessage("s"), schema.UserMessage("task")}}
	notes := 0
	for call := 1; call <= 5; call++ {
		if err := mw.BeforeChatModel(context.Background(), st); err != nil {
			t.Fatal(err)
		}
		last := st.Messages[len(st.Messages)-1]
		if strings.Contains(last.Content, "model calls left") {
			notes++
			if call != 4 {
				t.Errorf("the wrap-up note came before call %d, want before call 4 of 5", call)
			}
		}
		// The model answers with a tool call, and the tool with a result.
		st.Messages = append(st.Messages, &schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: "c", Function: schema.FunctionCall{Name: "python"}}}}, schema.ToolMessage("ok", "c"))
	}
	if notes != 1 {
		t.Errorf("want exactly one wrap-up note, got %d", notes)
	}
}
