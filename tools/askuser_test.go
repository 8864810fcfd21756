package tools

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/event"
)

// yearQuestion is the ask_user call the tests script.
const yearQuestion = `{"question": " Which year do you mean? ", "choices": ["calendar year", " ", "fiscal year"], "why": "totals differ"}`

// wantYearQuestion is the Question yearQuestion interrupts with.
var wantYearQuestion = &Question{ID: "q1", Text: "Which year do you mean?", Choices: []string{"calendar year", "fiscal year"}, Why: "totals differ"}

func askUserTools(t *testing.T, opts AskUserOptions) []tool.BaseTool {
	t.Helper()
	tl, err := AskUserTool(opts)
	if err != nil {
		t.Fatal(err)
	}
	return []tool.BaseTool{tl}
}

func TestAskUserAnswered(t *testing.T) {
	tests := []struct {
		name   string
		answer any
		want   string
	}{
		{name: "words", answer: &Answer{Text: " the fiscal year "}, want: "The person answered: the fiscal year"},
		{name: "choice", answer: &Answer{Choice: 2}, want: "The person answered: fiscal year"},
		{name: "choice and words", answer: &Answer{Choice: 1, Text: "starting in January"}, want: "The person answered: calendar year\nThey added: starting in January"},
		{name: "answer by value", answer: Answer{Text: "fiscal"}, want: "The person answered: fiscal"},
		{name: "nothing", answer: &Answer{}, want: noAnswerReply},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, askUserTools(t, AskUserOptions{}),
				callReply("q1", AskUserName, yearQuestion), textReply("done"))
			ic := onlyInterrupt(t, h.run("Total sales per year?"))
			if ic.ID == "" {
				t.Fatal("the interrupt has no ID")
			}
			if diff := cmp.Diff(any(wantYearQuestion), ic.Info); diff != "" {
				t.Fatalf("interrupt info (-want +got):\n%s", diff)
			}
			if h.script.Calls() != 1 {
				t.Fatalf("the model was called %d times before the answer, want 1", h.script.Calls())
			}

			out := h.resume(map[string]any{ic.ID: tt.answer})
			if len(out.interrupts) != 0 {
				t.Fatalf("resume interrupted again: %s", describeOutcome(out))
			}
			if diff := cmp.Diff(tt.want, toolResultSeen(t, h.script, "q1")); diff != "" {
				t.Errorf("tool result the model saw (-want +got):\n%s", diff)
			}
			if out.final != "done" {
				t.Errorf("final answer %q, want %q", out.final, "done")
			}
		})
	}
}

func TestAskUserAskedAgain(t *testing.T) {
	tests := []struct {
		name        string
		answer      any
		wantProblem string
	}{
		{name: "choice out of range", answer: &Answer{Choice: 3}, wantProblem: "invalid answer: choice 3 is not between 1 and 2"},
		{name: "negative choice", answer: &Answer{Choice: -1}, wantProblem: "invalid answer: choice -1 is not between 1 and 2"},
		{name: "wrong type", answer: &ApprovalDecision{Action: ApprovalApprove}, wantProblem: "the answer was a *tools.ApprovalDecision, not a *tools.Answer"},
		{name: "no data", answer: nil, wantProblem: "the answer was empty, not a *tools.Answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, askUserTools(t, AskUserOptions{}),
				callReply("q1", AskUserName, yearQuestion), textReply("done"))
			first := onlyInterrupt(t, h.run("Total sales per year?"))

			again := onlyInterrupt(t, h.resume(map[string]any{first.ID: tt.answer}))
			want := *wantYearQuestion
			want.Problem = tt.wantProblem
			if diff := cmp.Diff(any(&want), again.Info); diff != "" {
				t.Fatalf("second interrupt info (-want +got):\n%s", diff)
			}
			if h.script.Calls() != 1 {
				t.Fatalf("the model was called %d times, want 1: a bad answer must not reach it", h.script.Calls())
			}

			out := h.resume(map[string]any{again.ID: &Answer{Choice: 1}})
			if diff := cmp.Diff("The person answered: calendar year", toolResultSeen(t, h.script, "q1")); diff != "" {
				t.Errorf("tool result (-want +got):\n%s\n%s", diff, describeOutcome(out))
			}
		})
	}
}

func TestAskUserUnattended(t *testing.T) {
	h := newHarness(t, askUserTools(t, AskUserOptions{Unattended: true}),
		callReply("q1", AskUserName, yearQuestion), textReply("assumed calendar year"))
	out := h.run("Total sales per year?")
	if len(out.interrupts) != 0 {
		t.Fatalf("an unattended ask_user interrupted: %s", describeOutcome(out))
	}
	if diff := cmp.Diff(UnattendedReply, toolResultSeen(t, h.script, "q1")); diff != "" {
		t.Errorf("tool result (-want +got):\n%s", diff)
	}
	if _, ok := h.store.data[checkpointID]; ok {
		t.Error("a run without interrupts saved a checkpoint")
	}
}

func TestAskUserRecalled(t *testing.T) {
	var asked []string
	recall := func(q string) (string, bool) {
		asked = append(asked, q)
		return "The person answered this before: fiscal year", true
	}
	h := newHarness(t, askUserTools(t, AskUserOptions{Recall: recall}),
		callReply("q1", AskUserName, yearQuestion), textReply("fiscal year it is"))
	out := h.run("Total sales per year?")
	if len(out.interrupts) != 0 {
		t.Fatalf("a recalled question interrupted: %s", describeOutcome(out))
	}
	if got := toolResultSeen(t, h.script, "q1"); got != "The person answered this before: fiscal year" {
		t.Errorf("tool result %q", got)
	}
	if len(asked) != 1 || asked[0] == "" {
		t.Errorf("recall asked with %q", asked)
	}
	// A question not recalled is asked.
	h = newHarness(t, askUserTools(t, AskUserOptions{Recall: func(string) (string, bool) { return "", false }}),
		callReply("q1", AskUserName, yearQuestion))
	if out := h.run("Total sales per year?"); len(out.interrupts) != 1 {
		t.Errorf("a question not recalled must be asked: %s", describeOutcome(out))
	}
}

func TestAskUserNoQuestion(t *testing.T) {
	h := newHarness(t, askUserTools(t, AskUserOptions{}),
		callReply("q1", AskUserName, `{"question": "  ", "why": "x"}`), textReply("ok"))
	out := h.run("Anything?")
	if len(out.interrupts) != 0 {
		t.Fatalf("ask_user without a question interrupted: %s", describeOutcome(out))
	}
	if diff := cmp.Diff(noQuestionReply, toolResultSeen(t, h.script, "q1")); diff != "" {
		t.Errorf("tool result (-want +got):\n%s", diff)
	}
}

// TestAskUserTwoQuestions checks that a question that is resumed while the
// other one is the target asks again rather than answering with nothing.
func TestAskUserTwoQuestions(t *testing.T) {
	h := newHarness(t, askUserTools(t, AskUserOptions{}),
		callsReply(
			[3]string{"q1", AskUserName, `{"question": "Which year?"}`},
			[3]string{"q2", AskUserName, `{"question": "Which currency?", "choices": ["EUR", "USD"]}`},
		),
		textReply("done"))
	out := h.run("Total sales?")
	if len(out.interrupts) != 2 {
		t.Fatalf("got %d interrupts, want 2: %s", len(out.interrupts), describeOutcome(out))
	}
	ids := map[string]string{}
	for _, ic := range out.interrupts {
		q, ok := ic.Info.(*Question)
		if !ok {
			t.Fatalf("interrupt info is %T, want *Question", ic.Info)
		}
		ids[q.ID] = ic.ID
	}

	second := h.resume(map[string]any{ids["q1"]: &Answer{Text: "2023"}})
	ic := onlyInterrupt(t, second)
	if diff := cmp.Diff(any(&Question{ID: "q2", Text: "Which currency?", Choices: []string{"EUR", "USD"}}), ic.Info); diff != "" {
		t.Fatalf("the unanswered question (-want +got):\n%s", diff)
	}
	if h.script.Calls() != 1 {
		t.Fatalf("the model was called %d times with a question open, want 1", h.script.Calls())
	}

	h.resume(map[string]any{ic.ID: &Answer{Choice: 2}})
	got := []string{toolResultSeen(t, h.script, "q1"), toolResultSeen(t, h.script, "q2")}
	want := []string{"The person answered: 2023", "The person answered: USD"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool results (-want +got):\n%s", diff)
	}
}

// TestAskUserResumeInNewRunner resumes the checkpoint with an agent and
// runner built from scratch, as a new process would: the question must
// have been saved (gob-registered) and restored.
func TestAskUserResumeInNewRunner(t *testing.T) {
	h := newHarness(t, askUserTools(t, AskUserOptions{}),
		callReply("q1", AskUserName, yearQuestion))
	ic := onlyInterrupt(t, h.run("Total sales per year?"))
	if len(h.store.data[checkpointID]) == 0 {
		t.Fatal("no checkpoint was saved")
	}

	script, runner := newRunner(t, h.store, askUserTools(t, AskUserOptions{}), textReply("done"))
	out := resumeWith(t, runner, map[string]any{ic.ID: &Answer{Choice: 2}})
	if diff := cmp.Diff("The person answered: fiscal year", toolResultSeen(t, script, "q1")); diff != "" {
		t.Errorf("tool result in the new process (-want +got):\n%s", diff)
	}
	if out.final != "done" {
		t.Errorf("final answer %q, want %q", out.final, "done")
	}
}

func TestAnswerValidate(t *testing.T) {
	q := &Question{Text: "Which?", Choices: []string{"a", "b"}}
	free := &Question{Text: "Why?"}
	tests := []struct {
		name    string
		q       *Question
		a       *Answer
		wantErr string
	}{
		{name: "words", q: q, a: &Answer{Text: "x"}},
		{name: "last choice", q: q, a: &Answer{Choice: 2}},
		{name: "too high", q: q, a: &Answer{Choice: 3}, wantErr: "invalid answer: choice 3 is not between 1 and 2"},
		{name: "choice without choices", q: free, a: &Answer{Choice: 1}, wantErr: "invalid answer: choice 1 given, but the question offers no choices; answer in words"},
		{name: "nil", q: q, a: nil, wantErr: "invalid answer: no answer given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.a.Validate(tt.q)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil || err.Error() != tt.wantErr || !errors.Is(err, ErrInvalidAnswer) {
				t.Fatalf("Validate = %v, want %q wrapping ErrInvalidAnswer", err, tt.wantErr)
			}
		})
	}
}

func TestQuestionSiftInterrupt(t *testing.T) {
	q := &Question{ID: "call_1", Text: "Which year?", Choices: []string{"2023", "2024"}, Why: "totals differ", Problem: "choice 3 is not between 1 and 2"}
	want := event.Interrupt{
		Kind:    event.InterruptQuestion,
		Prompt:  "Which year?\n(Why: totals differ)\n(Asked again: choice 3 is not between 1 and 2)",
		Choices: []string{"2023", "2024"},
	}
	if diff := cmp.Diff(want, q.SiftInterrupt()); diff != "" {
		t.Errorf("Interrupt (-want +got):\n%s", diff)
	}
}

func TestAskUserToolInfo(t *testing.T) {
	tl, err := AskUserTool(AskUserOptions{})
	if err != nil {
		t.Fatal(err)
	}
	info, err := tl.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != AskUserName {
		t.Errorf("name %q, want %q", info.Name, AskUserName)
	}
	js, err := info.ParamsOneOf.ToJSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	var props []string
	for p := js.Properties.Oldest(); p != nil; p = p.Next() {
		props = append(props, p.Key)
	}
	if diff := cmp.Diff([]string{"question", "choices", "why"}, props); diff != "" {
		t.Errorf("parameters (-want +got):\n%s", diff)
	}
	if !strings.Contains(strings.Join(js.Required, ","), "question") {
		t.Errorf("question is not required: %v", js.Required)
	}
}

func TestParseAnswer(t *testing.T) {
	choices := []string{"calendar year", "Fiscal year"}
	tests := []struct {
		reply   string
		choices []string
		want    *Answer
	}{
		{reply: " 2 ", choices: choices, want: &Answer{Choice: 2}},
		{reply: "fiscal YEAR", choices: choices, want: &Answer{Choice: 2}},
		{reply: "3", choices: choices, want: &Answer{Text: "3"}},
		{reply: "1", choices: nil, want: &Answer{Text: "1"}},
		{reply: " the one ending in June ", choices: choices, want: &Answer{Text: "the one ending in June"}},
		{reply: "", choices: choices, want: &Answer{}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ParseAnswer(tt.reply, tt.choices)); diff != "" {
			t.Errorf("ParseAnswer(%q) (-want +got):\n%s", tt.reply, diff)
		}
	}
}

// The agents package describes interrupts through this method.
var _ interface{ SiftInterrupt() event.Interrupt } = (*Question)(nil)
