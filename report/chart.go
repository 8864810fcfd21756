package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sift-agent/sift/operator"
)

// ChartKind names a chart Sift draws from a result table.
type ChartKind string

// The chart kinds. ChartNone means the result's shape suits no chart.
const (
	ChartNone    ChartKind = ""
	chartLine    ChartKind = "line"
	chartBar     ChartKind = "bar"
	chartPie     ChartKind = "pie"
	chartScatter ChartKind = "scatter"
)

// Chart bounds.
const (
	// maxPieSlices is the most categories a pie chart shows.
	maxPieSlices = 6
	// maxLineSeries is the most measures one line chart draws.
	maxLineSeries = 4
	// chartReadLimit bounds how much of a result file is read to choose
	// and draw a chart.
	chartReadLimit = 8 << 20
)

// ChartSpec says how to draw a result table: which kind, which column on
// the x axis and which measures. It is chosen by rules from the table's
// shape (ChooseChart), never by a model.
type ChartSpec struct {
	Kind ChartKind `json:"kind"`
	// X is the column on the x axis (the categories of a bar or pie).
	X string `json:"x,omitempty"`
	// Y are the measures drawn.
	Y []string `json:"y,omitempty"`
	// Label names the column that labels scatter points, if any.
	Label string `json:"label,omitempty"`
	// Title is the chart's title.
	Title string `json:"title,omitempty"`
}

// ChooseChart picks a chart for a result table from its shape:
//   - a time-like first column (dates, months, years) and numeric other
//     columns → a line chart of up to four measures;
//   - one category column and one measure → a bar chart, or a pie when
//     there are at most six categories, every value is positive and the
//     measure is a share or an additive total;
//   - two measures (alone, or after one label column) → a scatter plot;
//   - anything else, or fewer than two rows → no chart.
func ChooseChart(columns []string, rows [][]string) ChartSpec {
	if len(columns) < 2 || len(rows) < 2 {
		return ChartSpec{}
	}
	numeric := make([]bool, len(columns))
	var measures []string
	for i, c := range columns {
		numeric[i] = numericColumn(rows, i)
		if numeric[i] {
			measures = append(measures, c)
		}
	}
	rest := columns[1:]
	restNumeric := true
	for i := 1; i < len(columns); i++ {
		restNumeric = restNumeric && numeric[i]
	}
	first := columns[0]
	switch {
	case timeLikeColumn(first, rows) && restNumeric:
		y := rest
		if len(y) > maxLineSeries {
			y = y[:maxLineSeries]
		}
		return ChartSpec{Kind: chartLine, X: first, Y: append([]string(nil), y...), Title: chartTitle(y, first)}
	case !numeric[0] && len(columns) == 2 && numeric[1]:
		kind := chartBar
		if len(rows) <= maxPieSlices && allPositive(rows, 1) && shareOrTotal(columns[1]) {
			kind = chartPie
		}
		return ChartSpec{Kind: kind, X: first, Y: []string{columns[1]}, Title: chartTitle(rest, first)}
	case len(measures) == 2 && len(columns) == 2:
		return ChartSpec{Kind: chartScatter, X: columns[0], Y: []string{columns[1]}, Title: chartTitle(rest, columns[0])}
	case len(measures) == 2 && len(columns) == 3 && !numeric[0]:
		return ChartSpec{Kind: chartScatter, X: columns[1], Y: []string{columns[2]}, Label: first, Title: chartTitle(columns[2:], columns[1])}
	}
	return ChartSpec{}
}

func chartTitle(y []string, x string) string {
	return strings.Join(y, ", ") + " by " + x
}

// cellValue trims a cell; NULL and empty cells are missing.
func cellValue(row []string, i int) (string, bool) {
	if i >= len(row) {
		return "", false
	}
	v := strings.TrimSpace(row[i])
	if v == "" || strings.EqualFold(v, "null") || strings.EqualFold(v, "nan") {
		return "", false
	}
	return v, true
}

// numericColumn reports whether every present value of column i is a
// number, and at least one is present.
func numericColumn(rows [][]string, i int) bool {
	seen := false
	for _, r := range rows {
		v, ok := cellValue(r, i)
		if !ok {
			continue
		}
		if _, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", ""), 64); err != nil {
			return false
		}
		seen = true
	}
	return seen
}

func allPositive(rows [][]string, i int) bool {
	for _, r := range rows {
		v, ok := cellValue(r, i)
		if !ok {
			return false
		}
		f, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", ""), 64)
		if err != nil || f <= 0 {
			return false
		}
	}
	return true
}

// timeNames are column names that hold points in time.
var timeNames = regexp.MustCompile(`(?i)^(date|day|week|month|year|quarter|period|time|timestamp|dt|ym|year_month|month_start|week_start)$|(_date|_day|_week|_month|_year|_quarter|_period|_time|_at)$|^(date|day|week|month|year|quarter)_`)

// timeValue matches the usual spellings of dates, months, quarters and
// weeks: 2024, 2024-03, 2024-03-05, 2024/03/05, 2024-03-05 10:00:00,
// 2024-Q1, 2024-W09.
var timeValue = regexp.MustCompile(`^\d{4}([-/](0?[1-9]|1[0-2])([-/]\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?|-?Q[1-4]|-?W\d{1,2})?$`)

// timeLikeColumn reports whether the column's name or every value says it
// holds points in time.
func timeLikeColumn(name string, rows [][]string) bool {
	if timeNames.MatchString(strings.TrimSpace(name)) {
		return true
	}
	seen := false
	for _, r := range rows {
		v, ok := cellValue(r, 0)
		if !ok {
			continue
		}
		if !timeValue.MatchString(v) {
			return false
		}
		if len(v) == 4 {
			// A bare four-digit number is a year only in a plausible range.
			y, _ := strconv.Atoi(v)
			if y < 1900 || y > 2200 {
				return false
			}
		}
		seen = true
	}
	return seen
}

// notAdditive are words that mark a measure whose parts do not add up to a
// whole, so it must not be a pie.
var notAdditive = regexp.MustCompile(`(?i)(avg|average|mean|median|rate|ratio|min|max|price|std|stddev|variance|per_|_per)`)

// additive are words that mark a share or an additive total.
var additive = regexp.MustCompile(`(?i)(share|percent|pct|proportion|fraction|total|sum|count|cnt|revenue|sales|amount|quantity|qty|orders|customers|users|number|volume)`)

func shareOrTotal(measure string) bool {
	return !notAdditive.MatchString(measure) && additive.MatchString(measure)
}

// ReadTable reads a CSV result file through the operator: its
// header and rows (at most chartReadLimit bytes are read).
func ReadTable(ctx context.Context, op operator.Operator, path string) (columns []string, rows [][]string, err error) {
	data, _, err := op.ReadFile(ctx, path, chartReadLimit)
	if err != nil {
		return nil, nil, fmt.Errorf("read result %s: %w", path, err)
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// A file cut at the read limit ends in a partial record.
			break
		}
		if columns == nil {
			columns = rec
			continue
		}
		rows = append(rows, rec)
	}
	if columns == nil {
		return nil, nil, fmt.Errorf("read result %s: the file is empty", path)
	}
	return columns, rows, nil
}

// chartParamsPath is where RenderChart writes the parameters the fixed
// chart script reads; renderMu keeps two charts of one process from
// sharing it at once.
const chartParamsPath = "work/chart_params.json"

var renderMu sync.Mutex

// chartScript draws one chart from the parameters in work/chart_params.json:
// it is fixed code, and the parameters reach it only as JSON data.
const chartScript = `import json
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

with open("work/chart_params.json", encoding="utf-8") as fh:
    p = json.load(fh)
df = pd.read_csv(p["data"])
kind, x, ys = p["kind"], p["x"], p["y"]
fig, ax = plt.subplots(figsize=(8, 4.5))
if kind == "line":
    df = df.sort_values(x)
    labels = df[x].astype(str)
    for y in ys:
        ax.plot(labels, df[y], marker="o", label=y)
    if len(ys) > 1:
        ax.legend()
    ax.set_xlabel(x)
    ax.set_ylabel(ys[0] if len(ys) == 1 else "value")
    if len(labels) > 12:
        step = max(1, len(labels) // 12)
        ax.set_xticks(range(0, len(labels), step))
    plt.setp(ax.get_xticklabels(), rotation=45, ha="right")
elif kind == "bar":
    d = df.head(30)
    ax.bar(d[x].astype(str), d[ys[0]])
    ax.set_xlabel(x)
    ax.set_ylabel(ys[0])
    plt.setp(ax.get_xticklabels(), rotation=45, ha="right")
elif kind == "pie":
    ax.pie(df[ys[0]], labels=df[x].astype(str), autopct="%1.1f%%", startangle=90, counterclock=False)
    ax.axis("equal")
elif kind == "scatter":
    y = ys[0]
    ax.scatter(df[x], df[y])
    if p.get("label") and len(df) <= 30:
        for _, row in df.iterrows():
            ax.annotate(str(row[p["label"]]), (row[x], row[y]), fontsize=8, xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel(x)
    ax.set_ylabel(y)
else:
    raise ValueError("unknown chart kind: " + str(kind))
ax.set_title(p["title"])
fig.tight_layout()
fig.savefig(p["out"], dpi=100)
plt.close(fig)
print(p["out"])
`

// chartParams are what the chart script reads.
type chartParams struct {
	ChartSpec
	Data string `json:"data"`
	Out  string `json:"out"`
}

// RenderChart draws spec from the CSV at data (workspace-relative) into the
// PNG at out, with a fixed Python script run through op: the parameters
// are passed as a JSON file, never formatted into code.
func RenderChart(ctx context.Context, op operator.Operator, spec ChartSpec, data, out string) error {
	if spec.Kind == ChartNone {
		return errors.New("render chart: no chart kind chosen")
	}
	params, err := json.Marshal(chartParams{ChartSpec: spec, Data: data, Out: out})
	if err != nil {
		return fmt.Errorf("render chart: %w", err)
	}
	renderMu.Lock()
	defer renderMu.Unlock()
	if err := op.WriteFile(ctx, chartParamsPath, params); err != nil {
		return fmt.Errorf("render chart: write its parameters: %w", err)
	}
	res, err := op.RunPython(ctx, chartScript, operator.RunOptions{Timeout: time.Minute})
	if err != nil {
		return fmt.Errorf("render chart %s: %w", out, err)
	}
	if !res.OK() {
		msg := res.Error
		if res.TimedOut {
			msg = "timed out"
		}
		return fmt.Errorf("render chart %s: the chart script failed: %s", out, strings.TrimSpace(msg))
	}
	if _, _, err := op.ReadFile(ctx, out, 1); err != nil {
		return fmt.Errorf("render chart %s: no file was written: %w", out, err)
	}
	return nil
}
