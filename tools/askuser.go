package tools

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/event"
)

// AskUserName is the name the ask_user tool is offered to models under.
const AskUserName = "ask_user"

// UnattendedReply is ask_user's reply when no one can answer questions in
// the run.
const UnattendedReply = "No one can answer questions in this run: make the most reasonable assumption, state it in your answer, and go on."

// noAnswerReply is ask_user's reply when the person answered with nothing.
const noAnswerReply = "The person did not answer: make the most reasonable assumption, state it in your answer, and go on."

// noQuestionReply is ask_user's reply to a call without a question.
const noQuestionReply = "ask_user needs a question: write the one thing you need the person to tell you."

// ErrInvalidAnswer is wrapped by Answer.Validate's errors.
var ErrInvalidAnswer = errors.New("invalid answer")

// AskUserArgs are the arguments of the ask_user tool.
type AskUserArgs struct {
	// Question is what to ask, in plain words.
	Question string `json:"question"`
	// Choices are the answers to pick from, when the answer is one of a few.
	Choices []string `json:"choices,omitempty" jsonschema_description:"answers to pick from, if few"`
	// Why says what the answer changes.
	Why string `json:"why,omitempty"`
}

// askUserDesc tells the model what ask_user does and when to use it: the
// one place the code agent reads when to ask (its prompt does not repeat
// it).
const askUserDesc = "Ask the person one short question when the data cannot settle an ambiguity; never guess or ask permission."

// Question is what ask_user asks the person: the Info of its interrupt
// (adk InterruptCtx.Info), and the state it saves.
type Question struct {
	// ID is the tool call's ID, to match the question with the call in the
	// event stream.
	ID string
	// Text is the question.
	Text string
	// Choices are the answers to pick from; empty for a free answer.
	Choices []string
	// Why says what the answer changes. Optional.
	Why string
	// Problem is set when the question is asked again because the previous
	// answer could not be used, and says why.
	Problem string
}

// Answer is the person's answer to a Question, given as the resume data of
// its interrupt:
//
//	runner.ResumeWithParams(ctx, checkpointID, &adk.ResumeParams{
//		Targets: map[string]any{interruptID: &tools.Answer{Text: "fiscal year"}},
//	})
type Answer struct {
	// Text is the answer in the person's words. Optional when Choice is set.
	Text string
	// Choice is the 1-based number of the chosen entry of Question.Choices;
	// 0 when none was chosen.
	Choice int
}

func init() {
	schema.RegisterName[*Question]("sift_question")
	schema.RegisterName[*Answer]("sift_answer")
}

// Validate reports an answer that does not fit q: a choice out of range.
func (a *Answer) Validate(q *Question) error {
	if a == nil {
		return fmt.Errorf("%w: no answer given", ErrInvalidAnswer)
	}
	if a.Choice < 0 || a.Choice > len(q.Choices) {
		if len(q.Choices) == 0 {
			return fmt.Errorf("%w: choice %d given, but the question offers no choices; answer in words", ErrInvalidAnswer, a.Choice)
		}
		return fmt.Errorf("%w: choice %d is not between 1 and %d", ErrInvalidAnswer, a.Choice, len(q.Choices))
	}
	return nil
}

// SiftInterrupt returns the question as the run's generic interrupt, for
// events, the session registry and the sift command; the caller sets its
// ID from the adk interrupt context.
func (q *Question) SiftInterrupt() event.Interrupt {
	prompt := q.Text
	if q.Why != "" {
		prompt += "\n(Why: " + q.Why + ")"
	}
	if q.Problem != "" {
		prompt += "\n(Asked again: " + q.Problem + ")"
	}
	return event.Interrupt{
		Kind:    event.InterruptQuestion,
		Prompt:  prompt,
		Choices: append([]string(nil), q.Choices...),
	}
}

// AskUserOptions configures the ask_user tool. The zero value asks.
type AskUserOptions struct {
	// Unattended says no one can answer in this run (the sift command's
	// --yes, a batch job): the tool then replies UnattendedReply at once
	// instead of interrupting. Default false.
	Unattended bool
	// Recall, when set, is asked first: a question the person already
	// answered (in an earlier session on the same data) is answered with
	// what it returns, without asking again. Optional.
	Recall func(question string) (reply string, ok bool)
}

// AskUserTool returns the ask_user tool. A call interrupts the run with a
// *Question (saved in the checkpoint); resumed with an *Answer for its
// interrupt ID, the tool returns "The person answered: ..." to the model.
// An ask_user call that is resumed while another interrupt is the target
// asks again, as does one whose answer does not fit (Question.Problem then
// says why).
func AskUserTool(opts AskUserOptions) (tool.InvokableTool, error) {
	t, err := utils.InferTool(AskUserName, askUserDesc, func(ctx context.Context, a AskUserArgs) (string, error) {
		return askUser(ctx, opts, a)
	}, leanSchema)
	if err != nil {
		return nil, fmt.Errorf("build %s tool: %w", AskUserName, err)
	}
	return t, nil
}

// askUser is the ask_user tool body.
func askUser(ctx context.Context, opts AskUserOptions, a AskUserArgs) (string, error) {
	if wasInterrupted, hasState, q := tool.GetInterruptState[*Question](ctx); wasInterrupted && hasState && q != nil {
		return answered(ctx, q)
	}
	if opts.Recall != nil {
		if reply, ok := opts.Recall(strings.TrimSpace(a.Question)); ok {
			return reply, nil
		}
	}
	if opts.Unattended {
		return UnattendedReply, nil
	}
	q := &Question{
		ID:      compose.GetToolCallID(ctx),
		Text:    strings.TrimSpace(a.Question),
		Choices: cleanChoices(a.Choices),
		Why:     strings.TrimSpace(a.Why),
	}
	if q.Text == "" {
		return noQuestionReply, nil
	}
	return "", tool.StatefulInterrupt(ctx, q, q)
}

// answered returns the person's answer to q, or asks again when this call
// is not the one being resumed or the answer does not fit.
func answered(ctx context.Context, q *Question) (string, error) {
	isTarget, hasData, data := tool.GetResumeContext[any](ctx)
	if !isTarget {
		return "", tool.StatefulInterrupt(ctx, q, q)
	}
	var ans *Answer
	switch v := data.(type) {
	case *Answer:
		ans = v
	case Answer:
		ans = &v
	}
	if !hasData || ans == nil {
		return askQuestionAgain(ctx, q, fmt.Sprintf("the answer was %s, not a *tools.Answer", describeData(data, hasData)))
	}
	if err := ans.Validate(q); err != nil {
		return askQuestionAgain(ctx, q, err.Error())
	}
	text := strings.TrimSpace(ans.Text)
	switch {
	case ans.Choice > 0 && text != "":
		return fmt.Sprintf("The person answered: %s\nThey added: %s", q.Choices[ans.Choice-1], text), nil
	case ans.Choice > 0:
		return "The person answered: " + q.Choices[ans.Choice-1], nil
	case text != "":
		return "The person answered: " + text, nil
	}
	return noAnswerReply, nil
}

// askQuestionAgain interrupts again with q, saying why the last answer
// could not be used.
func askQuestionAgain(ctx context.Context, q *Question, problem string) (string, error) {
	again := *q
	again.Problem = problem
	return "", tool.StatefulInterrupt(ctx, &again, &again)
}

// cleanChoices trims the choices and drops empty ones.
func cleanChoices(choices []string) []string {
	var out []string
	for _, c := range choices {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// ParseAnswer reads a person's typed reply to a question with the given
// choices: a choice's number ("2") or its text in any case ("Fiscal year")
// picks it; anything else is the answer in their words.
func ParseAnswer(reply string, choices []string) *Answer {
	reply = strings.TrimSpace(reply)
	if n, err := strconv.Atoi(reply); err == nil && n >= 1 && n <= len(choices) {
		return &Answer{Choice: n}
	}
	for i, c := range choices {
		if strings.EqualFold(reply, strings.TrimSpace(c)) {
			return &Answer{Choice: i + 1}
		}
	}
	return &Answer{Text: reply}
}

// InterruptKind says that an Answer answers a question (agents.Answer).
func (*Answer) InterruptKind() string { return "question" }
