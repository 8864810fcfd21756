package refresh

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sift-agent/sift/numcheck"
)

// UnverifiedMark follows each number of the new report that no new output
// holds, as in every report Sift writes.
const UnverifiedMark = " ⚠"

// WhatChanged is the report's section on what changed against the
// previous run: each number of the report that moved (old → new, by how
// much), and each that could not be recomputed.
func WhatChanged(previous string, changes []Change, unresolved []Unresolved, kept int) string {
	var b strings.Builder
	b.WriteString("## What changed since the previous run\n\n")
	fmt.Fprintf(&b, "Compared with session `%s`, run again on the new data with the same cells and queries and no model.\n\n", previous)
	if len(changes) == 0 && len(unresolved) == 0 {
		fmt.Fprintf(&b, "No number of the report moved (%d checked).\n", kept)
		return b.String()
	}
	if len(changes) > 0 {
		b.WriteString("| was | now | change | printed at |\n|---:|---:|---:|---|\n")
		for _, c := range changes {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", c.Old, c.New, delta(c), cellText(c.Where))
		}
		if kept > 0 {
			fmt.Fprintf(&b, "\n%d more %s of the report did not move.\n", kept, plural(kept, "number", "numbers"))
		}
	}
	if len(unresolved) > 0 {
		b.WriteString("\nNot recomputed (marked" + StaleMark + " above; check them before use):\n\n")
		for _, u := range unresolved {
			fmt.Fprintf(&b, "- %s: %s\n", u.Old, u.Reason)
		}
	}
	return b.String()
}

// delta says by how much a value moved: the difference (in points for a
// percentage) and, when the old value is not zero, the share.
func delta(c Change) string {
	d := c.Delta()
	s := signed(d)
	if c.Percent {
		s = signed(d*max(c.Scale, 1)) + " pts"
	}
	if c.OldValue != 0 {
		s += fmt.Sprintf(" (%s%%)", signed(100*d/math.Abs(c.OldValue)))
	}
	return s
}

// signed writes v with its sign, thousands separators and a few decimals.
func signed(v float64) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', decimalsFor(v), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	whole, frac, _ := strings.Cut(s, ".")
	s = group(whole, ",")
	if frac != "" {
		s += "." + frac
	}
	if v < 0 {
		s = "-" + s
	} else {
		s = "+" + s
	}
	return s
}

func decimalsFor(v float64) int {
	a := math.Abs(v)
	switch {
	case a >= 100:
		return 1
	case a >= 1:
		return 2
	}
	return 4
}

// cellText keeps a table cell on one line and off the table's pipes.
func cellText(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Check marks the numbers of md that no text of evidence holds (the new
// outputs, the new data's preview, the question), as the number check of
// every report does, and ends md with a note that lists them; it returns
// the report and those numbers.
func Check(md string, evidence ...string) (string, []string) {
	bad := numcheck.NewSet(evidence...).Unsupported(md)
	if len(bad) == 0 {
		return md, nil
	}
	var texts []string
	seen := map[string]bool{}
	for _, n := range bad {
		if !seen[n.Text] {
			seen[n.Text] = true
			texts = append(texts, n.Text)
		}
	}
	md = strings.TrimRight(numcheck.Mark(md, bad, UnverifiedMark), "\n")
	md += "\n\n> " + strings.TrimSpace(UnverifiedMark) + " Numbers not found in any output of the refreshed run (no cell, query or output file holds them; check them before use): " + strings.Join(texts, ", ") + "\n"
	return md, texts
}
