package main

import (
	"context"
	"errors"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session"
)

// Exit codes, documented in the package comment and the README.
const (
	exitOK          = 0
	exitRunFailed   = 1
	exitUsage       = 2
	exitModelConfig = 3
	exitEnvironment = 4
	exitBudget      = 5
	exitWaiting     = 6
	exitPaused      = 7
	exitFailedSteps = 8
	exitInterrupted = 130
)

// errWaiting: the run stopped to wait for the person's answer.
var errWaiting = errors.New("the run waits for your answer")

// usageError marks errors in how the command was called.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// claimError is the error of a command refused because another process
// holds the session (session.ClaimedError says who and since when); an id
// that is not one is the caller's mistake.
func claimError(err error) error {
	if errors.Is(err, session.ErrInvalidID) {
		return usageError{err}
	}
	return err
}

// exitCode is the one place errors become exit codes.
func exitCode(err error) int {
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue), errors.Is(err, agents.ErrNoQuestion), errors.Is(err, session.ErrBadInput),
		errors.Is(err, agents.ErrCannotRefresh), errors.Is(err, agents.ErrMappingNotApproved), errors.Is(err, agents.ErrCannotFork):
		return exitUsage
	case errors.Is(err, agents.ErrPaused):
		return exitPaused
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.Is(err, agents.ErrNoModel), errors.Is(err, llm.ErrNotConfigured), errors.Is(err, llm.ErrAuth), errors.Is(err, llm.ErrUnreachable):
		return exitModelConfig
	case errors.Is(err, operator.ErrNoPython), errors.Is(err, operator.ErrNoSandbox), errors.Is(err, agents.ErrDatabaseUnavailable):
		return exitEnvironment
	case errors.Is(err, agents.ErrBudgetExceeded):
		return exitBudget
	case errors.Is(err, errWaiting):
		return exitWaiting
	case errors.Is(err, agents.ErrAnswerOnFailedSteps):
		return exitFailedSteps
	default:
		return exitRunFailed
	}
}
