package call

import (
	"context"
	"slices"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

func TestStepAndTurn(t *testing.T) {
	ctx := context.Background()
	if s, ok := Step(ctx); ok || s != 0 || Turn(ctx) != 0 {
		t.Errorf("empty context: step %d, %v, turn %d; want none", s, ok, Turn(ctx))
	}
	ctx = WithTurn(WithStep(ctx, 3), 2)
	if s, ok := Step(ctx); !ok || s != 3 || Turn(ctx) != 2 {
		t.Errorf("step %d, %v, turn %d; want 3, true, 2", s, ok, Turn(ctx))
	}
}

// The tools of one call: per-call tools replace the bound ones, allowed
// names narrow them, a forced choice is seen.
func TestTools(t *testing.T) {
	a, b, c := &schema.ToolInfo{Name: "a"}, &schema.ToolInfo{Name: "b"}, &schema.ToolInfo{Name: "c"}
	names := func(ts []*schema.ToolInfo) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Name)
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		opts   []model.Option
		want   []string
		forced bool
	}{
		{"bound", nil, []string{"a", "b"}, false},
		{"per call", []model.Option{model.WithTools([]*schema.ToolInfo{c})}, []string{"c"}, false},
		{"allowed", []model.Option{model.WithToolChoice(schema.ToolChoiceForced, "b")}, []string{"b"}, true},
		{"allowed", []model.Option{model.WithToolChoice(schema.ToolChoiceAllowed)}, []string{"a", "b"}, false},
	} {
		got, forced := Tools([]*schema.ToolInfo{a, b}, tc.opts)
		if !slices.Equal(names(got), tc.want) || forced != tc.forced {
			t.Errorf("%s: tools %v, forced %v; want %v, %v", tc.name, names(got), forced, tc.want, tc.forced)
		}
	}
}
