package templates

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/sift-agent/sift/tools/sqldb"
)

// periodUnits are DuckDB's date_trunc units for the cell's period codes;
// a week starts on Monday in both (pandas' W-SUN weeks end on Sunday).
var periodUnits = map[string]string{"D": "day", "W": "week", "M": "month", "Q": "quarter", "Y": "year"}

// periodCodes are common.py's PERIODS.
var periodCodes = map[string]string{"day": "D", "week": "W", "month": "M", "quarter": "Q", "year": "Y"}

// periodCode is common.py's period_code: the period asked for, else one
// that suits the data's span.
func (d *duckTable) periodCode(ctx context.Context, t string, period string) (string, error) {
	if period != "" {
		code, ok := periodCodes[period]
		if !ok {
			return "", templateError(fmt.Sprintf("unknown period %s; use one of day, week, month, quarter, year", pyQuote(period)))
		}
		return code, nil
	}
	res, err := d.query(ctx, "SELECT epoch(max("+t+")) - epoch(min("+t+")) FROM "+d.view+" WHERE "+t+" IS NOT NULL")
	if err != nil {
		return "", err
	}
	days := int64(math.Floor(toFloat(res[0][0]) / 86400))
	code := "Y"
	switch {
	case days <= 45:
		code = "D"
	case days <= 200:
		code = "W"
	case days <= 4*366:
		code = "M"
	case days <= 10*366:
		code = "Q"
	}
	nouns := map[string]string{"D": "day", "W": "week", "M": "month", "Q": "quarter", "Y": "year"}
	d.pick("period: %s (the data spans %d days)", wordIn(d.lang, nouns[code]), days)
	return code, nil
}

// periodStart is the SQL of a row's period, as the start date of it.
func periodStart(t, code string) string {
	return "strftime(date_trunc('" + periodUnits[code] + "', " + t + "), '%Y-%m-%d')"
}

// periodSeries computes trend's and compare_periods' aggregates: the
// measure per period, and for trend with a category, per category; with
// compare (compare_periods), over the period its comparison steps by,
// and never per category.
func (d *duckTable) periodSeries(ctx context.Context, p *Params, compare bool) error {
	tc, err := d.findTime(ctx, *p)
	if err != nil {
		return err
	}
	t := timestamp(tc)
	res, err := d.query(ctx, fmt.Sprintf("SELECT count(%s), count(%s), CAST(max(%s) AS VARCHAR) FROM %s", tc.ident(), t, t, d.view))
	if err != nil {
		return err
	}
	parsed := toInt(res[0][1])
	if parsed == 0 {
		return templateError(fmt.Sprintf("column %s holds no dates; name the time column explicitly (time=...)", pyQuote(tc.name)))
	}
	measure, err := d.findMeasure(ctx, *p, false)
	if err != nil {
		return err
	}
	agg, err := aggregation(*p, measure)
	if err != nil {
		return err
	}
	period := p.Period
	if compare {
		period = map[string]string{"mom": "month", "qoq": "quarter", "wow": "week", "dod": "day", "": "month"}[p.Compare]
		if p.Compare == "yoy" {
			period = p.Period
			if period == "" {
				period = "month"
			}
		}
	}
	code, err := d.periodCode(ctx, t, period)
	if err != nil {
		return err
	}
	p.Time = tc.name
	if measure != nil {
		p.Measure = measure.name
	}
	p.Aggregation = agg
	d.pre["bad"] = toInt(res[0][0]) - parsed
	d.pre["last_t"] = fmt.Sprint(res[0][2])
	d.pre["code"] = code
	// Grouped by the period's start, written as text once per period
	// (strftime on every row costs more than the sum).
	pk := "date_trunc('" + periodUnits[code] + "', " + t + ")"
	label := "strftime(p, '%Y-%m-%d')"
	where := " WHERE " + t + " IS NOT NULL"
	series, err := d.query(ctx, "SELECT "+label+" AS p, v FROM (SELECT "+pk+" AS p, "+aggSQL(agg, measure)+" AS v FROM "+d.view+where+" GROUP BY 1) ORDER BY p")
	if err != nil {
		return err
	}
	d.pre["series"] = jsonRows(series)
	// The days with data, so the cell finds partial first and last periods
	// as it does from the whole column.
	days, err := d.query(ctx, "SELECT strftime(d, '%Y-%m-%d') FROM (SELECT DISTINCT CAST("+t+" AS DATE) AS d FROM "+d.view+where+") ORDER BY d")
	if err != nil {
		return err
	}
	d.pre["days"] = jsonRows(days)
	if compare || p.Category == "" {
		return nil
	}
	cc, err := d.col(p.Category, "category column")
	if err != nil {
		return err
	}
	p.Category = cc.name
	total := "CAST(count(*) AS DOUBLE)"
	if measure != nil {
		total = "coalesce(sum(" + number(*measure) + "), 0)"
	}
	totals, err := d.query(ctx, "SELECT "+category(cc)+" AS c, "+total+" AS v FROM "+d.view+where+" GROUP BY 1 ORDER BY 2 DESC, 1")
	if err != nil {
		return err
	}
	d.pre["totals"] = jsonRows(totals)
	var top []string
	for i, r := range totals {
		if i == 6 { // trend.py's MAX_LINES
			break
		}
		top = append(top, sqldb.SQLString(fmt.Sprint(r[0])))
	}
	byCat, err := d.query(ctx, "SELECT "+label+" AS p, c, v FROM (SELECT "+pk+" AS p, "+category(cc)+" AS c, "+aggSQL(agg, measure)+" AS v FROM "+d.view+where+
		" AND "+category(cc)+" IN ("+strings.Join(top, ", ")+") GROUP BY 1, 2) ORDER BY p, c")
	if err != nil {
		return err
	}
	d.pre["by_cat"] = jsonRows(byCat)
	return nil
}

// topN computes topn's aggregate per group.
func (d *duckTable) topN(ctx context.Context, p *Params) error {
	var measure *duckColumn
	var err error
	if p.Measure != "" || (p.Aggregation != "" && p.Aggregation != "count") {
		if measure, err = d.findMeasure(ctx, *p, true); err != nil {
			return err
		}
	}
	exclude := ""
	if measure != nil {
		exclude = measure.name
	}
	if p.Category == "" {
		if err := d.textUniques(ctx); err != nil {
			return err
		}
	}
	cc, err := d.findCategory(p.Category, "category", exclude)
	if err != nil {
		return err
	}
	agg, err := aggregation(*p, measure)
	if err != nil {
		return err
	}
	p.Category, p.Aggregation = cc.name, agg
	if measure != nil {
		p.Measure = measure.name
	}
	groups, err := d.query(ctx, "SELECT "+category(cc)+" AS c, "+aggSQL(agg, measure)+" FROM "+d.view+" GROUP BY 1 ORDER BY 1")
	if err != nil {
		return err
	}
	d.pre["groups"] = jsonRows(groups)
	return nil
}

// pivot computes pivot's cells and, for aggregations that do not add up,
// its row, column and grand totals.
func (d *duckTable) pivot(ctx context.Context, p *Params) error {
	var measure *duckColumn
	err := d.textUniques(ctx)
	if err != nil {
		return err
	}
	if p.Measure != "" {
		if measure, err = d.findMeasure(ctx, *p, false); err != nil {
			return err
		}
	}
	agg, err := aggregation(*p, measure)
	if err != nil {
		return err
	}
	exclude := []string{""}
	if measure != nil {
		exclude[0] = measure.name
	}
	rc, err := d.findCategory(p.Category, "category", exclude...)
	if err != nil {
		return err
	}
	rows := category(rc)
	var cols, where string
	switch {
	case p.Category2 != "":
		c2, err := d.col(p.Category2, "column category")
		if err != nil {
			return err
		}
		cols, p.Category2 = category(c2), c2.name
	case p.Time != "" || p.Period != "":
		tc, err := d.findTime(ctx, *p)
		if err != nil {
			return err
		}
		t := timestamp(tc)
		code, err := d.periodCode(ctx, t, p.Period)
		if err != nil {
			return err
		}
		cols, where, p.Time = periodStart(t, code), " WHERE "+t+" IS NOT NULL", tc.name
		d.pre["code"] = code
	default:
		c2, err := d.findCategory("", "category2", append(exclude, rc.name)...)
		if err != nil {
			return err
		}
		cols, p.Category2 = category(c2), c2.name
	}
	p.Category, p.Aggregation = rc.name, agg
	if measure != nil {
		p.Measure = measure.name
	}
	a := aggSQL(agg, measure)
	from := " FROM " + d.view + where
	cells, err := d.query(ctx, "SELECT "+rows+" AS r, "+cols+" AS c, "+a+from+" GROUP BY 1, 2 ORDER BY 1, 2")
	if err != nil {
		return err
	}
	d.pre["cells"] = jsonRows(cells)
	if agg == "sum" || agg == "count" {
		return nil
	}
	// In this order, so that the SQL shown as the answer's provenance
	// reads the same on every run (a map's order is random).
	for _, q := range []struct{ key, sql string }{
		{"row_totals", "SELECT " + rows + " AS r, " + a + from + " GROUP BY 1 ORDER BY 1"},
		{"column_totals", "SELECT " + cols + " AS c, " + a + from + " GROUP BY 1 ORDER BY 1"},
		{"grand", "SELECT 'all', " + a + from},
	} {
		res, err := d.query(ctx, q.sql)
		if err != nil {
			return err
		}
		d.pre[q.key] = jsonRows(res)
	}
	return nil
}
