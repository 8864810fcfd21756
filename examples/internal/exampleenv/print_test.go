package exampleenv

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
)

func TestPrint(t *testing.T) {
	step := func(i int, st plans.StepStatus, desc, summary string) *plans.StepState {
		return &plans.StepState{Step: plans.Step{Index: i, Description: desc}, Status: st, Summary: summary}
	}
	withReport := t.TempDir()
	if err := os.WriteFile(filepath.Join(withReport, "report.md"), []byte("# Report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		e    event.Event
		want string
	}{
		{name: "session", e: event.Event{Kind: event.Session, Text: "s1", Path: "/w/s1"}, want: "session s1: /w/s1\n"},
		{
			name: "plan",
			e: event.Event{Kind: event.Plan, Plan: &plans.FullPlan{Steps: []plans.StepState{
				*step(1, plans.StatusDone, "Load", ""), *step(2, plans.StatusTodo, "Count\n  titles", ""),
			}}},
			want: "plan:\n  [x] 1. Load\n  [ ] 2. Count titles\n",
		},
		{
			name: "revised plan",
			e:    event.Event{Kind: event.Plan, Plan: &plans.FullPlan{Revisions: 2, Steps: []plans.StepState{*step(3, plans.StatusFailed, "Parse", "")}}},
			want: "plan (revision 2):\n  [!] 3. Parse\n",
		},
		{
			name: "result",
			e:    event.Event{Kind: event.Plan, Plan: &plans.FullPlan{Result: &plans.SubmitResult{Answer: "North\nwins"}}},
			want: "result: North wins\n",
		},
		{name: "step started", e: event.Event{Kind: event.StepStarted, Step: step(1, plans.StatusDoing, "Load the data", "")}, want: "step 1: Load the data\n"},
		{
			name: "step finished shows the summary's first line",
			e:    event.Event{Kind: event.StepFinished, Step: step(1, plans.StatusDone, "Load", "\n8 rows loaded.\nstdout:\nmore")},
			want: "step 1 done: 8 rows loaded.\n",
		},
		{name: "artifact", e: event.Event{Kind: event.Artifact, Path: "out/a.csv"}, want: "  artifact: out/a.csv\n"},
		{name: "report", e: event.Event{Kind: event.Report, Path: "report.md"}, want: "report written: report.md\n"},
		{name: "error", e: event.Event{Kind: event.Error, Text: "boom"}, want: "error: boom\n"},
		{
			name: "done",
			e:    event.Event{Kind: event.Done, Path: "/w/s1", Usage: &event.Usage{AgentUsage: event.AgentUsage{Calls: 6}}},
			want: "done after 6 model calls\n  report: /w/s1/report.md\n",
		},
		{
			name: "failed with a report",
			e:    event.Event{Kind: event.Done, Path: withReport, Err: errors.New("run failed: timeout")},
			want: "failed: run failed: timeout\n  report so far: " + filepath.Join(withReport, "report.md") + "\n",
		},
		{
			name: "failed without a report",
			e:    event.Event{Kind: event.Done, Path: "/no/such/s1", Err: errors.New("add input: no such file")},
			want: "failed: add input: no such file\n  workspace: /no/such/s1\n",
		},
		{name: "failed before a workspace", e: event.Event{Kind: event.Done, Err: errors.New("no question given")}, want: "failed: no question given\n"},
		{name: "tool calls are left out", e: event.Event{Kind: event.ToolCall, Tool: "python"}, want: ""},
		{name: "messages are left out", e: event.Event{Kind: event.Message, Text: "hi"}, want: ""},
		{name: "long text is cut", e: event.Event{Kind: event.Error, Text: strings.Repeat("x", 500)}, want: "error: " + strings.Repeat("x", 399) + "…\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			Print(&b, tt.e)
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
