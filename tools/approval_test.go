package tools

import (
	"context"
	"errors"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/tools/web"
)

// askRec is the approval every call of the "rec" tool asks for under
// Policy{Ask: ["rec"]}.
var askRec = &ApprovalRequest{ID: "c1", Tool: "rec", Arguments: `{"x": 1}`, Reason: "the approval policy asks before every rec call"}

// approvalHarness runs one call of a recordTool named rec, wrapped by
// RequireApproval under policy and by Hint (as agents wrap tools), then a
// final answer.
func approvalHarness(t *testing.T, policy *Policy) (*harness, *recordTool) {
	t.Helper()
	rec := &recordTool{name: "rec"}
	h := newHarness(t, []tool.BaseTool{Hint(RequireApproval(rec, policy))},
		callReply("c1", "rec", `{"x": 1}`), textReply("done"))
	return h, rec
}

func TestRequireApprovalResume(t *testing.T) {
	tests := []struct {
		name      string
		decision  any
		want      string
		wantCalls []string
	}{
		{name: "approve", decision: &ApprovalDecision{Action: ApprovalApprove},
			want: `ran with {"x": 1}`, wantCalls: []string{`{"x": 1}`}},
		{name: "approve by value", decision: ApprovalDecision{Action: ApprovalApprove},
			want: `ran with {"x": 1}`, wantCalls: []string{`{"x": 1}`}},
		{name: "edit", decision: &ApprovalDecision{Action: ApprovalEdit, Arguments: `{x: 2,}`},
			want:      "The person changed the arguments of this call to {\"x\": 2} before approving it.\nran with {\"x\": 2}",
			wantCalls: []string{`{"x": 2}`}},
		{name: "deny with reason", decision: &ApprovalDecision{Action: ApprovalDeny, Reason: "too costly."},
			want: "The person denied this call: too costly. Do not retry it; find another way or say what you cannot do."},
		{name: "deny", decision: &ApprovalDecision{Action: ApprovalDeny},
			want: "The person denied this call. Do not retry it; find another way or say what you cannot do."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, rec := approvalHarness(t, &Policy{Ask: []string{"rec"}})
			ic := onlyInterrupt(t, h.run("go"))
			if diff := cmp.Diff(any(askRec), ic.Info); diff != "" {
				t.Fatalf("interrupt info (-want +got):\n%s", diff)
			}
			if len(rec.calls()) != 0 {
				t.Fatalf("the tool ran before approval: %v", rec.calls())
			}

			out := h.resume(map[string]any{ic.ID: tt.decision})
			if len(out.interrupts) != 0 {
				t.Fatalf("resume interrupted again: %s", describeOutcome(out))
			}
			if diff := cmp.Diff(tt.want, toolResultSeen(t, h.script, "c1")); diff != "" {
				t.Errorf("tool result the model saw (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantCalls, rec.calls()); diff != "" {
				t.Errorf("tool calls (-want +got):\n%s", diff)
			}
			if out.final != "done" {
				t.Errorf("final answer %q, want %q", out.final, "done")
			}
		})
	}
}

func TestRequireApprovalAskedAgain(t *testing.T) {
	tests := []struct {
		name        string
		decision    any
		wantProblem string
	}{
		{name: "unknown action", decision: &ApprovalDecision{Action: "maybe"},
			wantProblem: `invalid approval decision: action "maybe" is not "approve", "edit" or "deny"`},
		{name: "edit to a list", decision: &ApprovalDecision{Action: ApprovalEdit, Arguments: `[1]`},
			wantProblem: "invalid approval decision: the edited arguments are not a JSON object: [1]"},
		{name: "edit to nothing", decision: &ApprovalDecision{Action: ApprovalEdit},
			wantProblem: "invalid approval decision: an edit needs the new arguments as a JSON object"},
		{name: "wrong type", decision: &Answer{Text: "yes"},
			wantProblem: "the answer was a *tools.Answer, not a *tools.ApprovalDecision"},
		{name: "no data", decision: nil,
			wantProblem: "the answer was empty, not a *tools.ApprovalDecision"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, rec := approvalHarness(t, &Policy{Ask: []string{"rec"}})
			first := onlyInterrupt(t, h.run("go"))

			again := onlyInterrupt(t, h.resume(map[string]any{first.ID: tt.decision}))
			want := *askRec
			want.Problem = tt.wantProblem
			if diff := cmp.Diff(any(&want), again.Info); diff != "" {
				t.Fatalf("second interrupt info (-want +got):\n%s", diff)
			}
			if len(rec.calls()) != 0 || h.script.Calls() != 1 {
				t.Fatalf("a bad decision ran the tool (%v) or reached the model (%d calls)", rec.calls(), h.script.Calls())
			}

			h.resume(map[string]any{again.ID: &ApprovalDecision{Action: ApprovalApprove}})
			if diff := cmp.Diff(`ran with {"x": 1}`, toolResultSeen(t, h.script, "c1")); diff != "" {
				t.Errorf("tool result after approval (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRequireApprovalWithoutPerson covers what happens when the policy
// answers by itself: allowed, refused, auto-approved, or refused for want
// of a person.
func TestRequireApprovalWithoutPerson(t *testing.T) {
	ran := `ran with {"x": 1}`
	tests := []struct {
		name   string
		policy *Policy
		want   string
		ran    bool
	}{
		{name: "not listed", policy: &Policy{}, want: ran, ran: true},
		{name: "approve list beats writing", policy: &Policy{Approve: []string{"rec"}, Writing: []string{"rec"}}, want: ran, ran: true},
		{name: "deny list", policy: &Policy{Deny: []string{"rec"}, AutoApprove: true},
			want: "This call was not run: the approval policy does not allow rec. Do not retry it; find another way or say what you cannot do."},
		{name: "auto-approve", policy: &Policy{Ask: []string{"rec"}, AutoApprove: true, Unattended: true}, want: ran, ran: true},
		{name: "auto-approve with a person there", policy: &Policy{Ask: []string{"rec"}, AutoApprove: true}, want: ran, ran: true},
		{name: "unattended", policy: &Policy{Ask: []string{"rec"}, Unattended: true},
			want: "This call was not run: it needs a person's approval (the approval policy asks before every rec call), and no one can approve calls in this run. Do not retry it; find another way or say what you cannot do."},
		{name: "writing is never auto-approved", policy: &Policy{Writing: []string{"rec"}, AutoApprove: true, Unattended: true},
			want: "This call was not run: it needs a person's approval (rec writes outside the read-only data-source contract), which automatic approval does not give, and no one can approve calls in this run. Do not retry it; find another way or say what you cannot do."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, rec := approvalHarness(t, tt.policy)
			out := h.run("go")
			if len(out.interrupts) != 0 {
				t.Fatalf("interrupted: %s", describeOutcome(out))
			}
			if diff := cmp.Diff(tt.want, toolResultSeen(t, h.script, "c1")); diff != "" {
				t.Errorf("tool result (-want +got):\n%s", diff)
			}
			if got := len(rec.calls()) == 1; got != tt.ran {
				t.Errorf("tool ran: %v, want %v", got, tt.ran)
			}
		})
	}
}

// TestRequireApprovalWritingAsksPerson checks that AutoApprove does not
// approve a writing tool when a person is there to ask.
func TestRequireApprovalWritingAsksPerson(t *testing.T) {
	h, rec := approvalHarness(t, &Policy{Writing: []string{"rec"}, AutoApprove: true})
	ic := onlyInterrupt(t, h.run("go"))
	want := &ApprovalRequest{ID: "c1", Tool: "rec", Arguments: `{"x": 1}`, Reason: "rec writes outside the read-only data-source contract"}
	if diff := cmp.Diff(any(want), ic.Info); diff != "" {
		t.Fatalf("interrupt info (-want +got):\n%s", diff)
	}
	if len(rec.calls()) != 0 {
		t.Fatalf("the writing tool ran without approval")
	}
}

// TestRequireApprovalURLs drives the unseen-URL rule end to end: a URL
// web_search listed is fetched without asking, a new one asks, and after
// approval its host no longer asks.
func TestRequireApprovalURLs(t *testing.T) {
	policy := DefaultPolicy()
	search := &recordTool{name: web.SearchToolName,
		reply: "Results for \"gdp\" (test):\n1. GDP table\n   https://example.org/gdp.\n"}
	fetch := &recordTool{name: web.FetchToolName, reply: "page text"}
	h := newHarness(t, []tool.BaseTool{RequireApproval(search, policy), RequireApproval(fetch, policy)},
		callReply("s1", web.SearchToolName, `{"query": "gdp"}`),
		callReply("f1", web.FetchToolName, `{"url": "https://EXAMPLE.org/gdp#table"}`),
		callReply("f2", web.FetchToolName, `{"url": "https://other.org/b"}`),
		callReply("f3", web.FetchToolName, `{"url": "https://other.org/c"}`),
		textReply("done"))

	ic := onlyInterrupt(t, h.run("GDP?"))
	want := &ApprovalRequest{ID: "f2", Tool: web.FetchToolName, Arguments: `{"url": "https://other.org/b"}`,
		Reason: "it fetches https://other.org/b, a URL not seen in this session"}
	if diff := cmp.Diff(any(want), ic.Info); diff != "" {
		t.Fatalf("interrupt info (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`{"url": "https://EXAMPLE.org/gdp#table"}`}, fetch.calls()); diff != "" {
		t.Fatalf("fetches before approval (-want +got):\n%s", diff)
	}

	out := h.resume(map[string]any{ic.ID: &ApprovalDecision{Action: ApprovalApprove}})
	if len(out.interrupts) != 0 {
		t.Fatalf("a fetch from the approved host asked again: %s", describeOutcome(out))
	}
	wantFetches := []string{`{"url": "https://EXAMPLE.org/gdp#table"}`, `{"url": "https://other.org/b"}`, `{"url": "https://other.org/c"}`}
	if diff := cmp.Diff(wantFetches, fetch.calls()); diff != "" {
		t.Errorf("fetches (-want +got):\n%s", diff)
	}
	if out.final != "done" {
		t.Errorf("final answer %q, want %q", out.final, "done")
	}
}

// TestRequireApprovalResumeInNewRunner resumes an approval with an agent,
// tool and policy built from scratch over the same store, as a new process
// would.
func TestRequireApprovalResumeInNewRunner(t *testing.T) {
	h, rec := approvalHarness(t, &Policy{Ask: []string{"rec"}})
	ic := onlyInterrupt(t, h.run("go"))

	rec2 := &recordTool{name: "rec"}
	script, runner := newRunner(t, h.store, []tool.BaseTool{Hint(RequireApproval(rec2, &Policy{Ask: []string{"rec"}}))}, textReply("done"))
	out := resumeWith(t, runner, map[string]any{ic.ID: &ApprovalDecision{Action: ApprovalEdit, Arguments: `{"x": 3}`}})
	if diff := cmp.Diff("The person changed the arguments of this call to {\"x\": 3} before approving it.\nran with {\"x\": 3}", toolResultSeen(t, script, "c1")); diff != "" {
		t.Errorf("tool result in the new process (-want +got):\n%s", diff)
	}
	if len(rec.calls()) != 0 || len(rec2.calls()) != 1 {
		t.Errorf("old tool ran %d times, new tool %d times; want 0 and 1", len(rec.calls()), len(rec2.calls()))
	}
	if out.final != "done" {
		t.Errorf("final answer %q, want %q", out.final, "done")
	}
}

func TestRequireApprovalNilPolicy(t *testing.T) {
	rec := &recordTool{name: "rec"}
	if got := RequireApproval(rec, nil); got != tool.InvokableTool(rec) {
		t.Errorf("RequireApproval with a nil policy wrapped the tool: %T", got)
	}
}

func TestApprovalDecisionValidate(t *testing.T) {
	tests := []struct {
		name    string
		d       *ApprovalDecision
		wantErr string
	}{
		{name: "approve", d: &ApprovalDecision{Action: ApprovalApprove}},
		{name: "deny", d: &ApprovalDecision{Action: ApprovalDeny, Reason: "no"}},
		{name: "edit", d: &ApprovalDecision{Action: ApprovalEdit, Arguments: `{'x': 1}`}},
		{name: "nil", d: nil, wantErr: "invalid approval decision: no decision given"},
		{name: "empty action", d: &ApprovalDecision{}, wantErr: `invalid approval decision: action "" is not "approve", "edit" or "deny"`},
		{name: "edit not an object", d: &ApprovalDecision{Action: ApprovalEdit, Arguments: "hello"},
			wantErr: "invalid approval decision: the edited arguments are not a JSON object: hello"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.d.Validate()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil || err.Error() != tt.wantErr || !errors.Is(err, ErrInvalidDecision) {
				t.Fatalf("Validate = %v, want %q wrapping ErrInvalidDecision", err, tt.wantErr)
			}
		})
	}
}

func TestApprovalRequestSiftInterrupt(t *testing.T) {
	r := &ApprovalRequest{ID: "c1", Tool: "web_fetch", Arguments: `{"url":"https://x.org/"}`,
		Reason: "it fetches https://x.org/, a URL not seen in this session", Problem: "the answer was empty"}
	want := event.Interrupt{
		Kind:    event.InterruptApproval,
		Prompt:  "Approve this web_fetch call? It fetches https://x.org/, a URL not seen in this session.\nArguments: {\"url\":\"https://x.org/\"}\n(Asked again: the answer was empty)",
		Choices: []string{ApprovalApprove, ApprovalEdit, ApprovalDeny},
	}
	if diff := cmp.Diff(want, r.SiftInterrupt()); diff != "" {
		t.Errorf("Interrupt (-want +got):\n%s", diff)
	}
}

// TestRequireApprovalTwoCalls checks that a call resumed while another is
// the target asks again instead of running.
func TestRequireApprovalTwoCalls(t *testing.T) {
	rec := &recordTool{name: "rec"}
	h := newHarness(t, []tool.BaseTool{RequireApproval(rec, &Policy{Ask: []string{"rec"}})},
		callsReply([3]string{"c1", "rec", `{"x": 1}`}, [3]string{"c2", "rec", `{"x": 2}`}),
		textReply("done"))
	out := h.run("go")
	if len(out.interrupts) != 2 {
		t.Fatalf("got %d interrupts, want 2: %s", len(out.interrupts), describeOutcome(out))
	}
	ids := map[string]string{}
	for _, ic := range out.interrupts {
		ids[ic.Info.(*ApprovalRequest).ID] = ic.ID
	}

	ic := onlyInterrupt(t, h.resume(map[string]any{ids["c2"]: &ApprovalDecision{Action: ApprovalDeny}}))
	if diff := cmp.Diff(any(askRec), ic.Info); diff != "" {
		t.Fatalf("the open request (-want +got):\n%s", diff)
	}
	if len(rec.calls()) != 0 || h.script.Calls() != 1 {
		t.Fatalf("with c1 open the tool ran (%v) or the model was called (%d)", rec.calls(), h.script.Calls())
	}

	h.resume(map[string]any{ic.ID: &ApprovalDecision{Action: ApprovalApprove}})
	got := []string{toolResultSeen(t, h.script, "c1"), toolResultSeen(t, h.script, "c2")}
	want := []string{`ran with {"x": 1}`, DeniedReply("")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool results (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`{"x": 1}`}, rec.calls()); diff != "" {
		t.Errorf("tool calls (-want +got):\n%s", diff)
	}
}

// TestRequireApprovalInsideAgentTool checks that an approval asked by a tool
// of an agent that another agent calls as a tool (as the executor calls the
// web researcher) reaches the runner and resumes into the inner agent.
func TestRequireApprovalInsideAgentTool(t *testing.T) {
	ctx := context.Background()
	fetch := &recordTool{name: web.FetchToolName, reply: "page text"}
	script := scripted.New(
		callReply("o1", "researcher", `{"request": "read https://new.org/"}`),
		callReply("i1", web.FetchToolName, `{"url": "https://new.org/"}`),
		textReply("the page says hello"),
		textReply("done"),
	)
	inner, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "researcher", Description: "reads web pages", Instruction: "Read pages.",
		Model: script.ModelFor("researcher"),
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{
			Tools: []tool.BaseTool{Hint(RequireApproval(fetch, DefaultPolicy()))},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	outer, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "executor", Description: "runs plan steps", Instruction: "Do the step.",
		Model: script.ModelFor("executor"),
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{
			Tools: []tool.BaseTool{adk.NewAgentTool(ctx, inner)},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: outer, CheckPointStore: newMemStore()})

	ic := onlyInterrupt(t, drain(t, runner.Query(ctx, "step 1", adk.WithCheckPointID(checkpointID))))
	if req, ok := ic.Info.(*ApprovalRequest); !ok || req.Tool != web.FetchToolName || req.ID != "i1" {
		t.Fatalf("interrupt info = %#v, want the web_fetch approval of call i1", ic.Info)
	}
	out := resumeWith(t, runner, map[string]any{ic.ID: &ApprovalDecision{Action: ApprovalApprove}})
	if diff := cmp.Diff([]string{`{"url": "https://new.org/"}`}, fetch.calls()); diff != "" {
		t.Errorf("fetches (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("the page says hello", toolResultSeen(t, script, "o1")); diff != "" {
		t.Errorf("agent tool result the executor saw (-want +got):\n%s", diff)
	}
	if out.final != "done" {
		t.Errorf("final answer %q, want %q", out.final, "done")
	}
}

func TestParseApprovalDecision(t *testing.T) {
	tests := []struct {
		reply   string
		want    *ApprovalDecision
		wantErr string
	}{
		{reply: "approve", want: &ApprovalDecision{Action: ApprovalApprove}},
		{reply: " Y ", want: &ApprovalDecision{Action: ApprovalApprove}},
		{reply: `edit {"url": "https://x.org/"}`, want: &ApprovalDecision{Action: ApprovalEdit, Arguments: `{"url": "https://x.org/"}`}},
		{reply: "deny: too costly", want: &ApprovalDecision{Action: ApprovalDeny, Reason: "too costly"}},
		{reply: "no", want: &ApprovalDecision{Action: ApprovalDeny}},
		{reply: "approve it now", wantErr: `invalid approval decision: "approve it now": approve takes nothing after it; to change the arguments answer edit {new JSON arguments}`},
		{reply: "edit", wantErr: "invalid approval decision: an edit needs the new arguments as a JSON object"},
		{reply: "edit [1]", wantErr: "invalid approval decision: the edited arguments are not a JSON object: [1]"},
		{reply: "maybe", wantErr: `invalid approval decision: "maybe": answer approve, edit {new JSON arguments}, or deny [reason]`},
	}
	for _, tt := range tests {
		got, err := ParseApprovalDecision(tt.reply)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr || !errors.Is(err, ErrInvalidDecision) {
				t.Errorf("ParseApprovalDecision(%q) error = %v, want %q wrapping ErrInvalidDecision", tt.reply, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseApprovalDecision(%q): %v", tt.reply, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseApprovalDecision(%q) (-want +got):\n%s", tt.reply, diff)
		}
	}
}

// The agents package describes interrupts through this method.
var _ interface{ SiftInterrupt() event.Interrupt } = (*ApprovalRequest)(nil)
