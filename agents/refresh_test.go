package agents

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/refresh"
	"github.com/sift-agent/sift/session"
)

// refreshedScript is a three-step analysis of sales.csv whose report
// states numbers from each step.
func refreshedScript() []scripted.Reply {
	all := []string{stepLoad, "Total revenue by region to out/by_region.csv", stepMonth}
	codes := []string{codeLoad,
		"import pandas as pd\ndf = pd.read_pickle('work/sales.pkl')\ns = df.groupby('region')['revenue'].sum().sort_values(ascending=False)\ns.to_csv('out/by_region.csv')\nprint(s.to_string())",
		codeMonth}
	replies := []scripted.Reply{call(toolCreatePlan, steps(all...))}
	for i := range all {
		replies = append(replies, call("python", map[string]string{"code": codes[i]}), echoToolResult("Done. Output:\n"))
		if i < len(all)-1 {
			replies = append(replies, call(toolCreatePlan, steps(all[i+1:]...)))
		}
	}
	return append(replies,
		call(toolSubmitResult, map[string]any{"answer": "North has the highest revenue (150).", "findings": []string{"North 150, South 70, East 30"}, "files": []string{"out/by_region.csv"}}),
		text("# Revenue report\n\nNorth leads with 150, South has 70 and East 30 [step 2]. The data has 4 rows [step 1]; January 2024 brought 170 [step 3].\n"),
	)
}

// yearMore is sales.csv with a year more of data: North 360, South 190,
// East 70 over 8 rows; January 2024 still 170.
const yearMore = "2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n" +
	"2025-01-07,North,200\n2025-03-02,South,120\n2025-03-15,East,40\n2025-06-01,North,10\n"

// analysed runs the three-step analysis and returns the Sift, its script
// and the session's id.
func analysed(t *testing.T) (*Sift, *scripted.Script, string) {
	t.Helper()
	script := scripted.New(refreshedScript()...)
	s := httpSift(t, script, func(c *Config) { c.PythonMode = operator.PythonKernel })
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}, Parallel: 1})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("the analysis failed: %v", done.Err)
	}
	return s, script, done.Session
}

func writeData(t *testing.T, name, header string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(header+"\n"+yearMore), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func refreshed(t *testing.T, s *Sift, req RefreshRequest) event.Event {
	t.Helper()
	var last event.Event
	for e := range s.Refresh(context.Background(), req) {
		last = e
	}
	if last.Kind != event.Done {
		t.Fatalf("the last event is %s, want done", last.Kind)
	}
	return last
}

// TestRefreshOnAYearMoreOfData: the cells run again on the new file with
// no model call; the report's numbers are the new ones, with what moved.
func TestRefreshOnAYearMoreOfData(t *testing.T) {
	s, script, id := analysed(t)
	calls := script.Calls()
	done := refreshed(t, s, RefreshRequest{Session: id, Files: []string{writeData(t, "sales-2025.csv", "date,region,revenue")}})
	if done.Err != nil {
		t.Fatalf("refresh failed: %v", done.Err)
	}
	if got := script.Calls() - calls; got != 0 {
		t.Errorf("the refresh made %d model calls, want 0", got)
	}
	if done.Usage == nil || done.Usage.Calls != 0 {
		t.Errorf("usage = %+v, want 0 calls", done.Usage)
	}
	if done.Session == id {
		t.Fatal("the refresh must make a new session")
	}
	md := readWS(t, done, "report.md")
	for _, want := range []string{
		"North leads with 360, South has 190 and East 70 [step 2]", "The data has 8 rows [step 1]", "January 2024 brought 170 [step 3]",
		"Refreshed from session `" + id + "` on new data (sales-2025.csv): its 3 cells ran again in order, with no model", "## What changed since the previous run",
		"| 150 | 360 | +210 (+140%) |", "| 70 | 190 | +120 (+171.4%) |", "| 4 | 8 | +4 (+100%) |", "1 more number of the report did not move",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, refresh.UnverifiedMark) || strings.Contains(md, "150,") {
		t.Errorf("the refreshed report must hold only new, checked numbers:\n%s", md)
	}
	if got := readWS(t, done, "out/by_region.csv"); !strings.Contains(got, "North,360") {
		t.Errorf("out/by_region.csv = %q", got)
	}
	fp, err := SessionPlan(done.Path)
	if err != nil || fp.Result == nil || fp.Result.Answer != "North has the highest revenue (360)." {
		t.Errorf("the answer must be recomputed too: %+v %v", fp, err)
	}
	meta, err := s.Session(context.Background(), done.Session)
	if err != nil || meta.Parent != id || meta.Origin != session.OriginRefresh || meta.Status != session.StatusDone {
		t.Errorf("meta = %+v, %v; want it done, linked to %s", meta, err, id)
	}
	cells, _ := operator.ReadCells(done.Path)
	if len(cells) != 3 {
		t.Errorf("cells run = %d, want the 3 of the analysis", len(cells))
	}
}

// TestRefreshTakesAPooledKernel: with Config.KernelPool, the refreshed
// session (a new one, its cells run from the first) takes a pooled kernel
// as a new run does: its workspace is a slot of the pool, linked from
// <root>/<id>, and its cells ran there. Before, a refresh always started
// its own Python.
func TestRefreshTakesAPooledKernel(t *testing.T) {
	script := scripted.New(refreshedScript()...)
	var pool *operator.KernelPool
	var root string
	s := httpSift(t, script, func(c *Config) {
		c.PythonMode = operator.PythonKernel
		root = c.SessionsRoot
		var err error
		if pool, err = NewKernelPool(context.Background(), *c, 1, nil); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pool.Close() })
		c.KernelPool = pool
	})
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}, Parallel: 1})
	if done := evs[len(evs)-1]; done.Err != nil {
		t.Fatalf("the analysis failed: %v", done.Err)
	}
	id := evs[len(evs)-1].Session
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := pool.WaitReady(ctx, 1); err != nil {
		t.Fatal(err)
	}
	done := refreshed(t, s, RefreshRequest{Session: id, Files: []string{writeData(t, "sales-2025.csv", "date,region,revenue")}})
	if done.Err != nil {
		t.Fatalf("refresh failed: %v", done.Err)
	}
	target, err := os.Readlink(filepath.Join(root, done.Session))
	if err != nil || filepath.Dir(target) != pool.Dir() {
		t.Fatalf("the refreshed session's workspace: link to %q (%v); want a slot of the pool %s", target, err, pool.Dir())
	}
	if got := readWS(t, done, "out/by_region.csv"); !strings.Contains(got, "North,360") {
		t.Errorf("out/by_region.csv = %q", got)
	}
	if cells, _ := operator.ReadCells(target); len(cells) != 3 {
		t.Errorf("cells run in the slot = %d, want the 3 of the analysis", len(cells))
	}
}

// TestRefreshWithRenamedColumns: the mapping is shown and waits for
// approval; approved, it is applied.
func TestRefreshWithRenamedColumns(t *testing.T) {
	s, script, id := analysed(t)
	calls := script.Calls()
	data := writeData(t, "sales.csv", "Region,date,revenue_usd")
	// The columns moved as well: the new file is read as the old one.
	if err := os.WriteFile(data, []byte("Region,date,revenue_usd\n"+swapFirstTwo(yearMore)), 0o644); err != nil {
		t.Fatal(err)
	}
	plan, err := s.PlanRefresh(context.Background(), RefreshRequest{Session: id, Files: []string{data}})
	if err != nil || !plan.NeedsApproval {
		t.Fatalf("plan = %+v, %v; want a mapping to approve", plan, err)
	}
	if mt := plan.MappingText(); !strings.Contains(mt, "region (text) → Region (text)") || !strings.Contains(mt, "revenue (int) → revenue_usd (int)") {
		t.Errorf("mapping shown:\n%s", mt)
	}
	done := refreshed(t, s, RefreshRequest{Session: id, Files: []string{data}})
	var me *MappingError
	if !errors.As(done.Err, &me) || !errors.Is(done.Err, ErrMappingNotApproved) || !strings.Contains(done.Err.Error(), "revenue_usd") {
		t.Fatalf("unapproved: err = %v, want the mapping to approve", done.Err)
	}
	done = refreshed(t, s, RefreshRequest{Session: id, Files: []string{data}, Approve: true})
	if done.Err != nil {
		t.Fatalf("approved refresh failed: %v", done.Err)
	}
	md := readWS(t, done, "report.md")
	for _, want := range []string{"North leads with 360", "Columns mapped (approved)", "revenue (int) → revenue_usd (int)"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if script.Calls() != calls {
		t.Errorf("model calls during the refreshes: %d", script.Calls()-calls)
	}
}

func swapFirstTwo(rows string) string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(rows), "\n") {
		f := strings.Split(l, ",")
		f[0], f[1] = f[1], f[0]
		out = append(out, strings.Join(f, ","))
	}
	return strings.Join(out, "\n") + "\n"
}

// TestRefreshStopsAtAMissingColumn: a column the new data lacks stops the
// refresh before anything runs, naming it and what was found. The model,
// asked because similarity is not sure, finds no column for it either.
func TestRefreshStopsAtAMissingColumn(t *testing.T) {
	s, script, id := analysed(t)
	script.Push(text(`{"date": "date", "region": null, "revenue": "revenue"}`))
	data := writeData(t, "sales.csv", "date,store,revenue")
	_, err := s.PlanRefresh(context.Background(), RefreshRequest{Session: id, Files: []string{data}})
	var ue *refresh.UnmappedError
	if !errors.As(err, &ue) || !errors.Is(err, ErrCannotRefresh) {
		t.Fatalf("err = %v, want the unmapped column", err)
	}
	for _, want := range []string{"no column region (text)", "it has date (date), store (text), revenue (int)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	done := refreshed(t, s, RefreshRequest{Session: id, Files: []string{data}})
	if !errors.As(done.Err, &ue) || done.Session != "" {
		t.Errorf("refresh: err %v, session %q; want it stopped before a session was made", done.Err, done.Session)
	}
}
