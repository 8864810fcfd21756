package sqldb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/dustin/go-humanize"

	"github.com/sift-agent/sift/internal/formula"
	"github.com/sift-agent/sift/operator"
)

// Tool names, as the model sees them.
const (
	ListTablesName    = "list_tables"
	DescribeTableName = "describe_table"
	SQLQueryName      = "sql_query"
	ExplainSQLName    = "explain_sql"
)

// maxCellChars cuts long values in replies (the CSV keeps them whole).
const maxCellChars = 100

// ListTablesArgs are the arguments of list_tables.
type ListTablesArgs struct {
	Source string `json:"source,omitempty" jsonschema_description:"Database name; empty for all."`
}

// DescribeTableArgs are the arguments of describe_table.
type DescribeTableArgs struct {
	Table  string `json:"table" jsonschema_description:"As list_tables shows it."`
	Source string `json:"source,omitempty" jsonschema_description:"Database name, when there are several."`
}

// SQLQueryArgs are the arguments of sql_query.
type SQLQueryArgs struct {
	SQL         string `json:"sql" jsonschema_description:"One read-only statement (SELECT, WITH, VALUES, EXPLAIN); no batches."`
	Source      string `json:"source,omitempty" jsonschema_description:"Database name, when there are several."`
	SaveAs      string `json:"save_as,omitempty" jsonschema_description:"Save the full result as out/<save_as>.csv, e.g. monthly_revenue."`
	AsDataFrame string `json:"as_dataframe,omitempty" jsonschema_description:"Also load the full result into Python as a pandas DataFrame of this name."`
}

// ExplainSQLArgs are the arguments of explain_sql.
type ExplainSQLArgs struct {
	SQL    string `json:"sql" jsonschema_description:"The SELECT to explain."`
	Source string `json:"source,omitempty" jsonschema_description:"Database name, when there are several."`
}

// Tools returns list_tables, describe_table, sql_query and explain_sql
// over the sources; results are saved as CSV through op (nil: never
// saved). A query the database refuses, a wrong name or a timeout is a
// normal reply starting with "Error:" and carrying a fix hint; only a
// cancelled context is a Go error. Arguments that are not valid JSON are
// still Go errors from the tool machinery: wrap the tools with tools.Hint
// (and tools.CapOutput) like the others.
func Tools(ss *Sources, op operator.Operator) ([]tool.BaseTool, error) {
	if ss == nil || ss.Len() == 0 {
		return nil, errors.New("sql tools: no data sources")
	}
	names := "The database is " + ss.Names()[0] + "."
	if ss.Len() > 1 {
		names = "Databases: " + strings.Join(ss.Names(), ", ") + "; name one with source."
	}
	tt := &sqlTools{ss: ss, op: op}
	var out []tool.BaseTool
	add := func(name string, t tool.InvokableTool, err error) error {
		if err != nil {
			return fmt.Errorf("sql tools: %s: %w", name, err)
		}
		out = append(out, t)
		return nil
	}
	listDesc := "List the tables and views with row counts and columns. " + names
	describeDesc := "Describe one table: typed columns, keys, row count, sample values, the values of low-cardinality text columns. " + names
	queryDesc := fmt.Sprintf("Run one read-only SQL statement in the database's dialect and see up to %d rows; longer results are saved in full under out/. %s", ss.list[0].opts.MaxRows, names)
	explainDesc := "Show the query plan of a SELECT without running it. " + names
	list, err := utils.InferTool(ListTablesName, listDesc, tt.listTables)
	if err := add(ListTablesName, list, err); err != nil {
		return nil, err
	}
	describe, err := utils.InferTool(DescribeTableName, describeDesc, tt.describeTable)
	if err := add(DescribeTableName, describe, err); err != nil {
		return nil, err
	}
	query, err := utils.InferTool(SQLQueryName, queryDesc, tt.query)
	if err := add(SQLQueryName, query, err); err != nil {
		return nil, err
	}
	explain, err := utils.InferTool(ExplainSQLName, explainDesc, tt.explain)
	if err := add(ExplainSQLName, explain, err); err != nil {
		return nil, err
	}
	return out, nil
}

// sqlTools holds what the SQL tools share.
type sqlTools struct {
	ss *Sources
	op operator.Operator
}

// failure turns err into a reply the model can act on; a cancelled ctx
// stays an error, so the run stops.
func failure(ctx context.Context, err error) (string, error) {
	if ctx.Err() != nil {
		return "", err
	}
	var re *RefusedError
	var qe *QueryError
	switch {
	case errors.As(err, &re):
		return fmt.Sprintf("Error: %s\nHint: nothing was run; to read data, rewrite it as one SELECT (one statement per call), and leave changes to the data to Python on exported CSV files.", re.Error()), nil
	case errors.As(err, &qe):
		return fmt.Sprintf("Error: %s\nHint: %s", qe.Error(), qe.Hint), nil
	case errors.Is(err, ErrUnknownSource):
		return fmt.Sprintf("Error: %v\nHint: pass one of the database names as source.", err), nil
	}
	return fmt.Sprintf("Error: %v\nHint: check the arguments; call list_tables and describe_table for the real names.", err), nil
}

func (tt *sqlTools) listTables(ctx context.Context, a ListTablesArgs) (string, error) {
	srcs := tt.ss.All()
	if a.Source != "" {
		s, err := tt.ss.Get(a.Source)
		if err != nil {
			return failure(ctx, err)
		}
		srcs = []*Source{s}
	}
	var b strings.Builder
	for _, s := range srcs {
		sc, err := s.Schema(ctx)
		if err != nil {
			return failure(ctx, err)
		}
		fmt.Fprintf(&b, "Database %s (%s): %d tables\n", s.name, s.dialect, len(sc.Tables))
		for _, t := range sc.Tables {
			b.WriteString(t.Name)
			if t.View {
				b.WriteString(" [view]")
			}
			if rc := rowCount(t); rc != "" {
				b.WriteString(" (" + rc + ")")
			}
			fmt.Fprintf(&b, ": %s\n", strings.Join(firstN(columnNames(t), 12), ", "))
		}
	}
	return b.String(), nil
}

func (tt *sqlTools) describeTable(ctx context.Context, a DescribeTableArgs) (string, error) {
	s, err := tt.ss.Get(a.Source)
	if err != nil {
		return failure(ctx, err)
	}
	if strings.TrimSpace(a.Table) == "" {
		return "Error: describe_table needs a table name\nHint: call list_tables to see the tables.", nil
	}
	sc, err := s.Schema(ctx)
	if err != nil {
		return failure(ctx, err)
	}
	t := sc.Table(a.Table)
	if t == nil {
		return fmt.Sprintf("Error: there is no table %q in %s\nHint: %s", a.Table, s.name, tableHint(sc, a.Table)), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Database %s (%s)\n", s.name, s.dialect)
	b.WriteString(renderTable(t, false))
	var refs []string
	for _, o := range sc.Tables {
		for _, fk := range o.ForeignKeys {
			if strings.EqualFold(fk.Table, t.Name) {
				refs = append(refs, fmt.Sprintf("%s(%s)", o.Name, strings.Join(fk.Columns, ", ")))
			}
		}
	}
	if len(refs) > 0 {
		fmt.Fprintf(&b, "Referenced by: %s\n", strings.Join(refs, ", "))
	}
	return b.String(), nil
}

func (tt *sqlTools) query(ctx context.Context, a SQLQueryArgs) (string, error) {
	s, err := tt.ss.Get(a.Source)
	if err != nil {
		return failure(ctx, err)
	}
	if strings.TrimSpace(a.SQL) == "" {
		return "Error: sql_query needs the SQL to run\nHint: send one SELECT statement in sql.", nil
	}
	saveAs := a.SaveAs
	if a.AsDataFrame != "" {
		if err := checkDataFrameName(a.AsDataFrame); err != nil {
			return fmt.Sprintf("Error: %v\nHint: nothing was run; give as_dataframe a Python variable name such as orders.", err), nil
		}
		if tt.op == nil {
			return "Error: as_dataframe needs a Python session, and this one has none\nHint: leave as_dataframe out and read the rows from the reply.", nil
		}
		if saveAs == "" {
			saveAs = a.AsDataFrame
		}
	}
	res, err := s.Query(ctx, a.SQL, QueryOptions{Op: tt.op, SaveAs: saveAs})
	if err != nil {
		return failure(ctx, err)
	}
	reply := FormatResult(res, s.opts.Now())
	if a.SaveAs != "" && tt.op == nil {
		reply += "save_as was ignored: this session has no workspace to save files in.\n"
	}
	if a.AsDataFrame != "" {
		reply += loadDataFrame(ctx, tt.op, a.AsDataFrame, res)
	}
	return reply, nil
}

// FormatResult renders a query result as the reply the model reads: a
// summary line, the rows as a Markdown table, and where the full result is
// saved with the pandas line that loads it. now dates a cached result.
func FormatResult(res *Result, now time.Time) string {
	var b strings.Builder
	rows := humanize.Comma(int64(res.Total)) + " rows"
	if res.Total == 1 {
		rows = "1 row"
	}
	if !res.TotalKnown {
		rows = "more than " + rows
	}
	fmt.Fprintf(&b, "%s: %d columns, %s", res.Source, len(res.Columns), rows)
	if res.Cached {
		fmt.Fprintf(&b, " (cached: the same query ran %s ago)", now.Sub(res.CachedAt).Round(time.Second))
	} else {
		fmt.Fprintf(&b, " in %s", res.Elapsed.Round(time.Millisecond))
	}
	b.WriteString(".\n")
	if len(res.Columns) > 0 && len(res.Rows) > 0 {
		b.WriteString("| " + strings.Join(cells(res.Columns), " | ") + " |\n")
		b.WriteString("|" + strings.Repeat(" --- |", len(res.Columns)) + "\n")
		for _, r := range res.Rows {
			b.WriteString("| " + strings.Join(cells(r), " | ") + " |\n")
		}
	}
	if res.Truncated() {
		if res.TotalKnown {
			fmt.Fprintf(&b, "The result was cut: showing the first %d of %s rows.", len(res.Rows), humanize.Comma(int64(res.Total)))
		} else {
			fmt.Fprintf(&b, "The result was cut: showing the first %d rows; reading stopped after %s rows.", len(res.Rows), humanize.Comma(int64(res.Total)))
		}
		if res.SavedTo == "" {
			b.WriteString(" Aggregate in SQL (GROUP BY) or add filters to see what matters.\n")
		} else {
			b.WriteString("\n")
		}
	}
	if res.SavedTo != "" {
		what := "The full result"
		if !res.TotalKnown {
			what = fmt.Sprintf("The first %s rows", humanize.Comma(int64(res.Total)))
		}
		fmt.Fprintf(&b, "%s is saved in %s; load it in Python with: %s\n", what, res.SavedTo, PandasLine(res.SavedTo))
		if res.Neutralised > 0 {
			fmt.Fprintf(&b, "Note for the report: in %s, %s %s.\n", res.SavedTo, humanize.Comma(int64(res.Neutralised)), formula.Note)
		}
	}
	return b.String()
}

// cells escapes values for a Markdown table row.
func cells(vals []string) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = strings.ReplaceAll(cutText(v, maxCellChars), "|", `\|`)
	}
	return out
}

func (tt *sqlTools) explain(ctx context.Context, a ExplainSQLArgs) (string, error) {
	s, err := tt.ss.Get(a.Source)
	if err != nil {
		return failure(ctx, err)
	}
	res, err := s.Explain(ctx, a.SQL)
	if err != nil {
		return failure(ctx, err)
	}
	return res, nil
}

// Explain shows the plan of a read-only statement without running it
// (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on Postgres and MySQL). A
// statement that already starts with EXPLAIN runs as written.
func (s *Source) Explain(ctx context.Context, sqlText string) (string, error) {
	toks, err := checkStatement(s.dialect, sqlText)
	if err != nil {
		return "", err
	}
	stmt := strings.TrimRight(strings.TrimSpace(sqlText), "; \t\n")
	if len(toks) == 0 || toks[0].upper() != "EXPLAIN" {
		stmt = s.dialect.spec().explain(stmt)
	}
	res, err := s.Query(ctx, stmt, QueryOptions{NoCache: true})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Plan on %s (%s):\n", s.name, s.dialect)
	detail := -1
	for i, c := range res.Columns {
		if strings.EqualFold(c, "detail") || strings.EqualFold(c, "QUERY PLAN") || len(res.Columns) == 1 {
			detail = i
		}
	}
	if detail >= 0 {
		for _, r := range res.Rows {
			b.WriteString(r[detail] + "\n")
		}
		return b.String(), nil
	}
	b.WriteString("| " + strings.Join(cells(res.Columns), " | ") + " |\n")
	b.WriteString("|" + strings.Repeat(" --- |", len(res.Columns)) + "\n")
	for _, r := range res.Rows {
		b.WriteString("| " + strings.Join(cells(r), " | ") + " |\n")
	}
	return b.String(), nil
}
