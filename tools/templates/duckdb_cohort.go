package templates

import (
	"context"
	"fmt"
)

// The cohort's DuckDB engine: py/cohort.py's distinct entities per cohort
// (the period of an entity's first activity) and offset (periods since),
// computed in SQL and rendered in Go (native_cohort.go). Every number is
// a count; the shares are divided in Go, as pandas divides them.

// periodOrdinal is the SQL of the period (of code) holding the timestamp
// t as a number that grows by one each period, as pandas' Period ordinals
// do (a week runs Monday to Sunday, W-SUN).
func periodOrdinal(t, code string) string {
	switch code {
	case "M":
		return "(year(" + t + ") * 12 + month(" + t + ") - 1)"
	case "Q":
		return "(year(" + t + ") * 4 + quarter(" + t + ") - 1)"
	case "Y":
		return "year(" + t + ")"
	case "W":
		return "(datediff('day', DATE '1970-01-05', CAST(date_trunc('week', " + t + ") AS DATE)) // 7)"
	}
	return "datediff('day', DATE '1970-01-01', CAST(" + t + " AS DATE))"
}

// cohort computes cohort.py's counts: per cohort and offset, the distinct
// entities active then; the cohorts' first days; the last period.
func (d *duckTable) cohort(ctx context.Context, p *Params) error {
	tc, err := d.findTime(ctx, *p)
	if err != nil {
		return err
	}
	var ent duckColumn
	if p.Entity != "" {
		if ent, err = d.col(p.Entity, "entity (id) column"); err != nil {
			return err
		}
	} else {
		found := false
		for _, c := range d.cols {
			if c.name == tc.name || !hinted(c.name, cellIDHints) {
				continue
			}
			n, err := d.distinct(ctx, c)
			if err != nil {
				return err
			}
			if n > 1 {
				ent, found = c, true
				d.pre["entity_picked"] = true
				break
			}
		}
		if !found {
			return templateError("no id column found for the cohorts; name the entity column explicitly (entity=...)")
		}
	}
	code := "M"
	if p.Period != "" {
		c, ok := periodCodes[p.Period]
		if !ok {
			return templateError(fmt.Sprintf("unknown period %s; use one of day, week, month, quarter, year", pyQuote(p.Period)))
		}
		code = c
	} else {
		d.pre["period_picked"] = true
	}
	t := timestamp(tc)
	rows := fmt.Sprintf("SELECT %s AS e, %s AS po, CAST(date_trunc('%s', %s) AS DATE) AS ps FROM %s WHERE %s IS NOT NULL AND %s IS NOT NULL",
		ent.ident(), periodOrdinal(t, code), periodUnits[code], t, d.view, ent.ident(), t)
	res, err := d.query(ctx, "WITH d AS ("+rows+"), f AS (SELECT e, min(po) AS co FROM d GROUP BY e) "+
		"SELECT co, po - co AS k, count(DISTINCT d.e) AS n, CAST(min(ps) AS VARCHAR) AS first, (SELECT max(po) FROM d) AS last "+
		"FROM d JOIN f ON d.e IS NOT DISTINCT FROM f.e GROUP BY 1, 2 ORDER BY 1, 2")
	if err != nil {
		return err
	}
	if len(res) == 0 {
		return templateError(fmt.Sprintf("no rows have both %s and a date in %s", ent.name, tc.name))
	}
	p.Time, p.Entity = tc.name, ent.name
	d.pre["entity"], d.pre["time"], d.pre["code"], d.pre["counts"] = ent.name, tc.name, code, jsonRows(res)
	return nil
}
