// Package call holds what package llm, its trajectory package and the
// tools read of one call: the plan step and the question it serves,
// carried on its context, and the tools in effect for it. It is internal
// so that each has one public home, in package llm; it sits below llm so
// that the tools read the step without depending on the model client.
package call

import (
	"context"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// stepKey is the context key of the current plan step.
type stepKey struct{}

// WithStep returns a context whose calls belong to plan step index.
func WithStep(ctx context.Context, index int) context.Context {
	return context.WithValue(ctx, stepKey{}, index)
}

// Step returns the plan step set by WithStep, and whether one was set.
func Step(ctx context.Context) (int, bool) {
	s, ok := ctx.Value(stepKey{}).(int)
	return s, ok
}

// turnKey is the context key of the session's current question.
type turnKey struct{}

// WithTurn returns a context whose calls serve question turn of the
// session, from 1.
func WithTurn(ctx context.Context, turn int) context.Context {
	return context.WithValue(ctx, turnKey{}, turn)
}

// Turn returns the question set by WithTurn, or 0.
func Turn(ctx context.Context) int {
	t, _ := ctx.Value(turnKey{}).(int)
	return t
}

// Tools returns the tools in effect for one call of a model bound to
// bound: per-call tools (model.WithTools) replace the bound ones, allowed
// tool names narrow them; forced is true when the call forces a tool call.
func Tools(bound []*schema.ToolInfo, opts []model.Option) (tools []*schema.ToolInfo, forced bool) {
	o := model.GetCommonOptions(nil, opts...)
	tools = bound
	if o.Tools != nil {
		tools = o.Tools
	}
	if len(o.AllowedToolNames) > 0 {
		allowed := make(map[string]bool, len(o.AllowedToolNames))
		for _, n := range o.AllowedToolNames {
			allowed[n] = true
		}
		var narrowed []*schema.ToolInfo
		for _, t := range tools {
			if allowed[t.Name] {
				narrowed = append(narrowed, t)
			}
		}
		tools = narrowed
	}
	return tools, o.ToolChoice != nil && *o.ToolChoice == schema.ToolChoiceForced
}
