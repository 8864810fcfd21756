package agents

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/plans"
)

// A cell that writes 20,000 empty files to out/ makes the session's logs
// grow with the files, not with their square: each artifact event names
// its own file, the step lists MaxStepFiles of them and counts the rest,
// and the run ends. (Before, every artifact event carried the step with
// all its files: 20,000 files wrote 7.4 GB of events.)
func TestManyFilesKeepTheEventLogLinear(t *testing.T) {
	const n = 20_000
	code := "import os\nfor i in range(" + "20000" + "):\n    open('out/f%05d.txt' % i, 'w').close()\nprint('wrote', len(os.listdir('out')), 'files')"
	script := scripted.New(
		call(toolCreatePlan, steps("Write many files to out/")),
		call("python", map[string]string{"code": code}),
		echoToolResult("Done. Output:\n"),
		call(toolSubmitResult, map[string]any{"answer": "Wrote the files.", "findings": []string{"many files"}}),
		text("# Files\n\nThe step wrote many files [step 1].\n"),
	)
	s := httpSift(t, script, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The bound: a few MiB whatever N is (O(N) would allow more; N² is
	// gigabytes). The run is stopped as soon as the log passes it.
	const bound = 4 << 20
	var (
		events  []event.Event
		logPath string
		size    int64
	)
	for e := range s.Run(ctx, Request{Mode: ModePlan, Question: "Write many files"}) {
		events = append(events, e)
		if e.Kind == event.Session {
			logPath = filepath.Join(e.Path, "events.jsonl")
		}
		if logPath == "" {
			continue
		}
		if info, err := os.Stat(logPath); err == nil && info.Size() > bound {
			size = info.Size()
			cancel()
			break
		}
	}
	if size > bound {
		t.Fatalf("events.jsonl passed %d bytes after %d events for %d files: it grows faster than the files", size, len(events), n)
	}
	if len(events) == 0 || events[len(events)-1].Kind != event.Done {
		t.Fatalf("the run must end with done; got %d events", len(events))
	}
	done := events[len(events)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	var arts int
	var fin *plans.StepState
	for _, e := range events {
		switch e.Kind {
		case event.Artifact:
			arts++
			if e.Step != nil && len(e.Step.Files) > 0 {
				t.Fatalf("an artifact event carries the step's %d files; it must name only its own", len(e.Step.Files))
			}
		case event.StepFinished:
			fin = e.Step
		}
	}
	if fin == nil || len(fin.Files) != plans.MaxStepFiles || fin.FilesOmitted != n-plans.MaxStepFiles {
		t.Fatalf("the finished step must list %d files and count the other %d; got %+v", plans.MaxStepFiles, n-plans.MaxStepFiles, fin)
	}
	if arts != plans.MaxStepFiles {
		t.Errorf("artifact events = %d, want one per listed file (%d)", arts, plans.MaxStepFiles)
	}
	if plan := readWS(t, done, "plan.md"); !strings.Contains(plan, "… and 19,800 more files") {
		t.Errorf("plan.md must say how many files the list leaves out:\n%.2000s", plan)
	}
	info, err := os.Stat(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("events.jsonl: %d bytes for %d files", info.Size(), n)
}
