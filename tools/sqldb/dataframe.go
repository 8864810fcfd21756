package sqldb

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/sift-agent/sift/operator"
)

// pythonName is a plain Python identifier.
var pythonName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// pythonKeywords cannot name a variable.
var pythonKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
	// pd is what the loading cell imports pandas as.
	"pd": true,
}

// checkDataFrameName refuses a name that is not a usable Python variable.
func checkDataFrameName(name string) error {
	if !pythonName.MatchString(name) || pythonKeywords[name] {
		return fmt.Errorf("as_dataframe %q is not a usable Python variable name", name)
	}
	return nil
}

// DataFrameCell is the Python cell that loads a saved query result into the
// kernel as the DataFrame name. Its comment records where the data came
// from (source and SQL), so cells.jsonl tells the DataFrame's provenance and
// replaying the cell after a crash rebuilds it from the same CSV.
func DataFrameCell(name string, res *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: the result of sql_query on %s, saved in %s:\n", name, res.Source, res.SavedTo)
	for _, l := range strings.Split(strings.TrimSpace(res.SQL), "\n") {
		b.WriteString("#   " + l + "\n")
	}
	b.WriteString("import pandas as pd\n")
	fmt.Fprintf(&b, "%s = pd.read_csv(%q)\n", name, res.SavedTo)
	fmt.Fprintf(&b, "print(f\"DataFrame %s: {len(%s)} rows, columns: {', '.join(map(str, %s.columns))}\")\n", name, name, name)
	return b.String()
}

// loadDataFrame runs DataFrameCell in the session's Python and says what
// came of it, as text for the tool's reply.
func loadDataFrame(ctx context.Context, op operator.Operator, name string, res *Result) string {
	if res.SavedTo == "" {
		return fmt.Sprintf("Error: the result could not be handed to Python as %s: it was not saved.\n", name)
	}
	note := ""
	if !res.TotalKnown {
		note = fmt.Sprintf(" It holds only the first %s rows: aggregate in SQL (GROUP BY) so the whole result fits.", humanize.Comma(int64(res.Total)))
	}
	if operator.ModeOf(op) != operator.PythonKernel {
		return fmt.Sprintf("Python runs each call in a fresh process here, so no DataFrame stays loaded: start your code with %s = pd.read_csv(%q).%s\n", name, res.SavedTo, note)
	}
	run, err := op.RunPython(ctx, DataFrameCell(name, res), operator.RunOptions{})
	switch {
	case err != nil:
		return fmt.Sprintf("Error: the result could not be loaded into Python as %s: %v\nHint: load it yourself with %s = pd.read_csv(%q).\n", name, err, name, res.SavedTo)
	case !run.OK():
		return fmt.Sprintf("Error: the result could not be loaded into Python as %s: %s\nHint: load it yourself with %s = pd.read_csv(%q).\n", name, strings.TrimSpace(run.Error), name, res.SavedTo)
	}
	return fmt.Sprintf("In Python, the DataFrame %s now holds the full result (loaded from %s): use it directly.%s\n", name, res.SavedTo, note)
}
