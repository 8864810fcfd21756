package tree

import (
	"context"
	"errors"
	"fmt"

	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// ModelError is a model call that failed after the client's retries: the
// run cannot go on without the model, so it ends with this error.
type ModelError struct {
	Agent string
	Err   error
}

func (e *ModelError) Error() string {
	return fmt.Sprintf("model call for %s failed: %v", e.Agent, e.Err)
}
func (e *ModelError) Unwrap() error { return e.Err }

func isModelError(err error) bool {
	var me *ModelError
	return errors.As(err, &me)
}

// MarkErrors wraps m so that its errors are *ModelError, naming agent.
func MarkErrors(agent string, m model.ToolCallingChatModel) model.ToolCallingChatModel {
	return &markErrors{agent: agent, inner: m}
}

// markErrors tags a model's errors as *ModelError so the agents can tell
// them from tool failures, which only fail a step.
type markErrors struct {
	agent string
	inner model.ToolCallingChatModel
}

func (m *markErrors) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	out, err := m.inner.Generate(ctx, in, opts...)
	if err != nil {
		return nil, &ModelError{Agent: m.agent, Err: err}
	}
	return out, nil
}

func (m *markErrors) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	out, err := m.inner.Stream(ctx, in, opts...)
	if err != nil {
		return nil, &ModelError{Agent: m.agent, Err: err}
	}
	return out, nil
}

func (m *markErrors) WithTools(ts []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	inner, err := m.inner.WithTools(ts)
	if err != nil {
		return nil, err
	}
	return &markErrors{agent: m.agent, inner: inner}, nil
}

// IsCallbacksEnabled reports whether the inner model runs callbacks itself.
// Without it Eino would run them a second time around this wrapper, and
// the agents would report every model message (and tool call) twice.
func (m *markErrors) IsCallbacksEnabled() bool {
	return components.IsCallbacksEnabled(m.inner)
}

// GetType reports the inner model's type.
func (m *markErrors) GetType() string {
	if t, ok := components.GetType(m.inner); ok {
		return t
	}
	return "MarkErrors"
}

// PlainError replaces the framework's layered error text with what a
// person needs: an interruption, the failing model call, or the error.
func PlainError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted: %w", ctx.Err())
	}
	var me *ModelError
	if errors.As(err, &me) {
		return me
	}
	return err
}
