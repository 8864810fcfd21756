package templates

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"

	"github.com/sift-agent/sift/generic"
	"github.com/sift-agent/sift/operator"
)

// ToolName is the name of the tool Tool returns.
const ToolName = "run_template"

// ToolArgs are the arguments of run_template.
type ToolArgs struct {
	Template    string   `json:"template" jsonschema_description:"The built-in analysis: profile, trend, topn, compare_periods, correlation, distribution, pivot, outliers, cohort or funnel."`
	File        string   `json:"file" jsonschema_description:"Workspace-relative path of the table, such as input/sales.csv (csv, tsv, json, jsonl or xlsx)."`
	Request     string   `json:"request,omitempty" jsonschema_description:"The question in the person's words (optional); columns, N and period words in it fill parameters left out."`
	Sheet       string   `json:"sheet,omitempty" jsonschema_description:"Workbook sheet (default: the first with data)."`
	Time        string   `json:"time,omitempty" jsonschema_description:"Date column (trend, compare_periods, cohort, pivot by period)."`
	Measure     string   `json:"measure,omitempty" jsonschema_description:"Numeric column to aggregate (leave out to count rows)."`
	Aggregation string   `json:"aggregation,omitempty" jsonschema_description:"sum, mean, count, median, min, max or nunique (default sum, or count without a measure)."`
	Category    string   `json:"category,omitempty" jsonschema_description:"Column to group by (topn, pivot rows, trend lines)."`
	Category2   string   `json:"category2,omitempty" jsonschema_description:"Second category: the pivot's columns."`
	Entity      string   `json:"entity,omitempty" jsonschema_description:"Id column (cohort; distinct counts in funnel)."`
	Stage       string   `json:"stage,omitempty" jsonschema_description:"Column holding funnel stages."`
	Stages      []string `json:"stages,omitempty" jsonschema_description:"Funnel stages in order: values of stage, or one column per stage."`
	Columns     []string `json:"columns,omitempty" jsonschema_description:"Columns to examine (correlation, distribution, outliers)."`
	N           int      `json:"n,omitempty" jsonschema_description:"How many groups topn shows (default 10)."`
	Ascending   bool     `json:"ascending,omitempty" jsonschema_description:"topn: the bottom N instead of the top."`
	Period      string   `json:"period,omitempty" jsonschema_description:"day, week, month, quarter or year."`
	Compare     string   `json:"compare,omitempty" jsonschema_description:"compare_periods: mom, qoq, wow, dod or yoy (default mom)."`
	Method      string   `json:"method,omitempty" jsonschema_description:"correlation: pearson, spearman or kendall."`
}

// params are the explicit parameters of a call.
func (a ToolArgs) params() Params {
	return Params{Sheet: a.Sheet, Time: a.Time, Measure: a.Measure, Aggregation: a.Aggregation, Category: a.Category,
		Category2: a.Category2, Entity: a.Entity, Stage: a.Stage, Stages: a.Stages, Columns: a.Columns, N: a.N,
		Ascending: a.Ascending, Period: a.Period, Compare: a.Compare, Method: a.Method}
}

// Tool returns the run_template tool over op, for agents to run a built-in
// analysis inside a plan. Parameters the call leaves out are inferred from
// the file's preview and the optional request, then worked out by the
// template. The reply is the answer, each section's Markdown with its files,
// and what was picked. A failure is a Go error carrying a fix hint (a
// *CellError, or an unknown template or file), for tools.Hint to turn into a
// reply the model can act on.
func Tool(op operator.Operator) (tool.InvokableTool, error) {
	if op == nil {
		return nil, errors.New("run_template tool: operator is nil")
	}
	desc := "Run a built-in analysis (no code to write) on one table and get its report sections, tables (CSV) and charts (PNG) under out/. " +
		"Name the columns you know; the rest are inferred. Templates:\n" + CatalogText()
	t, err := utils.InferTool(ToolName, desc, func(ctx context.Context, a ToolArgs) (string, error) {
		return runTool(ctx, op, a)
	})
	if err != nil {
		return nil, fmt.Errorf("run_template tool: %w", err)
	}
	return t, nil
}

// runTool implements run_template.
func runTool(ctx context.Context, op operator.Operator, a ToolArgs) (string, error) {
	if strings.TrimSpace(a.File) == "" {
		return "", errors.New("run_template: file is empty: give the table's workspace-relative path, such as input/sales.csv")
	}
	abs, err := op.Resolve(a.File)
	if err != nil {
		return "", fmt.Errorf("run_template: %w", err)
	}
	fp, err := generic.Preview(ctx, abs, generic.PreviewOptions{BaseDir: op.Root()})
	if err != nil {
		return "", fmt.Errorf("run_template: %w", err)
	}
	m, err := MatchTemplate(a.Template, a.Request, []*generic.FilePreview{fp})
	if err != nil {
		return "", fmt.Errorf("run_template: %w", err)
	}
	m.Params = m.Params.Override(a.params())
	res, err := Run(ctx, op, a.File, m)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(res.Markdown())
	if len(res.Params.Reasons) > 0 {
		b.WriteString("\nParameters: " + strings.Join(res.Params.Reasons, "; ") + "\n")
	}
	if len(res.Files) > 0 {
		b.WriteString("Files: " + strings.Join(res.Files, ", ") + "\n")
	}
	return b.String(), nil
}
