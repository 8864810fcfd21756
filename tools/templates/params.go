package templates

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sift-agent/sift/preview"
)

// ErrInvalidParams is wrapped when a parameter has a value the templates do
// not accept (an unknown period or aggregation, a negative N).
var ErrInvalidParams = errors.New("invalid template parameters")

// The values Params fields accept.
var (
	// Periods are the accepted Params.Period values.
	Periods = []string{"day", "week", "month", "quarter", "year"}
	// Aggregations are the accepted Params.Aggregation values.
	Aggregations = []string{"sum", "mean", "count", "median", "min", "max", "nunique"}
	// Comparisons are the accepted Params.Compare values: month over month,
	// quarter over quarter, week over week, day over day, year over year.
	Comparisons = []string{"mom", "qoq", "wow", "dod", "yoy"}
	// Methods are the accepted Params.Method values (correlation).
	Methods = []string{"pearson", "spearman", "kendall"}
)

// Params are a template's parameters. Every field is optional: what is left
// empty the template works out from the data itself (and says so in
// Result.Picked). Column names are matched exactly, then ignoring case,
// spaces and underscores.
type Params struct {
	// Sheet is the workbook sheet to read; default: the first with data.
	Sheet string `json:"sheet,omitempty"`
	// Encoding is the Python codec of a text file, e.g. "gb18030" or
	// "utf-8-sig"; default: the preview's detected encoding, else tried.
	Encoding string `json:"encoding,omitempty"`
	// Delimiter is a csv file's field separator; default: the preview's.
	Delimiter string `json:"delimiter,omitempty"`
	// Time is the date or datetime column (trend, compare_periods, cohort,
	// pivot by period).
	Time string `json:"time,omitempty"`
	// Measure is the numeric column to aggregate; empty counts rows.
	Measure string `json:"measure,omitempty"`
	// Aggregation is one of Aggregations; default sum with a measure, count
	// without.
	Aggregation string `json:"aggregation,omitempty"`
	// Category is the column to group by (topn, the rows of pivot, one line
	// per value in trend).
	Category string `json:"category,omitempty"`
	// Category2 is the second category (the columns of pivot).
	Category2 string `json:"category2,omitempty"`
	// Entity is the id column (cohort; distinct counts in funnel).
	Entity string `json:"entity,omitempty"`
	// Stage is the column holding funnel stages.
	Stage string `json:"stage,omitempty"`
	// Stages are the funnel stages in order: values of Stage, or, without
	// Stage, columns (one per stage).
	Stages []string `json:"stages,omitempty"`
	// Columns are the columns to examine (correlation, distribution,
	// outliers); default: the numeric ones, bounded.
	Columns []string `json:"columns,omitempty"`
	// N is how many groups topn shows; default 10.
	N int `json:"n,omitempty"`
	// Ascending asks topn for the bottom N instead of the top.
	Ascending bool `json:"ascending,omitempty"`
	// Period is one of Periods; default: from the data's span (trend), month
	// (cohort, yoy).
	Period string `json:"period,omitempty"`
	// Compare is one of Comparisons (compare_periods); default mom.
	Compare string `json:"compare,omitempty"`
	// Method is one of Methods (correlation); default pearson.
	Method string `json:"method,omitempty"`
	// IQRK is the IQR fence multiplier (outliers); default 1.5.
	IQRK float64 `json:"iqr_k,omitempty"`
	// ZThreshold is the |z| beyond which a value is an outlier; default 3.
	ZThreshold float64 `json:"z_threshold,omitempty"`
	// Reasons say what inference picked and why, for the report. They are
	// not passed to the template.
	Reasons []string `json:"-"`
}

// Validate reports the first field with a value the templates refuse, as
// an error wrapping ErrInvalidParams that lists the accepted values.
func (p Params) Validate() error {
	check := func(field, v string, allowed []string) error {
		if v != "" && !slices.Contains(allowed, v) {
			return fmt.Errorf("%w: %s %q: use one of %s", ErrInvalidParams, field, v, strings.Join(allowed, ", "))
		}
		return nil
	}
	for _, c := range []struct {
		field, v string
		allowed  []string
	}{{"period", p.Period, Periods}, {"aggregation", p.Aggregation, Aggregations}, {"compare", p.Compare, Comparisons}, {"method", p.Method, Methods}} {
		if err := check(c.field, c.v, c.allowed); err != nil {
			return err
		}
	}
	switch {
	case p.N < 0:
		return fmt.Errorf("%w: n %d: give a positive count, or 0 for the default 10", ErrInvalidParams, p.N)
	case p.IQRK < 0:
		return fmt.Errorf("%w: iqr_k %g: give a positive multiplier such as 1.5", ErrInvalidParams, p.IQRK)
	case p.ZThreshold < 0:
		return fmt.Errorf("%w: z_threshold %g: give a positive threshold such as 3", ErrInvalidParams, p.ZThreshold)
	}
	return nil
}

// Override returns p with every field that explicit sets replaced by
// explicit's value, and a reason saying so. Use it to apply what a person
// or an agent named on top of what inference picked.
func (p Params) Override(explicit Params) Params {
	out := p
	out.Reasons = append([]string(nil), p.Reasons...)
	set := func(name string, dst *string, v string) {
		if v != "" {
			*dst = v
			out.Reasons = append(out.Reasons, fmt.Sprintf("%s: %s (given explicitly)", name, v))
		}
	}
	set("sheet", &out.Sheet, explicit.Sheet)
	set("encoding", &out.Encoding, explicit.Encoding)
	set("delimiter", &out.Delimiter, explicit.Delimiter)
	set("time column", &out.Time, explicit.Time)
	set("measure", &out.Measure, explicit.Measure)
	set("aggregation", &out.Aggregation, explicit.Aggregation)
	set("category", &out.Category, explicit.Category)
	set("second category", &out.Category2, explicit.Category2)
	set("entity", &out.Entity, explicit.Entity)
	set("stage column", &out.Stage, explicit.Stage)
	set("period", &out.Period, explicit.Period)
	set("comparison", &out.Compare, explicit.Compare)
	set("method", &out.Method, explicit.Method)
	if len(explicit.Stages) > 0 {
		out.Stages = append([]string(nil), explicit.Stages...)
		out.Reasons = append(out.Reasons, "stages: "+strings.Join(explicit.Stages, " → ")+" (given explicitly)")
	}
	if len(explicit.Columns) > 0 {
		out.Columns = append([]string(nil), explicit.Columns...)
		out.Reasons = append(out.Reasons, "columns: "+strings.Join(explicit.Columns, ", ")+" (given explicitly)")
	}
	if explicit.N > 0 {
		out.N = explicit.N
		out.Reasons = append(out.Reasons, fmt.Sprintf("n: %d (given explicitly)", explicit.N))
	}
	if explicit.Ascending {
		out.Ascending = true
		out.Reasons = append(out.Reasons, "ascending: the bottom N (given explicitly)")
	}
	if explicit.IQRK > 0 {
		out.IQRK = explicit.IQRK
	}
	if explicit.ZThreshold > 0 {
		out.ZThreshold = explicit.ZThreshold
	}
	return out
}

// pythonCodec is the Python codec that reads a preview's encoding with its
// byte order mark removed (generic keeps its own copy unexported).
func pythonCodec(encoding string, bom bool) string {
	switch encoding {
	case "":
		return ""
	case preview.EncodingUTF8, preview.EncodingUTF8BOM:
		return "utf-8-sig"
	case preview.EncodingUTF16LE, preview.EncodingUTF16BE:
		if bom {
			return "utf-16"
		}
		return strings.Replace(encoding, "16", "16-", 1)
	case preview.EncodingWindows1252:
		return "cp1252"
	}
	return encoding
}

// fileParams fills the reading parameters (encoding, delimiter, sheet) that
// p leaves empty from a preview of the file.
func fileParams(p Params, fp *preview.FilePreview, sheet *preview.SheetPreview) Params {
	if fp == nil {
		return p
	}
	if p.Encoding == "" {
		p.Encoding = pythonCodec(fp.Encoding, fp.BOM)
	}
	if p.Delimiter == "" && (fp.Kind == preview.KindCSV || fp.Kind == preview.KindTSV) {
		p.Delimiter = fp.Delimiter
	}
	if p.Sheet == "" && fp.Kind == preview.KindXLSX && sheet != nil {
		p.Sheet = sheet.Name
	}
	return p
}
