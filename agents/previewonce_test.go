package agents

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/memory"
	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/tools/sqldb"
)

// TestRunPreviewsEachInputOnce: a run previews each input once, for both
// its data context and the input's fingerprint in memory (a preview of a
// large CSV reads its first MiB and counts its rows), and the fingerprint
// is the one memory makes from its own preview.
func TestRunPreviewsEachInputOnce(t *testing.T) {
	py := pythonOrSkip(t)
	var mu sync.Mutex
	previews := map[string]int{}
	old := previewFile
	previewFile = func(ctx context.Context, path string, opts preview.Options) (*preview.FilePreview, error) {
		mu.Lock()
		previews[filepath.Base(path)]++
		mu.Unlock()
		return old(ctx, path, opts)
	}
	t.Cleanup(func() { previewFile = old })
	s := offlineSift(t, py)
	evs := collect(t, s, Request{Question: "monthly revenue trend", Files: []string{salesCSV(t)}})
	if done := evs[len(evs)-1]; done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if diff := cmp.Diff(map[string]int{"sales.csv": 1}, previews); diff != "" {
		t.Errorf("previews per input (-want +got):\n%s", diff)
	}
	id := kinds(evs, event.Session)[0].Text
	meta, err := s.store.Sessions.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	own, err := memory.File(context.Background(), filepath.Join(s.cfg.SessionsRoot, id, "input", "sales.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{own.ID}, meta.Sources); diff != "" {
		t.Errorf("the input's fingerprint (-memory's own +the run's):\n%s", diff)
	}
}

// TestRunSniffsItsCSVWhileItPreviews: a run that may answer with a
// built-in sniffs its CSV inputs for DuckDB while it previews them, not
// after: the preview here waits for the sniff to have its inputs.
func TestRunSniffsItsCSVWhileItPreviews(t *testing.T) {
	py := pythonOrSkip(t)
	began := make(chan struct{})
	var once sync.Once
	oldSniff, oldPreview := sniffInputs, previewFile
	sniffInputs = func(ctx context.Context, root string, inputs <-chan []sqldb.SniffInput) {
		// The sniff begins once it has the copied inputs.
		in := <-inputs
		once.Do(func() { close(began) })
		forward := make(chan []sqldb.SniffInput, 1)
		forward <- in
		oldSniff(ctx, root, forward)
	}
	var overlapped atomic.Bool
	previewFile = func(ctx context.Context, path string, opts preview.Options) (*preview.FilePreview, error) {
		select {
		case <-began:
			overlapped.Store(true)
		case <-time.After(5 * time.Second):
		}
		return oldPreview(ctx, path, opts)
	}
	t.Cleanup(func() { sniffInputs, previewFile = oldSniff, oldPreview })
	s := offlineSift(t, py)
	evs := collect(t, s, Request{Question: "monthly revenue trend", Files: []string{salesCSV(t)}})
	if done := evs[len(evs)-1]; done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if !overlapped.Load() {
		t.Error("the preview ran with no sniff of the input begun")
	}
}

// TestRunWithoutModelCountsOnlyWithStats: a run with no model previews
// its inputs without a pass to count the rows of a file too large for
// statistics over every row (no model reads the count; the built-in
// counts them itself); a run with a model counts them.
func TestRunWithoutModelCountsOnlyWithStats(t *testing.T) {
	py := pythonOrSkip(t)
	var mu sync.Mutex
	var got []bool
	old := previewFile
	previewFile = func(ctx context.Context, path string, opts preview.Options) (*preview.FilePreview, error) {
		mu.Lock()
		got = append(got, opts.CountWithStatsOnly)
		mu.Unlock()
		return old(ctx, path, opts)
	}
	t.Cleanup(func() { previewFile = old })
	evs := collect(t, offlineSift(t, py), Request{Question: "monthly revenue trend", Files: []string{salesCSV(t)}})
	if done := evs[len(evs)-1]; done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	if len(got) != 1 || !got[0] {
		t.Errorf("previews without a model counted only with statistics: %v, want [true]", got)
	}
	got = nil
	script := scripted.New()
	script.Push(computed("250")...)
	evs = drain(t, memorySift(t, script, t.TempDir(), "m").Run(context.Background(), Request{Mode: ModePlan, Question: "What is the total revenue?", Files: []string{salesCSV(t)}}))
	if done := evs[len(evs)-1]; done.Err != nil {
		t.Fatalf("run with a model failed: %v", done.Err)
	}
	if len(got) != 1 || got[0] {
		t.Errorf("previews with a model counted only with statistics: %v, want [false]", got)
	}
}
