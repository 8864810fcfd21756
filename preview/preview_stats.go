package preview

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ColumnStats summarises one column over the rows a preview read (see
// SheetPreview.StatsRows): how many values are missing, the smallest and
// largest value of number and date columns, and the most frequent values.
type ColumnStats struct {
	// Missing is how many rows have no value (blank, NA, null, NaN...).
	Missing int `json:"missing"`
	// Min and Max are the smallest and largest values as written in the
	// file, for int, float, date and datetime columns; empty when none
	// parsed.
	Min string `json:"min,omitempty"`
	Max string `json:"max,omitempty"`
	// Decimals is the most decimal places a float value was written with.
	Decimals int `json:"decimals,omitempty"`
	// Distinct is how many different values the column holds; when
	// DistinctCapped, more than that (counting stopped).
	Distinct       int  `json:"distinct"`
	DistinctCapped bool `json:"distinct_capped,omitempty"`
	// Top are the most frequent values, most frequent first (ties in
	// value order); empty when counting stopped.
	Top []ValueCount `json:"top,omitempty"`
	// Values are all the distinct values of a text or bool column, sorted,
	// when there are at most statsMaxValues of them (nil otherwise): the
	// categories a request may name beyond the most frequent ones. Not
	// serialised: it is for the in-process parse of requests, not for
	// prompts.
	Values []string `json:"-"`
}

// ValueCount is one value of a column and how many rows hold it.
type ValueCount struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

// Bounds of column statistics.
const (
	// statsMaxDistinct is how many distinct values a column's counts keep;
	// past it the column is "many distinct" and has no top values.
	statsMaxDistinct = 2000
	// statsTopValues is how many most frequent values are kept.
	statsTopValues = 5
	// statsMaxValues is how many distinct values of a category are listed
	// in Values.
	statsMaxValues = 300
	// statsMaxValueChars cuts a counted value.
	statsMaxValueChars = 60
)

// statsAccumulator gathers ColumnStats row by row, in constant memory per
// column (bounded by statsMaxDistinct).
type statsAccumulator struct {
	cols []columnAccumulator
	rows int
}

type columnAccumulator struct {
	typ      string
	missing  int
	min, max string
	lo, hi   float64 // numeric or Unix-second bounds
	have     bool
	decimals int
	layout   string // the date layout that parsed last
	counts   map[string]int
	capped   bool
}

func newStatsAccumulator(columns []Column) *statsAccumulator {
	a := &statsAccumulator{cols: make([]columnAccumulator, len(columns))}
	for j, c := range columns {
		a.cols[j] = columnAccumulator{typ: c.Type, counts: map[string]int{}}
	}
	return a
}

// add counts one data row.
func (a *statsAccumulator) add(row []string) {
	a.rows++
	for j := range a.cols {
		a.cols[j].add(strings.TrimSpace(cellAt(row, j)))
	}
}

func (c *columnAccumulator) add(v string) {
	if missingValues[strings.ToLower(v)] {
		c.missing++
		return
	}
	if !c.capped {
		key := truncateRunes(v, statsMaxValueChars)
		if _, ok := c.counts[key]; ok {
			c.counts[key]++
		} else if len(c.counts) < statsMaxDistinct {
			c.counts[strings.Clone(key)] = 1 // not a view into the record
		} else {
			c.capped = true
		}
	}
	var x float64
	var ok bool
	switch c.typ {
	case ColumnInt, ColumnFloat:
		x, ok = parseNumber(v)
		if ok && c.typ == ColumnFloat {
			if _, frac, found := strings.Cut(strings.TrimSuffix(v, "%"), "."); found {
				if e := strings.IndexAny(frac, "eE"); e >= 0 {
					frac = frac[:e]
				}
				c.decimals = max(c.decimals, len(frac))
			}
		}
	case ColumnDate, ColumnDatetime:
		x, ok = c.parseTime(v)
	}
	if !ok {
		return
	}
	if !c.have || x < c.lo {
		c.lo, c.min = x, strings.Clone(v)
	}
	if !c.have || x > c.hi {
		c.hi, c.max = x, strings.Clone(v)
	}
	c.have = true
}

// parseTime reads a date or timestamp as Unix seconds, trying the layout
// that worked last first.
func (c *columnAccumulator) parseTime(v string) (float64, bool) {
	if c.layout != "" {
		if t, err := time.Parse(c.layout, v); err == nil {
			return float64(t.Unix()), true
		}
	}
	for _, layouts := range [][]string{dateLayouts, datetimeLayouts} {
		for _, l := range layouts {
			if t, err := time.Parse(l, v); err == nil {
				c.layout = l
				return float64(t.Unix()), true
			}
		}
	}
	return 0, false
}

// parseNumber reads an int or float as the preview's types accept them:
// thousands separators and a trailing percent sign allowed.
func parseNumber(v string) (float64, bool) {
	v = strings.ReplaceAll(strings.TrimSuffix(v, "%"), ",", "")
	x, err := strconv.ParseFloat(v, 64)
	return x, err == nil && !math.IsInf(x, 0) && !math.IsNaN(x)
}

// result is the statistics of every column.
func (a *statsAccumulator) result() []ColumnStats {
	out := make([]ColumnStats, len(a.cols))
	for j, c := range a.cols {
		s := ColumnStats{Missing: c.missing, Min: c.min, Max: c.max, Decimals: c.decimals, Distinct: len(c.counts), DistinctCapped: c.capped}
		if !c.capped {
			for v, n := range c.counts {
				s.Top = append(s.Top, ValueCount{Value: v, Count: n})
			}
			slices.SortFunc(s.Top, func(x, y ValueCount) int {
				return cmp.Or(y.Count-x.Count, strings.Compare(x.Value, y.Value))
			})
			if (c.typ == ColumnText || c.typ == ColumnBool) && len(s.Top) <= statsMaxValues {
				for _, v := range s.Top {
					s.Values = append(s.Values, v.Value)
				}
				slices.Sort(s.Values)
			}
			s.Top = s.Top[:min(len(s.Top), statsTopValues)]
		}
		out[j] = s
	}
	return out
}
