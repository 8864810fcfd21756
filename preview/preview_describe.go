package preview

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/dustin/go-humanize/english"
)

// Layout of a description (see Describe).
const (
	// describeSampleRows is how many sample rows a table shows.
	describeSampleRows = 3
	// describeWideColumns is the column count from which a table is
	// described one short line per column, numbered runs folded, without
	// sample rows.
	describeWideColumns = 40
	// describeSampleChars cuts each sample cell.
	describeSampleChars = 30
	// roundDecimals is how many decimals rounded sample values keep, and
	// values written with more are rounded (see roundable).
	roundDecimals = 4
)

// Describe renders the preview as a model reads it best: per table its size,
// then one line per column with its type, its missing share and its range
// (numbers and dates, as written in the file) or most frequent values (text,
// with counts), then a few sample rows; tables of describeWideColumns columns
// or more get one short line per column (numbered runs folded) and no sample
// rows. Sample values written with more than four decimals are rounded,
// except in columns named as identifiers, codes or coordinates; ranges are
// never rounded. Text files show their first lines. The result never exceeds
// opts.MaxChars runes: sample rows go first, then the last columns' lines
// (those columns are then listed by name and type).
func (p *FilePreview) Describe(opts Options) string {
	opts = opts.withDefaults()
	w := p.headedWriter(opts)
	budget := w.left()
	for i, s := range p.Sheets {
		share := budget / (len(p.Sheets) - i)
		lines := describeSheet(s, p.Kind, share, opts)
		for _, l := range lines {
			w.line(l)
		}
		budget -= linesLen(lines)
	}
	if len(p.Lines) > 0 {
		w.line("first lines:")
		for i, l := range p.Lines {
			if !w.fits(l) {
				w.line(fmt.Sprintf("(%d more lines sampled, not shown)", len(p.Lines)-i))
				break
			}
			w.line(l)
		}
	}
	return w.String()
}

// describeSheet lays out one table within budget runes.
func describeSheet(s SheetPreview, kind string, budget int, opts Options) []string {
	label := fmt.Sprintf("sheet %q", s.Name)
	if kind != KindXLSX {
		label = "table"
	}
	if len(s.Columns) == 0 && s.RowCount == 0 && !s.RowCountExact {
		return []string{truncateRunes(label+": not read", max(budget-1, 1))}
	}
	head := fmt.Sprintf("%s: %s × %s", label, countPhrase(s.RowCount, s.RowCountExact, "row"), english.Plural(len(s.Columns), "column", ""))
	if len(s.Stats) == len(s.Columns) && len(s.Columns) > 0 && (s.StatsRows < s.RowCount || !s.RowCountExact) {
		head += fmt.Sprintf("; column stats over the first %s", english.Plural(s.StatsRows, "row", ""))
	}
	if len(s.Merged) > 0 {
		shown := s.Merged[:min(len(s.Merged), compactMergedShown)]
		head += "; merged cells " + strings.Join(shown, ", ")
		if n := len(s.Merged) - len(shown); n > 0 {
			head += fmt.Sprintf(" (+%d more)", n)
		}
	}
	lines := []string{truncateRunes(head, max(budget-1, 1))}
	if s.Note != "" {
		lines = append(lines, "note: "+s.Note)
	}
	if len(s.Columns) == 0 {
		return fitLines(lines, budget)
	}
	wide := len(s.Columns) >= describeWideColumns
	cols := columnLines(s, wide, opts)
	var sample []string
	if !wide && len(s.Rows) > 0 {
		sample = describeSample(s)
	}
	room := budget - linesLen(lines)
	// Sample rows give way first, then the last column lines.
	for len(sample) > 0 && linesLen(cols)+linesLen(sample) > room {
		if len(sample) <= 2 {
			sample = nil
			break
		}
		sample = sample[:len(sample)-1]
	}
	if linesLen(cols) > room {
		cols = cutColumnLines(s, cols, room, wide, opts)
	}
	lines = append(lines, cols...)
	if len(sample) > 0 {
		lines = append(lines, sample...)
	}
	return fitLines(lines, budget)
}

// fitLines keeps the leading lines that fit in budget runes.
func fitLines(lines []string, budget int) []string {
	used := 0
	for i, l := range lines {
		if used+runeLen(l)+1 > budget {
			return lines[:i]
		}
		used += runeLen(l) + 1
	}
	return lines
}

// columnItem is one line of a table's column list: a column, or a folded
// run of numbered columns (first..last).
type columnItem struct {
	first, last int
}

// columnLines describes every column, one line each ("- name (type, facts):
// range or top values"); in a wide table, runs of four or more same-typed
// columns named with consecutive numbers share one line.
func columnLines(s SheetPreview, wide bool, opts Options) []string {
	var out []string
	for _, it := range columnRuns(s.Columns, wide) {
		out = append(out, describeColumns(s, it, opts))
	}
	return out
}

func columnRuns(cols []Column, fold bool) []columnItem {
	var items []columnItem
	for i := 0; i < len(cols); {
		j := i + 1
		if fold {
			prefix, n, ok := splitNumberSuffix(cols[i].Name)
			for ok && j < len(cols) {
				p, m, ok2 := splitNumberSuffix(cols[j].Name)
				if !ok2 || p != prefix || m != n+(j-i) || cols[j].Type != cols[i].Type {
					break
				}
				j++
			}
			if j-i < 4 {
				j = i + 1
			}
		}
		items = append(items, columnItem{i, j - 1})
		i = j
	}
	return items
}

// describeColumns is the line of one column, or of a folded run whose
// facts are pooled (missing share, the range over all of them).
func describeColumns(s SheetPreview, it columnItem, opts Options) string {
	c := s.Columns[it.first]
	name := compactCell(c.Name, opts.MaxCellChars)
	typ := c.Type
	if it.last > it.first {
		name += " … " + compactCell(s.Columns[it.last].Name, opts.MaxCellChars)
		typ += fmt.Sprintf(" ×%d", it.last-it.first+1)
	}
	if len(s.Stats) != len(s.Columns) {
		return "- " + name + " (" + typ + ")"
	}
	facts := []string{typ}
	st := pooledStats(s.Stats[it.first:it.last+1], c.Type)
	rows := s.StatsRows * (it.last - it.first + 1)
	present := rows - st.Missing
	switch {
	case rows > 0 && present == 0:
		facts = append(facts, "all missing")
	case st.Missing > 0:
		facts = append(facts, missingShare(st.Missing, rows)+" missing")
	}
	var values string
	switch c.Type {
	case ColumnInt, ColumnFloat, ColumnDate, ColumnDatetime:
		if it.first == it.last && c.Type != ColumnFloat && !st.DistinctCapped && st.Distinct == present && present > 1 {
			facts = append(facts, "unique")
		}
		if st.Min != "" {
			values = compactCell(st.Min, opts.MaxCellChars) + " … " + compactCell(st.Max, opts.MaxCellChars)
			if st.Min == st.Max {
				values = "always " + compactCell(st.Min, opts.MaxCellChars)
			}
		}
	case ColumnText, ColumnBool:
		if it.first != it.last {
			break
		}
		switch {
		case st.DistinctCapped:
			facts = append(facts, humanize.Comma(int64(st.Distinct))+"+ distinct")
		case st.Distinct == present && present > statsTopValues:
			facts = append(facts, "unique")
		default:
			facts = append(facts, english.Plural(st.Distinct, "distinct value", ""))
			values = topValues(st.Top, opts)
			if st.Distinct > len(st.Top) {
				values += ", …"
			}
		}
	}
	line := "- " + name + " (" + strings.Join(facts, ", ") + ")"
	if values != "" {
		line += ": " + values
	}
	return line
}

// pooledStats pools the statistics of a run of same-typed columns: missing
// values added up, the smallest minimum and largest maximum.
func pooledStats(stats []ColumnStats, typ string) ColumnStats {
	if len(stats) == 1 {
		return stats[0]
	}
	out := ColumnStats{DistinctCapped: true}
	var lo, hi float64
	for _, st := range stats {
		out.Missing += st.Missing
		if st.Min == "" || (typ != ColumnInt && typ != ColumnFloat) {
			continue
		}
		a, ok1 := parseNumber(strings.TrimSpace(st.Min))
		b, ok2 := parseNumber(strings.TrimSpace(st.Max))
		if !ok1 || !ok2 {
			continue
		}
		if out.Min == "" || a < lo {
			lo, out.Min = a, st.Min
		}
		if out.Max == "" || b > hi {
			hi, out.Max = b, st.Max
		}
	}
	return out
}

// topValues writes the most frequent values as "value=count", quoting a
// value that holds a separator.
func topValues(top []ValueCount, opts Options) string {
	parts := make([]string, len(top))
	for i, v := range top {
		val := compactCell(v.Value, min(opts.MaxCellChars, describeSampleChars))
		if strings.ContainsAny(val, ",=") || strings.TrimSpace(val) != val {
			val = strconv.Quote(val)
		}
		parts[i] = val + "=" + humanize.Comma(int64(v.Count))
	}
	return strings.Join(parts, ", ")
}

// missingShare writes a share of missing values as a percentage with the
// precision that keeps it from reading as none or all.
func missingShare(missing, rows int) string {
	pct := 100 * float64(missing) / float64(rows)
	switch {
	case pct < 0.1:
		return "<0.1%"
	case pct > 99.9 && missing < rows:
		return ">99.9%"
	case pct < 10 || pct > 90:
		return strconv.FormatFloat(pct, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(pct, 'f', 0, 64) + "%"
}

// cutColumnLines keeps the column lines that fit in room, with a last
// line naming the columns left out.
func cutColumnLines(s SheetPreview, cols []string, room int, wide bool, opts Options) []string {
	items := columnRuns(s.Columns, wide)
	for keep := len(cols) - 1; keep >= 0; keep-- {
		restFrom := items[keep].first
		kept := cols[:keep]
		allow := room - linesLen(kept)
		if allow <= 0 {
			continue
		}
		rest := renderExtraColumns(s.Columns[restFrom:], allow, opts)
		if len(rest) > 0 && linesLen(rest) <= allow {
			return append(append([]string{}, kept...), rest...)
		}
	}
	return nil
}

// describeSample is the header and first rows of a table, cells cut and
// long decimals rounded (see roundable).
func describeSample(s SheetPreview) []string {
	rows := s.Rows[:min(len(s.Rows), describeSampleRows)]
	round := make([]bool, len(s.Columns))
	for j, c := range s.Columns {
		round[j] = j < len(s.Stats) && roundable(c, s.Stats[j])
	}
	names := make([]string, len(s.Columns))
	for j, c := range s.Columns {
		names[j] = compactCell(c.Name, describeSampleChars)
	}
	head := "sample rows:"
	for _, r := range round {
		if r {
			head = fmt.Sprintf("sample rows (long decimals rounded to %d places):", roundDecimals)
			break
		}
	}
	out := []string{head, strings.Join(names, " | ")}
	cells := make([]string, len(s.Columns))
	for _, r := range rows {
		for j := range cells {
			v := cellAt(r, j)
			if round[j] {
				v = roundValue(v)
			}
			cells[j] = compactCell(v, describeSampleChars)
		}
		out = append(out, strings.Join(cells, " | "))
	}
	return out
}

// exactNames are column names whose digits are the point (identifiers,
// codes, coordinates, accounts): their values are never rounded.
var exactNames = regexp.MustCompile(`(?i)(^|[^a-z])(id|ids|code|codes|key|lat|latitude|lon|lng|long|longitude|zip|postcode|phone|account|iban|sku|ean|isbn|no|nr|number|version)([^a-z]|$)|id$`)

// roundable reports whether a column's sample values may be rounded: a
// float column written with more than roundDecimals decimals (computed
// values, where the last digits are noise to a reader) whose name does not
// say its digits are the point.
func roundable(c Column, st ColumnStats) bool {
	return c.Type == ColumnFloat && st.Decimals > roundDecimals && !exactNames.MatchString(c.Name)
}

// roundValue rounds a decimal to roundDecimals places, trailing zeros
// dropped; other text is returned as it is.
func roundValue(v string) string {
	t := strings.TrimSpace(v)
	if strings.ContainsAny(t, ",%eE") {
		return v
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return v
	}
	r := strconv.FormatFloat(x, 'f', roundDecimals, 64)
	r = strings.TrimRight(strings.TrimRight(r, "0"), ".")
	if r == "0" || r == "-0" {
		if x == 0 {
			return "0"
		}
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
	return r
}

// DescribeAll is CompactAll with each file's Describe: the data context
// model prompts carry.
func DescribeAll(files []Previewed, opts Options) string {
	return renderAll(files, opts, (*FilePreview).Describe)
}

// DescribePaths is All with each file's Describe.
func DescribePaths(ctx context.Context, paths []string, opts Options) string {
	opts = opts.withDefaults()
	return layoutAll(paths, opts, func(i int) (*FilePreview, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return File(ctx, paths[i], opts)
	}, (*FilePreview).Describe)
}
