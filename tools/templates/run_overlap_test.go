package templates

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/tools/sqldb"
)

// TestBuiltinDrawsWhileItsTableIsComputed: a built-in rendered in Go
// draws its answer (chart and tables) while DuckDB computes the reading's
// answer table, not after: the render here waits for the table's query
// to have begun. The result is the one the two give in turn.
func TestBuiltinDrawsWhileItsTableIsComputed(t *testing.T) {
	data := csvText([]string{"day", "region", "revenue"}, [][]string{
		{"2024-01-05", "north", "10"}, {"2024-01-20", "south", "20"}, {"2024-02-07", "north", "5.5"}, {"2024-03-09", "south", "7"},
	})
	op := pythonless(t, map[string][]byte{"sales.csv": data})
	m := MatchRequest("monthly revenue trend", []*preview.FilePreview{previewOf(t, op, "input/sales.csv")})
	if !m.OK() || m.Reading.Analysis == "" {
		t.Fatalf("no reading matched: %+v", m)
	}
	run := func() *Result {
		t.Helper()
		r, err := RunWith(context.Background(), op, m.File, m, RunOptions{Engine: EngineDuckDB})
		if err != nil {
			t.Fatal(err)
		}
		if r.Table == nil {
			t.Fatalf("no answer table: %v", r.Notes)
		}
		return r
	}
	alone := run()
	began := make(chan struct{})
	var overlapped atomic.Bool
	oldTable, oldRender := readingTableOnFn, renderNativeFn
	readingTableOnFn = func(ctx context.Context, src *sqldb.Source, view string, r Reading) (*Table, error) {
		close(began)
		return oldTable(ctx, src, view, r)
	}
	renderNativeFn = func(ctx context.Context, op operator.Operator, t Template, duck *duckTable, p Params, stem, lang string) (*pyResult, json.RawMessage, error) {
		select {
		case <-began:
			overlapped.Store(true)
		case <-time.After(5 * time.Second):
		}
		return oldRender(ctx, op, t, duck, p, stem, lang)
	}
	t.Cleanup(func() { readingTableOnFn, renderNativeFn = oldTable, oldRender })
	together := run()
	if !overlapped.Load() {
		t.Error("the answer was drawn before the table's query began")
	}
	a, _ := json.Marshal(alone.Table)
	b, _ := json.Marshal(together.Table)
	if string(a) != string(b) || alone.Answer != together.Answer || string(alone.Data) != string(together.Data) {
		t.Errorf("drawn alongside the table, the result differs:\n%s\n%s\nvs\n%s\n%s", alone.Answer, a, together.Answer, b)
	}
}
