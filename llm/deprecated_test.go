package llm_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/llm/trajectory"
)

// TestDeprecatedNamesStillCompile is code written against release 1's
// names, before trajectories moved to llm/trajectory: it must compile, and
// each old name must do what its new one does.
func TestDeprecatedNamesStillCompile(t *testing.T) {
	var buf bytes.Buffer
	var traj *llm.Trajectory = llm.NewTrajectory(&buf, llm.TrajectoryConfig{MaxContentChars: 0})
	s := scripted.New(scripted.Reply{Message: scripted.Text("the total is 2")})
	m := llm.Wrap(s.ModelFor("code"), "code", nil, llm.WithTrajectory(traj))
	if _, err := m.Generate(context.Background(), []*schema.Message{schema.UserMessage("total?")}); err != nil {
		t.Fatal(err)
	}
	traj.Write(llm.TrajectoryRecord{Agent: "by hand", Request: []llm.TrajectoryMessage{{Role: "user", Content: "x",
		ToolCalls: []llm.TrajectoryToolCall{{Name: "python"}}}}, ToolDefs: []llm.TrajectoryTool{{Name: "python"}},
		Usage: &llm.TrajectoryUsage{PromptTokens: 1}})
	if err := traj.Close(); err != nil {
		t.Fatal(err)
	}

	recs, err := llm.ReadTrajectory(bytes.NewReader(buf.Bytes()))
	if err != nil || len(recs) != 2 || recs[0].Response == nil || recs[0].Response.Content != "the total is 2" {
		t.Fatalf("ReadTrajectory = %+v, %v; want the call and the record written by hand", recs, err)
	}
	var scanned []trajectory.Record
	if damaged, err := llm.ScanTrajectory(bytes.NewReader(buf.Bytes()), true, func(r llm.TrajectoryRecord) { scanned = append(scanned, r) }); err != nil || damaged != 0 || len(scanned) != 2 {
		t.Errorf("ScanTrajectory: %d records, %d damaged, %v", len(scanned), damaged, err)
	}
	path := filepath.Join(t.TempDir(), "trajectory.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if loaded, err := llm.LoadTrajectory(path); err != nil || len(loaded) != 2 {
		t.Errorf("LoadTrajectory = %d records, %v", len(loaded), err)
	}
	if f, err := llm.OpenTrajectory(filepath.Join(t.TempDir(), "t.jsonl"), llm.TrajectoryConfig{}); err != nil {
		t.Errorf("OpenTrajectory: %v", err)
	} else if err := f.Close(); err != nil {
		t.Error(err)
	}

	// A record's Counts method, as in release 1, counts what the meter did.
	var counts llm.Counts = recs[1].Counts()
	if counts.Calls != 1 || counts.PromptTokens != 1 || counts != llm.RecordedCounts(recs[1]) {
		t.Errorf("TrajectoryRecord.Counts() = %+v, want one call of 1 prompt token, as RecordedCounts", counts)
	}
	if sum := recs[0].Counts().Add(recs[1].Counts()); sum.Calls != 2 || sum.TotalTokens() != llm.RecordedCounts(recs[0]).TotalTokens()+1 {
		t.Errorf("the records' counts add up to %+v", sum)
	}

	var rp *llm.Replay = llm.NewReplay(recs[:1], llm.ReplayConfig{})
	got, err := rp.ModelFor("code").Generate(context.Background(), []*schema.Message{schema.UserMessage("total?")})
	if err != nil || got.Content != "the total is 2" {
		t.Errorf("replayed %v, %v; want the recorded answer", got, err)
	}
	if _, err := rp.ModelFor("code").Generate(context.Background(), nil); !errors.Is(err, llm.ErrReplayUnanswerable) || !errors.Is(err, trajectory.ErrUnanswerable) {
		t.Errorf("a call past the recording: %v, want ErrReplayUnanswerable", err)
	}
	var d []llm.Divergence = rp.Divergences()
	if len(d) != 1 || d[0].Kind != llm.DivergedUnanswerable {
		t.Errorf("divergences = %v, want one unanswerable call", d)
	}
	for _, c := range []struct{ old, new llm.DivergenceKind }{
		{llm.DivergedRequest, trajectory.DivergedRequest},
		{llm.DivergedTools, trajectory.DivergedTools},
		{llm.DivergedUnanswerable, trajectory.DivergedUnanswerable},
		{llm.DivergedUnused, trajectory.DivergedUnused},
	} {
		if c.old != c.new {
			t.Errorf("old kind means %q, want %q", c.old, c.new)
		}
	}
	if got := llm.BlankTimings("x (ran 12ms)"); !strings.Contains(got, "(ran …)") {
		t.Errorf("BlankTimings = %q", got)
	}
}
