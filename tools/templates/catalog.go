// Package templates holds Sift's built-in analyses: everyday requests
// ("profile this file", "monthly revenue trend", "top 10 customers by
// sales", "按地区统计销售额") that need no model. It has a catalog of
// templates, each a fixed Python cell (pandas and matplotlib, headless)
// embedded from py/; a deterministic matcher from a request and file
// previews to a template and its parameters; Run, which executes a template
// through an operator.Operator (the same provenance as agent code) and
// reads its exact numbers back; and a run_template tool for agents.
package templates

import (
	"embed"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// The template names.
const (
	Profile        = "profile"
	Trend          = "trend"
	TopN           = "topn"
	ComparePeriods = "compare_periods"
	Correlation    = "correlation"
	Distribution   = "distribution"
	Pivot          = "pivot"
	Outliers       = "outliers"
	Cohort         = "cohort"
	Funnel         = "funnel"
)

// ErrUnknownTemplate is wrapped when a template name is not in the catalog.
var ErrUnknownTemplate = errors.New("unknown template")

// Template describes one built-in analysis.
type Template struct {
	// Name is what selects it, e.g. "trend".
	Name string `json:"name"`
	// Title is a short human name, e.g. "Trend over time".
	Title string `json:"title"`
	// Description says what it computes and draws, in one or two sentences.
	Description string `json:"description"`
	// Params names the parameters it reads, each with what it means.
	Params []string `json:"params"`
	// Example is a request it answers.
	Example string `json:"example"`
	// cell is the file under py/ holding its Python.
	cell string
}

//go:embed py/*.py
var pyFiles embed.FS

// commonCell is the prelude every template cell starts with.
const commonCell = "py/common.py"

var catalog = []Template{
	{Name: Profile, Title: "Data profile", cell: "py/profile.py",
		Description: "Shape, column types, missing values, duplicate rows, summary statistics, top categories and histograms of one table; bounded for wide files.",
		Params:      []string{"sheet: the sheet of a workbook"},
		Example:     "profile this file"},
	{Name: Trend, Title: "Trend over time", cell: "py/trend.py",
		Description: "A measure summed, averaged or counted per day, week, month, quarter or year, with a line chart; optionally one line per category.",
		Params:      []string{"time: the date column", "measure: the numeric column (none: count rows)", "aggregation: sum|mean|count|median|min|max", "period: day|week|month|quarter|year (default: from the span)", "category: split into one line per value"},
		Example:     "monthly revenue trend"},
	{Name: TopN, Title: "Top N / group by", cell: "py/topn.py",
		Description: "Groups by a category, aggregates a measure (or counts rows), ranks the groups and charts the top or bottom N with their shares.",
		Params:      []string{"category: the column to group by", "measure: the numeric column (none: count rows)", "aggregation: sum|mean|count|median|min|max", "n: how many (default 10)", "ascending: true for the bottom N"},
		Example:     "top 10 customers by sales"},
	{Name: ComparePeriods, Title: "Period comparison", cell: "py/compare_periods.py",
		Description: "Each period against the one before (month over month, quarter over quarter, week over week) or the same period a year earlier (year over year), with changes and percentages.",
		Params:      []string{"time: the date column", "measure: the numeric column (none: count rows)", "aggregation", "compare: mom|qoq|wow|dod|yoy", "period: for yoy, the period compared (default month)"},
		Example:     "compare revenue month over month"},
	{Name: Correlation, Title: "Correlation", cell: "py/correlation.py",
		Description: "The correlation matrix of numeric columns (Pearson by default), a heatmap and the strongest pairs; a scatter plot for two columns.",
		Params:      []string{"columns: the numeric columns (default: all, at most 30)", "method: pearson|spearman|kendall"},
		Example:     "correlation between price and quantity"},
	{Name: Distribution, Title: "Distribution", cell: "py/distribution.py",
		Description: "Summary statistics, histograms and box plots per numeric column (at most 12), most common values per text column.",
		Params:      []string{"columns: the columns (default: the numeric ones)"},
		Example:     "show the distribution of order values"},
	{Name: Pivot, Title: "Pivot table", cell: "py/pivot.py",
		Description: "A cross-tabulation of two categories, or of a category and a period, aggregating a measure or counting rows, with totals and a heatmap.",
		Params:      []string{"category: the row category", "category2: the column category", "time and period: use periods as the columns instead", "measure", "aggregation"},
		Example:     "pivot sales by region and product"},
	{Name: Outliers, Title: "Outliers", cell: "py/outliers.py",
		Description: "Rows outside the IQR fences (Q1−1.5·IQR, Q3+1.5·IQR) and rows with |z| > 3, per numeric column, with box plots and the flagged rows.",
		Params:      []string{"columns: the numeric columns (default: all, at most 20)", "iqr_k: the fence multiplier (default 1.5)", "z_threshold: default 3"},
		Example:     "find outliers in amount"},
	{Name: Cohort, Title: "Cohort retention", cell: "py/cohort.py",
		Description: "Entities grouped by the period of their first activity; the share active again in each later period, as a retention matrix, heatmap and average curve.",
		Params:      []string{"entity: the id column (user, customer)", "time: the activity date column", "period: day|week|month|quarter|year (default month)"},
		Example:     "monthly cohort retention of users"},
	{Name: Funnel, Title: "Funnel conversion", cell: "py/funnel.py",
		Description: "How many reach each ordered stage, conversion from the previous and the first stage, and drop-off, with a funnel chart.",
		Params:      []string{"stage: the stage column (long data)", "stages: the stages in order (or, for wide data, the stage columns)", "entity: count distinct ids", "measure: a count column to sum"},
		Example:     "funnel conversion visit -> signup -> purchase"},
}

// Catalog lists the built-in templates in a stable order, for prompts and
// `sift templates`. The slice is a copy.
func Catalog() []Template {
	return append([]Template(nil), catalog...)
}

// Lookup returns the template called name, or an error wrapping
// ErrUnknownTemplate that lists the known names.
func Lookup(name string) (Template, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.NewReplacer("-", "_", " ", "_").Replace(n)
	if alias, ok := nameAliases[n]; ok {
		n = alias
	}
	for _, t := range catalog {
		if t.Name == n {
			return t, nil
		}
	}
	return Template{}, fmt.Errorf("%w %q: use one of %s", ErrUnknownTemplate, name, strings.Join(Names(), ", "))
}

// nameAliases are other spellings Lookup accepts.
var nameAliases = map[string]string{
	"top_n": TopN, "groupby": TopN, "group_by": TopN, "ranking": TopN,
	"compare": ComparePeriods, "yoy": ComparePeriods, "mom": ComparePeriods,
	"corr": Correlation, "histogram": Distribution, "crosstab": Pivot,
	"outlier": Outliers, "anomalies": Outliers, "retention": Cohort, "conversion": Funnel,
}

// Names lists the template names, sorted.
func Names() []string {
	names := make([]string, len(catalog))
	for i, t := range catalog {
		names[i] = t.Name
	}
	sort.Strings(names)
	return names
}

// CatalogText renders the catalog as a short plain-text list, one template
// per line with its parameters, for a model prompt.
func CatalogText() string {
	var b strings.Builder
	for _, t := range catalog {
		b.WriteString("- " + TemplateText(t) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// TemplateText describes one template on a line: its name, what it does,
// its parameters and an example request.
func TemplateText(t Template) string {
	return fmt.Sprintf("%s: %s Params: %s. Example: %q", t.Name, t.Description, strings.Join(t.Params, "; "), t.Example)
}

// cellSource returns the prelude and the template's own Python.
func cellSource(t Template) (string, error) {
	common, err := pyFiles.ReadFile(commonCell)
	if err != nil {
		return "", fmt.Errorf("template %s: read embedded %s: %w", t.Name, commonCell, err)
	}
	body, err := pyFiles.ReadFile(t.cell)
	if err != nil {
		return "", fmt.Errorf("template %s: read embedded %s: %w", t.Name, t.cell, err)
	}
	return string(common) + "\n\n" + string(body), nil
}
