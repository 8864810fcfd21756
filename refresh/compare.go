package refresh

import (
	"fmt"
	"strings"

	"github.com/sift-agent/sift/numcheck"
)

// Comparison is a side-by-side diff of the numbers of two reports (a
// session and its refresh or fork, or any two): each number is found in
// the other report by the line it is on (the line's words, which stay
// when its numbers change) and its place on it, as a refresh finds a
// number in the new outputs (Recompute).
type Comparison struct {
	// Changes are the numbers found in both reports that moved: Old is
	// the first report's, New the other's; Where is the line of the
	// first report they are on.
	Changes []Change `json:"changes"`
	// Kept counts the numbers found in both that did not move.
	Kept int `json:"kept"`
	// OnlyLeft and OnlyRight are the lines with numbers that one report
	// has and the other has not (reworded, or new): their numbers are not
	// compared, never guessed.
	OnlyLeft  []string `json:"only_left"`
	OnlyRight []string `json:"only_right"`
}

// comparedOut is the Output label the lines of a compared report carry.
const comparedOut = "the report"

// Compare diffs the numbers of the reports left and right (markdown).
func Compare(left, right string) Comparison {
	l, lByKey := index([]Output{{Label: comparedOut, Text: left}})
	r, rByKey := index([]Output{{Label: comparedOut, Text: right}})
	c := Comparison{OnlyLeft: []string{}, OnlyRight: []string{}, Changes: []Change{}}
	onlyLeft, onlyRight := map[string]bool{}, map[string]bool{}
	for _, p := range l {
		q, ok := rByKey[p.key()]
		switch {
		case !ok || q.num.Percent != p.num.Percent:
			// Not there, or a percentage on one side only: not the
			// same quantity.
			if !onlyLeft[p.label] {
				onlyLeft[p.label] = true
				c.OnlyLeft = append(c.OnlyLeft, lineOf(left, p))
			}
		case q.num.Value == p.num.Value:
			c.Kept++
		default:
			c.Changes = append(c.Changes, Change{Where: lineOf(left, p), Old: p.num.Text, New: q.num.Text, OldValue: p.num.Value, NewValue: q.num.Value, Percent: p.num.Percent, Scale: 1})
		}
	}
	for _, q := range r {
		if p, ok := lByKey[q.key()]; (!ok || p.num.Percent != q.num.Percent) && !onlyRight[q.label] {
			onlyRight[q.label] = true
			c.OnlyRight = append(c.OnlyRight, lineOf(right, q))
		}
	}
	return c
}

// lineOf is the line of text the number p was printed on, trimmed.
func lineOf(text string, p printed) string {
	seen := 0
	for _, line := range strings.Split(text, "\n") {
		nums := numcheck.Quantities(line)
		if len(nums) == 0 || lineLabel(line, nums) != p.label {
			continue
		}
		if seen == p.seen {
			return strings.TrimSpace(line)
		}
		seen++
	}
	return p.label
}

// Markdown is the comparison as a report section: the numbers that
// moved (was, now, by how much, on which line), then the lines only one
// report has.
func (c Comparison) Markdown(left, right string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Compared with session `%s`\n\n", right)
	fmt.Fprintf(&b, "Numbers of session `%s`'s report found on the same line of the other's.\n\n", left)
	if len(c.Changes) == 0 {
		fmt.Fprintf(&b, "No number moved (%d found in both).\n", c.Kept)
	} else {
		b.WriteString("| was | now | change | line |\n|---:|---:|---:|---|\n")
		for _, ch := range c.Changes {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", ch.Old, ch.New, delta(ch), cellText(ch.Where))
		}
		if c.Kept > 0 {
			fmt.Fprintf(&b, "\n%d more %s did not move.\n", c.Kept, plural(c.Kept, "number", "numbers"))
		}
	}
	list := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s (not compared):\n\n", title)
		for _, l := range lines {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	list(fmt.Sprintf("Only in `%s`", left), c.OnlyLeft)
	list(fmt.Sprintf("Only in `%s`", right), c.OnlyRight)
	return b.String()
}
