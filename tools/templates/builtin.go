package templates

import (
	"slices"
	"strings"

	"github.com/sift-agent/sift/numfmt"
)

// builtin is everything one built-in analysis is, in one value: what the
// catalog says of it, the words that select it, how it infers its
// parameters, how its reading and its suggestion read, and how its report
// is formatted. Each lives in its own builtin_<name>.go and is listed once,
// in builtins; the matcher, the grounded parse, the titles, the
// suggestions, the hints and the formats read it from there, so adding a
// built-in touches its own file (and its test and Python cell), not every
// file that once switched on its name.
type builtin struct {
	// Template is what the catalog lists: name, English title,
	// description, parameters, example request and Python cell.
	Template
	// titleZh is the title in Chinese (TitleIn).
	titleZh string
	// aliases are the other spellings Lookup accepts ("yoy", "retention").
	aliases []string

	// rank breaks ties between built-ins whose cues score the same in a
	// request: the lower rank (the more specific built-in) wins. Every
	// built-in has its own (TestBuiltinsAreRegisteredOnce).
	rank int
	// cues are the matcher's phrases (regular expressions over the
	// normalized request, English and Chinese), each with how strongly it
	// points to this built-in.
	cues []cue
	// words are the single English words (canonical, see canonWord),
	// phrases the English phrases of several words, and wordsZh the
	// Chinese words that name this built-in in the grounded parse
	// (Understand): roleCue entries of the lexicon.
	words, phrases, wordsZh []string

	// aggregates says the built-in aggregates a measure (or counts rows)
	// per group or period: it reads measure, aggregation and category, and
	// counts rows when no measure is named.
	aggregates bool
	// infer picks its parameters for a request over a sheet's columns
	// (after the aggregation and the absent entities, which infer sets for
	// every built-in); nil when it reads none.
	infer func(in *inference, r *request, cols []*column)
	// columnsIn says its input is a list of numeric columns: the reading
	// (build) takes the named measures as its columns, not aggregated, over
	// no period or span.
	columnsIn bool
	// needs checks and completes a reading of it (build), after what
	// every built-in needs; add states a problem. nil when it needs
	// nothing of its own.
	needs func(p *parsed, r *Reading, add func(en, zh string, args ...any))
	// params sets its own parameters from a complete reading (paramsOf),
	// after those every built-in shares; nil when it has none.
	params func(p *Params, r Reading)
	// head is the reading's first words, what is computed ("Sum of sales
	// per month"), in lang; nil for the title and the columns.
	head func(r Reading, lang string) string

	// suggestion is how Suggest offers it as a next question; nil when it
	// is never offered.
	suggestion *suggestion
	// hint says how to get it to run when its cell failed on the data
	// (CellError.Hint); empty for the general hint.
	hint string
	// formats are the formats of its CSV columns that hold fractions, by
	// the file's suffix (out/<stem>_<suffix>.csv); see recordFormats.
	formats map[string]numfmt.Formats
	// duck says it has a DuckDB engine (HasDuckDBEngine).
	duck bool
}

// suggestion is how a built-in is offered as a next question (Suggest).
type suggestion struct {
	// order places it among the suggestions: lower first.
	order int
	// ask returns the phrasings to offer for the columns picked, each an
	// English and a Chinese format, with their arguments; no phrasings
	// when the data does not suit it. The first phrasing the built-ins
	// understand as this built-in is offered.
	ask func(c suggestColumns) (phrasings [][2]string, args []any)
}

// suggestColumns are the columns Suggest grounds its questions in, from
// the first table: a time column, two measures and two categories (each
// empty when the table has none).
type suggestColumns struct {
	time, measure, measure2, cat, cat2 string
}

// one is a single phrasing, in English and Chinese.
func one(en, zh string) [][2]string { return [][2]string{{en, zh}} }

// builtins is the catalog, in the order Catalog lists it. A built-in is
// its builtin_<name>.go value and its line here
// (TestBuiltinsAreRegisteredOnce fails when a value is left out).
var builtins = []*builtin{
	&profileBuiltin, &trendBuiltin, &topNBuiltin, &comparePeriodsBuiltin, &correlationBuiltin,
	&distributionBuiltin, &pivotBuiltin, &outliersBuiltin, &cohortBuiltin, &funnelBuiltin,
}

// builtinNamed is the built-in called name (a catalog name, no alias), or
// nil.
func builtinNamed(name string) *builtin {
	for _, b := range builtins {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// byRank lists the built-ins from the most specific (lowest rank) to the
// least: the order ties between equal cue scores are broken in.
func byRank() []*builtin {
	out := slices.Clone(builtins)
	slices.SortStableFunc(out, func(a, b *builtin) int { return a.rank - b.rank })
	return out
}

// rankOf is the rank of the built-in called name; unknown names last.
func rankOf(name string) int {
	if b := builtinNamed(name); b != nil {
		return b.rank
	}
	return int(^uint(0) >> 1)
}

// aggregates reports whether the built-in called name aggregates a
// measure per group or period (builtin.aggregates).
func aggregates(name string) bool {
	b := builtinNamed(name)
	return b != nil && b.aggregates
}

// measureText is a reading's measures as its first line names them
// ("Sum of sales, Mean of price"; "Number of rows" when it counts rows).
func measureText(r Reading, lang string) string {
	if len(r.Measures) == 0 {
		if lang == LangChinese {
			return "行数"
		}
		return "Number of rows"
	}
	var ms []string
	for _, m := range r.Measures {
		ms = append(ms, aggText(lang, m.Agg, m.Column))
	}
	return strings.Join(ms, ", ")
}

// addWords puts the built-in's English words and phrases into the lexicon
// as cues naming it.
func (b *builtin) addWords() {
	for _, w := range b.words {
		enWords[w] = entry{role: roleCue, value: b.Name}
	}
	for _, p := range b.phrases {
		enPhrases[p] = entry{role: roleCue, value: b.Name}
	}
}

// addWordsZh puts the built-in's Chinese words into the lexicon as cues
// naming it.
func (b *builtin) addWordsZh() {
	for _, w := range b.wordsZh {
		zhWords[w] = entry{role: roleCue, value: b.Name}
	}
}
