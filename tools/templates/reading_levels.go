package templates

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sift-agent/sift/preview"
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

// Resolutions of a time column, coarsest first: the finest period its
// values tell apart.
const (
	resYear  = 1 // every value is a 1 January (2001-01-01, a model year)
	resMonth = 2 // every value is the first of a month (monthly data)
	resDay   = 3 // dates without a time of day
	resTime  = 4 // dates with times of day
)

// grainNeeds is the resolution a grain needs of the time column: hours
// need times of day, days and weekdays need days, months and quarters
// need months.
var grainNeeds = map[string]int{
	"hour_of_day": resTime, "day": resDay, "week": resDay, "weekday": resDay,
	"month": resMonth, "quarter": resMonth, "month_of_year": resMonth, "quarter_of_year": resMonth, "year": resYear,
}

// resolutionLayouts are the date layouts of the previews' values that
// dateOf does not read ("Jan 1 2000").
var resolutionLayouts = []string{"Jan 2 2006", "January 2 2006", "Jan 2, 2006", "2 Jan 2006"}

// resolution is the finest period the values of date column name tell
// apart, from the preview's first rows and the column's first and last
// value: 0 when it cannot tell (fewer than three values read).
func (t *gtable) resolution(name string) int {
	k := slices.IndexFunc(t.sheet.Columns, func(c preview.Column) bool { return c.Name == name })
	c := t.column(name)
	if k < 0 || c == nil {
		return 0
	}
	vals := []string{c.min, c.max}
	for _, row := range t.sheet.Rows {
		if k < len(row) {
			vals = append(vals, row[k])
		}
	}
	n, res, times := 0, resYear, map[string]bool{}
	for _, v := range vals {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		d, ok := dateOf(v)
		if !ok {
			for _, l := range resolutionLayouts {
				if x, err := time.Parse(l, v); err == nil {
					d, ok = x, true
					break
				}
			}
		}
		if !ok {
			return 0
		}
		n++
		switch {
		case d.Day() != 1:
			res = max(res, resDay)
		case d.Month() != 1:
			res = max(res, resMonth)
		}
		if i := strings.IndexAny(v, " T"); i > 0 && len(v) > 10 && isDigits(v[:4]) {
			times[strings.Trim(v[i:], " T")] = true
		}
	}
	if n < 3 {
		return 0
	}
	// A time of day only when the values show several (a zone offset
	// written as T08:00 on every monthly value is not a time of day).
	if res == resDay && len(times) >= 3 {
		res = resTime
	}
	return res
}

// finerThanData reports the grain a reading asks when the time column's
// values cannot tell its periods apart (days of monthly data, months of
// yearly dates, hours of dates), with the period the data has; "" else.
func (t *gtable) finerThanData(r Reading) (grain, has string) {
	need, ok := grainNeeds[r.Grain]
	if !ok || r.Time == "" || r.YearTime {
		return "", ""
	}
	res := t.resolution(r.Time)
	if res == 0 || res >= need {
		return "", ""
	}
	return r.Grain, map[int]string{resYear: "year", resMonth: "month", resDay: "day"}[res]
}
