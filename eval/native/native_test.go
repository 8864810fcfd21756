package native

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/eval"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
)

func TestWriteSuite(t *testing.T) {
	dir := t.TempDir()
	s, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := eval.LoadSuite(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Questions) < 30 {
		t.Errorf("%d questions, want at least 30", len(loaded.Questions))
	}
	cats := map[string]int{}
	sqlite := 0
	for _, q := range loaded.Questions {
		cats[q.Category]++
		if _, err := loaded.Files(q); err != nil {
			t.Error(err)
		}
		if _, err := os.Stat(filepath.Join(dir, q.Script)); err != nil {
			t.Errorf("question %s: %v", q.ID, err)
		}
		for _, f := range q.Files {
			if filepath.Ext(f) == ".db" {
				sqlite++
			}
		}
	}
	for _, c := range []string{"aggregation", "time series", "joins", "filtering", "ranking", "statistics", "charts"} {
		if cats[c] < 3 {
			t.Errorf("category %s has %d questions, want at least 3", c, cats[c])
		}
	}
	if sqlite < 5 {
		t.Errorf("%d questions over SQLite, want at least 5", sqlite)
	}
	// The same data and answers every time.
	again, err := Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Questions {
		if !reflect.DeepEqual(s.Questions[i].Expected, again.Questions[i].Expected) {
			t.Errorf("question %s: expected answers differ between two generations", s.Questions[i].ID)
		}
	}
}

// TestSuiteScriptedSample runs a few questions of the suite offline, one
// per kind of input, through the whole pipeline; `make eval` runs them
// all.
func TestSuiteScriptedSample(t *testing.T) {
	py, err := operator.FindPython(context.Background(), "")
	if err != nil {
		t.Skipf("needs Python with pandas and matplotlib (CI installs them): %v", err)
	}
	dir := t.TempDir()
	s, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	keep := map[string]bool{"join-regions-below-target": true, "rank-sql-most-orders": true, "stat-sensor-p90": true, "chart-region-bar": true}
	var sample []eval.Question
	for _, q := range s.Questions {
		if keep[q.ID] {
			sample = append(sample, q)
		}
	}
	s.Questions = sample
	res, err := eval.Run(context.Background(), s, eval.Options{Config: agents.Config{SessionsRoot: t.TempDir(), Python: py, CodeTimeout: time.Minute}, Scripted: true, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range res.Questions {
		if !q.Correct {
			t.Errorf("%s: %s %+v (answer %q, error %q)", q.ID, q.Kind, q.Answers, q.Answer, q.Error)
		}
		// The script is in step with the agents: each of its replies is
		// one model call (the code agent's two, the report writer's), none
		// left over.
		script, err := scripted.LoadFile(filepath.Join(dir, "scripts", q.ID+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if replies := script.Remaining(); q.Calls != replies {
			t.Errorf("%s: %d model calls, want %d, one per reply of its script", q.ID, q.Calls, replies)
		}
	}
	if len(res.Questions) != len(keep) {
		t.Errorf("%d results, want %d", len(res.Questions), len(keep))
	}
}
