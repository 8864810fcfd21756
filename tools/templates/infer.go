package templates

import (
	"regexp"
	"sort"
	"strings"
)

// moneyWordRe finds a request word that asks for a money measure.
var moneyWordRe = regexp.MustCompile(`\b(?:revenue|sales|amount|turnover|income|gmv|spend|spending|profit|value)\b|销售额|金额|收入|营收|营业额|销售|利润|业绩`)

// inference collects the parameters picked for one template, the reasons,
// and what is missing for it to run.
type inference struct {
	lang    string // the language of the reasons (LangOf)
	p       Params
	missing []string
	// absent are the request's words for things no column holds
	// ("customers" in a table of regions).
	absent []string
}

// reason records why a parameter was picked, in the inference's language.
func (in *inference) reason(format string, args ...any) {
	in.p.Reasons = append(in.p.Reasons, textIn(in.lang, format, args...))
}

// miss records what the template needs but the table lacks.
func (in *inference) miss(format string, args ...any) {
	in.missing = append(in.missing, textIn(in.lang, format, args...))
}

// how says how a mention named its column, for a reason in lang.
func (m mention) how(lang string) string {
	switch m.kind {
	case mentionExact:
		return textIn(lang, "named in the request")
	case mentionToken:
		return textIn(lang, "the request says %q", m.label)
	}
	return textIn(lang, "the request says %q, which this column's name means", m.label)
}

// mentioned returns the mentions whose column passes keep, in order.
func (r *request) mentioned(keep func(*column) bool) []mention {
	var out []mention
	for _, m := range r.mentions {
		if keep(m.col) {
			out = append(out, m)
		}
	}
	return out
}

func isMeasure(c *column) bool  { return c.numeric && !c.idish }
func isTime(c *column) bool     { return c.timeish }
func isCategory(c *column) bool { return c.typ == "text" && !c.timeish || c.typ == "bool" }

// categoryRank prefers columns named like categories over id-like ones, so
// "orders per region" groups by region rather than order_id.
func categoryRank(m mention) int {
	score := int(m.kind) * 2
	if m.col.catHint {
		score += 3
	}
	if hasHint(m.col.name, []string{"id", "编号", "uuid"}) {
		score -= 5
	}
	return score
}

// pickTime chooses the time column.
func (in *inference) pickTime(r *request, cols []*column) {
	if ms := r.mentioned(isTime); len(ms) > 0 {
		in.p.Time = ms[0].col.name
		in.reason("time column: %s (%s)", in.p.Time, ms[0].how(in.lang))
		return
	}
	var best *column
	for _, c := range cols {
		if !c.timeish {
			continue
		}
		// A typed date beats a text column that only has a date-like name.
		if best == nil || (best.typ == "text" && c.typ != "text") {
			best = c
		}
	}
	if best == nil {
		in.miss("no date or time column in the preview")
		return
	}
	in.p.Time = best.name
	if best.typ == "text" {
		in.reason("time column: %s (its name; its values will be parsed as dates)", best.name)
	} else {
		in.reason("time column: %s (the %s column)", best.name, best.typ)
	}
}

// pickMeasure chooses the measure, or none when the request counts rows.
func (in *inference) pickMeasure(r *request, cols []*column, allowCount bool) {
	if ms := r.mentioned(isMeasure); len(ms) > 0 {
		in.p.Measure = ms[0].col.name
		in.reason("measure: %s (%s)", in.p.Measure, ms[0].how(in.lang))
		return
	}
	if allowCount && r.agg == "count" {
		in.reason("measure: none, rows are counted (the request asks for a count)")
		return
	}
	// A per-unit column (price, rate) is money-like but summing it means
	// nothing: prefer a total-like money column (revenue, sales, amount).
	var money, perUnit, first *column
	for _, c := range cols {
		if !isMeasure(c) {
			continue
		}
		if first == nil {
			first = c
		}
		switch {
		case c.money && hasHint(c.name, perUnitHints):
			if perUnit == nil {
				perUnit = c
			}
		case c.money && money == nil:
			money = c
		}
	}
	if money == nil {
		money = perUnit
	}
	switch {
	case money != nil && moneyWordRe.MatchString(r.masked):
		in.p.Measure = money.name
		in.reason("measure: %s (the request asks for %q; this is the money-like column)", money.name, moneyWordRe.FindString(r.masked))
	case money != nil:
		in.p.Measure = money.name
		in.reason("measure: %s (no measure named; this is the money-like numeric column)", money.name)
	case first != nil && !allowCount:
		in.p.Measure = first.name
		in.reason("measure: %s (no measure named; the first numeric column)", first.name)
	case allowCount:
		in.reason("measure: none, rows are counted (no money-like numeric column)")
	default:
		in.miss("no numeric column in the preview")
	}
}

// pickCategory chooses the column to group by, not one already used.
func (in *inference) pickCategory(r *request, cols []*column, exclude ...string) string {
	var best *mention
	for _, m := range r.mentioned(isCategory) {
		if contains(exclude, m.col.name) {
			continue
		}
		if best == nil || categoryRank(m) > categoryRank(*best) {
			m := m
			best = &m
		}
	}
	if best != nil {
		return best.col.name + "\x00" + best.how(in.lang)
	}
	for _, c := range cols {
		if isCategory(c) && c.catHint && !contains(exclude, c.name) {
			return c.name + "\x00" + textIn(in.lang, "no category named; its name looks like a category")
		}
	}
	for _, c := range cols {
		if isCategory(c) && !c.idish && !contains(exclude, c.name) {
			return c.name + "\x00" + textIn(in.lang, "no category named; the first text column")
		}
	}
	return ""
}

func (in *inference) setCategory(field *string, label, picked string) bool {
	if picked == "" {
		return false
	}
	name, why, _ := strings.Cut(picked, "\x00")
	*field = name
	in.reason("%s: %s (%s)", textIn(in.lang, label), name, why)
	return true
}

// setPeriod takes the request's period, when it names one.
func (in *inference) setPeriod(r *request) {
	if r.period != "" {
		in.p.Period = r.period
		in.reason("period: %s (from the request's words)", wordIn(in.lang, r.period))
	}
}

// numericMentions are the numeric columns the request names.
func numericMentions(r *request) []string {
	var names []string
	for _, m := range r.mentioned(isMeasure) {
		names = append(names, m.col.name)
	}
	return names
}

// countNumeric is how many of cols are numeric measures.
func countNumeric(cols []*column) int {
	n := 0
	for _, c := range cols {
		if isMeasure(c) {
			n++
		}
	}
	return n
}

// infer picks the parameters of template t for the request over a sheet's
// columns, with reasons, and lists what the template needs but the preview
// lacks.
func infer(t string, r *request, cols []*column) inference {
	in := inference{lang: r.lang}
	if r.agg != "" {
		in.p.Aggregation = r.agg
		in.reason("aggregation: %s (from the request's words)", wordIn(in.lang, r.agg))
	}
	if !builtinHas(t, func(b *builtin) bool { return b.wholeTable }) {
		for _, w := range missingEntities(r) {
			in.absent = append(in.absent, w)
			in.miss("no column for %q, which the request ranks or groups by (the columns: %s)", w, columnList(in.lang, cols))
		}
	}
	if b := builtinNamed(t); b != nil && b.infer != nil {
		b.infer(&in, r, cols)
	}
	return in
}

// pickCategoryMentioned is a text column the request names other than
// exclude (no fallback: an unnamed split is not guessed).
func (in *inference) pickCategoryMentioned(r *request, exclude string) string {
	var best *mention
	for _, m := range r.mentioned(isCategory) {
		if m.col.name == exclude || m.kind == mentionSynonym && m.col.idish {
			continue
		}
		if best == nil || categoryRank(m) > categoryRank(*best) {
			m := m
			best = &m
		}
	}
	if best == nil {
		return ""
	}
	return best.col.name + "\x00" + best.how(in.lang)
}

// entityWords are words that name a kind of thing a table may have a
// column for (customers, regions, 客户): a request that groups or ranks by
// one needs that column. Measures (revenue, price) are not among them: a
// money column stands in for those.
var entityWords = func() map[string]bool {
	out := map[string]bool{}
	groups := [][]string{}
	for _, g := range synonymGroups {
		switch g[0] {
		case "revenue", "profit", "quantity", "price", "cost", "event":
			continue
		}
		groups = append(groups, g)
	}
	groups = append(groups, []string{"client", "member", "account", "segment", "shop", "supplier", "suppliers", "vendor", "vendors", "employee", "employees", "salesperson", "salespeople", "team", "teams", "agent", "agents", "patient", "patients", "student", "students", "供应商", "员工", "销售员", "团队"})
	for _, g := range groups {
		for _, w := range g {
			switch w {
			case "item", "items", "goods":
				continue // "top 10 items" may mean rows
			}
			out[normalize(w)] = true
		}
	}
	return out
}()

// rankTargetRe finds what "top 10 X" ranks.
var rankTargetRe = regexp.MustCompile(`\b(?:top|bottom|best|worst|highest|lowest|largest|biggest|smallest)\s*-?\s*\d{1,4}\s+([\p{L}_]+)`)

// missingEntities lists the words of the request that rank or group by a
// kind of thing ("top 10 customers", "by region", "按客户") no column of
// the table holds. A built-in that went on would answer about another
// column; the request needs the person, or a model, instead.
func missingEntities(r *request) []string {
	covered := func(pos int) bool {
		for _, m := range r.mentions {
			if m.pos <= pos && pos < m.end {
				return true
			}
		}
		return false
	}
	var out []string
	check := func(word string, pos int) {
		w := strings.TrimSuffix(word, "s")
		if !entityWords[word] && !entityWords[w] || covered(pos) || contains(out, word) {
			return
		}
		out = append(out, word)
	}
	for _, re := range []*regexp.Regexp{rankTargetRe, byWordRe} {
		for _, loc := range re.FindAllStringSubmatchIndex(r.text, -1) {
			check(r.text[loc[2]:loc[3]], loc[2])
		}
	}
	for _, loc := range cjkGroupRe.FindAllStringSubmatchIndex(r.text, -1) {
		target := r.text[loc[2]:loc[3]]
		for w := range entityWords {
			if !isASCII(w) {
				if i := strings.Index(target, w); i >= 0 {
					check(w, loc[2]+i)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// columnList is the table's column names for a message, bounded.
func columnList(lang string, cols []*column) string {
	var names []string
	for i, c := range cols {
		if i == 20 {
			names = append(names, textIn(lang, "and %d more", len(cols)-20))
			break
		}
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}
