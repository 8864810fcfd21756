package templates

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
)

// The funnel's DuckDB engine: py/funnel.py's counts per stage, computed
// in SQL and rendered in Go (native_funnel.go). Counts of rows and of
// distinct entities are exact integers; a measure's sum per stage is
// exact too (exactSum, duckdb_sum.go), so that the answer does not
// change in its last digit from one run to the next.

// funnelStageHints are funnel.py's hints for a stage column.
var funnelStageHints = []string{"stage", "step", "event", "status", "phase", "funnel", "阶段", "步骤", "事件", "环节", "状态"}

// funnelFalse are the texts funnel.py's truthy reads as not reached.
var funnelFalse = []string{"", "0", "false", "no", "n", "否", "none", "nan"}

// nonNaN is number(c) with NaN missing, as pandas holds it.
func nonNaN(c duckColumn) string {
	return "nullif(" + number(c) + ", CAST('NaN' AS DOUBLE))"
}

// funnel computes funnel.py's stages and counts for the renderer: wide
// data (one column per stage, counted by truthy) or long data (a stage
// column, counted as rows, distinct entities or a measure's sum).
func (d *duckTable) funnel(ctx context.Context, p Params) error {
	stages := p.Stages
	wide := len(stages) > 0 && p.Stage == ""
	for _, s := range stages {
		if !containsString(d.names(len(d.cols)), s) {
			wide = false
		}
	}
	if wide {
		return d.funnelWide(ctx, stages)
	}
	var scol duckColumn
	if p.Stage != "" {
		c, err := d.col(p.Stage, "stage column")
		if err != nil {
			return err
		}
		scol = c
	} else {
		found := false
		for _, c := range d.cols {
			if hinted(c.name, funnelStageHints) {
				scol, found = c, true
				break
			}
		}
		if !found {
			return templateError("no stage column found; name it explicitly (stage=...) and list the stages in order (stages=[...])")
		}
		d.pre["stage_picked"] = scol.name
	}
	var measure, ent *duckColumn
	if p.Measure != "" {
		c, err := d.col(p.Measure, "count column")
		if err != nil {
			return err
		}
		measure = &c
	}
	if p.Entity != "" {
		c, err := d.col(p.Entity, "entity column")
		if err != nil {
			return err
		}
		ent = &c
	}
	agg, kind, also := "count(*)", "rows", ""
	switch {
	case measure != nil:
		agg, kind, also = "coalesce("+exactSum(nonNaN(*measure))+", 0)", "measure:"+measure.name, ", "+measure.ident()
	case ent != nil:
		agg, kind, also = "count(DISTINCT "+ent.ident()+")", "entity:"+ent.name, ", "+ent.ident()
	}
	// The labels in the order they first occur (pd.unique; value_counts'
	// order of ties), each with its count per stage: the file's order, as
	// runDuckDB keeps it for the funnel.
	res, err := d.query(ctx, fmt.Sprintf("SELECT __s, %s AS v, min(__r) AS first FROM (SELECT %s AS __s, row_number() OVER () AS __r%s FROM %s) WHERE __s IS NOT NULL GROUP BY __s ORDER BY first",
		agg, stageLabel(scol, d.rows), also, d.view))
	if err != nil {
		return err
	}
	present := make([]string, len(res))
	per := map[string]float64{}
	for i, r := range res {
		present[i] = fmt.Sprint(r[0])
		per[present[i]] = toFloat(r[1])
	}
	if len(stages) > 0 {
		lower := map[string]string{}
		for _, v := range present {
			lower[strings.ToLower(v)] = v
		}
		var ordered []string
		for _, s := range stages {
			if _, ok := per[s]; ok {
				ordered = append(ordered, s)
			} else if v, ok := lower[strings.ToLower(s)]; ok {
				ordered = append(ordered, v)
			} else {
				return templateError(fmt.Sprintf("stage %s does not occur in %s; its values are: %s", pyQuote(s), scol.name, strings.Join(present[:min(40, len(present))], ", ")))
			}
		}
		stages = ordered
	} else {
		// per.sort_values(ascending=False, kind="mergesort") over
		// value_counts' order (first occurrence) or groupby's (the
		// labels sorted).
		stages = append([]string(nil), present...)
		if kind != "rows" {
			sort.Strings(stages)
		}
		sort.SliceStable(stages, func(i, j int) bool { return per[stages[i]] > per[stages[j]] })
		d.pre["by_count"] = true
	}
	counts := make([]float64, len(stages))
	for i, s := range stages {
		counts[i] = per[s]
	}
	d.pre["stages"], d.pre["counts"], d.pre["kind"] = stages, counts, kind
	return nil
}

// stageLabel is funnel.py's labels, df[scol].astype("string").str.strip(),
// in SQL: numbers as pandas writes them (a whole-number column with gaps
// is floats), True/False.
func stageLabel(c duckColumn, rows int64) string {
	switch {
	case c.typ == "BOOLEAN":
		return "CASE WHEN " + c.ident() + " THEN 'True' WHEN NOT " + c.ident() + " THEN 'False' END"
	case strings.Contains(c.typ, "INT") && c.floatLike(rows):
		return "CAST(CAST(" + c.ident() + " AS DOUBLE) AS VARCHAR)"
	}
	return "trim(CAST(" + c.ident() + " AS VARCHAR))"
}

// funnelWide counts, for each stage column, the rows truthy reads as
// reached: true, a number other than 0 (a column that is 90% numbers), or
// a text that does not say no.
func (d *duckTable) funnelWide(ctx context.Context, stages []string) error {
	var exprs []string
	var cols []duckColumn
	for _, s := range stages {
		c, err := d.col(s, "stage column")
		if err != nil {
			return err
		}
		cols = append(cols, c)
		if c.typ == "BOOLEAN" {
			exprs = append(exprs, "count_if("+c.ident()+")", "0", "0", "0")
			continue
		}
		v := nonNaN(c)
		var no []string
		for _, f := range funnelFalse {
			no = append(no, "'"+f+"'")
		}
		exprs = append(exprs, "count("+c.ident()+")", "count("+v+")", "count_if(coalesce("+v+", 0) <> 0)",
			"count_if("+c.ident()+" IS NOT NULL AND lower(trim(CAST("+c.ident()+" AS VARCHAR))) NOT IN ("+strings.Join(no, ", ")+"))")
	}
	res, err := d.query(ctx, "SELECT "+strings.Join(exprs, ", ")+" FROM "+d.view)
	if err != nil {
		return err
	}
	counts := make([]float64, len(stages))
	for i, c := range cols {
		r := res[0][4*i : 4*i+4]
		nn, num, nonzero, text := toInt(r[0]), toInt(r[1]), toInt(r[2]), toInt(r[3])
		switch {
		case c.typ == "BOOLEAN":
			counts[i] = float64(nn)
		case nn > 0 && float64(num) >= 0.9*float64(nn):
			counts[i] = float64(nonzero)
		default:
			counts[i] = float64(text)
		}
	}
	d.pre["wide"], d.pre["stages"], d.pre["counts"], d.pre["kind"] = true, stages, counts, "wide"
	return nil
}

// wholeOrFloat is funnel.py's int(c) if float(c).is_integer() else c.
func wholeOrFloat(f float64) any {
	if f == math.Trunc(f) && !math.IsInf(f, 0) {
		return int64(f)
	}
	return f
}
