package agents

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/refresh"
)

// TestAskMappingWithTheScriptedModel: an unsure mapping asks the model
// once (its answer is kept for the refresh that applies it); a sure one,
// or an instance with no model, asks nothing.
func TestAskMappingWithTheScriptedModel(t *testing.T) {
	old := []refresh.Column{{Name: "date", Type: "date"}, {Name: "region", Type: "text"}, {Name: "revenue", Type: "int"}}
	unsure := refresh.MapColumns("input/sales.csv", old, []refresh.Column{{Name: "date", Type: "date"}, {Name: "area", Type: "text"}, {Name: "takings", Type: "int"}})
	sure := refresh.MapColumns("input/sales.csv", old, []refresh.Column{{Name: "date", Type: "date"}, {Name: "Region", Type: "text"}, {Name: "revenue_usd", Type: "int"}})
	script := scripted.New(text("```json\n{\"region\": \"area\", \"revenue\": \"takings\",}\n```"))
	s := &Sift{cfg: Config{Models: Models{Default: script.Model()}}, mappings: &modelMappings{}}
	ctx := context.Background()
	for range 2 {
		m, _, err := s.askMapping(ctx, "s1", unsure, old, nil)
		if err != nil || m.Err() != nil || !m.NeedsApproval() || !strings.Contains(m.String(), "region (text) → area (text), as the model mapped it") {
			t.Fatalf("mapping = %+v, %v", m, err)
		}
	}
	if script.Calls() != 1 {
		t.Errorf("the model was asked %d times, want once", script.Calls())
	}
	req := script.Requests()[0]
	if len(req.Messages) != 2 || !strings.Contains(req.Messages[1].Content, "## Old columns whose place in the new table is not clear\nregion (text)\nrevenue (int)") {
		t.Errorf("the request: %+v", req.Messages)
	}
	if m, _, err := s.askMapping(ctx, "s1", sure, old, nil); err != nil || script.Calls() != 1 || m.Pairs[2].By != "" {
		t.Errorf("a sure mapping must not ask: %+v %v, %d calls", m, err, script.Calls())
	}
	none := &Sift{mappings: &modelMappings{}}
	if m, _, err := none.askMapping(ctx, "s1", unsure, old, nil); err != nil || len(m.Missing) != 2 {
		t.Errorf("with no model the mapping stays as similarity found it: %+v %v", m, err)
	}
}

// TestRefreshAsksTheModelWhenColumnsAreRenamedBeyondLikeness: region and
// revenue became area and takings, names nothing like the old ones; the
// model (through the real OpenAI-compatible client) maps them with
// malformed JSON, repaired; the mapping is shown for approval and, once
// approved, applied: the new numbers, one model call in all.
func TestRefreshAsksTheModelWhenColumnsAreRenamedBeyondLikeness(t *testing.T) {
	s, script, id := analysed(t)
	calls := script.Calls()
	script.Push(text(`{"region": "area", "revenue": "takings",}`))
	data := writeData(t, "sales.csv", "date,area,takings")
	plan, err := s.PlanRefresh(context.Background(), RefreshRequest{Session: id, Files: []string{data}})
	if err != nil || !plan.NeedsApproval {
		t.Fatalf("plan = %+v, %v; want the model's mapping to approve", plan, err)
	}
	if mt := plan.MappingText(); !strings.Contains(mt, "region (text) → area (text), as the model mapped it") || !strings.Contains(mt, "revenue (int) → takings (int), as the model mapped it") {
		t.Errorf("mapping shown:\n%s", mt)
	}
	done := refreshed(t, s, RefreshRequest{Session: id, Files: []string{data}})
	if !errors.Is(done.Err, ErrMappingNotApproved) || !strings.Contains(done.Err.Error(), "takings") {
		t.Fatalf("unapproved: %v", done.Err)
	}
	// The refresh refused for want of approval applied nothing: the call
	// is the approved refresh's to count.
	if done.Usage != nil && done.Usage.Calls != 0 {
		t.Errorf("the unapproved refresh counts %d model calls, want 0", done.Usage.Calls)
	}
	done = refreshed(t, s, RefreshRequest{Session: id, Files: []string{data}, Approve: true})
	if done.Err != nil {
		t.Fatalf("approved refresh: %v", done.Err)
	}
	if md := readWS(t, done, "report.md"); !strings.Contains(md, "North leads with 360") || !strings.Contains(md, "as the model mapped it") {
		t.Errorf("report.md:\n%s", md)
	}
	if got := script.Calls() - calls; got != 1 {
		t.Errorf("model calls = %d, want 1 (the mapping, asked once and kept)", got)
	}
	// The mapping was asked before the run (PlanRefresh): the refreshed
	// session counts it all the same, in its usage and its report.
	if done.Usage == nil || done.Usage.Calls != 1 || done.Usage.PerAgent[mappingAgent] == nil || done.Usage.PerAgent[mappingAgent].Calls != 1 {
		t.Errorf("usage = %+v, want the mapping's 1 model call", done.Usage)
	}
	if md := readWS(t, done, "report.md"); strings.Contains(md, "No language model was called") {
		t.Errorf("the report's usage must count the mapping's call:\n%s", md)
	}
	// Refreshed again on the same file, the kept answer is applied and no
	// model is asked: the one call was counted already.
	again := refreshed(t, s, RefreshRequest{Session: id, Files: []string{data}, Approve: true})
	if again.Err != nil {
		t.Fatalf("second approved refresh: %v", again.Err)
	}
	if got := script.Calls() - calls; got != 1 {
		t.Errorf("model calls = %d after the second refresh, want still 1", got)
	}
	if again.Usage != nil && again.Usage.Calls != 0 {
		t.Errorf("the second refresh counts %d model calls, want 0 (the one call is the first refresh's)", again.Usage.Calls)
	}
}

// TestRefreshRefusesAModelMappingToAColumnThatIsNotThere: the model maps
// revenue to amount, which the new file lacks; the refresh stops before
// anything runs and says so.
func TestRefreshRefusesAModelMappingToAColumnThatIsNotThere(t *testing.T) {
	s, script, id := analysed(t)
	script.Push(text(`{"date": "date", "region": "area", "revenue": "amount"}`))
	data := writeData(t, "sales.csv", "date,area,takings")
	_, err := s.PlanRefresh(context.Background(), RefreshRequest{Session: id, Files: []string{data}})
	var me *refresh.ModelMappingError
	if !errors.As(err, &me) || !errors.Is(err, ErrCannotRefresh) || !strings.Contains(err.Error(), `to "amount", a column the new data does not have`) {
		t.Fatalf("err = %v, want the model's mapping refused", err)
	}
}
