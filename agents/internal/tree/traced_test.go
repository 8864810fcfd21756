package tree

import (
	"context"
	"errors"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// replyTool answers every call with reply and err.
type replyTool struct {
	reply string
	err   error
}

func (r replyTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "run_python"}, nil
}

func (r replyTool) InvokableRun(context.Context, string, ...tool.Option) (string, error) {
	return r.reply, r.err
}

// TestToolSpanOfAFailedCallIsAnError: a failed cell answers the model
// with an "Error: ..." reply, not a Go error; its span is still marked as
// an error, with the reply's first line, so a trace shows where a run
// went wrong. A call that succeeded stays unset.
func TestToolSpanOfAFailedCallIsAnError(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	tests := []struct {
		name, reply string
		err         error
		want        codes.Code
		desc        string
	}{
		{"failed cell", "Error: NameError: name 'df' is not defined\nHint: run the cell that loads df", nil, codes.Error, "Error: NameError: name 'df' is not defined"},
		{"after a kernel restart", "Note: the kernel restarted\nError: MemoryError", nil, codes.Error, "Error: MemoryError"},
		{"go error", "", errors.New("operator closed"), codes.Error, "operator closed"},
		{"ok", "42", nil, codes.Unset, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exp.Reset()
			ctx, root := tp.Tracer("test").Start(context.Background(), "test")
			_, _ = traced{replyTool{tt.reply, tt.err}}.InvokableRun(ctx, "{}")
			root.End()
			var found bool
			for _, sp := range exp.GetSpans() {
				if sp.Name != "execute_tool run_python" {
					continue
				}
				found = true
				if sp.Status.Code != tt.want || sp.Status.Description != tt.desc {
					t.Errorf("span status = %v %q, want %v %q", sp.Status.Code, sp.Status.Description, tt.want, tt.desc)
				}
			}
			if !found {
				t.Fatal("no tool span")
			}
		})
	}
}
