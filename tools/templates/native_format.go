package templates

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// The Go side's copies of py/common.py's output helpers, for the built-ins
// rendered in Go from DuckDB's aggregates (native.go): numbers, Markdown
// tables, CSV files and total rows come out as the cells write them, so
// that a built-in reads the same whichever side rendered it
// (TestDuckDBEngineSameNumbersAsPandas compares them).

// tr is common.py's tr: en, or zh in a Chinese report.
func tr(lang, en, zh string) string {
	if lang == LangChinese {
		return zh
	}
	return en
}

// missing reports a number pandas holds as NaN (or infinite, which clean
// turns into None too).
func missing(f float64) bool { return math.IsNaN(f) || math.IsInf(f, 0) }

// groupInt writes n with thousands separators, as "{:,}".
func groupInt(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// fixedGrouped is "{:,.Nf}".format(v).
func fixedGrouped(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	whole, frac, ok := strings.Cut(s, ".")
	out := groupInt(whole)
	if ok {
		out += "." + frac
	}
	return out
}

// fmtFloat is common.py's fmt for a float: thousands separators, a few
// decimals; "" for a missing number.
func fmtFloat(v float64) string {
	if missing(v) {
		return ""
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return groupInt(strconv.FormatInt(int64(v), 10))
	}
	switch a := math.Abs(v); {
	case a >= 100:
		return fixedGrouped(v, 1)
	case a >= 1:
		return fixedGrouped(v, 2)
	}
	return pyGeneral(v, 4)
}

// fmtInt is fmt for an int.
func fmtInt(n int64) string { return groupInt(strconv.FormatInt(n, 10)) }

// pyGeneral is Python's "{:.Ng}".format(v).
func pyGeneral(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'g', prec, 64)
	// Go writes e-05 as Python does; both drop trailing zeros.
	return s
}

// pct is common.py's pct.
func pct(v float64) string {
	if missing(v) {
		return ""
	}
	return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
}

// pyRepr is Python's repr of a float, as pandas writes it into a CSV
// file: the shortest digits that read back, ".0" on whole numbers, an
// exponent below 1e-4 and from 1e16.
func pyRepr(v float64) string {
	if missing(v) {
		return ""
	}
	if v == 0 {
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	e := strconv.FormatFloat(v, 'e', -1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= 16 {
		mant, ex, _ := strings.Cut(e, "e")
		sign := ex[0]
		digits := strings.TrimLeft(ex[1:], "0")
		if len(digits) < 2 {
			digits = strings.Repeat("0", 2-len(digits)) + digits
		}
		return mant + "e" + string(sign) + digits
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// pyQuote is Python's repr of a string, as %r writes it in a note.
func pyQuote(s string) string {
	q := "'"
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = `"`
	}
	s = strings.ReplaceAll(s, `\`, `\\`)
	if q == "'" {
		s = strings.ReplaceAll(s, "'", `\'`)
	}
	s = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
	return q + s + q
}

// mdCell is one cell of a Markdown table: a number or a text; a
// missing number is nil or NaN.
type mdCell = any

// cellString is common.py's _cell.
func cellString(v mdCell) string {
	var text string
	switch x := v.(type) {
	case nil:
		text = ""
	case string:
		text = x
	case float64:
		text = fmtFloat(x)
	case int:
		text = fmtInt(int64(x))
	case int64:
		text = fmtInt(x)
	default:
		text = fmt.Sprint(x)
	}
	text = strings.ReplaceAll(strings.ReplaceAll(text, "|", `\|`), "\n", " ")
	if r := []rune(text); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return text
}

// columnDecimals is common.py's _column_decimals: -1 for a column that is
// not all floats, or whose floats are all whole.
func columnDecimals(rows [][]mdCell, k int) int {
	top, any, frac := 0.0, false, false
	for _, r := range rows {
		switch x := r[k].(type) {
		case nil:
			continue
		case float64:
			if missing(x) {
				continue
			}
			any = true
			top = math.Max(top, math.Abs(x))
			if x != math.Trunc(x) {
				frac = true
			}
		default:
			return -1
		}
	}
	if !any || !frac {
		return -1
	}
	switch {
	case top >= 100:
		return 1
	case top >= 1:
		return 2
	}
	return 4
}

// mdTable is common.py's md_table over rows (a float64 or nil per
// number, a string per text); total is how many rows the table has when
// rows holds only its first ones (0: len(rows)).
func mdTable(lang string, cols []string, rows [][]mdCell, maxRows, total int) string {
	head := rows[:min(len(rows), maxRows)]
	decimals := make([]int, len(cols))
	for k := range cols {
		decimals[k] = columnDecimals(head, k)
	}
	var lines []string
	hs := make([]string, len(cols))
	seps := make([]string, len(cols))
	for k, c := range cols {
		hs[k], seps[k] = cellString(c), "---"
	}
	lines = append(lines, "| "+strings.Join(hs, " | ")+" |", "|"+strings.Join(seps, "|")+"|")
	for _, r := range head {
		cells := make([]string, len(cols))
		for k, v := range r {
			f, isFloat := v.(float64)
			switch {
			case decimals[k] < 0:
				cells[k] = cellString(v)
			case v == nil || (isFloat && missing(f)):
				cells[k] = ""
			default:
				cells[k] = fixedGrouped(f, decimals[k])
			}
		}
		lines = append(lines, "| "+strings.Join(cells, " | ")+" |")
	}
	if total == 0 {
		total = len(rows)
	}
	if total > maxRows {
		lines = append(lines, "", fmt.Sprintf(tr(lang, "(%d of %d rows shown; the CSV has them all)", "（显示 %d 行，共 %d 行；CSV 文件包含全部）"), maxRows, total))
	}
	return strings.Join(lines, "\n")
}

// headersZH is common.py's HEADERS_ZH.
var headersZH = map[string]string{
	"rank": "排名", "share": "占比", "column": "列", "type": "类型", "non_null": "非空值", "missing": "缺失值",
	"missing_pct": "缺失比例", "unique": "不同值", "count": "计数", "mean": "均值", "std": "标准差", "min": "最小值",
	"q1": "下四分位数", "median": "中位数", "q3": "上四分位数", "max": "最大值", "skew": "偏度", "value": "值",
	"column A": "列 A", "column B": "列 B", "rows": "行数", "lower fence": "下界", "upper fence": "上界",
	"IQR outliers": "IQR 异常值", "change": "变化", "change_pct": "变化率", "compared_with": "对比期",
	"previous": "上期值", "Total": "合计", "row": "行号", "cohort": "同期群", "size": "人数", "stage": "阶段",
	"from_previous": "较上一阶段", "from_first": "较第一阶段", "drop_off": "流失", "partial": "不完整",
	"day": "日", "week": "周", "month": "月", "quarter": "季度", "year": "年",
}

// headers is common.py's headers: the template's own column headers
// among names in Chinese when the report is.
func headers(lang string, cols []string, names ...string) []string {
	if lang != LangChinese {
		return cols
	}
	out := append([]string(nil), cols...)
	for i, c := range out {
		if zh, ok := headersZH[c]; ok && containsString(names, c) {
			out[i] = zh
		}
	}
	return out
}

var (
	aggEN = map[string]string{"sum": "total %s", "mean": "average %s", "median": "median %s", "min": "minimum %s", "max": "maximum %s",
		"count": "count of %s", "nunique": "number of distinct %s"}
	aggZH = map[string]string{"sum": "总和", "mean": "平均值", "count": "计数", "median": "中位数", "min": "最小值", "max": "最大值",
		"nunique": "不同值个数"}
	lowerWord = regexp.MustCompile(`^[a-z]+$`)
	sibilant  = regexp.MustCompile(`(?:s|x|z|ch|sh)$`)
	consonY   = regexp.MustCompile(`[^aeiou]y$`)
)

// describeAgg is common.py's describe_agg ("total revenue").
func describeAgg(lang, measure, agg string) string {
	if measure == "" {
		return tr(lang, "number of rows", "行数")
	}
	en, ok := aggEN[agg]
	if !ok {
		en = agg + " of %s"
	}
	zh, ok := aggZH[agg]
	if !ok {
		zh = agg
	}
	return tr(lang, fmt.Sprintf(en, measure), measure+zh)
}

// plural is common.py's plural.
func plural(word string, n int) string {
	if n == 1 || !lowerWord.MatchString(word) {
		return word
	}
	switch {
	case sibilant.MatchString(word):
		return word + "es"
	case consonY.MatchString(word):
		return word[:len(word)-1] + "ies"
	}
	return word + "s"
}

var (
	// totalName and maybeTotalName are common.py's TOTAL_NAME and
	// MAYBE_TOTAL_NAME.
	totalName = regexp.MustCompile(`(?i)^\s*(?:grand\s+|sub-?\s*)?totals?\s*(?:[:(\-].*)?$|^.*\b(?:grand\s+|sub-?)totals?\b.*$|^\s*(?:overall|world|worldwide|global|all)\s*$` +
		`|^\s*(?:合计|总计|小计|总和|全部|总体|整体|全国|汇总)|(?:合计|总计|小计)\s*$`)
	maybeTotalName = regexp.MustCompile(`(?i)^\s*(?:all|total|every)\b|^\s*所有`)
)

// group is one label and its number (NaN when missing).
type group struct {
	name  string
	value float64
}

// totalRow is a group that is a total of the others, and why.
type totalRow struct{ name, why string }

// totalLabels is common.py's total_labels: the groups that are totals of
// the others, each with why, in the groups' order.
func totalLabels(lang string, groups []group) []totalRow {
	var v []group
	whole := 0.0
	for _, g := range groups {
		if !math.IsNaN(g.value) {
			v = append(v, g)
			whole += g.value
		}
	}
	if len(v) < 3 {
		return nil
	}
	var out []totalRow
	for _, g := range v {
		rest := whole - g.value
		sumsRest := rest > 0 && math.Abs(g.value-rest) <= 0.1*rest
		switch {
		case totalName.MatchString(g.name):
			w := tr(lang, "its name says it is a total", "名称表明它是合计")
			if sumsRest {
				w += tr(lang, " and its value is the sum of the others", "，且其值等于其余各项之和")
			}
			out = append(out, totalRow{g.name, w})
		case maybeTotalName.MatchString(g.name) && sumsRest:
			out = append(out, totalRow{g.name, tr(lang, "its value is the sum of the others", "其值等于其余各项之和")})
		}
	}
	if len(out) == len(v) {
		return nil
	}
	return out
}

// dropTotals is common.py's drop_totals: groups without its total groups,
// with a note for each (what they are groups of, where they are left out
// of) and the names left out.
func dropTotals(lang string, groups []group, what, where string, notes *[]string) ([]group, []string) {
	found := totalLabels(lang, groups)
	if len(found) == 0 {
		return groups, nil
	}
	if where == "" {
		where = tr(lang, "the ranking and shares", "排名和占比")
	}
	drop := map[string]bool{}
	var names []string
	for _, f := range found {
		if lang == LangChinese {
			*notes = append(*notes, fmt.Sprintf("“%s”看起来是%s的合计或汇总行（%s），因此不计入%s", f.name, what, f.why, where))
		} else {
			*notes = append(*notes, fmt.Sprintf("%s looks like a total or aggregate row of %s (%s), so it is left out of %s", pyQuote(f.name), what, f.why, where))
		}
		drop[f.name] = true
		names = append(names, f.name)
	}
	var out []group
	for _, g := range groups {
		if !drop[g.name] {
			out = append(out, g)
		}
	}
	return out, names
}

var (
	formulaStart = "=+-@\t\r"
	plainNumber  = regexp.MustCompile(`^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$`)
)

// formulaLike is common.py's _formula_like.
func formulaLike(s string) bool {
	return s != "" && strings.ContainsRune(formulaStart, rune(s[0])) && !plainNumber.MatchString(s)
}

// neutralNote is the note neutralise adds once.
func neutralNote(lang string) string {
	return tr(lang, "Cells of the exported CSV that began with =, +, -, @, a tab or a carriage return were written "+
		"with a leading ' so that spreadsheet programs show them as text instead of running them as formulas.",
		"导出的 CSV 中以 =、+、-、@、制表符或回车开头的单元格前加了 '，电子表格程序会把它们显示为文本，而不会当作公式执行。")
}

// csvFile is common.py's save_csv: a UTF-8 CSV file with a byte-order
// mark, floats as pandas writes them, and every text cell a spreadsheet
// would run as a formula written with a leading '. It reports whether it
// neutralised any cell.
func csvFile(cols []string, rows [][]mdCell) ([]byte, bool) {
	var b bytes.Buffer
	b.WriteString("\ufeff")
	w := csv.NewWriter(&b)
	neutral := false
	text := func(s string) string {
		if formulaLike(s) {
			neutral = true
			return "'" + s
		}
		return s
	}
	rec := make([]string, len(cols))
	for i, c := range cols {
		rec[i] = text(c)
	}
	_ = w.Write(rec)
	for _, r := range rows {
		rec := make([]string, len(r))
		for i, v := range r {
			switch x := v.(type) {
			case nil:
			case string:
				rec[i] = text(x)
			case float64:
				rec[i] = pyRepr(x)
			default:
				rec[i] = fmt.Sprint(x)
			}
		}
		_ = w.Write(rec)
	}
	w.Flush()
	return b.Bytes(), neutral
}

// pairwiseSum is numpy's sum of contiguous float64s (pairwise_sum in
// loops_utils.h): eight running sums over blocks of up to 128 values,
// halves above that. pandas sums a column, or a table's rows, with it
// where the values lie next to each other in memory, so a Go rendering
// adds up in this order to give the same last digits.
func pairwiseSum(xs []float64) float64 {
	n := len(xs)
	switch {
	case n < 8:
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s
	case n <= 128:
		var r [8]float64
		copy(r[:], xs[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] += xs[i+j]
			}
		}
		s := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += xs[i]
		}
		return s
	}
	n2 := n / 2
	n2 -= n2 % 8
	return pairwiseSum(xs[:n2]) + pairwiseSum(xs[n2:])
}

// sequentialSum adds xs in order, as numpy sums across a table's
// non-contiguous axis.
func sequentialSum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}
