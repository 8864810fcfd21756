package session

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/event"
)

// syncsOf returns how many fsyncs f made.
func syncsOf(t *testing.T, f func()) int64 {
	t.Helper()
	start := confined.Syncs()
	f()
	return confined.Syncs() - start
}

func TestWriteFileSyncsAsItsDurabilitySays(t *testing.T) {
	w := &Workspace{Root: t.TempDir()}
	write := func(rel, content string, d Durability) func() {
		return func() {
			if err := w.WriteFile(rel, []byte(content), d); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name string
		do   func()
		want int64
	}{
		{"derived", write("plan.md", "a", Derived), 0},
		{"derived again", write("plan.md", "b", Derived), 0},
		{"durable, a new name: the file and its directory", write("state.json", "1", Durable), 2},
		{"durable, a name already on disk: the file only", write("state.json", "2", Durable), 1},
		{"durable in a subdirectory", write("work/x.json", "1", Durable), 2},
	} {
		if got := syncsOf(t, tc.do); got != tc.want {
			t.Errorf("%s: %d fsyncs, want %d", tc.name, got, tc.want)
		}
	}
	for rel, want := range map[string]string{"plan.md": "b", "state.json": "2", "work/x.json": "1"} {
		if b, err := os.ReadFile(filepath.Join(w.Root, rel)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", rel, b, err, want)
		}
	}
}

func TestEventLogSyncsAtStepBoundariesOnly(t *testing.T) {
	l, err := OpenEventLog(filepath.Join(t.TempDir(), "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	record := func(k event.Kind) func() {
		return func() {
			if _, err := l.Record(event.Event{Kind: k}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name string
		do   func()
		want int64
	}{
		{"progress", func() {
			for _, k := range []event.Kind{event.Session, event.Plan, event.StepStarted, event.ToolCall, event.ToolResult, event.Message} {
				record(k)()
			}
		}, 0},
		{"the first step finished: the log and its new name", record(event.StepFinished), 2},
		{"the next step finished", record(event.StepFinished), 1},
		{"done", record(event.Done), 1},
		{"close with nothing new", func() {
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
		}, 0},
	} {
		if got := syncsOf(t, tc.do); got != tc.want {
			t.Errorf("%s: %d fsyncs, want %d", tc.name, got, tc.want)
		}
	}
}

func TestSyncSoonPutsOffFlushesWithoutDroppingThem(t *testing.T) {
	// The same first writes of a run, once flushed before each returns and
	// once under SyncSoon: the same content, and, once what was put off is
	// settled, the same flushes made.
	prepare := func(ctx context.Context) (*Workspace, int64) {
		root := t.TempDir()
		src := filepath.Join(t.TempDir(), "sales.csv")
		if err := os.WriteFile(src, []byte("region,sales\nnorth,1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := OpenFileBackend(root)
		if err != nil {
			t.Fatal(err)
		}
		ws, err := Create(ctx, root, NewID())
		if err != nil {
			t.Fatal(err)
		}
		n := syncsOf(t, func() {
			if err := b.Sessions.Put(ctx, Meta{ID: ws.ID, Status: StatusRunning, Question: "q", Workspace: ws.Root}); err != nil {
				t.Fatal(err)
			}
			if _, err := ws.AddInput(ctx, src); err != nil {
				t.Fatal(err)
			}
			confined.Settle()
		})
		m, err := b.Sessions.Get(ctx, ws.ID)
		if err != nil || m.Status != StatusRunning {
			t.Fatalf("session record = %+v, %v", m, err)
		}
		recs, err := ws.InputRecords()
		if err != nil || len(recs) != 1 || recs[0].Path != "input/sales.csv" {
			t.Fatalf("input records = %+v, %v", recs, err)
		}
		if b, err := os.ReadFile(ws.Path("input/sales.csv")); err != nil || string(b) != "region,sales\nnorth,1\n" {
			t.Fatalf("input copy = %q, %v", b, err)
		}
		return ws, n
	}
	_, now := prepare(context.Background())
	_, soon := prepare(SyncSoon(context.Background()))
	if now == 0 || soon != now {
		t.Fatalf("flushes: %d put off and settled, %d made at once; want the same, not none", soon, now)
	}
}
