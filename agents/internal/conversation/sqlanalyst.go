package conversation

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools"
	"github.com/sift-agent/sift/tools/sqldb"
)

// SQL analyst names and bounds.
const (
	// NameSQLAnalyst is the SQL analyst's agent name.
	NameSQLAnalyst = "sql_analyst"
	// ToolSubmitAnswer is the SQL analyst's exit tool.
	ToolSubmitAnswer        = "submit_answer"
	sqlAnalystMaxIterations = 12
	// schemaContextTokens is the budget of the schema shown in the SQL
	// analyst's prompt.
	schemaContextTokens = 3000
	// MaxFollowUps is how many follow-up questions an answer keeps.
	MaxFollowUps = 3
)

// sqlAnswer is the SQL analyst's answer to one request, completed by Sift:
// the model gives the answer, findings, SQL and follow-ups; Sift makes
// sure the result is saved, draws the chart the result's shape calls for,
// and writes the report.
type sqlAnswer struct {
	// Answer is the direct answer, in the person's language.
	Answer string `json:"answer"`
	// Findings are the key findings with their numbers.
	Findings []string `json:"findings,omitempty"`
	// SQL is the final query; Source the database it ran on.
	SQL    string `json:"sql,omitempty"`
	Source string `json:"source,omitempty"`
	// DataFile is the workspace-relative CSV holding the final result.
	DataFile string `json:"data_file,omitempty"`
	// Chart is the workspace-relative PNG drawn from DataFile, or "" when
	// the result's shape suits no chart; ChartKind says which was drawn.
	Chart     string           `json:"chart,omitempty"`
	ChartKind report.ChartKind `json:"chart_kind,omitempty"`
	// FollowUps are up to three questions the person may ask next.
	FollowUps []string `json:"follow_ups,omitempty"`
	// Report is the workspace-relative report.md, once written.
	Report string `json:"report,omitempty"`
	// Notes say what Sift could not do (a chart that failed, a result
	// that could not be saved), for the report and the person.
	Notes []string `json:"notes,omitempty"`
}

// submitAnswerArgs are the arguments of submit_answer.
type submitAnswerArgs struct {
	Answer    string   `json:"answer" jsonschema:"required" jsonschema_description:"The direct answer to the request, with its numbers, in the person's language."`
	Findings  []string `json:"findings,omitempty" jsonschema_description:"Up to five key findings, each with its numbers."`
	SQL       string   `json:"sql" jsonschema:"required" jsonschema_description:"The final SQL query whose result answers the request."`
	Source    string   `json:"source,omitempty" jsonschema_description:"The database the final query ran on; needed only when there are several."`
	DataFile  string   `json:"data_file,omitempty" jsonschema_description:"The out/<name>.csv file the final query saved with save_as."`
	Chart     string   `json:"chart,omitempty" jsonschema_description:"Optional chart title. Sift chooses the chart kind from the result's shape; write none for no chart."`
	FollowUps []string `json:"follow_ups,omitempty" jsonschema_description:"Up to three follow-up questions the person may want to ask next."`
}

// sqlAnalystConfig is what one turn's SQL analyst is built from.
type sqlAnalystConfig struct {
	model   model.ToolCallingChatModel
	sources *sqldb.Sources
	op      operator.Operator
	turn    *State
	// history is the conversation so far, shown to the analyst for
	// context.
	history []Turn
	// charts is false when no Python can draw them.
	charts bool
	// examples, when set, is the SQL that worked before on the databases
	// for a request (Config.SQLExamples).
	examples func(request string) string
}

// newSQLAnalyst builds the SQL analyst: a ReAct agent with the SQL tools
// that ends by calling submit_answer, its exit tool.
func newSQLAnalyst(ctx context.Context, cfg sqlAnalystConfig) (adk.Agent, error) {
	sqlTools, err := sqldb.Tools(cfg.sources, cfg.op)
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", NameSQLAnalyst, err)
	}
	ts := make([]tool.BaseTool, 0, len(sqlTools))
	names := make([]string, 0, len(sqlTools)+1)
	for _, t := range sqlTools {
		it, ok := t.(tool.InvokableTool)
		if !ok {
			continue
		}
		info, err := t.Info(ctx)
		if err != nil {
			return nil, fmt.Errorf("build %s: %w", NameSQLAnalyst, err)
		}
		names = append(names, info.Name)
		ts = append(ts, tools.CapOutput(tools.Hint(it), cfg.op, tree.ToolOutputCap))
	}
	submit, err := utils.InferTool(ToolSubmitAnswer,
		"Submit the final answer when the request is answered: the answer, findings, the final SQL, its saved out/<name>.csv and follow-up questions. This ends your work.",
		func(ctx context.Context, a submitAnswerArgs) (string, error) {
			ans := finishSQLAnswer(ctx, cfg, a)
			cfg.turn.setSQL(ans)
			if err := adk.SendToolGenAction(ctx, ToolSubmitAnswer, adk.NewExitAction()); err != nil {
				return "", err
			}
			return sqlAnswerText(ans), nil
		})
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", NameSQLAnalyst, err)
	}
	names = append(names, ToolSubmitAnswer)
	a, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name:        NameSQLAnalyst,
		Description: prompt.SQLAnalystDescription,
		Model:       cfg.model,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{
			Tools:                ts,
			UnknownToolsHandler:  tools.UnknownTool(names),
			ToolArgumentsHandler: tools.RepairArguments,
			ExecuteSequentially:  true,
		}},
		Exit:          tools.Hint(submit),
		MaxIterations: sqlAnalystMaxIterations,
		GenModelInput: func(ctx context.Context, _ string, _ *adk.AgentInput) ([]adk.Message, error) {
			request := cfg.turn.RequestText()
			schemaText, err := cfg.sources.Context(ctx, request, schemaContextTokens)
			if err != nil {
				return nil, fmt.Errorf("%s: describe the databases: %w", NameSQLAnalyst, err)
			}
			examples := ""
			if cfg.examples != nil {
				examples = cfg.examples(request)
			}
			return prompt.SQLAnalyst(request, schemaText, cfg.sources.DialectNotes(), examples, PromptTurns(cfg.history)), nil
		},
	})
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", NameSQLAnalyst, err)
	}
	return a, nil
}

// finishSQLAnswer completes what the model submitted: the result saved as
// CSV (running the final SQL again when the model did not save it), the
// chart its shape calls for, and the report. Problems become notes: the
// answer itself always stands.
func finishSQLAnswer(ctx context.Context, cfg sqlAnalystConfig, a submitAnswerArgs) *sqlAnswer {
	ans := &sqlAnswer{
		Answer:    strings.TrimSpace(a.Answer),
		Findings:  nonEmpty(a.Findings),
		SQL:       strings.TrimSpace(a.SQL),
		Source:    strings.TrimSpace(a.Source),
		FollowUps: nonEmpty(a.FollowUps),
	}
	if len(ans.FollowUps) > MaxFollowUps {
		ans.FollowUps = ans.FollowUps[:MaxFollowUps]
	}
	if src, err := cfg.sources.Get(ans.Source); err == nil {
		ans.Source = src.Name()
	}
	ans.DataFile = ensureDataFile(ctx, cfg, ans, strings.TrimSpace(a.DataFile))
	var columns []string
	var rows [][]string
	if ans.DataFile != "" {
		var err error
		if columns, rows, err = report.ReadTable(ctx, cfg.op, ans.DataFile); err != nil {
			ans.Notes = append(ans.Notes, err.Error())
		}
	}
	if spec := report.ChooseChart(columns, rows); spec.Kind != report.ChartNone && !strings.EqualFold(strings.TrimSpace(a.Chart), "none") {
		if t := strings.TrimSpace(a.Chart); t != "" {
			spec.Title = t
		}
		out := strings.TrimSuffix(ans.DataFile, path.Ext(ans.DataFile)) + ".png"
		switch err := renderIfAble(ctx, cfg, spec, ans.DataFile, out); {
		case err != nil:
			ans.Notes = append(ans.Notes, "No chart: "+err.Error())
		default:
			ans.Chart, ans.ChartKind = out, spec.Kind
		}
	}
	md := report.SQL(cfg.turn.RequestText(), report.SQLAnswer{Answer: ans.Answer, Findings: ans.Findings, SQL: ans.SQL, Source: ans.Source, DataFile: ans.DataFile, Chart: ans.Chart, FollowUps: ans.FollowUps, Notes: ans.Notes}, columns, rows)
	if err := report.Write(cfg.op.Root(), md, session.Durable); err != nil {
		ans.Notes = append(ans.Notes, "The report could not be written: "+err.Error())
	} else {
		ans.Report = "report.md"
	}
	return ans
}

func renderIfAble(ctx context.Context, cfg sqlAnalystConfig, spec report.ChartSpec, data, out string) error {
	if !cfg.charts {
		return fmt.Errorf("charts need Python with pandas and matplotlib, which this session lacks")
	}
	return report.RenderChart(ctx, cfg.op, spec, data, out)
}

// ensureDataFile returns the workspace-relative CSV of the final result:
// the file the model named when it exists under out/, else the final SQL
// run again (from the result cache, usually) and saved.
func ensureDataFile(ctx context.Context, cfg sqlAnalystConfig, ans *sqlAnswer, named string) string {
	named = strings.TrimPrefix(path.Clean(strings.TrimPrefix(named, "./")), "/")
	if named != "" && named != "." {
		if !strings.HasPrefix(named, "out/") {
			named = "out/" + named
		}
		if !strings.HasSuffix(strings.ToLower(named), ".csv") {
			named += ".csv"
		}
		if _, _, err := cfg.op.ReadFile(ctx, named, 1); err == nil {
			return named
		}
	}
	if ans.SQL == "" {
		return ""
	}
	src, err := cfg.sources.Get(ans.Source)
	if err != nil {
		ans.Notes = append(ans.Notes, "The result was not saved: "+err.Error())
		return ""
	}
	name := saveName(named)
	res, err := src.Query(ctx, ans.SQL, sqldb.QueryOptions{Op: cfg.op, SaveAs: name})
	if err != nil {
		ans.Notes = append(ans.Notes, "The final SQL failed when Sift ran it again to save its result: "+err.Error())
		return ""
	}
	return res.SavedTo
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// saveName makes a save_as name from the file the model named, or
// "answer".
func saveName(named string) string {
	base := strings.TrimSuffix(path.Base(named), path.Ext(named))
	base = strings.Trim(unsafeName.ReplaceAllString(base, "_"), "_")
	if base == "" || base == "." || base == "out" {
		return "answer"
	}
	return base
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// sqlAnswerText is the submit_answer reply: what the conversation and
// the history show of the answer.
func sqlAnswerText(a *sqlAnswer) string {
	var b strings.Builder
	b.WriteString(a.Answer)
	for _, f := range a.Findings {
		b.WriteString("\n- " + f)
	}
	for _, f := range []struct{ label, path string }{{"Data", a.DataFile}, {"Chart", a.Chart}, {"Report", a.Report}} {
		if f.path != "" {
			fmt.Fprintf(&b, "\n%s: %s", f.label, f.path)
		}
	}
	return b.String()
}
