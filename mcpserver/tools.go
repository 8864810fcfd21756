package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/templates"
)

// maxReportChars bounds the report text a tool answer carries; the whole
// report is the session's report.md resource.
const maxReportChars = 16000

// AnalyzeArgs are the arguments of the analyze tool.
type AnalyzeArgs struct {
	Question  string   `json:"question" jsonschema:"what to find out, in any language"`
	Files     []string `json:"files,omitempty" jsonschema:"files or directories to analyse (csv, tsv, xlsx, json, jsonl, txt, md); relative paths are taken from the server's first allowed directory"`
	Databases []string `json:"databases,omitempty" jsonschema:"names of databases the server offers, queried read-only"`
	Mode      string   `json:"mode,omitempty" jsonschema:"auto (default: a built-in analysis when one matches, else plan), template (built-in analyses only, no model), quick (one code-agent loop) or plan (plan, execute and replan)"`
}

// BuiltinArgs are the arguments of the run_builtin_analysis tool.
type BuiltinArgs struct {
	Analysis string   `json:"analysis" jsonschema:"the built-in analysis (its names are the catalog's: see builtinSchema)"`
	Files    []string `json:"files" jsonschema:"the data files (a table: csv, tsv, xlsx, json lines); relative paths are taken from the server's first allowed directory"`
	Question string   `json:"question,omitempty" jsonschema:"optional: the request, naming columns, periods or N, e.g. 'monthly revenue by region'"`
}

// ListSessionsArgs are the arguments of the list_sessions tool.
type ListSessionsArgs struct {
	Limit int `json:"limit,omitempty" jsonschema:"most sessions to list, newest first (default 20)"`
}

// FollowUpArgs are the arguments of the follow_up tool.
type FollowUpArgs struct {
	Session  string `json:"session" jsonschema:"the session id (from analyze or list_sessions)"`
	Question string `json:"question" jsonschema:"the follow-up question; the session's results, files and Python state carry over"`
	Mode     string `json:"mode,omitempty" jsonschema:"auto (default), template, quick or plan"`
}

// builtinSchema is run_builtin_analysis's input schema, whose analysis is
// described with the catalog's names (templates.Names), so that a new
// built-in needs no edit here. No enum: a name is matched as
// templates.Lookup matches it (any case), not refused by the schema.
func builtinSchema() *jsonschema.Schema {
	sc := inputSchema[BuiltinArgs]()
	sc.Properties["analysis"].Description = "the built-in analysis: " + strings.Join(templates.Names(), ", ")
	return sc
}

func (s *Server) addTools() {
	names := strings.Join(templates.Names(), ", ")
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "analyze",
		InputSchema: inputSchema[AnalyzeArgs](),
		Title:       "Analyse data",
		Description: "Answer a question about data files (or the server's databases): Sift plans, runs Python in a sandbox, and writes a report with tables and charts. Returns the answer, the findings, the report and its path. Long runs report progress.",
	}, s.analyze)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "run_builtin_analysis",
		InputSchema: builtinSchema(),
		Title:       "Run a built-in analysis",
		Description: "Run one fixed analysis on a table, with no language model: " + names + ". Returns its findings, the report and its path.",
	}, s.runBuiltin)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "list_sessions",
		InputSchema: inputSchema[ListSessionsArgs](),
		Title:       "List sessions",
		Description: "List Sift's sessions, newest first: id, status, question and the report's resource URI.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, s.listSessions)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "follow_up",
		InputSchema: inputSchema[FollowUpArgs](),
		Title:       "Ask a follow-up",
		Description: "Ask a follow-up question in a finished session: its results, files and Python state carry over. Returns the answer like analyze.",
	}, s.followUp)
}

func (s *Server) analyze(ctx context.Context, req *mcp.CallToolRequest, a AnalyzeArgs) (*mcp.CallToolResult, any, error) {
	mode, err := agents.ParseMode(a.Mode)
	if a.Mode == "" {
		mode, err = agents.ModeAuto, nil
	}
	if err != nil {
		return nil, nil, err
	}
	r := agents.Request{Mode: mode, Question: a.Question}
	if err := s.addInputs(&r, a.Files); err != nil {
		return nil, nil, err
	}
	for _, name := range a.Databases {
		url, ok := s.cfg.Databases[name]
		if !ok {
			offered := "none"
			if len(s.cfg.Databases) > 0 {
				offered = strings.Join(slices.Sorted(maps.Keys(s.cfg.Databases)), ", ")
			}
			return nil, nil, fmt.Errorf("no database named %q here; this server offers: %s", name, offered)
		}
		r.Databases = append(r.Databases, name+"="+url)
	}
	if len(r.Files)+len(r.Dirs)+len(r.Databases) == 0 {
		return nil, nil, errors.New("no data given: name files (paths under the allowed directories) or databases the server offers")
	}
	return s.run(ctx, req, r)
}

func (s *Server) runBuiltin(ctx context.Context, req *mcp.CallToolRequest, a BuiltinArgs) (*mcp.CallToolResult, any, error) {
	if _, err := templates.Lookup(a.Analysis); err != nil {
		return nil, nil, err
	}
	r := agents.Request{Template: a.Analysis, Question: a.Question}
	if err := s.addInputs(&r, a.Files); err != nil {
		return nil, nil, err
	}
	if len(r.Files)+len(r.Dirs) == 0 {
		return nil, nil, errors.New("no files given: name the table to analyse (a path under the allowed directories)")
	}
	return s.run(ctx, req, r)
}

func (s *Server) followUp(ctx context.Context, req *mcp.CallToolRequest, a FollowUpArgs) (*mcp.CallToolResult, any, error) {
	if err := session.ValidateID(a.Session); err != nil {
		return nil, nil, fmt.Errorf("%w; use an id from list_sessions", err)
	}
	if _, err := s.sift.Session(ctx, a.Session); err != nil {
		return nil, nil, fmt.Errorf("%w; use an id from list_sessions", err)
	}
	mode, err := agents.ParseMode(a.Mode)
	if a.Mode == "" {
		mode, err = agents.ModeAuto, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return s.run(ctx, req, agents.Request{Mode: mode, Question: a.Question, SessionID: a.Session})
}

func (s *Server) listSessions(ctx context.Context, _ *mcp.CallToolRequest, a ListSessionsArgs) (*mcp.CallToolResult, any, error) {
	if a.Limit <= 0 {
		a.Limit = 20
	}
	metas, err := s.store.Sessions.List(ctx, session.Filter{Limit: a.Limit})
	if err != nil {
		return nil, nil, fmt.Errorf("list sessions: %w", err)
	}
	if len(metas) == 0 {
		return text("No sessions yet: run analyze or run_builtin_analysis."), nil, nil
	}
	var b strings.Builder
	for _, m := range metas {
		fmt.Fprintf(&b, "- %s [%s] %s: %s\n", m.ID, m.Status, m.Updated.UTC().Format("2006-01-02 15:04"), oneLine(m.Question))
		if files := s.workspace(m.ID).Deliverables(); len(files) > 0 {
			fmt.Fprintf(&b, "  resources: %s\n", strings.Join(resourceURIs(m.ID, files), " "))
		}
	}
	return text(b.String()), nil, nil
}

// addInputs confines each path and adds it to the request as a file or a
// directory.
func (s *Server) addInputs(r *agents.Request, paths []string) error {
	for _, p := range paths {
		real, err := s.confine(p)
		if err != nil {
			return err
		}
		if st, err := os.Stat(real); err == nil && st.IsDir() {
			r.Dirs = append(r.Dirs, real)
		} else {
			r.Files = append(r.Files, real)
		}
	}
	return nil
}

// run runs the request unattended, reporting progress when the client
// asked for it, and answers with the result.
func (s *Server) run(ctx context.Context, req *mcp.CallToolRequest, r agents.Request) (*mcp.CallToolResult, any, error) {
	// No one can answer a question or approve a call mid-run over MCP:
	// the policy's allowed calls go ahead, the rest are refused.
	r.Yes = true
	if err := s.startRun(); err != nil {
		return nil, nil, err
	}
	defer s.runs.Done()
	p := progressFor(req)
	// The run holds its session's claim, as sift run does: a follow-up in
	// a session another process runs is refused.
	if r.SessionID == "" {
		r.SessionID = session.NewID()
	}
	ctx, release, err := s.sift.Hold(ctx, r.SessionID, "sift mcp")
	if err != nil {
		return nil, nil, err
	}
	defer release()
	var final event.Event
	id, paused := r.SessionID, false
	for e := range s.sift.Run(agents.WithPause(ctx, s.pausing), r) {
		switch e.Kind {
		case event.Session:
			id = e.Text
		case event.Paused:
			paused = true
		}
		p.event(ctx, e)
		final = e
	}
	res := s.answer(id, final)
	if paused {
		res.Content = append([]mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("The run paused before it finished: the server is shutting down. Resume it with: sift resume %s\n", id)}}, res.Content...)
	}
	if final.Err != nil {
		res.IsError = true
	}
	return res, nil, nil
}

// answer renders a finished run for the client: the answer, findings,
// files, report and where everything is.
func (s *Server) answer(id string, final event.Event) *mcp.CallToolResult {
	var b strings.Builder
	if final.Err != nil {
		fmt.Fprintf(&b, "The run failed: %v\n\n", final.Err)
	}
	var result *plans.SubmitResult
	if final.Plan != nil {
		result = final.Plan.Result
	}
	if result != nil {
		if a := strings.TrimSpace(result.Answer); a != "" {
			b.WriteString(a + "\n")
		}
		if len(result.Findings) > 0 {
			b.WriteString("\nFindings:\n")
			for _, f := range result.Findings {
				b.WriteString("- " + f + "\n")
			}
		}
		if len(result.NextQuestions) > 0 {
			b.WriteString("\nYou could ask next (follow_up):\n")
			for _, q := range result.NextQuestions {
				b.WriteString("- " + q + "\n")
			}
		}
	}
	if id == "" {
		return text(b.String())
	}
	ws := s.workspace(id)
	fmt.Fprintf(&b, "\nSession: %s\nWorkspace: %s\n", id, ws.Root)
	files := ws.Deliverables()
	if slices.Contains(files, session.ReportFile) {
		fmt.Fprintf(&b, "Report: %s (resource %s)\n", ws.Path(session.ReportFile), resourceURI(id, session.ReportFile))
	}
	if arts := slices.DeleteFunc(slices.Clone(files), func(f string) bool { return !strings.HasPrefix(f, session.OutDir+"/") }); len(arts) > 0 {
		b.WriteString("Files:\n")
		for _, f := range arts {
			fmt.Fprintf(&b, "- %s (resource %s)\n", ws.Path(f), resourceURI(id, f))
		}
	}
	if report, err := os.ReadFile(ws.Path(session.ReportFile)); err == nil && len(report) > 0 {
		md := string(report)
		if len(md) > maxReportChars {
			md = md[:maxReportChars] + "\n[... the rest is in report.md]"
		}
		b.WriteString("\n--- report.md ---\n" + md)
	}
	return text(b.String())
}

// progress sends the run's steps to the client as progress notifications,
// when the request carried a progress token.
type progress struct {
	ss    *mcp.ServerSession
	token any
	n     float64
}

func progressFor(req *mcp.CallToolRequest) *progress {
	if req == nil || req.Params == nil || req.Session == nil {
		return &progress{}
	}
	return &progress{ss: req.Session, token: req.Params.GetProgressToken()}
}

func (p *progress) event(ctx context.Context, e event.Event) {
	if p.token == nil {
		return
	}
	msg := describe(e)
	if msg == "" {
		return
	}
	p.n++
	// A client that stopped listening to progress does not stop the run.
	_ = p.ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: p.token, Progress: p.n, Message: msg})
}

// describe says in a line what an event means for the person waiting, or
// "" for events not worth a notification.
func describe(e event.Event) string {
	switch e.Kind {
	case event.Session:
		return "session " + e.Text + " started"
	case event.Plan:
		if e.Plan != nil {
			return fmt.Sprintf("planned %d steps", len(e.Plan.Steps))
		}
	case event.StepStarted:
		if e.Step != nil {
			return fmt.Sprintf("step %d: %s", e.Step.Index, oneLine(e.Step.Description))
		}
	case event.StepFinished:
		if e.Step != nil {
			return fmt.Sprintf("step %d %s", e.Step.Index, e.Step.Status)
		}
	case event.ToolCall:
		return "calling " + e.Tool
	case event.Artifact:
		return "wrote " + e.Path
	case event.Report:
		return "report written"
	case event.Done:
		if e.Err != nil {
			return "failed"
		}
		return "done"
	}
	return ""
}

func (s *Server) workspace(id string) *session.Workspace {
	return &session.Workspace{ID: id, Root: filepath.Join(s.root, id)}
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// oneLine shortens s to one line of at most 160 characters.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		return string(r[:159]) + "…"
	}
	return s
}
