package preview

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dustin/go-humanize"
	"github.com/dustin/go-humanize/english"
)

// Layout bounds of a compact preview.
const (
	// compactLineChars is the width extra-column lists wrap at.
	compactLineChars = 100
	// compactMergedShown is how many merged ranges a sheet line lists.
	compactMergedShown = 10
	// compactMinShare is the least budget All gives one file.
	compactMinShare = 200
)

// Compact renders the preview as bounded plain text for a model prompt: a
// header line per file, then per sheet its size, its first MaxColumns
// columns with types and sample rows (cells cut to MaxCellChars), and the
// remaining columns listed by name and type; for text, the first lines. The
// result never exceeds opts.MaxChars runes however wide or long the data:
// the column list outranks sample rows when space runs short, and sheets
// share the budget.
func (p *FilePreview) Compact(opts Options) string {
	opts = opts.withDefaults()
	w := p.headedWriter(opts)
	for i, share := range sheetShares(p.Sheets, p.Kind, w.left(), opts) {
		for _, l := range renderSheet(p.Sheets[i], p.Kind, share, opts) {
			w.line(l)
		}
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

// sheetShares splits budget runes between sheets: each gets what it needs
// when that is less than an even share, and the sheets that need more split
// what is left.
func sheetShares(sheets []SheetPreview, kind string, budget int, opts Options) []int {
	need := make([]int, len(sheets))
	order := make([]int, len(sheets))
	for i, s := range sheets {
		need[i] = linesLen(renderSheet(s, kind, 1<<30, opts))
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return need[a] - need[b] })
	shares := make([]int, len(sheets))
	for k, i := range order {
		shares[i] = min(need[i], budget/(len(sheets)-k))
		budget -= shares[i]
	}
	return shares
}

// headline is the file's first line: name, kind, size and how to read it.
func (p *FilePreview) headline() string {
	parts := []string{p.Kind, formatSize(p.Size)}
	if p.Encoding != "" {
		enc := "encoding " + p.Encoding
		if py := pythonCodec(p.Encoding, p.BOM); py != p.Encoding {
			enc += " (Python: " + py + ")"
		}
		parts = append(parts, enc)
	}
	if p.Delimiter != "" {
		parts = append(parts, "delimiter "+delimiterName(p.Delimiter))
	}
	switch {
	case p.Kind == KindXLSX:
		parts = append(parts, english.Plural(len(p.Sheets), "sheet", ""))
	case p.LineCount > 0 || len(p.Lines) > 0:
		parts = append(parts, countPhrase(p.LineCount, p.LineCountExact, "line"))
	}
	return fmt.Sprintf("## %s (%s)", p.Name, strings.Join(parts, "; "))
}

// renderSheet lays out one table within budget runes: its size line and
// note, the header of the first MaxColumns columns with types, sample rows,
// and the remaining columns by name and type. When all of it does not fit,
// the column list takes up to two fifths of the room, and sample cells are
// narrowed (to no less than minCellChars) so that a few rows still show.
func renderSheet(s SheetPreview, kind string, budget int, opts Options) []string {
	label := fmt.Sprintf("sheet %q", s.Name)
	if kind != KindXLSX {
		label = "table"
	}
	head := fmt.Sprintf("%s: %s × %s", label, countPhrase(s.RowCount, s.RowCountExact, "row"), english.Plural(len(s.Columns), "column", ""))
	if len(s.Columns) == 0 && s.RowCount == 0 && !s.RowCountExact {
		head = label + ": not read"
	}
	if len(s.Merged) > 0 {
		shown := s.Merged[:min(len(s.Merged), compactMergedShown)]
		head += "; merged cells " + strings.Join(shown, ", ")
		if n := len(s.Merged) - len(shown); n > 0 {
			head += fmt.Sprintf(" (+%d more)", n)
		}
	}
	lines := []string{truncateRunes(head, max(budget-1, 1))}
	used := runeLen(lines[0]) + 1
	if s.Note != "" && used < budget {
		note := truncateRunes("  note: "+s.Note, max(budget-used-1, 1))
		lines = append(lines, note)
		used += runeLen(note) + 1
	}
	if len(s.Columns) == 0 || used >= budget {
		return lines
	}

	// Sample columns: up to MaxColumns, fewer when not everything fits and
	// their header alone would take more than two fifths of the room left.
	rows := s.Rows[:min(len(s.Rows), opts.MaxRows)]
	shown := min(len(s.Columns), opts.MaxColumns)
	names := make([]string, shown)
	for j, c := range s.Columns[:shown] {
		names[j] = compactCell(c.Name, opts.MaxCellChars) + " (" + c.Type + ")"
	}
	natural := runeLen(strings.Join(names, " | ")) + 1 + linesLen(sampleRows(rows, shown, opts.MaxCellChars))
	if len(s.Columns) > shown {
		natural += linesLen(renderExtraColumns(s.Columns[shown:], 1<<30, opts))
	}
	for natural > budget-used && shown > 1 && runeLen(strings.Join(names[:shown], " | ")) > (budget-used)*2/5 {
		shown--
	}
	header := truncateRunes(strings.Join(names[:shown], " | "), max(budget-used-1, 1))
	lines = append(lines, header)
	used += runeLen(header) + 1

	avail := budget - used
	var extra []string
	if rest := s.Columns[shown:]; len(rest) > 0 {
		full := renderExtraColumns(rest, avail, opts)
		extra = full
		if linesLen(full)+linesLen(sampleRows(rows, shown, opts.MaxCellChars)) > avail {
			allow := min(linesLen(full), max(avail*2/5, avail-linesLen(sampleRows(rows[:min(len(rows), 3)], shown, opts.MaxCellChars))))
			extra = renderExtraColumns(rest, allow, opts)
		}
	}
	avail -= linesLen(extra)

	width := opts.MaxCellChars
	for few := rows[:min(len(rows), 3)]; width > minCellChars && linesLen(sampleRows(few, shown, width)) > avail; {
		width = max(width*3/4, minCellChars)
	}
	sample := sampleRows(rows, shown, width)
	for i, row := range sample {
		if runeLen(row)+1 > avail {
			more := fmt.Sprintf("(%d more sample rows not shown)", len(sample)-i)
			if runeLen(more)+1 <= avail {
				lines = append(lines, more)
			}
			break
		}
		lines = append(lines, row)
		avail -= runeLen(row) + 1
	}
	return append(lines, extra...)
}

// minCellChars is the narrowest a sample cell is cut to make rows fit.
const minCellChars = 8

// sampleRows renders rows as " | "-separated lines of their first cols
// cells, each cut to width runes.
func sampleRows(rows [][]string, cols, width int) []string {
	out := make([]string, len(rows))
	cells := make([]string, cols)
	for i, r := range rows {
		for j := range cells {
			cells[j] = compactCell(cellAt(r, j), width)
		}
		out[i] = strings.Join(cells, " | ")
	}
	return out
}

// linesLen is the runes the lines take, newlines included.
func linesLen(lines []string) int {
	n := 0
	for _, l := range lines {
		n += runeLen(l) + 1
	}
	return n
}

// renderExtraColumns lists columns past MaxColumns as "name (type)" on
// lines of about compactLineChars, within allow runes; when they do not
// all fit, the list ends with how many more there are. Runs of numbered
// names of one type (q1, q2, ... q12) are written as one range.
func renderExtraColumns(cols []Column, allow int, opts Options) []string {
	lines := []string{fmt.Sprintf("%d more columns, name (type):", len(cols))}
	used := runeLen(lines[0]) + 1
	if used > allow {
		return nil
	}
	items, counts := columnItems(cols, opts.MaxCellChars)
	const markerRoom = 24 // for "… and N more"
	cur, listed := "", 0
	for i, item := range items {
		if i < len(items)-1 {
			item += ","
		}
		next := item
		if cur != "" {
			next = cur + " " + item
		}
		if cur != "" && runeLen(next) > compactLineChars {
			lines = append(lines, cur)
			used += runeLen(cur) + 1
			cur, next = "", item
		}
		last := i == len(items)-1
		if !last && used+runeLen(next)+1+markerRoom > allow || last && used+runeLen(next)+1 > allow {
			if listed == 0 {
				return []string{fmt.Sprintf("%d more columns (not listed to stay compact)", len(cols))}
			}
			if cur != "" {
				lines = append(lines, cur)
			}
			return append(lines, fmt.Sprintf("… and %d more", len(cols)-listed))
		}
		cur = next
		listed += counts[i]
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// columnItems writes each column as "name (type)", folding runs of four or
// more same-typed columns named with consecutive numbers into
// "first … last (type ×n)". counts says how many columns each item holds.
func columnItems(cols []Column, width int) ([]string, []int) {
	var items []string
	var counts []int
	for i := 0; i < len(cols); {
		j := i + 1
		prefix, n, ok := splitNumberSuffix(cols[i].Name)
		for ok && j < len(cols) {
			p, m, ok2 := splitNumberSuffix(cols[j].Name)
			if !ok2 || p != prefix || m != n+(j-i) || cols[j].Type != cols[i].Type {
				break
			}
			j++
		}
		if j-i >= 4 {
			items = append(items, fmt.Sprintf("%s … %s (%s ×%d)", compactCell(cols[i].Name, width), compactCell(cols[j-1].Name, width), cols[i].Type, j-i))
			counts = append(counts, j-i)
			i = j
			continue
		}
		items = append(items, compactCell(cols[i].Name, width)+" ("+cols[i].Type+")")
		counts = append(counts, 1)
		i++
	}
	return items, counts
}

// splitNumberSuffix splits "q12" into "q" and 12.
func splitNumberSuffix(name string) (string, int, bool) {
	k := len(name)
	for k > 0 && name[k-1] >= '0' && name[k-1] <= '9' {
		k--
	}
	if k == len(name) || len(name)-k > 9 {
		return "", 0, false
	}
	n, err := strconv.Atoi(name[k:])
	return name[:k], n, err == nil
}

// compactCell is a cell cut to width runes, with pipes escaped so rows
// stay readable.
func compactCell(s string, width int) string {
	return strings.ReplaceAll(truncateRunes(s, width), "|", `\|`)
}

// All previews every path and returns their compact previews, one
// after another. A file that fails is reported inline with its error rather
// than failing the whole call. The output is bounded by opts.MaxTotalChars:
// each file gets at most opts.MaxChars, and less when many files share the
// total (but no less than 200 runes); files beyond it are named but not
// shown (nor read). Once ctx is cancelled the remaining files are listed as
// not previewed.
func All(ctx context.Context, paths []string, opts Options) string {
	opts = opts.withDefaults()
	return layoutAll(paths, opts, func(i int) (*FilePreview, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return File(ctx, paths[i], opts)
	}, (*FilePreview).Compact)
}

// Previewed is one file's preview, or why there is none.
type Previewed struct {
	Path    string
	Preview *FilePreview
	Err     error
}

// Files previews every path, keeping each failure as its error; once
// ctx is cancelled the remaining files get ctx's error.
func Files(ctx context.Context, paths []string, opts Options) []Previewed {
	opts = opts.withDefaults()
	out := make([]Previewed, len(paths))
	for i, p := range paths {
		out[i].Path = p
		if out[i].Err = ctx.Err(); out[i].Err == nil {
			out[i].Preview, out[i].Err = File(ctx, p, opts)
		}
	}
	return out
}

// CompactAll is All over previews already made (see Files),
// for callers that also need the previews themselves.
func CompactAll(files []Previewed, opts Options) string {
	return renderAll(files, opts, (*FilePreview).Compact)
}

// renderAll lays out previews already made, each rendered by render
// (Compact or Describe), within the budget.
func renderAll(files []Previewed, opts Options, render func(*FilePreview, Options) string) string {
	opts = opts.withDefaults()
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	return layoutAll(paths, opts, func(i int) (*FilePreview, error) { return files[i].Preview, files[i].Err }, render)
}

// headedWriter starts a bounded rendering of p (Compact, Describe) with
// its header: the headline, the note and a JSON file's shape.
func (p *FilePreview) headedWriter(opts Options) *compactWriter {
	w := &compactWriter{limit: opts.MaxChars}
	w.line(p.headline())
	if p.Note != "" {
		w.line("note: " + p.Note)
	}
	if p.JSONShape != "" {
		w.line("shape: " + truncateRunes(p.JSONShape, max(w.left()-10, 40)))
	}
	return w
}

// layoutAll lays out the previews of paths, each rendered by render,
// within the budget; get gives the i-th preview or its error, and is
// called only for files that get room.
func layoutAll(paths []string, opts Options, get func(i int) (*FilePreview, error), render func(*FilePreview, Options) string) string {
	var parts []string
	used := 0
	for i, path := range paths {
		left := opts.MaxTotalChars - used
		share := min(opts.MaxChars, left, max(left/(len(paths)-i), compactMinShare))
		if left < compactMinShare {
			names := make([]string, 0, len(paths)-i)
			for _, p := range paths[i:] {
				names = append(names, opts.displayName(p))
			}
			parts = append(parts, truncateRunes(fmt.Sprintf("(%d more files not previewed to stay compact: %s)", len(names), strings.Join(names, ", ")), max(left-2, 1)))
			break
		}
		var text string
		switch p, err := get(i); {
		case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
			text = fmt.Sprintf("## %s\nnot previewed: %v", opts.displayName(path), err)
		case err != nil:
			text = fmt.Sprintf("## %s\nerror: %v", opts.displayName(path), err)
		default:
			fileOpts := opts
			fileOpts.MaxChars = share
			text = render(p, fileOpts)
		}
		text = capRunes(text, share)
		parts = append(parts, text)
		used += runeLen(text) + 2
	}
	return capRunes(strings.Join(parts, "\n\n"), opts.MaxTotalChars)
}

// compactWriter collects lines up to a rune budget; a line that does not
// fit is cut, and nothing is written after the budget is spent.
type compactWriter struct {
	b     strings.Builder
	used  int
	limit int
}

func (w *compactWriter) left() int { return w.limit - w.used }

func (w *compactWriter) fits(line string) bool { return runeLen(line)+1 <= w.left() }

func (w *compactWriter) line(s string) {
	if w.left() <= 1 {
		return
	}
	s = truncateRunes(s, w.left()-1)
	w.b.WriteString(s)
	w.b.WriteByte('\n')
	w.used += runeLen(s) + 1
}

func (w *compactWriter) String() string { return strings.TrimSuffix(w.b.String(), "\n") }

// capRunes cuts s to at most n runes at a line boundary when it can, marking
// the cut.
func capRunes(s string, n int) string {
	if runeLen(s) <= n {
		return s
	}
	const mark = "\n… (cut to stay compact)"
	keep := max(n-runeLen(mark), 0)
	cut := s
	for i := range s {
		if keep == 0 {
			cut = s[:i]
			break
		}
		keep--
	}
	if j := strings.LastIndexByte(cut, '\n'); j > len(cut)/2 {
		cut = cut[:j]
	}
	if runeLen(cut)+runeLen(mark) > n {
		return truncateRunes(cut, n)
	}
	return cut + mark
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

// countPhrase is "1 row", "12 rows" or, for an estimate, "~1,200 rows".
func countPhrase(n int, exact bool, noun string) string {
	if exact {
		return english.Plural(n, noun, "")
	}
	return "~" + humanize.Comma(int64(n)) + " " + noun + "s"
}

// formatSize writes a byte count in binary units.
func formatSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// delimiterName names a field separator in words.
func delimiterName(d string) string {
	switch d {
	case ",":
		return `comma ","`
	case "\t":
		return `tab "\t"`
	case ";":
		return `semicolon ";"`
	case "|":
		return `pipe "|"`
	}
	return strconv.Quote(d)
}
