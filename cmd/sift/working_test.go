package main

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
)

// slowPlannerDeps build a Sift whose scripted planner takes delay to
// answer, as a slow provider would.
func slowPlannerDeps(delay time.Duration) runDeps {
	return runDeps{now: time.Now, working: 20 * time.Millisecond, newSift: func(ctx context.Context, opts *runOptions) (*agents.Sift, string, error) {
		cfg, _, err := siftConfig(ctx, opts)
		if err != nil {
			return nil, "", err
		}
		script := scripted.New(scriptedCall("create_plan", map[string]any{"steps": []map[string]any{{"index": 1, "description": "Count the rows"}}}))
		script.SetDelay(delay)
		cfg.Models = agents.Models{Default: script.Model()}
		s, err := agents.New(cfg)
		return s, "a slow scripted model", err
	}}
}

func TestRunShowsItIsWorkingDuringALongModelCall(t *testing.T) {
	isolateEnv(t)
	pythonOrSkip(t)
	// The working line names what the run waits for ("Planning… Ns"), and
	// never stays on a line that something else is printed on.
	leftOver := regexp.MustCompile(`(working|Planning)… \d+s[^\r]`)
	tests := []struct {
		name           string
		terminal, json bool
		wantWorking    bool
	}{
		{name: "terminal", terminal: true, wantWorking: true},
		{name: "pipe", terminal: false},
		{name: "terminal with --json", terminal: true, json: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, out, errOut := testIO()
			io.Terminal = tt.terminal
			opts := &runOptions{Files: []string{"../../examples/data/sales.csv"}, Question: "How many rows?", Mode: "plan", ReviewPlan: true,
				SessionsDir: t.TempDir(), Sandbox: "none", MaxIterations: 10, JSON: tt.json}
			err := runRun(context.Background(), io, opts, slowPlannerDeps(300*time.Millisecond))
			if exitCode(err) != exitWaiting {
				t.Fatalf("want the run to wait for the review: %v\nstderr:\n%s", err, errOut)
			}
			shown := strings.Contains(errOut.String(), "\r\x1b[2KPlanning… ")
			if shown != tt.wantWorking {
				t.Errorf("working line shown = %v, want %v; stderr:\n%q", shown, tt.wantWorking, errOut)
			}
			if leftOver.MatchString(errOut.String()) || strings.HasSuffix(errOut.String(), "s") {
				t.Errorf("the working line must be cleared before anything else is printed:\n%q", errOut)
			}
			if tt.json {
				for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
					if !json.Valid([]byte(line)) {
						t.Errorf("--json output holds a line that is not JSON: %q", line)
					}
				}
				if errOut.Len() != 0 {
					t.Errorf("--json keeps stderr quiet, got %q", errOut)
				}
				// Scripts see each model call start and end.
				if !strings.Contains(out.String(), `"kind":"model_started"`) || !strings.Contains(out.String(), `"kind":"model_finished"`) ||
					!strings.Contains(out.String(), `"text":"Planning"`) {
					t.Errorf("--json does not carry the model call events:\n%s", out)
				}
			}
		})
	}
}

// TestAskTurnNamesTheModelCall: on a terminal, sift ask and a chat with
// databases say what the turn waits for ("Writing SQL… 3s"), as sift run
// does, instead of "working… 3s".
func TestAskTurnNamesTheModelCall(t *testing.T) {
	io, _, errOut := testIO()
	io.Terminal = true
	clock := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	// Redrawn by hand below, never by its ticker; shown after 1 s of silence.
	streams, working := newWorkingLine(io, false, func() time.Time { return clock }, time.Hour)
	working.after = time.Second
	stop := working.start()
	defer stop()
	started := clock
	events := func(yield func(event.Event) bool) {
		yield(event.Event{Kind: event.ModelStarted, Time: started, Text: "Writing SQL", Call: &event.ModelCall{Role: "sql", Started: started}})
	}
	followTurn(streams, working, events)
	clock = clock.Add(3 * time.Second)
	working.draw()
	if !strings.Contains(errOut.String(), "Writing SQL… 3s") {
		t.Errorf("the working line does not name the model call: %q", errOut)
	}
}
