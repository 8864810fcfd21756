package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/tools/web"
)

// The actions of an ApprovalDecision.
const (
	// ApprovalApprove runs the call with the model's arguments.
	ApprovalApprove = "approve"
	// ApprovalEdit runs the call with the person's arguments.
	ApprovalEdit = "edit"
	// ApprovalDeny does not run the call; the model is told why.
	ApprovalDeny = "deny"
)

// ErrInvalidDecision is wrapped by ApprovalDecision.Validate's errors.
var ErrInvalidDecision = errors.New("invalid approval decision")

// ApprovalRequest is what a tool wrapped by RequireApproval asks the person:
// the Info of its interrupt (adk InterruptCtx.Info), and the state it saves.
type ApprovalRequest struct {
	// ID is the tool call's ID, to match the request with the call in the
	// event stream.
	ID string
	// Tool is the name of the tool to run.
	Tool string
	// Arguments are the call's JSON arguments, as the model wrote them.
	Arguments string
	// Reason says why the policy asks ("it fetches https://x.org/, a URL
	// not seen in this session").
	Reason string
	// Problem is set when the request is asked again because the previous
	// answer could not be used, and says why.
	Problem string
}

// ApprovalDecision is the person's answer to an ApprovalRequest, given as
// the resume data of its interrupt:
//
//	runner.ResumeWithParams(ctx, checkpointID, &adk.ResumeParams{
//		Targets: map[string]any{interruptID: &tools.ApprovalDecision{Action: tools.ApprovalApprove}},
//	})
type ApprovalDecision struct {
	// Action is ApprovalApprove, ApprovalEdit or ApprovalDeny.
	Action string
	// Arguments replace the call's arguments, for ApprovalEdit: a JSON
	// object (small slips such as single quotes or a trailing comma are
	// repaired).
	Arguments string
	// Reason tells the model why the call was denied, for ApprovalDeny.
	// Optional.
	Reason string
}

func init() {
	schema.RegisterName[*ApprovalRequest]("sift_approval_request")
	schema.RegisterName[*ApprovalDecision]("sift_approval_decision")
}

// Validate reports a decision the tool cannot act on: an unknown action, or
// edited arguments that are not a JSON object.
func (d *ApprovalDecision) Validate() error {
	if d == nil {
		return fmt.Errorf("%w: no decision given", ErrInvalidDecision)
	}
	switch d.Action {
	case ApprovalApprove, ApprovalDeny:
		return nil
	case ApprovalEdit:
		_, err := editedArguments(context.Background(), "", d.Arguments)
		return err
	}
	return fmt.Errorf("%w: action %q is not %q, %q or %q", ErrInvalidDecision, d.Action, ApprovalApprove, ApprovalEdit, ApprovalDeny)
}

// editedArguments repairs edited arguments and checks that they are a JSON
// object.
func editedArguments(ctx context.Context, name, args string) (string, error) {
	if strings.TrimSpace(args) == "" {
		return "", fmt.Errorf("%w: an edit needs the new arguments as a JSON object", ErrInvalidDecision)
	}
	repaired, _ := RepairArguments(ctx, name, args)
	var obj map[string]any
	if err := json.Unmarshal([]byte(repaired), &obj); err != nil || obj == nil {
		return "", fmt.Errorf("%w: the edited arguments are not a JSON object: %s", ErrInvalidDecision, clipText(args, 200))
	}
	return repaired, nil
}

// SiftInterrupt returns the request as the run's generic interrupt, for
// events, the session registry and the sift command; the caller sets its
// ID from the adk interrupt context.
func (r *ApprovalRequest) SiftInterrupt() event.Interrupt {
	prompt := fmt.Sprintf("Approve this %s call? %s.\nArguments: %s", r.Tool, capitalize(r.Reason), r.Arguments)
	if r.Problem != "" {
		prompt += "\n(Asked again: " + r.Problem + ")"
	}
	return event.Interrupt{
		Kind:    event.InterruptApproval,
		Prompt:  prompt,
		Choices: []string{ApprovalApprove, ApprovalEdit, ApprovalDeny},
	}
}

// RequireApproval wraps t so that each call is checked against policy
// first. A call the policy allows runs; one it refuses gets a refusal
// reply; one that needs approval is approved or refused at once when
// policy.AutoApprove or policy.Unattended say so, and otherwise interrupts
// the run with an *ApprovalRequest (saved in the checkpoint). Resumed with
// an *ApprovalDecision, the call runs with the model's arguments
// (approve), runs with the person's arguments (edit: the model is told
// what was changed), or does not run and the model is told not to retry
// (deny). A decision that cannot be used asks again with
// ApprovalRequest.Problem set. Replies of web_search feed the URLs they
// list to policy.SeeURLs.
//
// Wrap leaf tools that do not interrupt themselves (not ask_user, not agent
// tools). Errors of t pass through, so wrap the result with Hint to turn
// them into replies. The wrapped tool keeps t's Info. A nil policy returns
// t itself.
func RequireApproval(t tool.InvokableTool, policy *Policy) tool.InvokableTool {
	if policy == nil {
		return t
	}
	a := &approver{inner: t, policy: policy}
	return &wrappedTool{inner: t, run: a.run}
}

// approver runs one wrapped tool under a policy.
type approver struct {
	inner  tool.InvokableTool
	policy *Policy
}

// run is the wrapped tool's body.
func (a *approver) run(ctx context.Context, args string, opts ...tool.Option) (string, error) {
	name := toolName(ctx, a.inner)
	if wasInterrupted, hasState, req := tool.GetInterruptState[*ApprovalRequest](ctx); wasInterrupted && hasState && req != nil {
		return a.resume(ctx, req, opts)
	}
	ruling := a.policy.Check(name, args)
	switch ruling.Verdict {
	case VerdictAllow:
		return a.call(ctx, name, args, opts)
	case VerdictRefuse:
		return notRunReply(ruling.Reason), nil
	}
	switch {
	case a.policy.AutoApprove && ruling.AutoApprovable:
		a.policy.approved(name, args)
		return a.call(ctx, name, args, opts)
	case a.policy.Unattended && a.policy.AutoApprove:
		return notRunReply("it needs a person's approval (" + ruling.Reason + "), which automatic approval does not give, and no one can approve calls in this run"), nil
	case a.policy.Unattended:
		return notRunReply("it needs a person's approval (" + ruling.Reason + "), and no one can approve calls in this run"), nil
	}
	req := &ApprovalRequest{ID: compose.GetToolCallID(ctx), Tool: name, Arguments: args, Reason: ruling.Reason}
	return "", tool.StatefulInterrupt(ctx, req, req)
}

// resume acts on the person's decision about req, or asks again when this
// call is not the one being resumed or the decision cannot be used.
func (a *approver) resume(ctx context.Context, req *ApprovalRequest, opts []tool.Option) (string, error) {
	isTarget, hasData, data := tool.GetResumeContext[any](ctx)
	if !isTarget {
		return "", tool.StatefulInterrupt(ctx, req, req)
	}
	var d *ApprovalDecision
	switch v := data.(type) {
	case *ApprovalDecision:
		d = v
	case ApprovalDecision:
		d = &v
	}
	if !hasData || d == nil {
		return askAgain(ctx, req, fmt.Sprintf("the answer was %s, not a *tools.ApprovalDecision", describeData(data, hasData)))
	}
	if err := d.Validate(); err != nil {
		return askAgain(ctx, req, err.Error())
	}
	switch d.Action {
	case ApprovalDeny:
		return DeniedReply(d.Reason), nil
	case ApprovalEdit:
		edited, err := editedArguments(ctx, req.Tool, d.Arguments)
		if err != nil {
			return askAgain(ctx, req, err.Error())
		}
		a.policy.approved(req.Tool, edited)
		out, err := a.call(ctx, req.Tool, edited, opts)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("The person changed the arguments of this call to %s before approving it.\n%s", edited, out), nil
	}
	a.policy.approved(req.Tool, req.Arguments)
	return a.call(ctx, req.Tool, req.Arguments, opts)
}

// call runs the wrapped tool and lets the policy see the URLs a web_search
// reply lists.
func (a *approver) call(ctx context.Context, name, args string, opts []tool.Option) (string, error) {
	out, err := a.inner.InvokableRun(ctx, args, opts...)
	if err == nil && name == web.SearchToolName {
		a.policy.SeeURLs(urlsIn(out)...)
	}
	return out, err
}

// askAgain interrupts again with req, saying why the last answer could not
// be used.
func askAgain(ctx context.Context, req *ApprovalRequest, problem string) (string, error) {
	again := *req
	again.Problem = problem
	return "", tool.StatefulInterrupt(ctx, &again, &again)
}

// DeniedReply is the reply a call gets when the person denied it, with
// their reason when they gave one.
func DeniedReply(reason string) string {
	reason = strings.TrimRight(strings.TrimSpace(reason), ".")
	if reason == "" {
		return "The person denied this call. " + dontRetry
	}
	return "The person denied this call: " + reason + ". " + dontRetry
}

// notRunReply is the reply a call gets when the policy kept it from running.
func notRunReply(reason string) string {
	return "This call was not run: " + reason + ". " + dontRetry
}

// dontRetry ends every refusal, so the model moves on.
const dontRetry = "Do not retry it; find another way or say what you cannot do."

// toolName is t's name, or "tool" when its Info fails.
func toolName(ctx context.Context, t tool.BaseTool) string {
	if info, err := t.Info(ctx); err == nil && info != nil && info.Name != "" {
		return info.Name
	}
	return "tool"
}

// describeData names resume data that was not what a tool expected.
func describeData(data any, hasData bool) string {
	if !hasData || data == nil {
		return "empty"
	}
	return fmt.Sprintf("a %T", data)
}

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// clipText cuts s to at most n bytes, marking the cut.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// ParseApprovalDecision reads a person's typed reply to an approval
// request: "approve" (or "yes", "y", "ok"), "edit" followed by the new JSON
// arguments, or "deny" (or "no", "n") optionally followed by the reason.
// Any other reply is an error wrapping ErrInvalidDecision that says what to
// type.
func ParseApprovalDecision(reply string) (*ApprovalDecision, error) {
	reply = strings.TrimSpace(reply)
	word, rest, _ := strings.Cut(reply, " ")
	rest = strings.TrimSpace(rest)
	var d *ApprovalDecision
	switch strings.ToLower(strings.TrimRight(word, ":,")) {
	case "approve", "approved", "yes", "y", "ok":
		if rest != "" {
			return nil, fmt.Errorf("%w: %q: approve takes nothing after it; to change the arguments answer edit {new JSON arguments}", ErrInvalidDecision, reply)
		}
		d = &ApprovalDecision{Action: ApprovalApprove}
	case "edit":
		d = &ApprovalDecision{Action: ApprovalEdit, Arguments: rest}
	case "deny", "denied", "no", "n":
		d = &ApprovalDecision{Action: ApprovalDeny, Reason: rest}
	default:
		return nil, fmt.Errorf("%w: %q: answer approve, edit {new JSON arguments}, or deny [reason]", ErrInvalidDecision, reply)
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return d, nil
}

// InterruptKind says that a decision answers an approval (agents.Answer).
func (*ApprovalDecision) InterruptKind() string { return "approval" }
