package templates

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// A level (a population, a headcount, employment, a balance) is counted
// at each point of time: its sum over the points of one period means
// nothing. These helpers tell, from the preview's statistics of the time
// column, whether a reading's sums take in several points.

// column is the table's column named name, or nil.
func (t *gtable) column(name string) *gcol {
	for _, c := range t.cols {
		if c.name == name {
			return c
		}
	}
	return nil
}

// isYear reports whether n, a number of the request, is a year: between
// 1900 and 2100, or within the years of one of the table's time columns
// (1850 in a census from 1850 to 2000).
func (t *gtable) isYear(n int) bool {
	if n >= 1900 && n <= 2100 {
		return true
	}
	for _, c := range t.timeColumns() {
		if lo, hi, ok := c.years(); ok && n >= lo && n <= hi {
			return true
		}
	}
	return false
}

// years is the first and last year of a time column.
func (c *gcol) years() (lo, hi int, ok bool) {
	if c.yearInt {
		a, err1 := strconv.Atoi(c.min)
		b, err2 := strconv.Atoi(c.max)
		return a, b, err1 == nil && err2 == nil
	}
	a, okA := dateOf(c.min)
	b, okB := dateOf(c.max)
	return a.Year(), b.Year(), okA && okB
}

// holdsYear reports whether year y lies within the time column's span
// (true when the span is not known).
func (c *gcol) holdsYear(y int) bool {
	lo, hi, ok := c.years()
	return !ok || y >= lo && y <= hi
}

// dateLayouts are the date parts of the time columns' first and last
// values as previews write them.
var dateLayouts = []string{"2006-01-02", "2006/01/02", "2006-1-2", "2006/1/2", "01/02/2006", "1/2/2006", "2006-01", "2006"}

// dateOf is the date at the start of s ("2001/01/01 06:55", "1990-01-08").
func dateOf(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " T"); i > 0 {
		s = s[:i]
	}
	for _, l := range dateLayouts {
		if d, err := time.Parse(l, s); err == nil {
			return d, true
		}
	}
	return time.Time{}, false
}

// periodsAt is how many periods of grain (day, week, month, quarter,
// year, or a calendar part) the time column spans; 0 when not known.
func (c *gcol) periodsAt(grain string) int {
	switch grain {
	case "month_of_year":
		return 12
	case "weekday":
		return 7
	case "quarter_of_year":
		return 4
	case "hour_of_day":
		return 24
	}
	if c.yearInt {
		lo, hi, ok := c.years()
		if !ok || grain != "year" {
			return 0
		}
		return hi - lo + 1
	}
	a, okA := dateOf(c.min)
	b, okB := dateOf(c.max)
	if !okA || !okB || b.Before(a) {
		return 0
	}
	months := (b.Year()-a.Year())*12 + int(b.Month()) - int(a.Month()) + 1
	switch grain {
	case "day":
		return int(b.Sub(a).Hours()/24) + 1
	case "week":
		return int(b.Sub(a).Hours()/24/7) + 1
	case "month":
		return months
	case "quarter":
		return (b.Year()-a.Year())*4 + (int(b.Month())-1)/3 - (int(a.Month())-1)/3 + 1
	case "year":
		return b.Year() - a.Year() + 1
	}
	return 0
}

// sumsOverPeriods is the time column when each number the reading adds up
// takes in rows of more than one of its points of time (employment of
// twelve months summed into a year, a census's headcounts summed over
// its years); nil when each sum is of one point (a trend at the data's
// own grain, one year asked for) or the table has no time column.
func (t *gtable) sumsOverPeriods(r Reading) *gcol {
	tc := t.column(r.Time)
	if tc == nil {
		tcs := t.timeColumns()
		if len(tcs) == 0 {
			return nil
		}
		tc = tcs[0]
	}
	if tc.distinct == 1 {
		return nil
	}
	used := func(c *gcol) bool {
		return slices.Contains(r.GroupBy, c.name) || slices.ContainsFunc(r.Filters, func(f Filter) bool { return f.Column == c.name })
	}
	if tc.yearInt {
		// A column of quarters or months beside the years: each year
		// holds several points of time unless the reading keeps one.
		for _, g := range []string{"quarter", "month", "week", "day"} {
			if c := t.periodColumn(g, g); c != nil && !used(c) {
				return tc
			}
		}
	}
	// several: more points of time than periods to put them in.
	several := func(grain string) bool {
		if tc.yearInt && grain == "year" {
			return false // a column of years has one point a year
		}
		p := tc.periodsAt(grain)
		return p == 0 || tc.distinct == 0 || tc.distinct > p
	}
	if r.Grain != "" && r.Time == tc.name {
		if several(r.Grain) {
			return tc
		}
		return nil
	}
	for _, f := range r.Filters {
		if f.Column != tc.name {
			continue
		}
		switch {
		case f.Op == "year" || f.Op == "=" && tc.yearInt:
			// One year of points: one point when the column has at most
			// one a year.
			if len(f.Values) == 1 && !several("year") {
				return nil
			}
		case f.Op == "=" && len(f.Values) == 1:
			return nil
		}
	}
	if used(tc) && slices.Contains(r.GroupBy, tc.name) {
		return nil
	}
	return tc
}
