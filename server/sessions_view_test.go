package server

import (
	"os"
	"slices"
	"strings"
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
// own (as SIFT_MODEL does through agents.ModelsFromConfig), and a model
// with no names (a script) by the name the server was given.
func TestConfigNamesTheModel(t *testing.T) {
	for _, tt := range []struct {
		names map[string]string
		want  string
	}{
		{map[string]string{"default": "gpt-4o"}, "gpt-4o"},
		{map[string]string{"planner": "qwen3", "executor": "qwen3", "code": "qwen3", "report": "qwen3"}, "qwen3"},
		{map[string]string{"planner": "big", "executor": "small", "code": "small", "report": "big"}, "planner: big, executor: small"},
		// A scripted model has no names; the server is told what to call it.
		{nil, "scripted (script.json)"},
	} {
		cfg := testConfig(t, reviewScript())
		cfg.Sift.Models.Names = tt.names
		cfg.ModelName = "scripted (script.json)"
		ts := startServer(t, cfg)
		var info map[string]any
		ts.do("GET", "/v1/config", nil, &info)
		if info["model_name"] != tt.want {
			t.Errorf("%v: model_name %v, want %q", tt.names, info["model_name"], tt.want)
		}
	}
}

// An upload answers with each file at a glance and questions its columns
// can answer; a file that cannot be analysed is refused, by name, with
// its cause and fix in one sentence.
func TestUploadPreviewsFilesAndRefusesBadOnes(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	var v sessionView
	if code := ts.do("POST", "/v1/sessions", upload(salesCSV(t)), &v); code != 201 {
		t.Fatalf("create: %d", code)
	}
	if len(v.Previews) != 1 || len(v.Previews[0].Sheets) != 1 {
		t.Fatalf("previews = %+v", v.Previews)
	}
	sh := v.Previews[0].Sheets[0]
	if len(sh.Rows) == 0 || len(sh.Rows) > previewRows || len(sh.Columns) == 0 || sh.Columns[0].Type == "" {
		t.Errorf("sheet preview = %+v", sh)
	}
	if len(v.Examples) == 0 {
		t.Errorf("no example questions for sales.csv")
	}
	elf, err := os.ReadFile("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, content string
		want          []string
	}{
		{"empty.csv", "", []string{"empty.csv is empty", "upload the file"}},
		{"bin.csv", string(elf[:4096]), []string{"bin.csv is not a data file", "export your data", "Parquet"}},
		{"bad.parquet", string(elf[:4096]), []string{"bad.parquet is not a Parquet file", "write it again", "export it as CSV"}},
		{"prog.xlsx", string(elf[:4096]), []string{"prog.xlsx is not a workbook", "save it as .xlsx"}},
	} {
		var e errorBody
		code := ts.do("POST", "/v1/sessions", upload([2]string{tt.name, tt.content}), &e)
		if code != 422 || e.Error.Code != "bad_file" {
			t.Errorf("%s: %d %+v, want 422 bad_file", tt.name, code, e)
		}
		for _, w := range tt.want {
			if !strings.Contains(e.Error.Message, w) {
				t.Errorf("%s: %q lacks %q", tt.name, e.Error.Message, w)
			}
		}
		if strings.Count(e.Error.Message, ". ") > 0 || strings.Contains(e.Error.Message, "Params") {
			t.Errorf("%s: not one sentence: %q", tt.name, e.Error.Message)
		}
	}
}
