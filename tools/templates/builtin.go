package templates

import (
	"context"
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
	// choice is how it is chosen for a request that cues no built-in
	// (build); nil when only its cues select it.
	choice *choice
	// subsumes are the built-ins that a request cueing it and them alone
	// means it as well: "the year-over-year trend" is compare_periods.
	subsumes []string
	// compareCue: the lexicon's comparison words (vs, yoy, 环比) cue it.
	compareCue bool
	// chosen checks or changes the choice of it (build), right after it
	// was chosen: a trend that is also a ranking, a top-N over two
	// categories (a pivot). nil when it has nothing to check.
	chosen func(a *asking, r *Reading)
	// needsTime says its reading needs a time column, for the period
	// asked ("" when none); nil when it needs none.
	needsTime func(period string) bool
	// noPeriod: a time column of years does not make its period the year.
	noPeriod bool
	// periodic says its reading is per period when none is asked: the
	// year, when the data's dates are years (build). nil when it is not.
	periodic func(a *asking) bool
	// comparesYears: two or more years named are the periods it compares,
	// not a filter or a range.
	comparesYears bool
	// countsRows: with no measure and no aggregation named, it counts
	// rows (an aggregating built-in otherwise needs a measure, or a
	// word that counts).
	countsRows bool
	// measured checks the measures read for it (build), before what every
	// aggregating built-in checks of them; nil when it has nothing to
	// check.
	measured func(a *asking, r *Reading)
	// needs checks and completes a reading of it (build), after what
	// every built-in needs; a.add states a problem. nil when it needs
	// nothing of its own.
	needs func(a *asking, r *Reading)
	// params sets its own parameters from a complete reading (paramsOf),
	// after those every built-in shares; nil when it has none.
	params func(p *Params, r Reading)
	// wholeTable: it describes a whole table, no column in particular:
	// the words a request ranks or groups by need no column (infer), a
	// workbook's sheet need not be named (build), and a request that
	// singles out none of several tables reads it on each (match).
	wholeTable bool
	// describes: it gives the summary statistics of what it reads (count,
	// mean, spread, quartiles), which "stats", "statistics" and 统计信息 ask
	// for: of the columns named when it reads columns (columnsIn), else of
	// the whole table (wholeTable).
	describes bool
	// spansYears: its reading's first line says the years its series
	// spans, when no filter or period says them (Reading.Text).
	spansYears bool
	// showsAll: its computation shows every pair, cell, column or row
	// it finds, and takes no count of them: a count asked ("top 5
	// outliers", 前3名) is refused (countUnused), not dropped.
	showsAll bool
	// ownOrder: its rows are in an order of its own (a pivot's cells, a
	// distribution's columns): an order asked ("highest first", 最高的…)
	// is refused (countUnused), not dropped.
	ownOrder bool
	// duckOnly says a complete reading of it needs a computation only the
	// reading engine (DuckDB) makes (Reading.duckOnly), beyond what every
	// built-in's does; nil when none does.
	duckOnly func(r Reading) bool
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
	// table is how its reading's main table is computed with DuckDB
	// (ReadingTable); nil when its reading has none.
	table *readingTable
	// duck is its DuckDB engine (HasDuckDBEngine); nil when it has none.
	duck *duckEngine
}

// duckEngine is a built-in's DuckDB engine: how it computes, out of core,
// the aggregates its cell (or its Go renderer) draws (runDuckDB).
type duckEngine struct {
	// run computes the aggregates into d.pre, and settles in p the
	// parameters it picked; root is the input's workspace and abs the
	// file DuckDB reads (the input, or its UTF-8 or CSV copy).
	run func(d *duckTable, ctx context.Context, root, abs string, p *Params) error
	// reads says whether the engine reads the file at path, beyond DuckDB
	// reading it (duckReads); nil for every file DuckDB reads.
	reads func(path string) bool
	// inOrder: it reads the file's own rows, numbered in the file's
	// order, through its view: no table of its own (materialize), and no
	// scan in any order (FilesOptions.AnyOrder).
	inOrder bool
	// fileOrder: it orders what it finds by where it first occurs in the
	// file, so it reads the rows in the file's order (no AnyOrder scan),
	// though into a table of its own.
	fileOrder bool
	// allUniques: describe counts every column's distinct values, not
	// only the text columns'.
	allUniques bool
	// lazyUniques: it counts a text column's distinct values only to find
	// a category (duckTable.lazyUniques).
	lazyUniques bool
	// columns are the columns it reads, by the names p gives them, when
	// p settles its every column choice; nil when it does not, or reads
	// every column (loadColumns).
	columns func(p Params) []string
	// render renders its aggregates in Go, with no Python cell; nil when
	// its cell draws them (renderNative).
	render func(*native) error
}

// choice is how a built-in is chosen for a request that cues none.
type choice struct {
	// order places its rule among the others: the first that claims the
	// request chooses its built-in.
	order int
	// claims says the request asks for it, as r reads so far.
	claims func(a *asking, r Reading) bool
}

// asking is what build has read of a request when the built-ins' rules
// (choice, chosen, periodic, measured, needs) read it.
type asking struct {
	p *parsed
	// measures and dims are the numeric columns and the categories
	// named; years and aggs how many years and aggregation words.
	measures, dims []*gcol
	years, aggs    int
	// period is the grain or calendar part asked, grain the grain alone;
	// perGrain that it was said "per year", "每年".
	period, grain string
	perGrain      bool
	// order is the order asked (asc, desc), compare the comparison (yoy,
	// seq…), agg the aggregation word last said (set for measured).
	order, compare, agg string
	// sheetAs names the sheets as a category; across asks across sheets.
	sheetAs string
	across  bool
	// timeWord: a word for time ("over time"); ranking: a ranking word.
	timeWord, ranking bool
	// add states a problem (a format and its arguments, in English and
	// Chinese); problem states one as worded.
	add     func(en, zh string, args ...any)
	problem func(en, zh string)
}

// claimant is the built-in whose choice claims the request first, or nil.
func claimant(a *asking, r Reading) *builtin {
	var rules []*builtin
	for _, b := range builtins {
		if b.choice != nil {
			rules = append(rules, b)
		}
	}
	slices.SortStableFunc(rules, func(x, y *builtin) int { return x.choice.order - y.choice.order })
	for _, b := range rules {
		if b.choice.claims(a, r) {
			return b
		}
	}
	return nil
}

// unsubsumed are the built-ins named that no other one named subsumes.
func unsubsumed(named []string) []string {
	var out []string
	for _, n := range named {
		if !slices.ContainsFunc(named, func(o string) bool {
			b := builtinNamed(o)
			return o != n && b != nil && slices.Contains(b.subsumes, n)
		}) {
			out = append(out, n)
		}
	}
	return out
}

// cuesHave reports whether a built-in that cues name has has.
func cuesHave(cues map[string]bool, has func(*builtin) bool) bool {
	for name, on := range cues {
		if on && builtinHas(name, has) {
			return true
		}
	}
	return false
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

// builtinHas reports whether the built-in called name exists and has the
// property has.
func builtinHas(name string, has func(*builtin) bool) bool {
	b := builtinNamed(name)
	return b != nil && has(b)
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
	for i, m := range r.Measures {
		t := aggText(lang, m.Agg, m.Column)
		if i > 0 && lang != LangChinese && t != m.Column {
			t = strings.ToLower(t[:1]) + t[1:]
		}
		ms = append(ms, t)
	}
	if len(ms) > 1 {
		// "Minimum of price and maximum of price", "price 的最小值和 price 的最大值".
		last := ms[len(ms)-1]
		if lang == LangChinese {
			return strings.Join(ms[:len(ms)-1], "、") + "和 " + last
		}
		return strings.Join(ms[:len(ms)-1], ", ") + " and " + last
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
