package refresh

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/agnivade/levenshtein"
)

// Column is one column of a table: its name and its inferred type (a
// preview.Column* name: int, float, bool, date, datetime, text, empty).
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Pair maps one column of the old data to the column of the new data
// that takes its place.
type Pair struct {
	Old Column `json:"old"`
	New Column `json:"new"`
	// Score is how alike the two names are, from 0 to 1 (1: the same).
	Score float64 `json:"score"`
	// OldIndex and NewIndex are the columns' positions, from 0.
	OldIndex int `json:"old_index"`
	NewIndex int `json:"new_index"`
	// By is ByModel when a model mapped the column (see WithModel); ""
	// when name and type similarity did.
	By string `json:"by,omitempty"`
}

// Renamed reports whether the column has another name in the new data.
func (p Pair) Renamed() bool { return p.Old.Name != p.New.Name }

// Moved reports whether the column sits at another position.
func (p Pair) Moved() bool { return p.OldIndex != p.NewIndex }

// Mapping is how the columns of an old table are found in a new one.
type Mapping struct {
	// Table names the table (the input file, and its sheet if any).
	Table string `json:"table"`
	// Pairs are the old columns found, in the old order.
	Pairs []Pair `json:"pairs"`
	// Missing are the old columns no new column fits.
	Missing []Column `json:"missing,omitempty"`
	// Found are all the columns of the new data, to say what was there
	// when a column is missing.
	Found []Column `json:"found"`
}

// Same reports whether every old column is in the new data under its own
// name, at its own place: the analysis runs on it unchanged.
func (m Mapping) Same() bool {
	if len(m.Missing) > 0 {
		return false
	}
	for _, p := range m.Pairs {
		if p.Renamed() || p.Moved() {
			return false
		}
	}
	return true
}

// NeedsApproval reports whether a column was renamed: the mapping is a
// guess the person approves before it is applied.
func (m Mapping) NeedsApproval() bool {
	for _, p := range m.Pairs {
		if p.Renamed() {
			return true
		}
	}
	return false
}

// Err is the error that stops a refresh when a column cannot be mapped,
// nil when every column can.
func (m Mapping) Err() error {
	if len(m.Missing) == 0 {
		return nil
	}
	return &UnmappedError{Table: m.Table, Missing: m.Missing, Found: m.Found}
}

// String shows the mapping, one line per column that was renamed or
// moved (or all lines when none was).
func (m Mapping) String() string {
	var b strings.Builder
	for _, p := range m.Pairs {
		switch {
		case p.By == ByModel:
			fmt.Fprintf(&b, "  %s (%s) → %s (%s), as the model mapped it\n", p.Old.Name, p.Old.Type, p.New.Name, p.New.Type)
		case p.Renamed():
			fmt.Fprintf(&b, "  %s (%s) → %s (%s), names %.0f%% alike\n", p.Old.Name, p.Old.Type, p.New.Name, p.New.Type, 100*p.Score)
		case p.Moved():
			fmt.Fprintf(&b, "  %s (%s): moved from column %d to %d\n", p.Old.Name, p.Old.Type, p.OldIndex+1, p.NewIndex+1)
		}
	}
	for _, c := range m.Missing {
		fmt.Fprintf(&b, "  %s (%s): not found\n", c.Name, c.Type)
	}
	return b.String()
}

// UnmappedError says which columns of the old data the new data lacks,
// and which columns it has.
type UnmappedError struct {
	Table   string
	Missing []Column
	Found   []Column
}

func (e *UnmappedError) Error() string {
	names := func(cs []Column) string {
		s := make([]string, len(cs))
		for i, c := range cs {
			s[i] = fmt.Sprintf("%s (%s)", c.Name, c.Type)
		}
		return strings.Join(s, ", ")
	}
	what := "column"
	if len(e.Missing) > 1 {
		what = "columns"
	}
	return fmt.Sprintf("the new data of %s has no %s %s, and no column fits it by name and type; it has %s. Give a file with that column, or rename a column to it", e.Table, what, names(e.Missing), names(e.Found))
}

// minScore is how alike two names must be for a renamed column to be
// taken for the old one.
const minScore = 0.5

// MapColumns finds each old column in the new ones: by its own name first,
// then by the most alike name of a compatible type (numbers with numbers,
// dates with dates, text with text). Each new column serves one old
// column at most. Old columns nothing fits are Missing.
func MapColumns(table string, old, new []Column) Mapping {
	m := Mapping{Table: table, Found: slices.Clone(new)}
	used := make([]bool, len(new))
	pairs := make([]*Pair, len(old))
	for i, o := range old {
		for j, n := range new {
			if !used[j] && n.Name == o.Name && compatible(o.Type, n.Type) {
				pairs[i], used[j] = &Pair{Old: o, New: n, Score: 1, OldIndex: i, NewIndex: j}, true
				break
			}
		}
	}
	// The rest go greedily by score, best first, so a clear match is not
	// taken by a weaker one.
	type cand struct {
		i, j  int
		score float64
	}
	var cands []cand
	for i, o := range old {
		if pairs[i] != nil {
			continue
		}
		for j, n := range new {
			if used[j] || !compatible(o.Type, n.Type) {
				continue
			}
			if s := nameScore(o.Name, n.Name); s >= minScore {
				cands = append(cands, cand{i, j, s})
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	for _, c := range cands {
		if pairs[c.i] == nil && !used[c.j] {
			pairs[c.i], used[c.j] = &Pair{Old: old[c.i], New: new[c.j], Score: c.score, OldIndex: c.i, NewIndex: c.j}, true
		}
	}
	for i, p := range pairs {
		if p == nil {
			m.Missing = append(m.Missing, old[i])
			continue
		}
		m.Pairs = append(m.Pairs, *p)
	}
	return m
}

// compatible reports whether a column of type a can stand for one of type
// b: a year more of data may turn whole numbers into decimals, dates into
// timestamps, or leave a column empty in the sample.
func compatible(a, b string) bool {
	family := func(t string) string {
		switch t {
		case "int", "float":
			return "number"
		case "date", "datetime":
			return "time"
		}
		return t
	}
	return a == b || a == "empty" || b == "empty" || family(a) == family(b)
}

// nameScore is how alike two column names are, from 0 to 1: the better of
// their edit-distance likeness and the share of words they have in common
// (revenue and Revenue_USD have "revenue" in common), compared without
// case, spaces or punctuation.
func nameScore(a, b string) float64 {
	wa, wb := words(a), words(b)
	na, nb := strings.Join(wa, ""), strings.Join(wb, "")
	if na == "" || nb == "" {
		return 0
	}
	if na == nb {
		return 1
	}
	edit := 1 - float64(levenshtein.ComputeDistance(na, nb))/float64(max(len([]rune(na)), len([]rune(nb))))
	common := 0
	for _, w := range wa {
		if slices.Contains(wb, w) {
			common++
		}
	}
	share := float64(common) / float64(max(len(wa), len(wb)))
	// One name's words all within the other's (revenue, revenue_usd)
	// is a strong sign even when the other has more words.
	if common > 0 && (common == len(wa) || common == len(wb)) {
		share = max(share, 0.75)
	}
	return max(edit, share)
}

// words splits a column name into lower-case words at spaces,
// punctuation and camel-case humps.
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prev := rune(0)
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
		prev = r
	}
	flush()
	return out
}
