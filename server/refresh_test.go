package server

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/xuri/excelize/v2"
)

// refreshScript is a three-step analysis whose report states numbers of
// steps 1 and 2.
func refreshScript() *scripted.Script {
	return scripted.New(
		call("create_plan", steps("Load input/s.csv", "Revenue by region", "Revenue by month")),
		call("python", map[string]string{"code": "import pandas as pd\ndf = pd.read_csv('input/s.csv')\nprint(len(df), 'rows')"}), text("Loaded."),
		call("create_plan", steps("Revenue by region", "Revenue by month")),
		call("python", map[string]string{"code": "print(df.groupby('region')['revenue'].sum().to_string())"}), text("Summed."),
		call("create_plan", steps("Revenue by month")),
		call("python", map[string]string{"code": "print(df.groupby(df.date.str[:7])['revenue'].sum().to_string())"}), text("Summed."),
		call("submit_result", map[string]any{"answer": "North sells most (150)."}),
		text("# Sales\n\nNorth sold 150 and South 70 [step 2], over 4 rows [step 1]."),
	)
}

// TestRefreshThroughTheAPI: a finished session refreshed on new data is a
// new session, linked to it, whose report has the new numbers and no
// model call; a renamed column comes back for approval, a missing one is
// refused with its name.
func TestRefreshThroughTheAPI(t *testing.T) {
	script := refreshScript()
	ts := startServer(t, testConfig(t, script))
	rows := "2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n"
	more := rows + "2025-01-07,North,200\n2025-03-02,South,120\n"
	id := ts.createSession([2]string{"s.csv", "date,region,revenue\n" + rows})
	ts.ask(id, map[string]any{"question": "Who sells most?", "mode": "plan", "parallel": 1})
	ts.openStream(id, "").rest(t)
	calls := script.Calls()

	var acc accepted
	if code := ts.do("POST", "/v1/sessions/"+id+"/refresh", upload([2]string{"s-2025.csv", "date,region,revenue\n" + more}), &acc); code != http.StatusAccepted || acc.ID == "" || acc.ID == id {
		t.Fatalf("refresh: %d %+v", code, acc)
	}
	ts.openStream(acc.ID, "").rest(t)
	v := ts.session(acc.ID)
	if v.Status != "done" || v.Parent != id || v.Origin != "refresh" {
		t.Errorf("refreshed session = %+v, want done with parent %s", v, id)
	}
	if script.Calls() != calls {
		t.Errorf("the refresh made %d model calls, want 0", script.Calls()-calls)
	}
	b, err := os.ReadFile(filepath.Join(ts.srv.cfg.Sift.SessionsRoot, acc.ID, "report.md"))
	if err != nil || !strings.Contains(string(b), "North sold 350 and South 190 [step 2], over 6 rows [step 1].") || !strings.Contains(string(b), "| 150 | 350 |") {
		t.Errorf("refreshed report (%v):\n%s", err, b)
	}

	var approval struct {
		Error   struct{ Code, Message string }
		Refresh *agents.RefreshPlan
	}
	renamed := upload([2]string{"s.csv", "date,Region,revenue_eur\n" + more})
	if code := ts.do("POST", "/v1/sessions/"+id+"/refresh", renamed, &approval); code != http.StatusConflict || approval.Error.Code != "needs_approval" ||
		approval.Refresh == nil || len(approval.Refresh.Inputs) != 1 || approval.Refresh.Inputs[0].Mapping == nil || approval.Refresh.Inputs[0].Mapping.Pairs[2].New.Name != "revenue_eur" {
		t.Fatalf("renamed without approval: %d %+v", code, approval)
	}
	if code := ts.do("POST", "/v1/sessions/"+id+"/refresh?approve=true", upload([2]string{"s.csv", "date,Region,revenue_eur\n" + more}), &acc); code != http.StatusAccepted {
		t.Fatalf("renamed, approved: %d", code)
	}
	ts.openStream(acc.ID, "").rest(t)
	if v := ts.session(acc.ID); v.Status != "done" {
		t.Errorf("approved refresh: %+v", v)
	}

	var refusal errorBody
	// Similarity is not sure, so the model is asked; it finds no region.
	script.Push(text(`{"date": "date", "region": null, "revenue": "revenue"}`))
	if code := ts.do("POST", "/v1/sessions/"+id+"/refresh", upload([2]string{"s.csv", "date,revenue\n2024-01-05,100\n"}), &refusal); code != http.StatusUnprocessableEntity ||
		refusal.Error.Code != "bad_file" || !strings.Contains(refusal.Error.Message, "no column region (text)") {
		t.Errorf("missing column: %d %+v", code, refusal)
	}
	if code := ts.do("POST", "/v1/sessions/"+id+"/refresh?colour=red", upload([2]string{"s.csv", "x"}), &refusal); code != http.StatusBadRequest {
		t.Errorf("unknown parameter: %d", code)
	}
}

// TestForkThroughTheAPI: a fork at step 2 is a new session, linked to
// its parent, that runs steps 2 and 3 only.
func TestForkThroughTheAPI(t *testing.T) {
	script := refreshScript()
	script.Push(
		call("python", map[string]string{"code": "print(df[df.region != 'East'].groupby('region')['revenue'].sum().to_string())"}), text("Summed without East."),
		call("create_plan", steps("Revenue by month")),
		call("python", map[string]string{"code": "print(df.groupby(df.date.str[:7])['revenue'].sum().to_string())"}), text("Summed."),
		call("submit_result", map[string]any{"answer": "North (150)."}),
		text("# Sales without East\n\nNorth sold 150 [step 2]."),
	)
	ts := startServer(t, testConfig(t, script))
	id := ts.createSession([2]string{"s.csv", "date,region,revenue\n2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n"})
	ts.ask(id, map[string]any{"question": "Who sells most?", "mode": "plan", "parallel": 1})
	ts.openStream(id, "").rest(t)
	calls := script.Calls()

	var acc accepted
	if code := ts.do("POST", "/v1/sessions/"+id+"/fork", map[string]any{"at": 2, "step": "Revenue by region without East"}, &acc); code != http.StatusAccepted || acc.ID == id {
		t.Fatalf("fork: %d %+v", code, acc)
	}
	// Right after it is created, before its run reaches the registry,
	// the fork's record lists its parent's inputs (the web app's Data:).
	if st, err := ts.srv.readStaged(acc.ID); err != nil || !slices.Equal(ts.srv.stagedView(st).Inputs, []string{"input/s.csv"}) {
		t.Errorf("the fork's record (%v): %+v, want the parent's inputs", err, st)
	}
	if v := ts.session(acc.ID); !slices.Equal(v.Inputs, []string{"input/s.csv"}) {
		t.Errorf("the fork right after it was created: %+v, want the parent's inputs", v)
	}
	evs := ts.openStream(acc.ID, "").rest(t)
	var started []string
	for _, f := range evs {
		if f.event == "step_started" {
			started = append(started, f.data)
		}
	}
	if len(started) != 2 || !strings.Contains(started[0], "Revenue by region without East") {
		t.Errorf("steps started: %v, want the edited step 2 and step 3", started)
	}
	v := ts.session(acc.ID)
	if v.Status != "done" || v.Parent != id || v.Origin != "fork" || script.Calls()-calls != 7 {
		t.Errorf("fork = %+v after %d model calls; want done, linked to %s, after 7", v, script.Calls()-calls, id)
	}
	var refusal errorBody
	if code := ts.do("POST", "/v1/sessions/"+id+"/fork", map[string]any{"at": 7}, &refusal); code != http.StatusBadRequest || !strings.Contains(refusal.Error.Message, "no step 7") {
		t.Errorf("fork at a step that is not there: %d %+v", code, refusal)
	}
}

// TestForkWithAPlanThroughTheAPI: a fork at step 2 with a new plan of
// one step runs that step only; a fork that gives both a step and a
// plan, or an answer to a step that asked nothing, is refused with what
// to do.
func TestForkWithAPlanThroughTheAPI(t *testing.T) {
	script := refreshScript()
	script.Push(
		call("python", map[string]string{"code": "print(df[df.region != 'East'].groupby('region')['revenue'].sum().to_string())"}), text("Summed without East."),
		call("submit_result", map[string]any{"answer": "North (150)."}),
		text("# Sales without East\n\nNorth sold 150 [step 2]."),
	)
	ts := startServer(t, testConfig(t, script))
	id := ts.createSession([2]string{"s.csv", "date,region,revenue\n2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n"})
	ts.ask(id, map[string]any{"question": "Who sells most?", "mode": "plan", "parallel": 1})
	ts.openStream(id, "").rest(t)
	calls := script.Calls()

	var refusal errorBody
	for _, bad := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"at": 2, "step": "x", "plan": []string{"y"}}, "not both"},
		{map[string]any{"at": 2, "answer": "no"}, "asked a question"},
		{map[string]any{"at": 2, "plan": []string{" "}}, "no steps"},
	} {
		if code := ts.do("POST", "/v1/sessions/"+id+"/fork", bad.body, &refusal); code != http.StatusBadRequest || !strings.Contains(refusal.Error.Message, bad.want) {
			t.Errorf("fork %v: %d %+v, want 400 saying %q", bad.body, code, refusal, bad.want)
		}
	}
	var acc accepted
	if code := ts.do("POST", "/v1/sessions/"+id+"/fork", map[string]any{"at": 2, "plan": []string{"Revenue by region without East"}}, &acc); code != http.StatusAccepted || acc.ID == id {
		t.Fatalf("fork: %d %+v", code, acc)
	}
	var started []string
	for _, f := range ts.openStream(acc.ID, "").rest(t) {
		if f.event == "step_started" {
			started = append(started, f.data)
		}
	}
	if len(started) != 1 || !strings.Contains(started[0], "Revenue by region without East") {
		t.Errorf("steps started: %v, want the new step 2 only", started)
	}
	if v := ts.session(acc.ID); v.Status != "done" || v.Parent != id || script.Calls()-calls != 4 {
		t.Errorf("fork = %+v after %d model calls; want done, linked to %s, after 4", v, script.Calls()-calls, id)
	}
}

// TestRefreshADatabaseSessionThroughTheAPI: a session over one of the
// server's databases is refreshed with no file: its query runs again on
// the database as it is now (opened from the server's configuration, as
// the session keeps no password), with no model call.
func TestRefreshADatabaseSessionThroughTheAPI(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE orders(amount INTEGER); INSERT INTO orders VALUES (100),(50)`); err != nil {
		t.Fatal(err)
	}
	script := scripted.New(
		call("create_plan", steps("Total order amount with SQL")),
		call("sql_query", map[string]string{"sql": "SELECT sum(amount) AS total FROM orders"}), text("Summed."),
		call("submit_result", map[string]any{"answer": "The total is 150."}), text("# Report\n\nThe orders total 150 [step 1]."),
	)
	cfg := testConfig(t, script)
	cfg.Databases = map[string]string{"shop": "sqlite:" + dbPath}
	ts := startServer(t, cfg)
	var v sessionView
	if code := ts.do("POST", "/v1/sessions", map[string]any{"databases": []string{"shop"}}, &v); code != 201 {
		t.Fatalf("create = %d %+v", code, v)
	}
	ts.ask(v.ID, map[string]any{"question": "total order amount", "mode": "plan"})
	ts.openStream(v.ID, "").rest(t)
	if _, err := db.Exec(`INSERT INTO orders VALUES (75)`); err != nil {
		t.Fatal(err)
	}
	calls := script.Calls()
	var acc accepted
	if code := ts.do("POST", "/v1/sessions/"+v.ID+"/refresh", upload(), &acc); code != http.StatusAccepted {
		t.Fatalf("refresh with no file: %d %+v", code, acc)
	}
	ts.openStream(acc.ID, "").rest(t)
	if got := ts.session(acc.ID); got.Status != "done" || script.Calls() != calls {
		t.Errorf("refreshed session = %+v after %d model calls; want done after none", got, script.Calls()-calls)
	}
	b, err := os.ReadFile(filepath.Join(ts.srv.cfg.Sift.SessionsRoot, acc.ID, "report.md"))
	if err != nil || !strings.Contains(string(b), "The orders total 225 [step 1].") || !strings.Contains(string(b), "| 150 | 225 |") {
		t.Errorf("refreshed report (%v):\n%s", err, b)
	}

	// A schedule with no data directory refreshes on the databases.
	if _, err := db.Exec(`INSERT INTO orders VALUES (25)`); err != nil {
		t.Fatal(err)
	}
	fired, err := ts.srv.fire(context.Background(), Schedule{Name: "nightly", Cron: "@daily", Session: v.ID}, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
	if err != nil || fired == "" {
		t.Fatalf("the schedule's firing: %q %v", fired, err)
	}
	ts.openStream(fired, "").rest(t)
	b, err = os.ReadFile(filepath.Join(ts.srv.cfg.Sift.SessionsRoot, fired, "report.md"))
	if err != nil || !strings.Contains(string(b), "The orders total 250 [step 1].") {
		t.Errorf("the scheduled refresh's report (%v):\n%s", err, b)
	}
}

// TestRefreshErrorsNameNoServerPath: a refresh the new data does not fit
// says which file by its name; no answer names the server's upload
// directory (or any directory of the host).
func TestRefreshErrorsNameNoServerPath(t *testing.T) {
	script := refreshScript()
	ts := startServer(t, testConfig(t, script))
	rows := "2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n"
	id := ts.createSession([2]string{"s.csv", "date,region,revenue\n" + rows})
	ts.ask(id, map[string]any{"question": "Who sells most?", "mode": "plan", "parallel": 1})
	ts.openStream(id, "").rest(t)

	wb := excelize.NewFile()
	for i, row := range [][]any{{"date", "Region", "revenue_eur"}, {"2024-01-05", "North", 100}, {"2024-01-20", "South", 70}} {
		_ = wb.SetSheetRow("Sheet1", fmt.Sprintf("A%d", i+1), &row)
	}
	var xlsx bytes.Buffer
	if err := wb.Write(&xlsx); err != nil {
		t.Fatal(err)
	}
	hidden := []string{ts.srv.root, ts.srv.stagedDir(""), os.TempDir()}
	for _, bad := range []struct {
		name, file, content string
		code                int
		want                string
	}{
		{"unreadable", "s.xlsx", "not a workbook", http.StatusUnprocessableEntity, "read the new data s.xlsx"},
		{"no table", "s.csv", "", http.StatusUnprocessableEntity, "the new data s.csv has no table"},
		{"renamed in a workbook", "s.xlsx", xlsx.String(), http.StatusUnprocessableEntity, "columns of s.xlsx have other names"},
		{"renamed", "s.csv", "date,Region,revenue_eur\n" + rows, http.StatusConflict, "s.csv"},
	} {
		var raw json.RawMessage
		code := ts.do("POST", "/v1/sessions/"+id+"/refresh", upload([2]string{bad.file, bad.content}), &raw)
		if code != bad.code || !strings.Contains(string(raw), bad.want) {
			t.Errorf("%s: %d %s, want %d saying %q", bad.name, code, raw, bad.code, bad.want)
		}
		for _, dir := range hidden {
			if strings.Contains(string(raw), dir) {
				t.Errorf("%s: the answer names the server's directory %s: %s", bad.name, dir, raw)
			}
		}
	}
}

// uploadWithMapping is upload with a part named mapping.
func uploadWithMapping(mapping any, files ...[2]string) *multipartBody {
	b := &multipartBody{}
	w := multipart.NewWriter(&b.buf)
	for _, f := range files {
		fw, _ := w.CreateFormFile("file", f[0])
		_, _ = fw.Write([]byte(f[1]))
	}
	raw, _ := json.Marshal(mapping)
	_ = w.WriteField("mapping", string(raw))
	_ = w.Close()
	b.contentType = w.FormDataContentType()
	return b
}

// TestRefreshApprovalCarriesTheModelMapping: the model's column mapping
// comes back in the 409 (model_mapping); sent back with the approval to
// another server (here a fresh one over the same sessions, whose model
// fails if called), it is applied as approved, with no model call, and
// its call is counted. A mapping tampered to a column the new data lacks,
// or with a negative usage, is refused.
func TestRefreshApprovalCarriesTheModelMapping(t *testing.T) {
	script := refreshScript()
	cfg := testConfig(t, script)
	ts := startServer(t, cfg)
	rows := "2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n"
	id := ts.createSession([2]string{"s.csv", "date,region,revenue\n" + rows})
	ts.ask(id, map[string]any{"question": "Who sells most?", "mode": "plan", "parallel": 1})
	ts.openStream(id, "").rest(t)

	renamed := [2]string{"s.csv", "date,area,takings\n" + rows + "2025-01-07,North,200\n"}
	script.Push(text(`{"date": "date", "region": "area", "revenue": "takings"}`))
	var approval struct {
		Error   struct{ Code, Message string }
		Refresh *agents.RefreshPlan
	}
	if code := ts.do("POST", "/v1/sessions/"+id+"/refresh", upload(renamed), &approval); code != http.StatusConflict || approval.Refresh == nil ||
		len(approval.Refresh.Models) != 1 || approval.Refresh.Models[0].Columns["region"] != "area" || approval.Refresh.Models[0].Usage.Calls != 1 {
		t.Fatalf("renamed beyond likeness: %d %+v", code, approval)
	}
	mapping := approval.Refresh.Models

	other := scripted.New() // exhausted: any call fails
	cfg2 := testConfig(t, other)
	cfg2.Sift.SessionsRoot = cfg.Sift.SessionsRoot
	ts2 := startServer(t, cfg2)
	var refusal errorBody
	tampered := []agents.ModelMapping{{Input: mapping[0].Input, Columns: map[string]string{"date": "date", "region": "area", "revenue": "amount"}, Usage: mapping[0].Usage}}
	if code := ts2.do("POST", "/v1/sessions/"+id+"/refresh?approve=true", uploadWithMapping(tampered, renamed), &refusal); code != http.StatusUnprocessableEntity ||
		!strings.Contains(refusal.Error.Message, `to "amount", a column the new data does not have`) {
		t.Errorf("tampered mapping: %d %+v", code, refusal)
	}
	negative := []agents.ModelMapping{{Input: mapping[0].Input, Columns: mapping[0].Columns}}
	negative[0].Usage.PromptTokens = -5
	if code := ts2.do("POST", "/v1/sessions/"+id+"/refresh?approve=true", uploadWithMapping(negative, renamed), &refusal); code != http.StatusUnprocessableEntity ||
		!strings.Contains(refusal.Error.Message, "negative usage") {
		t.Errorf("negative usage: %d %+v", code, refusal)
	}
	var acc accepted
	if code := ts2.do("POST", "/v1/sessions/"+id+"/refresh?approve=true", uploadWithMapping(mapping, renamed), &acc); code != http.StatusAccepted {
		t.Fatalf("approved with the mapping on another server: %d %+v", code, acc)
	}
	ts2.openStream(acc.ID, "").rest(t)
	if v := ts2.session(acc.ID); v.Status != "done" || other.Calls() != 0 {
		t.Errorf("approved refresh on another server: %+v after %d model calls, want done after none", v, other.Calls())
	}
	b, err := os.ReadFile(filepath.Join(cfg.Sift.SessionsRoot, acc.ID, "report.md"))
	if err != nil || !strings.Contains(string(b), "North sold 350") || !strings.Contains(string(b), "as the model mapped it") || strings.Contains(string(b), "No language model was called") {
		t.Errorf("refreshed report (%v):\n%s", err, b)
	}
}
