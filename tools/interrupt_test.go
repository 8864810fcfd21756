package tools

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
)

// This file holds the harness the ask_user and approval tests drive real
// Eino interrupts with: a ChatModelAgent over a scripted model, a Runner
// with an in-memory checkpoint store, and helpers to run, resume and read
// what happened.

// checkpointID is the checkpoint every harness run saves under.
const checkpointID = "s1"

// memStore is an in-memory adk.CheckPointStore.
type memStore struct {
	mu   sync.Mutex
	data map[string][]byte
}

func newMemStore() *memStore { return &memStore{data: map[string][]byte{}} }

func (s *memStore) Get(_ context.Context, key string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.data[key]
	return v, ok, nil
}

func (s *memStore) Set(_ context.Context, key string, value []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[key] = append([]byte(nil), value...)
	return nil
}

// recordTool is an InvokableTool that records the arguments of every call
// and replies "ran with <args>" (or reply, when set).
type recordTool struct {
	name  string
	reply string
	mu    sync.Mutex
	args  []string
}

func (r *recordTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: r.name, Desc: "records its calls",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"x": {Type: schema.Integer, Desc: "a number"},
		})}, nil
}

func (r *recordTool) InvokableRun(_ context.Context, args string, _ ...tool.Option) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.args = append(r.args, args)
	if r.reply != "" {
		return r.reply, nil
	}
	return "ran with " + args, nil
}

// calls returns the arguments of every call so far.
func (r *recordTool) calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.args...)
}

// harness runs one agent with tools over a scripted model and a store.
type harness struct {
	t      *testing.T
	script *scripted.Script
	store  *memStore
	runner *adk.Runner
}

// newHarness builds the agent and runner over a new store.
func newHarness(t *testing.T, tools []tool.BaseTool, replies ...scripted.Reply) *harness {
	t.Helper()
	h := &harness{t: t, store: newMemStore()}
	h.script, h.runner = newRunner(t, h.store, tools, replies...)
	return h
}

// newRunner builds an agent and a runner from scratch over store, as a new
// process resuming a session would.
func newRunner(t *testing.T, store *memStore, tools []tool.BaseTool, replies ...scripted.Reply) (*scripted.Script, *adk.Runner) {
	t.Helper()
	ctx := context.Background()
	script := scripted.New(replies...)
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name:        "analyst",
		Description: "answers questions about data",
		Instruction: "You analyse data.",
		Model:       script.Model(),
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{
			Tools:                tools,
			ToolArgumentsHandler: RepairArguments,
			ExecuteSequentially:  true,
		}},
	})
	if err != nil {
		t.Fatalf("NewChatModelAgent: %v", err)
	}
	return script, adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent, CheckPointStore: store})
}

// outcome is what one run or resume produced.
type outcome struct {
	// interrupts are the root-cause interrupt contexts, in order.
	interrupts []*adk.InterruptCtx
	// toolResults are the tool messages the agent emitted, by tool call ID.
	toolResults map[string]string
	// final is the last assistant text.
	final string
}

// drain reads every event, failing the test on any error event (a failed
// checkpoint save arrives as one).
func drain(t *testing.T, iter *adk.AsyncIterator[*adk.AgentEvent]) outcome {
	t.Helper()
	out := outcome{toolResults: map[string]string{}}
	for {
		ev, ok := iter.Next()
		if !ok {
			return out
		}
		if ev.Err != nil {
			t.Fatalf("error event: %v", ev.Err)
		}
		if ev.Action != nil && ev.Action.Interrupted != nil {
			for _, ic := range ev.Action.Interrupted.InterruptContexts {
				if ic.IsRootCause {
					out.interrupts = append(out.interrupts, ic)
				}
			}
		}
		if ev.Output != nil && ev.Output.MessageOutput != nil {
			msg, err := ev.Output.MessageOutput.GetMessage()
			if err != nil {
				t.Fatalf("read message: %v", err)
			}
			switch msg.Role {
			case schema.Tool:
				out.toolResults[msg.ToolCallID] = msg.Content
			case schema.Assistant:
				if len(msg.ToolCalls) == 0 {
					out.final = msg.Content
				}
			}
		}
	}
}

// run starts the harness's agent on a question.
func (h *harness) run(question string) outcome {
	h.t.Helper()
	return drain(h.t, h.runner.Query(context.Background(), question, adk.WithCheckPointID(checkpointID)))
}

// resume resumes the checkpoint with data for the given interrupt IDs.
func (h *harness) resume(targets map[string]any) outcome {
	h.t.Helper()
	return resumeWith(h.t, h.runner, targets)
}

// resumeWith resumes runner's checkpoint with targets.
func resumeWith(t *testing.T, runner *adk.Runner, targets map[string]any) outcome {
	t.Helper()
	iter, err := runner.ResumeWithParams(context.Background(), checkpointID, &adk.ResumeParams{Targets: targets})
	if err != nil {
		t.Fatalf("ResumeWithParams: %v", err)
	}
	return drain(t, iter)
}

// onlyInterrupt returns the single root-cause interrupt of o.
func onlyInterrupt(t *testing.T, o outcome) *adk.InterruptCtx {
	t.Helper()
	if len(o.interrupts) != 1 {
		t.Fatalf("got %d root-cause interrupts, want 1 (tool results %v, final %q)", len(o.interrupts), o.toolResults, o.final)
	}
	return o.interrupts[0]
}

// toolResultSeen returns the content of the tool message with the given
// call ID in the last request the model received.
func toolResultSeen(t *testing.T, s *scripted.Script, callID string) string {
	t.Helper()
	reqs := s.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model received no requests")
	}
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == schema.Tool && m.ToolCallID == callID {
			return m.Content
		}
	}
	t.Fatalf("the model's last request holds no tool result for call %s", callID)
	return ""
}

// callReply is a scripted reply calling one tool with a fixed call ID.
func callReply(id, name, args string) scripted.Reply {
	return scripted.Reply{Message: schema.AssistantMessage("", []schema.ToolCall{
		{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}},
	})}
}

// callsReply is a scripted reply calling several tools at once; calls are
// id, name, args triples.
func callsReply(calls ...[3]string) scripted.Reply {
	var tcs []schema.ToolCall
	for _, c := range calls {
		tcs = append(tcs, schema.ToolCall{ID: c[0], Type: "function", Function: schema.FunctionCall{Name: c[1], Arguments: c[2]}})
	}
	return scripted.Reply{Message: schema.AssistantMessage("", tcs)}
}

// textReply is a scripted final answer.
func textReply(s string) scripted.Reply { return scripted.Reply{Message: scripted.Text(s)} }

// describeOutcome is a compact form of o for failure messages.
func describeOutcome(o outcome) string {
	return fmt.Sprintf("interrupts=%d toolResults=%v final=%q", len(o.interrupts), o.toolResults, o.final)
}
