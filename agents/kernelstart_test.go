package agents

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/sift-agent/sift/operator"
)

// TestBuiltInRunStartsNoKernel: a run whose only step is a built-in
// computed in Go (trend, top-N) starts no Python kernel, not even to warm
// it up; the run still answers.
func TestBuiltInRunStartsNoKernel(t *testing.T) {
	py := pythonOrSkip(t)
	var started atomic.Int32
	old := startKernel
	startKernel = func(ctx context.Context, k *operator.Kernel) { started.Add(1); old(ctx, k) }
	t.Cleanup(func() { startKernel = old })
	for _, q := range []string{"monthly revenue trend", "top regions by revenue"} {
		evs := collect(t, offlineSift(t, py), Request{Question: q, Files: []string{salesCSV(t)}})
		if done := evs[len(evs)-1]; done.Err != nil {
			t.Fatalf("%s: run failed: %v", q, done.Err)
		}
		if n := started.Load(); n != 0 {
			t.Errorf("%s: the kernel was started %d times; a built-in computed in Go needs none", q, n)
		}
	}
}
