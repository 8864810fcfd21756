package refresh

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sift-agent/sift/numcheck"
)

// Output is one output of an analysis: what one cell printed or one query
// returned. A refresh runs the same cells and queries in the same order,
// so the old and the new outputs line up one for one.
type Output struct {
	// Label says where the output came from: "cell 2 (step 2)".
	Label string `json:"label"`
	Text  string `json:"text"`
}

// Change is one number of the report that moved.
type Change struct {
	// Where is the output and the line the number was printed on.
	Where string `json:"where"`
	// Old and New are the number as the report writes it.
	Old string `json:"old"`
	New string `json:"new"`
	// OldValue and NewValue are the printed values the report's number
	// stands for.
	OldValue float64 `json:"old_value"`
	NewValue float64 `json:"new_value"`
	// Percent marks a number the report writes as a percentage; Scale is
	// what turns the printed values into it (100 for a fraction).
	Percent bool    `json:"percent,omitempty"`
	Scale   float64 `json:"scale,omitempty"`
}

// Delta is how much the printed value moved.
func (c Change) Delta() float64 { return c.NewValue - c.OldValue }

// Unresolved is a number of the old report whose new value cannot be
// told: it is marked in the new report, never kept as if it still held.
type Unresolved struct {
	Old    string `json:"old"`
	Reason string `json:"reason"`
}

// Recomputed is an old text with its numbers recomputed.
type Recomputed struct {
	Text       string       `json:"text"`
	Changes    []Change     `json:"changes,omitempty"`
	Unresolved []Unresolved `json:"unresolved,omitempty"`
	// Kept counts the numbers that came from an output and did not move.
	Kept int `json:"kept"`
}

// StaleMark follows a number of the old report whose new value could not
// be found; the reason is said in the report's what-changed section.
const StaleMark = " ⚠(not recomputed)"

// printed is one number of an output, found by the line it is on (the
// line's words, which stay when the numbers change: "North", "rows") and
// its place among that line's numbers.
type printed struct {
	out   int
	label string
	// nth is the number's place on its line; seen counts the earlier
	// lines of the output with the same words.
	nth, seen int
	num       numcheck.Number
}

type printedKey struct {
	out       int
	label     string
	nth, seen int
}

// index reads every number of outputs, each under its key.
func index(outputs []Output) ([]printed, map[printedKey]printed) {
	var all []printed
	byKey := map[printedKey]printed{}
	for i, o := range outputs {
		seen := map[string]int{}
		for _, line := range strings.Split(o.Text, "\n") {
			nums := numcheck.Quantities(line)
			if len(nums) == 0 {
				continue
			}
			label := lineLabel(line, nums)
			for k, n := range nums {
				p := printed{out: i, label: label, nth: k, seen: seen[label], num: n}
				all = append(all, p)
				byKey[p.key()] = p
			}
			seen[label]++
		}
	}
	return all, byKey
}

func (p printed) key() printedKey { return printedKey{p.out, p.label, p.nth, p.seen} }

// lineLabel is a line without its numbers, its words joined by one space.
func lineLabel(line string, nums []numcheck.Number) string {
	var b strings.Builder
	last := 0
	for _, n := range nums {
		b.WriteString(line[last:n.Start])
		b.WriteString(" ")
		last = n.End
	}
	b.WriteString(line[last:])
	return strings.Join(strings.Fields(b.String()), " ")
}

// Recompute rewrites text (an old report, answer or finding) for the new
// outputs: each number that an old output printed is replaced by what the
// same line of the same output prints now, written the way the text wrote
// it (decimals, thousands separators, percent, "million"). A number no
// output printed (a year, "top 3") is left as it is; one whose line is
// gone, that more than one line could have given with different new
// values, or whose sign flipped (the text's words may say "fell") is
// marked with StaleMark and listed as Unresolved.
func Recompute(text string, old, new []Output) Recomputed {
	oldAll, _ := index(old)
	_, newByKey := index(new)
	var res Recomputed
	var b strings.Builder
	last := 0
	for _, n := range numcheck.Quantities(text) {
		if n.Start < last {
			continue
		}
		lineWords := contextWords(text, n.Start, n.End)
		var sources []printed
		for _, p := range oldAll {
			if !numcheck.Matches(n, p.num) {
				continue
			}
			if small(n) && (n.Value != p.num.Value || !sharesWord(p.label, lineWords)) {
				// "top 3" is not the 3 of some table's index: a small
				// count is taken only with a word of its line ("4 rows").
				continue
			}
			sources = append(sources, p)
		}
		if len(sources) == 0 {
			continue
		}
		replacement, change, why := recomputeOne(n, sources, newByKey, old)
		b.WriteString(text[last:n.Start])
		last = n.End
		switch {
		case why != "":
			b.WriteString(n.Text + StaleMark)
			res.Unresolved = append(res.Unresolved, Unresolved{Old: n.Text, Reason: why})
		case change != nil:
			b.WriteString(replacement)
			res.Changes = append(res.Changes, *change)
		default:
			b.WriteString(n.Text)
			res.Kept++
		}
	}
	b.WriteString(text[last:])
	res.Text = b.String()
	return res
}

// recomputeOne finds the new value of the report's number n, printed in
// the old outputs at sources: the new text, the change (nil when it did
// not move), or why it cannot be told.
func recomputeOne(n numcheck.Number, sources []printed, newByKey map[printedKey]printed, old []Output) (string, *Change, string) {
	var text string
	var change *Change
	for _, src := range sources {
		now, ok := newByKey[src.key()]
		if !ok {
			return "", nil, fmt.Sprintf("the line %q of %s is not in the new output", src.label, old[src.out].Label)
		}
		if math.Signbit(now.num.Value) != math.Signbit(src.num.Value) && now.num.Value != 0 && src.num.Value != 0 {
			return "", nil, fmt.Sprintf("its sign changed (%s on the line %q of %s is now %s), so the words around it may no longer hold", src.num.Text, src.label, old[src.out].Label, now.num.Text)
		}
		t := rewrite(n, src.num, now.num)
		if text != "" && t != text {
			return "", nil, fmt.Sprintf("more than one printed number gives it (%s), and their new values differ", strings.Join(labels(sources, old), "; "))
		}
		text = t
		if now.num.Value != src.num.Value && change == nil {
			change = &Change{Where: fmt.Sprintf("%s, %q", old[src.out].Label, src.label), Old: n.Text, New: t, OldValue: src.num.Value, NewValue: now.num.Value, Percent: n.Percent, Scale: percentScale(n, src.num)}
		}
	}
	if text == n.Text {
		return text, nil, ""
	}
	if change == nil {
		// Printed the same, written another way: nothing moved.
		return n.Text, nil, ""
	}
	return text, change, ""
}

func labels(ps []printed, old []Output) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("%s, %q", old[p.out].Label, p.label)
	}
	return out
}

// small reports whether n is a bare integer up to 10, which may count
// anything ("2 regions", "top 3").
func small(n numcheck.Number) bool {
	return n.Unit == 1 && !n.Percent && math.Abs(n.Value) <= 10
}

// contextWords are the lower-case words around [start, end): a few
// words either side, on the same line.
func contextWords(text string, start, end int) []string {
	const reach = 24
	from := max(strings.LastIndexByte(text[:start], '\n')+1, start-reach)
	to := len(text)
	if i := strings.IndexByte(text[end:], '\n'); i >= 0 {
		to = end + i
	}
	to = min(to, end+reach)
	for from > 0 && !utf8.RuneStart(text[from]) {
		from--
	}
	for to < len(text) && !utf8.RuneStart(text[to]) {
		to++
	}
	return words(text[from:to])
}

// sharesWord reports whether the label has a word of three letters or
// more among ws.
func sharesWord(label string, ws []string) bool {
	for _, w := range words(label) {
		if len(w) < 3 || !strings.ContainsFunc(w, unicode.IsLetter) {
			continue
		}
		for _, x := range ws {
			if x == w || strings.TrimSuffix(x, "s") == strings.TrimSuffix(w, "s") {
				return true
			}
		}
	}
	return false
}

// rewrite writes the new printed value now the way the text wrote the
// old one (claim, for the printed old): the same decimals, separators,
// unit and percent scale.
func rewrite(claim, old, now numcheck.Number) string {
	body, suffix, sign := splitNumber(claim.Text)
	decimals, decSep, groupSep := style(body)
	// The claim's value per printed value: 100 for a percent of a
	// fraction, 1e6 for "2.1 million" of 2100000 (in the claim's units).
	scale := percentScale(claim, old)
	mult := 1.0
	if bv, err := strconv.ParseFloat(plain(body, decSep), 64); err == nil && bv != 0 {
		mult = math.Abs(claim.Value) / bv
		mult = math.Pow(10, math.Round(math.Log10(mult)))
	}
	v := now.Value * scale / mult
	s := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	if groupSep != "" {
		intPart = group(intPart, groupSep)
	}
	out := intPart
	if frac != "" {
		out += decSep + frac
	}
	switch {
	case sign == "":
	case v < 0 && sign == "−":
		out = "−" + out
	case v < 0:
		out = "-" + out
	default:
		out = "+" + out
	}
	return out + suffix
}

// percentScale is 100 when the claim is a percentage of a printed
// fraction (60% of 0.6), else 1.
func percentScale(claim, printed numcheck.Number) float64 {
	if claim.Percent && !printed.Percent && math.Abs(printed.Value) <= 10 && printed.Unit < 1 {
		return 100
	}
	return 1
}

// splitNumber splits a written number into its sign, its digits with
// separators, and its suffix (unit, percent).
func splitNumber(s string) (body, suffix, sign string) {
	switch {
	case strings.HasPrefix(s, "-"), strings.HasPrefix(s, "+"):
		sign, s = s[:1], s[1:]
	case strings.HasPrefix(s, "−"):
		sign, s = "−", strings.TrimPrefix(s, "−")
	}
	i := strings.LastIndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	return s[:i+1], s[i+1:], sign
}

// style reads a written number's decimals and separators; the thousands
// separator is "" when it has none, the decimal one "." unless the text
// uses a comma.
func style(body string) (decimals int, decSep, groupSep string) {
	decSep = "."
	lastDot, lastComma := strings.LastIndexByte(body, '.'), strings.LastIndexByte(body, ',')
	switch {
	case lastDot >= 0 && lastComma >= 0 && lastComma > lastDot:
		decSep, groupSep = ",", "."
	case lastDot >= 0 && lastComma >= 0:
		groupSep = ","
	case lastComma >= 0 && len(body)-lastComma-1 == 3:
		groupSep = ","
	case lastComma >= 0:
		decSep = ","
	case lastDot >= 0 && strings.Count(body, ".") > 1:
		decSep, groupSep = ",", "."
	}
	if i := strings.LastIndex(body, decSep); i >= 0 && (groupSep == "" || i > strings.LastIndex(body, groupSep)) {
		decimals = len(body) - i - 1
	}
	return decimals, decSep, groupSep
}

// plain turns a written body into Go float syntax.
func plain(body, decSep string) string {
	var b strings.Builder
	for _, r := range body {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case string(r) == decSep:
			b.WriteByte('.')
		}
	}
	return b.String()
}

// group puts sep between each three digits of an integer.
func group(digits, sep string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	first := len(digits) % 3
	if first > 0 {
		b.WriteString(digits[:first])
	}
	for i := first; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}
