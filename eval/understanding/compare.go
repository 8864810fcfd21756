package understanding

import (
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Reading mirrors templates.Reading as JSON, so the comparison does not depend on the parser's Go types.
type Reading struct {
	Analysis string    `json:"analysis"`
	File     string    `json:"file"`
	Sheet    string    `json:"sheet,omitempty"`
	Measures []Measure `json:"measures,omitempty"`
	GroupBy  []string  `json:"group_by,omitempty"`
	Time     string    `json:"time,omitempty"`
	Grain    string    `json:"grain,omitempty"`
	Filters  []Filter  `json:"filters,omitempty"`
	N        int       `json:"n,omitempty"`
	Order    string    `json:"order,omitempty"`
	Periods  []string  `json:"periods,omitempty"`
	Unplaced []string  `json:"unplaced,omitempty"`
	// Columns are the columns an analysis reads without aggregating them (correlation, distribution,
	// outliers), when the parser puts them there rather than in Measures.
	Columns []string `json:"columns,omitempty"`
}

// Measure is an aggregated column.
type Measure struct {
	Column string `json:"column"`
	Agg    string `json:"agg"`
}

// Filter keeps some rows.
type Filter struct {
	Column string   `json:"column"`
	Op     string   `json:"op"`
	Values []string `json:"values"`
}

// Tolerance is the relative difference allowed between an expected and a computed number.
const Tolerance = 1e-6

// CompareReading lists how got differs from the question's expected reading; empty when it matches.
func CompareReading(q Question, got Reading) []string {
	var want Reading
	given := map[string]json.RawMessage{}
	if err := json.Unmarshal(q.Reading, &want); err != nil {
		return []string{"expected reading: " + err.Error()}
	}
	_ = json.Unmarshal(q.Reading, &given)
	checked := func(slot string) bool {
		_, ok := given[slot]
		return ok && !slices.Contains(q.Unchecked, slot)
	}
	var diffs []string
	differ := func(slot string, want, got any) {
		diffs = append(diffs, fmt.Sprintf("%s: want %v, got %v", slot, show(want), show(got)))
	}
	if got.File != "" && path.Base(got.File) != q.Table {
		differ("file", q.Table, got.File)
	}
	if checked("analysis") && want.Analysis != got.Analysis {
		differ("analysis", want.Analysis, got.Analysis)
	}
	gotMeasures := got.Measures
	if len(gotMeasures) == 0 && len(want.Measures) > 0 && !slices.ContainsFunc(want.Measures, func(m Measure) bool { return m.Agg != "" }) {
		for _, c := range got.Columns {
			gotMeasures = append(gotMeasures, Measure{Column: c})
		}
	}
	if !slices.Contains(q.Unchecked, "measures") && !sameMeasures(want.Measures, gotMeasures) {
		differ("measures", want.Measures, gotMeasures)
	}
	if !slices.Contains(q.Unchecked, "group_by") && !sameSet(fold(want.GroupBy), fold(got.GroupBy)) {
		differ("group_by", want.GroupBy, got.GroupBy)
	}
	if checked("time") && !strings.EqualFold(want.Time, got.Time) {
		differ("time", want.Time, got.Time)
	}
	// A grain matters to the analyses over time; elsewhere only the one asked for is checked.
	overTime := slices.Contains([]string{"trend", "compare_periods", "pivot", "cohort"}, got.Analysis)
	if !slices.Contains(q.Unchecked, "grain") && want.Grain != got.Grain && (want.Grain != "" || overTime) {
		differ("grain", want.Grain, got.Grain)
	}
	if !slices.Contains(q.Unchecked, "filters") && !sameSet(filterKeys(want.Filters), filterKeys(got.Filters)) {
		differ("filters", want.Filters, got.Filters)
	}
	// "Which … the most" (top 1) is answered by a full ranking too: its first row is then compared.
	if checked("n") && want.N != got.N && !(got.N == 0 && (want.N == 10 || want.N == 1)) {
		differ("n", want.N, got.N)
	}
	if checked("order") && want.Order != orDefault(got.Order, "desc") {
		differ("order", want.Order, got.Order)
	}
	if checked("periods") && !sameSet(want.Periods, got.Periods) {
		differ("periods", want.Periods, got.Periods)
	}
	if !slices.Contains(q.Unchecked, "sheet") && want.Sheet != got.Sheet {
		differ("sheet", want.Sheet, got.Sheet)
	}
	return diffs
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func fold(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.ToLower(strings.TrimSpace(s))
	}
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

var aggAliases = map[string]string{"avg": "mean", "average": "mean", "total": "sum", "nunique": "count_distinct", "distinct": "count_distinct"}

// sameMeasures compares measures as sets. An expected aggregation left empty (correlation, distribution,
// outliers) matches any; an empty list (count rows) matches a reading that only counts.
func sameMeasures(want, got []Measure) bool {
	if len(want) == 0 {
		for _, m := range got {
			if normAgg(m.Agg) != "count" {
				return false
			}
		}
		return true
	}
	if len(want) != len(got) {
		return false
	}
	used := make([]bool, len(got))
	for _, w := range want {
		found := false
		for i, g := range got {
			if used[i] || !strings.EqualFold(strings.TrimSpace(w.Column), strings.TrimSpace(g.Column)) {
				continue
			}
			if w.Agg != "" && normAgg(w.Agg) != normAgg(g.Agg) {
				continue
			}
			used[i], found = true, true
			break
		}
		if !found {
			return false
		}
	}
	return true
}

func normAgg(a string) string {
	a = strings.ToLower(strings.TrimSpace(a))
	if x, ok := aggAliases[a]; ok {
		return x
	}
	return a
}

// filterKeys renders filters for comparison. A year filter reads the same whether it is on the time column
// (op "year") or an integer year column (op "=" on year, 年份), so both become "@year=…".
func filterKeys(fs []Filter) []string {
	var out []string
	for _, f := range fs {
		vals := make([]string, len(f.Values))
		for i, v := range f.Values {
			vals[i] = strings.ToLower(strings.TrimSpace(v))
		}
		slices.Sort(vals)
		col := strings.ToLower(strings.TrimSpace(f.Column))
		op := strings.TrimSpace(f.Op)
		if op == "year" || (op == "=" && (col == "year" || col == "年份")) {
			out = append(out, "@year="+strings.Join(vals, "|"))
			continue
		}
		out = append(out, col+op+strings.Join(vals, "|"))
	}
	return out
}

// CompareTable lists how got differs from the expected answer table; empty when it matches.
//
// Rows match one to one by their keys (every expected key among the row's strings, compared after
// normalising case, spacing and punctuation) and numbers (every expected number among the row's numbers,
// within Tolerance); a computed row may carry more columns (a share, a change). Column names are not
// compared. Ranked answers (topn) must also keep the expected order, ties aside. Answers whose layout the
// analysis chooses (compare_periods, pivot) may instead hold every expected key and number anywhere.
//
// With prefix (a ranking whose length the question left open), the expected rows are the computed table's
// first rows, in order.
func CompareTable(analysis string, want *Table, got *Table, prefix bool) []string {
	if want == nil {
		return nil
	}
	if got == nil {
		return []string{"no answer table (Result.Table is nil)"}
	}
	wrows := make([]row, len(want.Rows))
	for i, r := range want.Rows {
		wrows[i] = split(r, false)
	}
	grows := make([]row, len(got.Rows))
	for i, r := range got.Rows {
		grows[i] = split(r, true)
	}
	if prefix && len(grows) > len(wrows) {
		grows = grows[:len(wrows)]
	}
	diff := matchRows(wrows, grows)
	if diff == "" && (analysis == "topn" || prefix) {
		diff = inOrder(wrows, grows)
	}
	if diff == "" {
		return nil
	}
	if analysis == "compare_periods" || analysis == "pivot" {
		if flat := matchFlat(wrows, grows); flat == "" {
			return nil
		}
	}
	return []string{diff}
}

// row is a table row as keys (normalised strings, and integers written as strings) and numbers (strings are
// keys only: "2012" is a key, not a value).
type row struct {
	keys []string
	nums []float64
	// match is the index of the computed row matched to an expected one.
	match int
	raw   []any
}

// split makes a row of cells. Integer numbers of a computed row are keys too (a cluster 2 written as a number
// matches the key "2"); an expected row's keys are its strings only.
func split(cells []any, computed bool) row {
	r := row{match: -1, raw: cells}
	for _, c := range cells {
		switch v := c.(type) {
		case string:
			r.keys = append(r.keys, normKey(v))
		case float64:
			r.nums = append(r.nums, v)
			if computed && v == math.Trunc(v) && math.Abs(v) < 1e15 {
				r.keys = append(r.keys, strconv.FormatInt(int64(v), 10))
			}
		case json.Number:
			if f, err := v.Float64(); err == nil {
				r.nums = append(r.nums, f)
			}
			r.keys = append(r.keys, normKey(v.String()))
		case bool:
			r.keys = append(r.keys, strconv.FormatBool(v))
		}
	}
	return r
}

var (
	weekdays   = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
	zhWeekdays = []string{"一", "二", "三", "四", "五", "六", "日"}
	months     = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
)

// normKey folds case and drops everything but letters and digits ("2012-Q1" = "2012Q1"); weekday names become
// ISO weekday numbers (Monday = 1 … Sunday = 7), month names month numbers, and "07" = "7".
func normKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '-' && b.Len() == 0 {
			b.WriteRune(r)
		}
	}
	k := b.String()
	for i, w := range weekdays {
		if k == w || k == w[:3] {
			return strconv.Itoa(i + 1)
		}
	}
	for i, m := range months {
		if k == m || k == m[:3] {
			return strconv.Itoa(i + 1)
		}
	}
	for i, w := range zhWeekdays {
		if k == "星期"+w || k == "周"+w || k == "礼拜"+w {
			return strconv.Itoa(i + 1)
		}
	}
	if n, ok := strings.CutSuffix(k, "月"); ok {
		if _, err := strconv.Atoi(n); err == nil {
			k = n
		}
	}
	if n, err := strconv.Atoi(k); err == nil && len(k) <= 2 {
		return strconv.Itoa(n)
	}
	return k
}

func near(a, b float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= Tolerance*math.Max(math.Abs(a), math.Abs(b))+1e-12
}

// covers reports whether g holds every key and number of w.
func covers(w, g row) bool {
	keys := slices.Clone(g.keys)
	for _, k := range w.keys {
		i := slices.Index(keys, k)
		if i < 0 {
			return false
		}
		keys = slices.Delete(keys, i, i+1)
	}
	nums := slices.Clone(g.nums)
	for _, x := range w.nums {
		i := slices.IndexFunc(nums, func(y float64) bool { return near(x, y) })
		if i < 0 {
			return false
		}
		nums = slices.Delete(nums, i, i+1)
	}
	return true
}

func matchRows(want, got []row) string {
	if len(want) != len(got) {
		return fmt.Sprintf("want %d rows, got %d (first expected %s, first got %s)", len(want), len(got), first(want), first(got))
	}
	used := make([]bool, len(got))
	for wi := range want {
		want[wi].match = -1
		for gi := range got {
			if !used[gi] && covers(want[wi], got[gi]) {
				used[gi], want[wi].match = true, gi
				break
			}
		}
		if want[wi].match < 0 {
			return fmt.Sprintf("expected row %s not found (got rows %s)", show(want[wi].raw), sample(got))
		}
	}
	return ""
}

// inOrder checks that the matched rows keep the expected ranking, rows with equal values aside.
func inOrder(want, got []row) string {
	for i := range want {
		for j := i + 1; j < len(want); j++ {
			if want[i].match > want[j].match && !slices.EqualFunc(want[i].nums, want[j].nums, near) {
				return fmt.Sprintf("order: expected %s before %s", show(want[i].raw), show(want[j].raw))
			}
		}
	}
	return ""
}

func matchFlat(want, got []row) string {
	var all row
	for _, g := range got {
		all.keys = append(all.keys, g.keys...)
		all.nums = append(all.nums, g.nums...)
	}
	var need row
	for _, w := range want {
		need.keys = append(need.keys, w.keys...)
		need.nums = append(need.nums, w.nums...)
	}
	if len(all.nums) > 6*len(need.nums)+6 || !covers(need, all) {
		return "expected keys and numbers not all in the table"
	}
	return ""
}

func first(rs []row) string {
	if len(rs) == 0 {
		return "none"
	}
	return show(rs[0].raw)
}

func sample(rs []row) string {
	var parts []string
	for i, r := range rs {
		if i == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, show(r.raw))
	}
	return strings.Join(parts, ", ")
}
