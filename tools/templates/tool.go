package templates

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/tools"
)

// ToolName is the name of the tool Tool returns.
const ToolName = "run_template"

// ParamsToolName is the name of the tool ParamsTool returns.
const ParamsToolName = "template_params"

// ToolArgs are the arguments of run_template. The model passes a template's
// parameters in Params, by the names template_params gives, so that the
// catalog and the parameters' descriptions do not ride in every request.
// The flat fields are the same parameters as top-level arguments, accepted
// for callers that send them so but left out of the schema the model sees.
type ToolArgs struct {
	Template string `json:"template" jsonschema:"enum=profile,enum=trend,enum=topn,enum=compare_periods,enum=correlation,enum=distribution,enum=pivot,enum=outliers,enum=cohort,enum=funnel"`
	File     string `json:"file" jsonschema_description:"e.g. input/sales.csv"`
	Request  string `json:"request,omitempty" jsonschema_description:"The question; fills parameters left out."`
	// Params are the template's parameters by name (see Params' JSON
	// names), e.g. {"time": "date", "period": "month"}.
	Params map[string]any `json:"params,omitempty" jsonschema_description:"By name, from template_params; columns you leave out are inferred."`

	Sheet       string   `json:"sheet,omitempty" jsonschema:"-"`
	Time        string   `json:"time,omitempty" jsonschema:"-"`
	Measure     string   `json:"measure,omitempty" jsonschema:"-"`
	Aggregation string   `json:"aggregation,omitempty" jsonschema:"-"`
	Category    string   `json:"category,omitempty" jsonschema:"-"`
	Category2   string   `json:"category2,omitempty" jsonschema:"-"`
	Entity      string   `json:"entity,omitempty" jsonschema:"-"`
	Stage       string   `json:"stage,omitempty" jsonschema:"-"`
	Stages      []string `json:"stages,omitempty" jsonschema:"-"`
	Columns     []string `json:"columns,omitempty" jsonschema:"-"`
	N           int      `json:"n,omitempty" jsonschema:"-"`
	Ascending   bool     `json:"ascending,omitempty" jsonschema:"-"`
	Period      string   `json:"period,omitempty" jsonschema:"-"`
	Compare     string   `json:"compare,omitempty" jsonschema:"-"`
	Method      string   `json:"method,omitempty" jsonschema:"-"`
}

// toolDesc is run_template's description: what it does, without the
// catalog, which template_params gives one template at a time.
const toolDesc = "Run a built-in analysis of one table, no code; tables and charts go to out/."

// ParamsArgs are the arguments of template_params.
type ParamsArgs struct {
	Template string `json:"template" jsonschema:"enum=profile,enum=trend,enum=topn,enum=compare_periods,enum=correlation,enum=distribution,enum=pivot,enum=outliers,enum=cohort,enum=funnel"`
}

// ParamsTool returns the template_params tool: what one run_template
// template does and its parameters, fetched when the model needs them.
func ParamsTool() (tool.InvokableTool, error) {
	t, err := utils.InferTool(ParamsToolName, "What a run_template template does and its params.", func(_ context.Context, a ParamsArgs) (string, error) {
		tpl, err := Lookup(a.Template)
		if err != nil {
			return "", fmt.Errorf("%s: %w", ParamsToolName, err)
		}
		return TemplateText(tpl) + "\nPass them to run_template in params, e.g. {\"template\": \"trend\", \"file\": \"input/sales.csv\", \"params\": {\"time\": \"date\", \"period\": \"month\"}}.", nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s tool: %w", ParamsToolName, err)
	}
	return t, nil
}

// explicit returns the parameters a call gives, flat and in Params (which
// win), or an error naming an unknown or mistyped parameter.
func (a ToolArgs) explicit() (Params, error) {
	p := a.params()
	if len(a.Params) == 0 {
		return p, nil
	}
	raw, err := json.Marshal(a.Params)
	if err != nil {
		return Params{}, fmt.Errorf("params: %w", err)
	}
	var q Params
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		hint := "see " + ParamsToolName
		if tpl, lerr := Lookup(a.Template); lerr == nil {
			hint = "the parameters of " + tpl.Name + " are: " + strings.Join(tpl.Params, "; ")
		}
		return Params{}, fmt.Errorf("params: %v; %s", err, hint)
	}
	return p.Override(q), nil
}

// params are the explicit parameters of a call.
func (a ToolArgs) params() Params {
	return Params{Sheet: a.Sheet, Time: a.Time, Measure: a.Measure, Aggregation: a.Aggregation, Category: a.Category,
		Category2: a.Category2, Entity: a.Entity, Stage: a.Stage, Stages: a.Stages, Columns: a.Columns, N: a.N,
		Ascending: a.Ascending, Period: a.Period, Compare: a.Compare, Method: a.Method}
}

// Tool returns the run_template tool over op, for agents to run a built-in
// analysis inside a plan; ParamsTool tells the model a template's
// parameters. Parameters the call leaves out are inferred from
// the file's preview and the optional request, then worked out by the
// template. The reply is the answer, each section's Markdown with its files,
// and what was picked. A failure is a Go error carrying a fix hint (a
// *CellError, or an unknown template or file), for tools.Hint to turn into a
// reply the model can act on.
func Tool(op operator.Operator) (tool.InvokableTool, error) {
	if op == nil {
		return nil, errors.New("run_template tool: operator is nil")
	}
	t, err := utils.InferTool(ToolName, toolDesc, func(ctx context.Context, a ToolArgs) (string, error) {
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
	explicit, err := a.explicit()
	if err != nil {
		return "", fmt.Errorf("run_template: %w", err)
	}
	abs, err := op.Resolve(a.File)
	if err != nil {
		return "", fmt.Errorf("run_template: %w", err)
	}
	fp, err := tools.PreviewConfined(ctx, op, abs, preview.Options{BaseDir: op.Root()})
	if err != nil {
		return "", fmt.Errorf("run_template: %w", err)
	}
	m, err := MatchTemplate(a.Template, a.Request, []*preview.FilePreview{fp})
	if err != nil {
		return "", fmt.Errorf("run_template: %w", err)
	}
	m.Params = m.Params.Override(explicit)
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
