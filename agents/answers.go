package agents

import (
	"errors"
	"fmt"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/tools"
)

// AnswerFor builds the answer to a pending question or approval from plain
// values, for callers such as the CLI: a question is answered with text (a
// choice's number or text picks it); an approval is approved, or denied
// with a reason.
func AnswerFor(kind string, choices []string, approve bool, answer, deny string) (any, error) {
	switch kind {
	case event.InterruptQuestion:
		if answer == "" {
			return nil, errors.New("the session asks a question: give --answer TEXT")
		}
		return tools.ParseAnswer(answer, choices), nil
	case event.InterruptApproval:
		switch {
		case approve:
			return &tools.ApprovalDecision{Action: tools.ApprovalApprove}, nil
		case deny != "":
			return &tools.ApprovalDecision{Action: tools.ApprovalDeny, Reason: deny}, nil
		}
		return nil, errors.New("the session waits for an approval: give --approve or --deny REASON")
	}
	return nil, fmt.Errorf("cannot answer a pending %q here", kind)
}
