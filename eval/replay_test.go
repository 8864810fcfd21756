package eval

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/llm/trajectory"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session"
)

// pythonOrSkip returns an interpreter with pandas and matplotlib, or skips.
func pythonOrSkip(t testing.TB) string {
	t.Helper()
	py, err := operator.FindPython(context.Background(), "")
	if err != nil {
		t.Skipf("needs Python with pandas and matplotlib (CI installs them): %v", err)
	}
	return py
}

// quickScript answers a quick-path question: the code agent runs Python
// that sums a CSV column into out/total.csv, answers with what it printed
// (and, in passing, a key), and the report writer quotes the answer.
func quickScript(t *testing.T) *scripted.Script {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.json")
	body := `{"name": "total", "replies": [
 {"tool_calls": [{"name": "python", "arguments": {"code": "import pandas as pd\ndf = pd.read_csv('input/sales.csv')\ndf[['revenue']].sum().to_csv('out/total.csv')\nprint(f\"@total[{df.revenue.sum():.2f}]\")"}}]},
 {"content": "The total revenue: {{last_tool_result}}. (key in passing: sk-test0123456789abcdef)"},
 {"content": "# Total\n\n{{section:Answer submitted}}"}
]}`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := scripted.LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// writeSales writes a CSV of 60 rows (revenue 295 before the last row)
// whose last revenue is last: past the rows a preview shows, and inside
// the range of the others (0 … 55) that the data description gives, so
// only the Python sees a change.
func writeSales(t *testing.T, dir string, last float64) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("region,revenue\n")
	for i := range 59 {
		v := 5
		switch {
		case i == 0:
			v = 55
		case i <= 10:
			v = 0
		}
		fmt.Fprintf(&b, "R%d,%d\n", i%4, v)
	}
	fmt.Fprintf(&b, "R3,%s\n", strconv.FormatFloat(last, 'f', -1, 64))
	p := filepath.Join(dir, "sales.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// recordSession runs the quick script on sales.csv and returns the
// session's recording.
func recordSession(t *testing.T, root string) *Recording {
	t.Helper()
	py := pythonOrSkip(t)
	s, err := agents.New(agents.Config{Models: agents.Models{Default: quickScript(t).Model()}, SessionsRoot: root, Python: py, CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var final event.Event
	for e := range s.Run(context.Background(), agents.Request{Mode: agents.ModeQuick, Question: "What is the total revenue?", Files: []string{writeSales(t, t.TempDir(), 50)}}) {
		final = e
	}
	if final.Err != nil {
		t.Fatalf("recording run failed: %v", final.Err)
	}
	rec, err := OpenRecording(final.Path)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func replayConfig(t *testing.T) agents.Config {
	return agents.Config{SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute}
}

func TestReplayUnchangedSession(t *testing.T) {
	rec := recordSession(t, t.TempDir())
	if len(rec.Records) != 3 || rec.Manifest.Mode != "quick" || len(rec.Manifest.Artifacts) != 1 {
		t.Fatalf("recording = %+v", rec.Manifest)
	}
	res, err := Replay(context.Background(), rec, ReplayOptions{Config: replayConfig(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Same() || res.Calls != 3 {
		t.Errorf("replay of an unchanged run: calls %d, divergences %v, changes %v, error %q", res.Calls, res.Divergences, res.Changes, res.Error)
	}
}

func TestReplayChangedPythonResultReportsNumber(t *testing.T) {
	rec := recordSession(t, t.TempDir())
	changed := writeSales(t, t.TempDir(), 51)
	res, err := Replay(context.Background(), rec, ReplayOptions{Config: replayConfig(t), Files: []string{changed}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Divergences) == 0 {
		t.Fatal("no divergence although the Python printed another total")
	}
	d := res.Divergences[0]
	if d.Call != 2 || d.Agent != "code" || !strings.Contains(d.Recorded, "345.00") || !strings.Contains(d.Got, "346.00") {
		t.Errorf("first divergence = %s, want call 2 of code showing 345.00 -> 346.00", d)
	}
	var found bool
	for _, c := range res.Changes {
		if c.File == "out/total.csv" && strings.Join(c.Numbers, ",") == "345 → 346" {
			found = true
		}
	}
	if !found {
		t.Errorf("changes = %v, want out/total.csv with 345 → 346", res.Changes)
	}
}

func TestReplayChangedPromptReportsFirstRequest(t *testing.T) {
	rec := recordSession(t, t.TempDir())
	// The recording was made with another code-agent prompt: the code now
	// asks something the recording did not.
	rec.Records[0].Request[0].Content = strings.Replace(rec.Records[0].Request[0].Content, "code agent", "c0de agent", 1)
	res, err := Replay(context.Background(), rec, ReplayOptions{Config: replayConfig(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Divergences) == 0 || res.Divergences[0].Call != 1 || res.Divergences[0].Message != 1 || !strings.Contains(res.Divergences[0].Recorded, "c0de agent") {
		t.Errorf("divergences = %v, want call 1, message 1 (the system prompt)", res.Divergences)
	}
}

func TestExportRedactsAndReplays(t *testing.T) {
	rec := recordSession(t, t.TempDir())
	// A key that reached a header of a captured exchange, and a configured one.
	f, err := os.OpenFile(filepath.Join(rec.Dir, "trajectory.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"agent":"extra","headers":{"Authorization":"Bearer tok-secret-123456"},"request":{"messages":[{"role":"user","content":"configured key my-own-secret-42"}]}}` + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	rec, err = OpenRecording(rec.Dir)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "rec")
	if err := Export(rec, dir, ExportOptions{Inputs: true, Secrets: []string{"my-own-secret-42"}}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "trajectory.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"sk-test0123456789abcdef", "tok-secret-123456", "my-own-secret-42"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("exported trajectory still holds %q", leak)
		}
	}
	if !strings.Contains(string(b), llm.Redacted) {
		t.Error("exported trajectory shows no redaction")
	}
	if err := Export(rec, dir, ExportOptions{}); err == nil {
		t.Error("export into a non-empty directory succeeded")
	}
	out, err := OpenRecording(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !out.Manifest.InputsIncluded || len(out.Manifest.Inputs) != 1 {
		t.Fatalf("exported manifest = %+v", out.Manifest)
	}
	res, err := Replay(context.Background(), out, ReplayOptions{Config: replayConfig(t)})
	if err != nil {
		t.Fatal(err)
	}
	// The redacted key is in a recorded answer, which the replay serves
	// as recorded; the extra agent's call is never made.
	if len(res.Divergences) != 1 || res.Divergences[0].Kind != trajectory.DivergedUnused || res.Divergences[0].Agent != "extra" {
		t.Errorf("divergences = %v, want only the extra agent's unused call", res.Divergences)
	}
	for _, c := range res.Changes {
		if c.File != "report.md" || !strings.Contains(c.Now, "sk-test") {
			t.Errorf("unexpected change %s", c)
		}
	}
}

func TestOpenRecordingErrors(t *testing.T) {
	if _, err := OpenRecording(t.TempDir()); err == nil || !strings.Contains(err.Error(), "export-session") {
		t.Errorf("err = %v, want one saying what a recording is", err)
	}
	dir := t.TempDir()
	_ = os.WriteFile(filepath.Join(dir, "session.json"), []byte(`{"id":"x","question":"q"}`), 0o644)
	if _, err := OpenRecording(dir); err == nil || !strings.Contains(err.Error(), "trajectory.jsonl") {
		t.Errorf("err = %v, want one naming trajectory.jsonl", err)
	}
	_ = session.Meta{}
}

// TestRecordedNamesOfAWireCapture: calls captured on the wire name no
// agent; their model is every role's (the default), so a replay prices
// and trims them as the capture's run did.
func TestRecordedNamesOfAWireCapture(t *testing.T) {
	got := recordedNames([]trajectory.Record{{Model: "gpt-4o-mini"}, {Agent: "code", Model: "deepseek-chat"}, {Model: "other"}})
	want := map[string]string{"default": "gpt-4o-mini", "code": "deepseek-chat"}
	if !maps.Equal(got, want) {
		t.Errorf("recordedNames = %v, want %v", got, want)
	}
}
