package sqldb

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/dustin/go-humanize"
	"github.com/sift-agent/sift/llm/tokens"
)

// DefaultContextTokens is the budget Context uses when given none.
const DefaultContextTokens = 4000

// Context describes the source's schema for a request, within
// budgetTokens tokens as a provider counts them (o200k; <= 0 means
// 4,000). When the whole schema fits it is all shown; otherwise the tables
// relevant to the request come first — by overlap of the request's words
// with table names, column names, comments and sample values, weighted by
// how rare each word is across tables — together with the tables their
// foreign keys link to, and the rest are named as space allows.
func (s *Source) Context(ctx context.Context, request string, budgetTokens int) (string, error) {
	sc, err := s.Schema(ctx)
	if err != nil {
		return "", err
	}
	if budgetTokens <= 0 {
		budgetTokens = DefaultContextTokens
	}
	var meaning []float64
	if emb := embedderOf(ctx); emb != nil && len(sc.Tables) > 1 && !fits(s.name, sc, budgetTokens) {
		// Without an answer from the endpoint the words rank alone.
		meaning, _ = meaningScores(ctx, emb, sc, request)
	}
	return renderContext(s.name, sc, request, budgetTokens, meaning), nil
}

// EstimateTokens is the token count Context budgets with: s encoded with
// o200k, the tokenizer of current OpenAI models and the closest bundled
// one to other providers'. Schemas (names with underscores, types, digits)
// encode at fewer characters per token than English prose, so characters
// divided by four under-counts them.
func EstimateTokens(s string) int { return tokens.Text("", s) }

// renderContext lays out the schema within budget tokens (see
// EstimateTokens); the pieces are counted one by one, and a newline
// between them costs at most one more token each.
func renderContext(name string, sc *Schema, request string, budget int, meaning []float64) string {
	header := fmt.Sprintf("Database %q (%s), %d tables.\n", name, sc.Dialect, len(sc.Tables))
	blocks := make([]string, len(sc.Tables))
	total := EstimateTokens(header)
	for i, t := range sc.Tables {
		blocks[i] = renderTable(t, false)
		total += EstimateTokens(blocks[i]) + 1
	}
	order, relevant := rankTables(sc, request, meaning)
	anyRelevant := false
	for _, r := range relevant {
		anyRelevant = anyRelevant || r
	}
	if total <= budget {
		var b strings.Builder
		b.WriteString(header)
		for _, i := range order {
			b.WriteString(blocks[i])
			b.WriteByte('\n')
		}
		return b.String()
	}
	var b strings.Builder
	b.WriteString(header)
	shown := map[int]bool{}
	used := EstimateTokens(header)
	// Leave room for the closing note naming the rest.
	reserve := min(budget/8, 150)
	for _, i := range order {
		if anyRelevant && !relevant[i] {
			break
		}
		blk := blocks[i]
		n := EstimateTokens(blk)
		if used+n+1 > budget-reserve {
			blk = renderTable(sc.Tables[i], true)
			if n = EstimateTokens(blk); used+n+1 > budget-reserve {
				continue
			}
		}
		b.WriteString(blk)
		b.WriteByte('\n')
		used += n + 1
		shown[i] = true
	}
	var rest []string
	for _, i := range order {
		if !shown[i] {
			rest = append(rest, sc.Tables[i].Name)
		}
	}
	if len(rest) > 0 {
		note := fmt.Sprintf("%d more tables, not described here (call describe_table for any of them): ", len(rest))
		used += EstimateTokens(note)
		b.WriteString(note)
		listed := 0
		for _, n := range rest {
			if used+EstimateTokens(n)+1 > budget-12 {
				break
			}
			if listed > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n)
			used += EstimateTokens(n) + 1
			listed++
		}
		if listed < len(rest) {
			fmt.Fprintf(&b, " … and %d others (list_tables shows all).", len(rest)-listed)
		} else {
			b.WriteByte('.')
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// rankTables orders the schema's tables by relevance to the request: the
// best-matching tables first, each followed by the tables its foreign keys
// link it to, then the rest by name. relevant marks the tables with any
// relevance. meaning, when not nil, is each table's closeness in meaning
// to the request (see meaningScores), added to the words' scores.
func rankTables(sc *Schema, request string, meaning []float64) (order []int, relevant []bool) {
	scores := scoreTables(sc, request)
	if len(meaning) == len(scores) {
		for i, m := range meaning {
			scores[i] += m
		}
	}
	idx := map[string]int{}
	for i, t := range sc.Tables {
		idx[strings.ToLower(t.Name)] = i
	}
	// Tables linked by a foreign key to a matching table share some of its
	// relevance: they are how the matching tables join.
	neighbours := make([][]int, len(sc.Tables))
	for i, t := range sc.Tables {
		for _, fk := range t.ForeignKeys {
			if j, ok := idx[strings.ToLower(fk.Table)]; ok && j != i {
				neighbours[i] = append(neighbours[i], j)
				neighbours[j] = append(neighbours[j], i)
			}
		}
	}
	final := append([]float64(nil), scores...)
	for i, si := range scores {
		if si <= 0 {
			continue
		}
		for _, j := range neighbours[i] {
			final[j] = max(final[j], scores[j]+si*0.4)
		}
	}
	// A table linking two matching tables (orders between customers and
	// products) matters more than either link suggests.
	for j := range sc.Tables {
		matched := 0
		for _, i := range neighbours[j] {
			if scores[i] > 0 {
				matched++
			}
		}
		if matched >= 2 {
			final[j] += 1
		}
	}
	order = make([]int, len(sc.Tables))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		if final[order[a]] != final[order[b]] {
			return final[order[a]] > final[order[b]]
		}
		return sc.Tables[order[a]].Name < sc.Tables[order[b]].Name
	})
	relevant = make([]bool, len(final))
	for i, f := range final {
		relevant[i] = f > 0
	}
	return order, relevant
}

// scoreTables scores each table's overlap with the request's words, each
// word weighted by its rarity across tables (inverse document frequency).
func scoreTables(sc *Schema, request string) []float64 {
	req := requestWords(request)
	reqText := " " + strings.ToLower(request) + " "
	type fields struct{ name, cols, comment, values map[string]bool }
	docs := make([]fields, len(sc.Tables))
	df := map[string]int{}
	for i, t := range sc.Tables {
		f := fields{name: wordSet(t.Name), cols: map[string]bool{}, comment: wordSet(t.Comment), values: map[string]bool{}}
		for _, c := range t.Columns {
			for w := range wordSet(c.Name) {
				f.cols[w] = true
			}
			for w := range wordSet(c.Comment) {
				f.comment[w] = true
			}
			for _, v := range append(append([]string(nil), c.Values...), c.Samples...) {
				lv := strings.ToLower(strings.TrimSpace(v))
				if len(lv) >= 3 && !isNumeric(lv) && strings.Contains(reqText, " "+lv+" ") || len(lv) >= 3 && req[lv] {
					f.values[lv] = true
				}
			}
		}
		all := map[string]bool{}
		for _, m := range []map[string]bool{f.name, f.cols, f.comment} {
			for w := range m {
				all[w] = true
			}
		}
		for w := range all {
			df[w]++
		}
		docs[i] = f
	}
	n := float64(len(sc.Tables))
	idf := func(w string) float64 { return math.Log(1 + n/float64(max(1, df[w]))) }
	scores := make([]float64, len(sc.Tables))
	for i, f := range docs {
		var s float64
		for w := range req {
			switch {
			case f.name[w]:
				s += 3 * idf(w)
			case f.cols[w]:
				s += idf(w)
			case f.comment[w]:
				s += 0.5 * idf(w)
			}
		}
		for range f.values {
			s += 2 * math.Log(1+n)
		}
		scores[i] = s
	}
	return scores
}

// stopWords are request words that say nothing about which tables matter.
var stopWords = map[string]bool{
	"the": true, "a": true, "an": true, "of": true, "in": true, "on": true, "at": true, "by": true, "for": true,
	"to": true, "from": true, "with": true, "and": true, "or": true, "is": true, "are": true, "was": true,
	"were": true, "be": true, "what": true, "which": true, "who": true, "how": true, "many": true, "much": true,
	"per": true, "each": true, "do": true, "does": true, "did": true, "me": true, "show": true, "list": true,
	"give": true, "find": true, "i": true, "we": true, "our": true, "my": true, "that": true, "this": true,
	"those": true, "these": true, "there": true, "their": true, "most": true, "had": true, "has": true, "have": true,
	"all": true, "any": true, "it": true, "its": true, "than": true, "as": true, "into": true,
}

// requestWords are the request's content words, with singular forms.
func requestWords(request string) map[string]bool {
	out := map[string]bool{}
	for _, w := range splitWords(request) {
		if stopWords[w] || len(w) < 2 {
			continue
		}
		for _, f := range wordForms(w) {
			out[f] = true
		}
	}
	return out
}

// wordSet splits an identifier or text into lower-case words (on
// non-letters and camelCase) with their singular forms.
func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range splitWords(s) {
		for _, f := range wordForms(w) {
			out[f] = true
		}
	}
	return out
}

// splitWords splits on anything but letters and digits, and at camelCase
// humps, lower-casing the parts.
func splitWords(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
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

// wordForms is w with a naive singular form (orders → order, categories →
// category, boxes → box), so plural and singular names match.
func wordForms(w string) []string {
	forms := []string{w}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		forms = append(forms, w[:len(w)-3]+"y")
	case strings.HasSuffix(w, "ses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes"):
		forms = append(forms, w[:len(w)-2])
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 3:
		forms = append(forms, w[:len(w)-1])
	}
	return forms
}

func isNumeric(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) && r != '.' && r != '-' {
			return false
		}
	}
	return true
}

// renderTable describes a table in a few lines: its name, row count and
// keys, then one line per column with type, key links, and listed or
// sample values. brief leaves the values out.
func renderTable(t *Table, brief bool) string {
	var b strings.Builder
	kind := "table"
	if t.View {
		kind = "view"
	}
	fmt.Fprintf(&b, "%s %s", kind, t.Name)
	if rows := rowCount(t); rows != "" {
		fmt.Fprintf(&b, " (%s)", rows)
	}
	if t.Comment != "" {
		fmt.Fprintf(&b, " — %s", cutText(t.Comment, 120))
	}
	b.WriteByte('\n')
	single := map[string]string{}
	for _, fk := range t.ForeignKeys {
		if len(fk.Columns) == 1 && len(fk.RefColumns) == 1 {
			single[fk.Columns[0]] = fk.Table + "." + fk.RefColumns[0]
			continue
		}
		fmt.Fprintf(&b, "  FK (%s) → %s(%s)\n", strings.Join(fk.Columns, ", "), fk.Table, strings.Join(fk.RefColumns, ", "))
	}
	if len(t.PrimaryKey) > 1 {
		fmt.Fprintf(&b, "  PK (%s)\n", strings.Join(t.PrimaryKey, ", "))
	}
	for _, c := range t.Columns {
		fmt.Fprintf(&b, "  %s %s", c.Name, c.Type)
		if len(t.PrimaryKey) == 1 && t.PrimaryKey[0] == c.Name {
			b.WriteString(" PK")
		}
		if ref, ok := single[c.Name]; ok {
			b.WriteString(" → " + ref)
		}
		if c.Comment != "" && !brief {
			fmt.Fprintf(&b, " — %s", cutText(c.Comment, 80))
		}
		_, isFK := single[c.Name]
		isPK := len(t.PrimaryKey) == 1 && t.PrimaryKey[0] == c.Name
		switch {
		case brief:
		case len(c.Values) > 0:
			fmt.Fprintf(&b, "; values: %s", quoteList(c.Values))
		case len(c.Samples) > 0 && !isPK && !isFK:
			// Key values say nothing a model can use.
			fmt.Fprintf(&b, "; e.g. %s", quoteList(c.Samples))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// rowCount renders a table's row count, "" when unknown.
func rowCount(t *Table) string {
	switch {
	case t.Rows < 0:
		return ""
	case t.RowsEstimated:
		return "~" + humanize.Comma(int64(int(t.Rows))) + " rows"
	case t.Rows == 1:
		return "1 row"
	}
	return humanize.Comma(int64(int(t.Rows))) + " rows"
}

func quoteList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = "'" + v + "'"
	}
	return strings.Join(q, ", ")
}
