// Package params holds Sift's typed session keys and run parameters: the
// values that travel between agents through ADK session values, never through
// globals.
package params

import (
	"context"

	"github.com/cloudwego/eino/adk"
)

// Key is a typed ADK session key: Get and Set cannot disagree on the type.
type Key[T any] struct{ name string }

// NewKey returns a typed key with the given session-value name.
func NewKey[T any](name string) Key[T] { return Key[T]{name: name} }

// Name is the key's session-value name.
func (k Key[T]) Name() string { return k.name }

// Get reads the value from the ADK session in ctx; ok is false when it is
// missing or of another type.
func (k Key[T]) Get(ctx context.Context) (v T, ok bool) {
	raw, found := adk.GetSessionValue(ctx, k.name)
	if !found {
		return v, false
	}
	v, ok = raw.(T)
	return v, ok
}

// Set stores the value in the ADK session in ctx.
func (k Key[T]) Set(ctx context.Context, v T) { adk.AddSessionValue(ctx, k.name, v) }
