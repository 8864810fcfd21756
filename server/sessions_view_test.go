package server

import (
	"slices"
	"testing"
)

// A session keeps the created time and inputs it was created with while
// its run waits and after it ends, the list names its question and files,
// and a session created with nothing is left out of the list.
func TestSessionKeepsCreatedAndInputsAcrossItsRun(t *testing.T) {
	ts := startServer(t, testConfig(t, reviewScript()))
	var created sessionView
	if code := ts.do("POST", "/v1/sessions", upload(salesCSV(t)), &created); code != 201 {
		t.Fatalf("create: %d", code)
	}
	id := created.ID
	var empty sessionView
	if code := ts.do("POST", "/v1/sessions", map[string]any{}, &empty); code != 201 {
		t.Fatalf("create an empty session: %d", code)
	}
	ts.ask(id, map[string]any{"question": "a number", "mode": "plan", "review_plan": true})
	ts.openStream(id, "").rest(t) // waits for the plan review
	check := func(when string, v sessionView) {
		t.Helper()
		if !v.Created.Equal(created.Created) {
			t.Errorf("%s: created %v, want %v as created", when, v.Created, created.Created)
		}
		if !slices.Equal(v.Inputs, []string{"input/sales.csv"}) {
			t.Errorf("%s: inputs %q, want input/sales.csv", when, v.Inputs)
		}
		if v.Question != "a number" {
			t.Errorf("%s: question %q", when, v.Question)
		}
	}
	v := ts.session(id)
	if v.Status != "waiting" {
		t.Fatalf("status %s, want waiting", v.Status)
	}
	check("waiting", v)
	var list struct{ Sessions []sessionView }
	ts.do("GET", "/v1/sessions", nil, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].ID != id {
		t.Fatalf("list = %+v, want only the session with data (not the empty one)", list.Sessions)
	}
	check("listed", list.Sessions[0])

	ts.do("POST", "/v1/sessions/"+id+"/answers", map[string]any{"action": "approve"}, nil)
	ts.openStream(id, "").rest(t)
	v = ts.session(id)
	if v.Status != "done" {
		t.Fatalf("status %s, want done", v.Status)
	}
	check("done", v)
	// The empty session is still there to ask in, only not listed.
	if got := ts.session(empty.ID); got.Status != statusCreated {
		t.Errorf("the empty session: %+v", got)
	}
}

// The header names the model even when each role was configured on its
// own (as SIFT_MODEL does through agents.ModelsFromConfig).
func TestConfigNamesTheModel(t *testing.T) {
	for _, tt := range []struct {
		names map[string]string
		want  string
	}{
		{map[string]string{"default": "gpt-4o"}, "gpt-4o"},
		{map[string]string{"planner": "qwen3", "executor": "qwen3", "code": "qwen3", "report": "qwen3"}, "qwen3"},
		{map[string]string{"planner": "big", "executor": "small", "code": "small", "report": "big"}, "planner: big, executor: small"},
	} {
		cfg := testConfig(t, reviewScript())
		cfg.Sift.Models.Names = tt.names
		ts := startServer(t, cfg)
		var info map[string]any
		ts.do("GET", "/v1/config", nil, &info)
		if info["model_name"] != tt.want {
			t.Errorf("%v: model_name %v, want %q", tt.names, info["model_name"], tt.want)
		}
	}
}
