package agents

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/internal/crashpoint"
	"github.com/sift-agent/sift/llm/scripted"
)

// stepsScript is a plan-mode run of n steps, each one Python cell that
// prints its number, then the answer and the report.
func stepsScript(n int) []scripted.Reply {
	var descs []string
	for i := range n {
		descs = append(descs, fmt.Sprintf("Print %d", i+1))
	}
	replies := []scripted.Reply{call(toolCreatePlan, steps(descs...))}
	for i := range n {
		replies = append(replies,
			call("python", map[string]string{"code": fmt.Sprintf("print(%d)", i+1)}),
			echoToolResult("Printed "),
		)
		if i < n-1 {
			replies = append(replies, call(toolCreatePlan, steps(descs[i+1:]...)))
		}
	}
	return append(replies,
		call(toolSubmitResult, map[string]any{"answer": fmt.Sprintf("It printed 1 to %d.", n)}),
		text(fmt.Sprintf("# Report\n\nIt printed 1 to %d [step 1].\n", n)),
	)
}

// writeCounts counts a run's writes of session state by what they wrote.
type writeCounts struct {
	mu             sync.Mutex
	files, records int // workspace files replaced; checkpoints and session records stored
}

func (w *writeCounts) note(what string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case strings.HasSuffix(what, "events.jsonl"):
	case strings.HasSuffix(what, "session.json"), strings.HasSuffix(what, ".bin"), strings.Contains(what, "checkpoint"):
		w.records++
	default:
		w.files++
	}
}

// BenchmarkFsyncsPerStep runs scripted plan-mode runs of 1 and 3 steps and
// counts the fsyncs each makes (confined.Syncs: every file and directory
// sync of session state goes through it), the cost of one more step being
// the difference over two steps. Beside each figure it prints what main's
// write path made of the same writes (each workspace file and each stored
// record synced with its directory, two fsyncs, and the event log once, at
// its close).
//
//	go test ./agents -run '^$' -bench FsyncsPerStep -benchtime 1x
func BenchmarkFsyncsPerStep(b *testing.B) {
	type count struct{ now, before int64 }
	runs := map[int]count{}
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			var c count
			for b.Loop() {
				s := httpSift(b, scripted.New(stepsScript(n)...), nil)
				var w writeCounts
				crashpoint.Set(w.note)
				start := confined.Syncs()
				evs := collect(b, s, Request{Question: "print the numbers", Mode: ModePlan, Parallel: 1})
				c.now = confined.Syncs() - start
				crashpoint.Set(nil)
				if err := evs[len(evs)-1].Err; err != nil {
					b.Fatalf("run failed: %v", err)
				}
				c.before = 2*int64(w.files+w.records) + 1
			}
			b.ReportMetric(float64(c.now), "fsyncs/run")
			runs[n] = c
		})
	}
	one, three := runs[1], runs[3]
	if one.now == 0 || three.now == 0 {
		return
	}
	perStep := float64(three.now-one.now) / 2
	perStepBefore := float64(three.before-one.before) / 2
	fmt.Printf("\nfsyncs (now vs main's write path):\n")
	fmt.Printf("  1-step run   %4d vs %4d  (%.2fx)\n", one.now, one.before, float64(one.now)/float64(one.before))
	fmt.Printf("  3-step run   %4d vs %4d  (%.2fx)\n", three.now, three.before, float64(three.now)/float64(three.before))
	fmt.Printf("  per step     %4.1f vs %4.1f  (%.2fx)\n", perStep, perStepBefore, perStep/perStepBefore)
	if perStep > 3 {
		b.Errorf("a step costs %.1f fsyncs; the target is at most 3", perStep)
	}
}
