package templates

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/tools"
)

func TestToolRunsTemplate(t *testing.T) {
	t.Parallel()
	op := workspace(t, map[string][]byte{"sales.csv": genSales().csv})
	rt, err := Tool(op)
	if err != nil {
		t.Fatal(err)
	}
	info, err := rt.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != ToolName || strings.Contains(info.Desc, "compare_periods") || len(info.Desc) > 300 {
		t.Errorf("info %s: %q, want run_template in a few words, without the catalog", info.Name, info.Desc)
	}
	pt, err := ParamsTool()
	if err != nil {
		t.Fatal(err)
	}
	// The template names are an enum in both tools, kept in step with the
	// catalog.
	for _, tl := range []interface {
		Info(context.Context) (*schema.ToolInfo, error)
	}{rt, pt} {
		info, err := tl.Info(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		js, err := info.ParamsOneOf.ToJSONSchema()
		if err != nil {
			t.Fatal(err)
		}
		tp, ok := js.Properties.Get("template")
		if !ok {
			t.Fatalf("%s has no template parameter", info.Name)
		}
		var enum []string
		for _, v := range tp.Enum {
			enum = append(enum, v.(string))
		}
		sort.Strings(enum)
		if diff := cmp.Diff(Names(), enum); diff != "" {
			t.Errorf("%s: template enum differs from the catalog (-catalog +enum):\n%s", info.Name, diff)
		}
	}
	// template_params fetches one template's parameters.
	out, err := pt.InvokableRun(context.Background(), `{"template":"compare_periods"}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"compare_periods:", "compare: mom|qoq|wow|dod|yoy", `"params": {`} {
		if !strings.Contains(out, want) {
			t.Errorf("template_params reply lacks %q:\n%s", want, out)
		}
	}
	// The executor fills them in params.
	out, err = rt.InvokableRun(context.Background(), `{"template":"topn","file":"input/sales.csv","params":{"category":"region","measure":"amount","n":2}}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Top 2 regions by total amount", "| 1 | West |", "![topn_chart.png](out/topn_chart.png)", "Files: out/topn_chart.png, out/topn_ranking.csv", "category: region (given explicitly)"} {
		if !strings.Contains(out, want) {
			t.Errorf("reply lacks %q:\n%s", want, out)
		}
	}
	// Inference fills what the call leaves out, from the request.
	out, err = rt.InvokableRun(context.Background(), `{"template":"trend","file":"input/sales.csv","request":"quarterly amount"}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "## Quarterly trend: total amount") || !strings.Contains(out, "| 2024Q2 |") {
		t.Errorf("trend reply:\n%s", out)
	}
}

func TestToolErrorsCarryHints(t *testing.T) {
	t.Parallel()
	op := workspace(t, map[string][]byte{"nodates.csv": []byte("region,amount\nNorth,1\nSouth,2\n")})
	rt, err := Tool(op)
	if err != nil {
		t.Fatal(err)
	}
	hinted := tools.Hint(rt)
	tests := []struct {
		args string
		want []string
	}{
		{`{"template":"trend","file":"input/nodates.csv"}`, []string{"Error: template trend: cell duckdb failed: no date or time column", "Hint: name the columns explicitly (time="}},
		{`{"template":"forecast","file":"input/nodates.csv"}`, []string{"unknown template", "profile", "trend"}},
		{`{"template":"profile","file":""}`, []string{"file is empty"}},
		{`{"template":"topn","file":"input/nodates.csv","params":{"colour":"red"}}`, []string{`unknown field "colour"`, "the parameters of topn are: category"}},
		{`{"template":"profile","file":"input/missing.csv"}`, []string{"Error:", "missing.csv"}},
	}
	for _, tt := range tests {
		out, err := hinted.InvokableRun(context.Background(), tt.args)
		if err != nil {
			t.Fatalf("%s: hinted tool returned a Go error: %v", tt.args, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: reply lacks %q:\n%s", tt.args, w, out)
			}
		}
	}
}

func TestToolNeedsOperator(t *testing.T) {
	if _, err := Tool(nil); err == nil {
		t.Error("Tool(nil) succeeded")
	}
	var _ operator.Operator = (*operator.Local)(nil)
}
