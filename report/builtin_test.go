package report

import (
	"strings"
	"testing"

	"github.com/sift-agent/sift/tools/templates"
)

// TestBuiltInShowsItsSQL: a built-in computed in DuckDB shows the SQL that
// computed it under "How this was computed", as an agent's step shows its
// cells; one computed by a Python cell shows none.
func TestBuiltInShowsItsSQL(t *testing.T) {
	tpl, err := templates.Lookup(templates.TopN)
	if err != nil {
		t.Fatal(err)
	}
	m := templates.Match{Template: templates.TopN, File: "input/sales.csv"}
	res := &templates.Result{Template: templates.TopN, File: "input/sales.csv", Answer: "Top products: A (3).",
		SQL: []string{`SELECT coalesce(CAST("product" AS VARCHAR), '(missing)') AS c, coalesce(sum(CAST("revenue" AS DOUBLE)), 0) FROM "sales" GROUP BY c ORDER BY c`}}
	md := BuiltIn("top products by revenue", tpl, m, []templates.Match{m}, []*templates.Result{res}, nil)
	_, how, ok := strings.Cut(md, "## How this was computed")
	if !ok {
		t.Fatalf("no provenance section:\n%s", md)
	}
	if want := "```sql\n" + res.SQL[0] + ";\n```"; !strings.Contains(how, want) {
		t.Errorf("provenance does not show the SQL %q:\n%s", want, how)
	}
	res.SQL = nil
	if md := BuiltIn("top products by revenue", tpl, m, []templates.Match{m}, []*templates.Result{res}, nil); strings.Contains(md, "```sql") {
		t.Errorf("a pandas result shows SQL:\n%s", md)
	}
}
