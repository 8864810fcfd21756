package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/llm/scripted"
)

func TestListTools(t *testing.T) {
	env := newEnv(t, nil)
	cs := connect(t, env.srv, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		if tl.Description == "" || tl.InputSchema == nil {
			t.Errorf("tool %s lacks a description or a schema", tl.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"analyze", "follow_up", "list_sessions", "run_builtin_analysis"}; !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}
}

// reportURI is the report's resource URI in a tool's answer.
var reportURI = regexp.MustCompile(`sift://sessions/[^/\s]+/report\.md`)

// checkTotals checks that text holds the ranking of regions by revenue
// computed from the CSV.
func checkTotals(t *testing.T, what, text string) {
	t.Helper()
	regions, totals := regionTotals(t)
	// A table column shows one number of decimals: all with one when any
	// total has a fraction.
	fractional := false
	for _, v := range totals {
		fractional = fractional || v != float64(int64(v))
	}
	for i, r := range regions {
		cell := forPeople(totals[r])
		if fractional && !strings.Contains(cell, ".") {
			cell += ".0"
		}
		row := fmt.Sprintf("| %d | %s | %s |", i+1, r, cell)
		if !strings.Contains(text, row) {
			t.Errorf("%s lacks the row %q:\n%s", what, row, text)
		}
	}
}

// TestBuiltinAnalysisOverMCP runs the offline top-N analysis on the
// example sales, checks its numbers against the CSV, follows its progress
// and reads its report as a resource.
func TestBuiltinAnalysisOverMCP(t *testing.T) {
	env := newEnv(t, nil)
	progress := newProgressLog()
	cs := connect(t, env.srv, progress)
	out, isErr := call(t, cs, "run_builtin_analysis", map[string]any{
		"analysis": "topn", "files": []string{"sales.csv"}, "question": "total revenue by region",
	}, "run-1")
	if isErr {
		t.Fatalf("the analysis failed: %s", out)
	}
	checkTotals(t, "the answer", out)
	regions, totals := regionTotals(t)
	if top := fmt.Sprintf("%s (%s", regions[0], forPeople(totals[regions[0]])); !strings.Contains(out, top) {
		t.Errorf("the answer must name the top region %q:\n%s", top, out)
	}
	uri := reportURI.FindString(out)
	if uri == "" || !strings.Contains(out, filepath.Join(env.sessions)) {
		t.Fatalf("the answer must give the report's resource URI and its path under %s:\n%s", env.sessions, out)
	}

	msgs := progress.wait(t)
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"run-1 1 session ", "step 1: Built-in analysis", "report written", "done"} {
		if !strings.Contains(joined, want) {
			t.Errorf("progress lacks %q:\n%s", want, joined)
		}
	}

	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	if len(rr.Contents) != 1 || rr.Contents[0].MIMEType != "text/markdown" {
		t.Fatalf("report resource: %+v", rr.Contents)
	}
	checkTotals(t, "report.md", rr.Contents[0].Text)

	lr, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, r := range lr.Resources {
		listed = append(listed, r.URI)
	}
	id := strings.TrimSuffix(strings.TrimPrefix(uri, uriPrefix), "/report.md")
	for _, want := range []string{uri, resourceURI(id, "plan.md"), resourceURI(id, "out/topn_chart.png")} {
		if !slices.Contains(listed, want) {
			t.Errorf("resources/list lacks %s: %v", want, listed)
		}
	}
	png, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: resourceURI(id, "out/topn_chart.png")})
	if err != nil || len(png.Contents) != 1 || !strings.HasPrefix(string(png.Contents[0].Blob), "\x89PNG") {
		t.Errorf("the chart must be read as a PNG blob: %v", err)
	}

	sessions, _ := call(t, cs, "list_sessions", nil, nil)
	if !strings.Contains(sessions, id+" [done]") || !strings.Contains(sessions, uri) {
		t.Errorf("list_sessions must show the session, done, with its report:\n%s", sessions)
	}
}

// TestPathsOutsideAllowedAreRefused: "..", absolute paths elsewhere and
// symbolic links out of the allowed directory are refused before any
// session is made, and resources outside a session's deliverables too.
func TestPathsOutsideAllowedAreRefused(t *testing.T) {
	env := newEnv(t, nil)
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.csv")
	if err := os.WriteFile(secret, []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(env.data, "link.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(env.data, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, env.srv, nil)
	rel, err := filepath.Rel(env.data, secret)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{rel, secret, "link.csv", "elsewhere/secret.csv", "elsewhere", "/etc/passwd", filepath.Join(env.data, "..", filepath.Base(outside), "secret.csv")} {
		for tool, args := range map[string]map[string]any{
			"analyze":              {"question": "profile this data", "files": []string{p}},
			"run_builtin_analysis": {"analysis": "profile", "files": []string{p}},
		} {
			out, isErr := call(t, cs, tool, args, nil)
			if !isErr || !strings.Contains(out, "path refused") || !strings.Contains(out, env.data) {
				t.Errorf("%s %q: want a refusal naming the allowed directory, got error=%v: %s", tool, p, isErr, out)
			}
		}
	}
	if entries, _ := os.ReadDir(env.sessions); slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.IsDir() && !strings.HasPrefix(e.Name(), ".") }) {
		t.Errorf("a refused request must not make a session: %v", entries)
	}
	if out, isErr := call(t, cs, "run_builtin_analysis", map[string]any{"analysis": "horoscope", "files": []string{"sales.csv"}}, nil); !isErr || !strings.Contains(out, "profile") {
		t.Errorf("an unknown analysis must be refused with the known ones: %s", out)
	}
	for _, uri := range []string{"sift://sessions/x/../../etc/passwd", "sift://sessions/x/events.jsonl", "sift://sessions/x/input/sales.csv", "file:///etc/passwd"} {
		if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("reading %s must fail", uri)
		}
	}
}

// TestFollowUpWithScriptedModel asks a follow-up in the session of a
// built-in analysis; the scripted model plans it, runs Python on the
// session's input and answers.
func TestFollowUpWithScriptedModel(t *testing.T) {
	regions, _ := regionTotals(t)
	script := scripted.New(
		callReply("create_plan", map[string]any{"steps": []map[string]any{{"index": 1, "description": "Count the regions"}}}),
		callReply("python", map[string]string{"code": "import pandas as pd\nprint(pd.read_csv('input/sales.csv')['region'].nunique())"}),
		scripted.Reply{Func: func(req scripted.Request) (*schema.Message, error) {
			last := req.Messages[len(req.Messages)-1]
			if last.Role != schema.Tool {
				return nil, fmt.Errorf("want the python result last, got %s", last.Role)
			}
			return scripted.Text("regions: " + strings.TrimSpace(last.Content)), nil
		}},
		callReply("submit_result", map[string]any{"answer": fmt.Sprintf("There are %d regions.", len(regions)), "findings": []string{"North leads"}}),
		scripted.Reply{Message: scripted.Text(fmt.Sprintf("# Regions\n\n%d regions [step 2].", len(regions)))},
	)
	env := newEnv(t, func(c *Config) { c.Sift.Models = agents.Models{Default: script.Model()} })
	cs := connect(t, env.srv, nil)
	out, isErr := call(t, cs, "run_builtin_analysis", map[string]any{"analysis": "topn", "files": []string{"sales.csv"}, "question": "revenue by region"}, nil)
	if isErr {
		t.Fatalf("the analysis failed: %s", out)
	}
	if script.Calls() != 0 {
		t.Fatalf("a built-in analysis must not call the model (%d calls)", script.Calls())
	}
	id := strings.TrimSuffix(strings.TrimPrefix(reportURI.FindString(out), uriPrefix), "/report.md")
	out, isErr = call(t, cs, "follow_up", map[string]any{"session": id, "question": "how many regions are there?", "mode": "plan"}, nil)
	if isErr {
		t.Fatalf("the follow-up failed: %s", out)
	}
	if script.Remaining() != 0 {
		t.Errorf("%d replies unused", script.Remaining())
	}
	for _, want := range []string{fmt.Sprintf("There are %d regions.", len(regions)), "- North leads", "Session: " + id, resourceURI(id, "report.md")} {
		if !strings.Contains(out, want) {
			t.Errorf("the follow-up's answer lacks %q:\n%s", want, out)
		}
	}
	if out, isErr := call(t, cs, "follow_up", map[string]any{"session": "no-such-session", "question": "and?"}, nil); !isErr || !strings.Contains(out, "list_sessions") {
		t.Errorf("a follow-up in an unknown session must be refused: %s", out)
	}
}

func callReply(name string, args any) scripted.Reply {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return scripted.Reply{Message: scripted.ToolCall(name, string(b))}
}

// TestShutdownRefusesNewRuns: once Shutdown began, a new analysis is
// refused with a clear message and makes no session.
func TestShutdownRefusesNewRuns(t *testing.T) {
	env := newEnv(t, nil)
	cs := connect(t, env.srv, nil)
	if err := env.srv.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	cs2 := connect(t, env.srv, nil)
	out, isErr := call(t, cs2, "run_builtin_analysis", map[string]any{"analysis": "profile", "files": []string{"sales.csv"}}, nil)
	if !isErr || !strings.Contains(out, "shutting down") {
		t.Errorf("want a refusal saying the server is shutting down, got %v: %s", isErr, out)
	}
	if _, err := cs.ListTools(context.Background(), nil); err == nil {
		t.Error("Shutdown must close the sessions open before it")
	}
}

// TestToolSchemasDeclarePlainArrays: a list argument is declared "array",
// not ["null","array"], so a client that builds a form from the schema
// (the MCP Inspector) sends a list; and run_builtin_analysis's files are
// required.
func TestToolSchemasDeclarePlainArrays(t *testing.T) {
	env := newEnv(t, nil)
	cs := connect(t, env.srv, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	arrays := 0
	for _, tl := range res.Tools {
		raw, err := json.Marshal(tl.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Required   []string                   `json:"required"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		for name, p := range s.Properties {
			var prop struct {
				Type any `json:"type"`
			}
			_ = json.Unmarshal(p, &prop)
			if _, many := prop.Type.([]any); many {
				t.Errorf("%s.%s has type %v: declare one type", tl.Name, name, prop.Type)
			}
			if prop.Type == "array" {
				arrays++
			}
		}
		if tl.Name == "run_builtin_analysis" && !slices.Contains(s.Required, "files") {
			t.Errorf("run_builtin_analysis does not require files: %s", raw)
		}
	}
	if arrays < 3 {
		t.Errorf("%d array arguments, want files, databases and files", arrays)
	}
}
