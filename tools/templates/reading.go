package templates

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sift-agent/sift/preview"
)

// Reading is what a request was understood to ask, grounded on one table of the data.
type Reading struct {
	Analysis string    `json:"analysis"`           // a catalog name: profile, trend, topn, compare_periods, correlation, distribution, pivot, outliers, cohort, funnel
	File     string    `json:"file"`               // the preview's Name of the chosen file
	Sheet    string    `json:"sheet,omitempty"`    // the sheet of a workbook; "*" = all same-schema sheets stacked with a "sheet" column
	Measures []Measure `json:"measures,omitempty"` // what is aggregated; empty = count rows
	GroupBy  []string  `json:"group_by,omitempty"` // dimension columns (the synthetic "sheet" column when across sheets)
	Time     string    `json:"time,omitempty"`     // the time column (a date column, or an integer year column)
	Grain    string    `json:"grain,omitempty"`    // day|week|month|quarter|year, or a calendar part: month_of_year|weekday|quarter_of_year|hour_of_day
	Filters  []Filter  `json:"filters,omitempty"`
	N        int       `json:"n,omitempty"`        // top-N
	Order    string    `json:"order,omitempty"`    // desc|asc
	Periods  []string  `json:"periods,omitempty"`  // compared periods, e.g. ["2014","2015"]
	Unplaced []string  `json:"unplaced,omitempty"` // content words of the request the reading does not account for
	// Columns are the columns examined by correlation, distribution and
	// outliers (empty: the numeric ones).
	Columns []string `json:"columns,omitempty"`
	// Compare is the comparison of compare_periods without Periods: yoy,
	// mom, qoq, wow, dod.
	Compare string `json:"compare,omitempty"`
	// Method is the correlation method when the request names one.
	Method string `json:"method,omitempty"`
	// Entity is cohort's id column; Stage and Stages funnel's.
	Entity string   `json:"entity,omitempty"`
	Stage  string   `json:"stage,omitempty"`
	Stages []string `json:"stages,omitempty"`
	// ByMean names the measures ranked or averaged by their mean because a
	// sum of them means nothing (a temperature, a price, a rate), with why.
	ByMean []string `json:"by_mean,omitempty"`
	// Span is the time column's first and last value in the preview, for
	// Text ("2012–2015").
	Span [2]string `json:"span,omitempty"`
	// SheetAs is the word the request grouped the sheets by ("Origin"),
	// when the sheets of a workbook stand for a dimension.
	SheetAs string `json:"sheet_as,omitempty"`
	// YearTime reports that Time is an integer column of years.
	YearTime bool `json:"year_time,omitempty"`
	// RowIs is what one row of the table is when the reading counts rows
	// for a word that is not "row" ("how many days": each row is one day).
	RowIs string `json:"row_is,omitempty"`
}

// Measure is one aggregated column.
type Measure struct {
	Column string `json:"column"`
	Agg    string `json:"agg"` // sum|mean|median|min|max|count|count_distinct
}

// Filter keeps the rows whose Column satisfies Op over Values.
type Filter struct {
	Column string   `json:"column"`
	Op     string   `json:"op"` // "=" (one of Values), "!=" (none of Values), ">=", "<=", "year" (the time column's year is one of Values)
	Values []string `json:"values"`
}

// Table is an analysis's main answer: exact numbers, in result order.
type Table struct {
	Columns []string `json:"columns"` // e.g. ["year", "temp_max"] (group keys first, then the measure(s))
	Rows    [][]any  `json:"rows"`    // keys as strings ("2012", "2015-12", "AAPL", "7" for July as month_of_year); values float64
}

// calendarParts are the Reading.Grain values that are parts of a
// calendar rather than periods of the series.
var calendarParts = []string{"month_of_year", "weekday", "quarter_of_year", "hour_of_day"}

// gcol is one column of a table, with what the parse grounds on it.
type gcol struct {
	name    string
	typ     string
	numeric bool
	date    bool // a date or datetime column
	yearInt bool // an integer column of years (yearLow–yearHigh)
	text    bool // text or bool: a category
	idish   bool
	// coded is an integer column whose numbers are labels of a category
	// (an age group 0, 5, 10…, a cluster, a class): grouped by, never
	// added up or averaged.
	coded bool
	// stock is what the column counts at each point of time when it is a
	// level (a population, a headcount, employment, a balance): its sum
	// over several periods means nothing. "" for a flow.
	stock    string
	words    []string // its name's concept words
	initials string   // the first letters of its name's words ("mpg" for Miles_per_Gallon), for names of two words or more
	nonSum   string   // why a sum of it means nothing ("" when it may be summed)
	values   map[string]string
	// counts are the values of an integer column of a few counts (4, 6, 8
	// cylinders), which "4-cyl" names as a filter.
	counts   map[string]bool
	min, max string
	distinct int
	decimals int // the most decimal places of its values in the file
}

// gtable is one table a request may be about.
type gtable struct {
	fi    int
	file  *preview.FilePreview
	sheet *preview.SheetPreview
	cols  []*gcol
	stem  []string // the file name's words
	// stemWhole is the file name's words as written when stem split one
	// (statecrime for state, crime).
	stemWhole []string
	// otherStems are the names' words of the other files given.
	otherStems [][]string
	sheets     []string // the workbook's sheets with this table's columns (same schema), this one included
}

// nonSummable are the column words whose values are not added up.
var nonSummable = map[string]string{
	"year": "a year", "temperature": "a temperature", "price": "a price", "rate": "a rate", "percent": "a percentage",
	"ratio": "a ratio", "average": "an average", "median": "a median", "capita": "a per-capita figure", "index": "an index",
	"score": "a score", "rating": "a rating", "latitude": "a coordinate", "longitude": "a coordinate", "age": "an age",
	"id": "an id", "open": "a price", "close": "a price", "high": "a price", "low": "a price", "adj": "a price",
	"mpg": "a rate", "horsepower": "a rating", "acceleration": "a rate", "humidity": "a percentage", "share": "a share",
	"speed": "a speed", "wind": "a speed", "density": "a density", "weight": "a weight", "height": "a height",
	"displacement": "a size", "maximum": "a maximum", "minimum": "a minimum", "pressure": "a pressure", "level": "a level",
	"expectancy": "a life expectancy", "growth": "a rate", "salary": "a salary", "fertility": "a rate", "poverty": "a rate",
	"unemployment": "a rate", "concentration": "a concentration", "co": "a concentration", "grad": "a rate", "inflation": "a rate",
	"interest": "a rate", "length": "a measurement", "width": "a measurement", "depth": "a measurement", "mass": "a measurement",
	"diameter": "a measurement", "thickness": "a measurement", "circumference": "a measurement", "wingspan": "a measurement",
	"girth": "a measurement", "bmi": "a measurement",
}

// zhKindSuffixes end the Chinese names of columns whose values are not
// added up, whatever the words before them (消费价格指数, 空置率).
var zhKindSuffixes = []struct{ suffix, kind string }{
	{"指数", "an index"}, {"率", "a rate"}, {"比例", "a share"}, {"占比", "a share"}, {"比重", "a share"},
	{"价格", "a price"}, {"单价", "a price"}, {"均价", "a price"}, {"温度", "a temperature"}, {"气温", "a temperature"},
}

// ratioKind is why a column that no single word marks is not summed: a
// name of the form "X per Y" (Miles_per_Gallon, deaths_per_100k) is a
// ratio, a Chinese name ending in 率, 指数, 比例… says its kind; "" else.
func ratioKind(name string, words []string) string {
	for i, w := range words {
		if w == "per" && i > 0 && i < len(words)-1 {
			return "a ratio"
		}
	}
	n := strings.TrimSpace(unitSuffix.ReplaceAllString(normalize(name), ""))
	for _, k := range zhKindSuffixes {
		if strings.HasSuffix(n, k.suffix) && utf8.RuneCountInString(n) > utf8.RuneCountInString(k.suffix) {
			return k.kind
		}
	}
	return ""
}

// kindZh is the Chinese of the kinds nonSummable, stockWords and the
// other reasons not to sum a column give ("a price" → 价格), for the
// Chinese messages and readings.
var kindZh = map[string]string{
	"a year": "年份", "a temperature": "温度", "a price": "价格", "a rate": "比率", "a percentage": "百分比", "a ratio": "比值",
	"an average": "平均值", "a median": "中位数", "a per-capita figure": "人均值", "an index": "指数", "a score": "分数",
	"a rating": "额定值", "a coordinate": "坐标", "an age": "年龄", "an id": "编号", "a speed": "速度", "a density": "密度",
	"a weight": "重量", "a height": "高度", "a size": "尺寸", "a maximum": "最大值", "a minimum": "最小值", "a pressure": "压力",
	"a level": "水平值", "a life expectancy": "预期寿命", "a salary": "工资", "a concentration": "浓度", "a measurement": "测量值",
	"a share": "占比", "a code whose numbers are labels": "以数字作标签的编码", "a population": "人口",
	"a headcount": "人数", "an employment level": "就业人数", "a count of the unemployed": "失业人数", "an inventory": "库存",
	"a balance": "余额", "an enrolment": "在册人数", "a membership": "会员数", "a subscriber count": "订阅人数",
	"a capital stock": "资本存量", "an amount outstanding": "未偿余额", "a holding": "持有量",
}

// zhKind is the Chinese of a kind (kindZh), or the kind itself when the
// table has none.
func zhKind(kind string) string {
	if zh, ok := kindZh[kind]; ok {
		return zh
	}
	return kind
}

// grainZh names a period in Chinese (year → 年), for messages.
var grainZh = map[string]string{"year": "年", "quarter": "季度", "month": "月", "week": "周", "day": "天", "hour": "小时"}

func zhGrain(g string) string {
	if zh, ok := grainZh[g]; ok {
		return zh
	}
	return g
}

// nonSummableStems are nonSummable by the words' stems (expect for
// life_expect's expectancy).
var nonSummableStems = func() map[string]string {
	m := map[string]string{}
	for w, why := range nonSummable {
		if s := stemWord(w); s != w {
			m[s] = why
		}
	}
	return m
}()

// codedWords mark an integer column whose numbers are labels: an age
// group (0, 5, 10…), a cluster, a class, a code.
var codedWords = map[string]bool{"group": true, "cluster": true, "class": true, "category": true, "type": true, "bracket": true,
	"band": true, "code": true, "zip": true, "zipcode": true, "fips": true, "postcode": true, "cohort": true, "segment": true}

// stockWords name a level counted at a point of time, whose sum over
// periods means nothing, with what it is.
var stockWords = map[string]string{
	"population": "a population", "headcount": "a headcount", "employment": "an employment level", "employed": "an employment level",
	"employee": "a headcount", "workforce": "a headcount", "unemployment": "a count of the unemployed", "unemployed": "a count of the unemployed",
	"inventory": "an inventory", "balance": "a balance", "enrollment": "an enrolment", "enrolment": "an enrolment",
	"membership": "a membership", "subscriber": "a subscriber count", "resident": "a population", "capital": "a capital stock",
	"outstanding": "an amount outstanding", "holding": "a holding",
}

// flowWords mark a column of what happened during a period (a change, new
// hires), which adds up over periods even in a file of levels.
var flowWords = map[string]bool{"change": true, "new": true, "net": true, "growth": true, "diff": true, "difference": true,
	"delta": true, "added": true, "hire": true, "separation": true, "quit": true, "layoff": true, "flow": true, "gain": true,
	"loss": true, "birth": true, "death": true, "inflow": true, "outflow": true}

// yearLow and yearHigh bound the values of an integer column of years.
const yearLow, yearHigh = 1500, 2200

// idWords mark a column of identifiers.
var idWords = map[string]bool{"id": true, "uuid": true, "uid": true, "key": true, "code": true}

// columnWords splits a column name into its concept words: English words
// canonical, Chinese words segmented and put in English where the
// vocabulary knows them; units in brackets and symbols are dropped.
func columnWords(name string) (words []string, pct bool) {
	n := normalize(strings.TrimSpace(name))
	pct = strings.Contains(n, "%")
	n = unitSuffix.ReplaceAllString(n, "")
	for _, part := range splitHanRuns(n) {
		if part.han {
			for _, t := range segmentHan(part.s, 0, nil) {
				if t.ent != nil && t.ent.role == roleGrain && t.ent.value == "year" && (t.w == "年份" || t.w == "年度" || t.w == "年") {
					// 年份, the year column of a Chinese table.
					words = append(words, "year")
				} else if t.ent != nil && t.ent.role == roleGrain && (t.w == "季度" || t.w == "月份" || t.w == "月" || t.w == "周") {
					// 季度, a column of quarters.
					words = append(words, t.ent.value)
				} else if t.ent != nil && t.ent.role == roleWord {
					for _, w := range strings.Fields(t.ent.value) {
						words = append(words, canonOf(w))
					}
				} else if t.w == "数量" || t.w == "件数" {
					words = append(words, "quantity")
				} else if t.w == "人数" {
					// 人数, a headcount column: "people" in English.
					words = append(words, "people")
				} else if parts := vocabSplit(t.w); parts != nil {
					// A word of the segmenter's made of vocabulary words
					// (年龄组: 年龄 age, 组 group): their concepts.
					for _, w := range parts {
						words = append(words, canonOf(w))
					}
				} else {
					words = append(words, t.w)
				}
			}
			continue
		}
		for _, w := range nameTokens(part.s) {
			for _, p := range splitWord(w) {
				words = append(words, canonOf(p.s))
			}
		}
	}
	return words, pct
}

// valueConcept is the glossary's English for a word that may name a
// category value by meaning (男性 → male, 中国 → china, "female"), ""
// for other words.
func valueConcept(t word) string {
	if t.han {
		if t.ent != nil && t.ent.role == roleWord {
			return t.ent.value
		}
		return ""
	}
	if valueWords[t.w] {
		return t.w
	}
	return ""
}

// namesColumn reports whether concept words ws name a column of the
// table, which a value's meaning then does not stand for.
func (p *parsed) namesColumn(ws string) bool {
	for _, c := range p.t.cols {
		if matchTier(strings.Fields(ws), c) > 0 {
			return true
		}
	}
	return false
}

// demonyms are the country names of the adjectives not made from them
// by a suffix.
var demonyms = map[string][]string{
	"american": {"usa", "us", "united states", "america"}, "british": {"uk", "united kingdom", "britain"},
	"german": {"germany"}, "french": {"france"}, "dutch": {"netherlands"}, "swiss": {"switzerland"},
	"swedish": {"sweden"}, "spanish": {"spain"}, "english": {"england"},
}

// derivedValues are the values an adjective may be made from, normalised:
// snowy → snow, foggy → fog, japanese → japan, european → europe, indian
// → india, american → usa…
func derivedValues(w string) []string {
	w = strings.ToLower(w)
	out := slices.Clone(demonyms[w])
	if len(w) < 5 {
		return out
	}
	switch {
	case strings.HasSuffix(w, "y"):
		b := w[:len(w)-1]
		out = append(out, b)
		if n := len(b); n >= 3 && b[n-1] == b[n-2] {
			out = append(out, b[:n-1]) // foggy, sunny
		}
	case strings.HasSuffix(w, "ese"):
		out = append(out, w[:len(w)-3], w[:len(w)-3]+"a") // japanese; chinese → china
	case strings.HasSuffix(w, "ian"):
		out = append(out, w[:len(w)-1], w[:len(w)-3]+"a") // indian → india; canadian → canada
	case strings.HasSuffix(w, "an"):
		out = append(out, w[:len(w)-2], w[:len(w)-1]) // european → europe; korean → korea
	}
	return out
}

// valueWords are the glossary's concepts that are category values.
var valueWords = map[string]bool{"male": true, "female": true}

// vocabSplit is the English concept words of a Chinese word that the
// vocabulary's concept words cover whole, in two or more (年龄组 → age,
// group); nil when they do not.
func vocabSplit(w string) []string {
	rs := []rune(w)
	n := len(rs)
	if n < 2 {
		return nil
	}
	// best[k]: the fewest vocabulary words covering rs[:k]; from[k] where
	// the last of them starts.
	best := make([]int, n+1)
	from := make([]int, n+1)
	for k := 1; k <= n; k++ {
		best[k] = -1
		for a := 0; a < k; a++ {
			if best[a] < 0 || a == 0 && k == n {
				continue
			}
			if e, ok := zhWords[string(rs[a:k])]; ok && e.role == roleWord && (best[k] < 0 || best[a]+1 < best[k]) {
				best[k], from[k] = best[a]+1, a
			}
		}
	}
	if best[n] < 2 {
		return nil
	}
	var out []string
	for k := n; k > 0; k = from[k] {
		out = append(strings.Fields(zhWords[string(rs[from[k]:k])].value), out...)
	}
	return out
}

// initialsOf is the first letters of words.
func initialsOf(words []string) string {
	var b strings.Builder
	for _, w := range words {
		b.WriteString(w[:1])
	}
	return b.String()
}

type run struct {
	s   string
	han bool
}

func splitHanRuns(s string) []run {
	var out []run
	for _, r := range s {
		h := isHanRune(r)
		if len(out) == 0 || out[len(out)-1].han != h {
			out = append(out, run{han: h})
		}
		out[len(out)-1].s += string(r)
	}
	return out
}

// groundTable describes a sheet's columns for the parse.
func groundTable(fi int, f *preview.FilePreview, s *preview.SheetPreview) *gtable {
	t := &gtable{fi: fi, file: f, sheet: s}
	t.stem = fileStem(f.Name)
	for k, c := range s.Columns {
		g := &gcol{name: c.Name, typ: c.Type, values: map[string]string{}}
		g.numeric = c.Type == preview.ColumnInt || c.Type == preview.ColumnFloat
		g.date = c.Type == preview.ColumnDate || c.Type == preview.ColumnDatetime
		g.text = c.Type == preview.ColumnText || c.Type == preview.ColumnBool
		var pct bool
		g.words, pct = columnWords(c.Name)
		if toks := nameTokens(c.Name); len(toks) >= 2 {
			g.initials = initialsOf(toks)
		}
		if c.Type == preview.ColumnText && len(g.words) == 1 && (g.words[0] == "date" || g.words[0] == "datetime" || g.words[0] == "timestamp" || g.words[0] == "日期") {
			// A date column written as text ("Jan 1 2000"): the
			// reading engine parses it.
			g.date, g.text = true, false
		}
		for _, w := range g.words {
			if idWords[w] {
				g.idish = true
			}
		}
		var st *preview.ColumnStats
		if k < len(s.Stats) {
			st = &s.Stats[k]
			g.min, g.max, g.distinct, g.decimals = st.Min, st.Max, st.Distinct, st.Decimals
			if g.text && !st.DistinctCapped {
				// Every value when the statistics list them (a category
				// named beyond the most frequent five: Drought among eleven
				// disaster types), else the most frequent.
				for _, v := range st.Top {
					if v.Value != "" {
						g.values[normalize(v.Value)] = v.Value
					}
				}
				for _, v := range st.Values {
					if v != "" {
						g.values[normalize(v)] = v
					}
				}
			}
		}
		if c.Type == preview.ColumnInt && st != nil && !st.DistinctCapped && st.Distinct > 0 && st.Distinct <= 30 && len(st.Top) == st.Distinct {
			g.counts = map[string]bool{}
			for _, v := range st.Top {
				g.counts[v.Value] = true
			}
		}
		if g.text {
			// The sample rows' values too: a category with more values
			// than the statistics' top list.
			for _, row := range s.Rows {
				if k < len(row) && row[k] != "" {
					g.values[normalize(row[k])] = row[k]
				}
			}
		}
		if g.numeric {
			switch {
			case pct:
				g.nonSum = "a percentage"
			case g.idish:
				g.nonSum = "an id"
			default:
				for _, w := range g.words {
					if why, ok := nonSummable[w]; ok {
						g.nonSum = why
						break
					}
					if why, ok := nonSummableStems[stemWord(w)]; ok {
						g.nonSum = why
						break
					}
				}
				if g.nonSum == "" {
					g.nonSum = ratioKind(c.Name, g.words)
				}
			}
		}
		if c.Type == preview.ColumnInt && slices.Contains(g.words, "year") {
			g.yearInt = true
			if st != nil && st.Min != "" {
				lo, _ := strconv.Atoi(st.Min)
				hi, _ := strconv.Atoi(st.Max)
				g.yearInt = lo >= yearLow && hi <= yearHigh
			}
			if g.yearInt {
				g.nonSum = "a year"
			}
		}
		if c.Type == preview.ColumnInt && !g.yearInt && !g.idish {
			for _, w := range g.words {
				if codedWords[w] {
					g.coded = true
					g.nonSum = "a code whose numbers are labels"
				}
			}
		}
		t.cols = append(t.cols, g)
	}
	t.markStocks()
	t.splitStem()
	if f.Kind == preview.KindXLSX {
		for j := range f.Sheets {
			o := &f.Sheets[j]
			if sameSchema(o, s) {
				t.sheets = append(t.sheets, o.Name)
			}
		}
	}
	return t
}

// splitStem splits a word of the file's name that starts or ends with a
// word of one of its columns' names into the two (statecrime with a
// column state: state, crime), so the rest reads as the table's subject.
// The name as written is kept in stemWhole.
func (t *gtable) splitStem() {
	var out []string
	split := false
	for _, sw := range t.stem {
		done := false
		for _, c := range t.cols {
			for _, cw := range c.words {
				if len(cw) < 3 || len(sw)-len(cw) < 3 || !isLetters(cw) || done {
					continue
				}
				if strings.HasPrefix(sw, cw) {
					out, done = append(out, cw, canonOf(sw[len(cw):])), true
				} else if strings.HasSuffix(sw, cw) {
					out, done = append(out, canonOf(sw[:len(sw)-len(cw)]), cw), true
				}
			}
		}
		if !done {
			out = append(out, sw)
		}
		split = split || done
	}
	if split {
		t.stemWhole, t.stem = t.stem, out
	}
}

// markStocks sets the stock of each numeric column that counts a level:
// by its own words (population, employment, balance), or, for a column
// that counts with no subject of its own (人数, count) or names a part of
// the whole (construction in us-employment.csv), by the file's subject,
// unless its words say it is a flow (a change, new hires).
func (t *gtable) markStocks() {
	subject := ""
	for _, w := range t.stem {
		if why, ok := stockWords[canonOf(w)]; ok {
			subject = why
		}
	}
	for _, c := range t.cols {
		if !c.numeric || c.yearInt || c.idish || c.coded {
			continue
		}
		flow := false
		for _, w := range c.words {
			if flowWords[w] || flowWords[stemWord(w)] {
				flow = true
			}
		}
		if flow {
			continue
		}
		for _, w := range c.words {
			if why, ok := stockWords[w]; ok {
				c.stock = why
			} else if why, ok := stockWords[stemWord(w)]; ok {
				c.stock = why
			}
		}
		if c.stock == "" && subject != "" && c.nonSum == "" {
			c.stock = subject
		}
	}
}

func sameSchema(a, b *preview.SheetPreview) bool {
	if len(a.Columns) != len(b.Columns) || len(a.Columns) == 0 {
		return false
	}
	for i := range a.Columns {
		if a.Columns[i].Name != b.Columns[i].Name {
			return false
		}
	}
	return true
}

// lexicon is the table's Chinese words for the segmentation: its column
// names (and their Chinese parts), values and sheet names.
func (t *gtable) lexicon() map[string]bool {
	lex := map[string]bool{}
	addHan := func(s string) {
		for _, r := range splitHanRuns(normalize(s)) {
			if r.han && utf8.RuneCountInString(r.s) >= 2 {
				lex[r.s] = true
			}
		}
	}
	for _, c := range t.cols {
		addHan(unitSuffix.ReplaceAllString(c.name, ""))
		for v := range c.values {
			addHan(v)
		}
	}
	for _, s := range t.sheets {
		addHan(s)
	}
	return lex
}

// itemKind is what a placed span of the request is.
type itemKind int

const (
	itemVocab     itemKind = iota // a vocabulary entry
	itemColumn                    // a column
	itemValue                     // a category value: a filter
	itemSheet                     // a sheet of the workbook
	itemFile                      // the file's name
	itemNumber                    // a number: top N or a year
	itemAmbig                     // words naming several columns
	itemRowNoun                   // what is counted: orders, rows, records
	itemUnplaced                  // a word the parse could not place
	itemStage                     // a word of a funnel's stage list (visit -> signup -> purchase)
	itemOtherFile                 // the name of another file given with this one
)

// item is one placed span.
type item struct {
	kind  itemKind
	ent   entry
	col   *gcol
	value string
	cands []string
	num   int
	from  int // word indexes [from, to)
	to    int
	text  string
}

// rowNouns are what "number of …" counts when no column is named so.
var rowNouns = map[string]bool{"row": true, "record": true, "order": true, "transaction": true, "observation": true, "case": true,
	"entry": true, "sale": true, "purchase": true, "visit": true, "event": true, "day": true, "订单": true, "记录": true, "行": true, "笔": true, "单": true, "天数": true}

// parsed is a request's placed items over one table.
type parsed struct {
	t      *gtable
	toks   []word
	items  []item
	lang   string
	stages []string        // the request's funnel stages, in order
	stageW map[string]bool // their words
	text   string          // the normalised request the words' offsets are in
	// excluded are the values the request excludes, by their first word
	// (placeExclusions); meantAmbig the words two values fit (placeMeant).
	excluded   map[int]bool
	meantAmbig map[string][]string
}

// wordsOf is the concept words of tokens: English canonical, Chinese as
// the vocabulary puts them in English, or themselves.
func wordsOf(toks []word) []string {
	var out []string
	for _, t := range toks {
		if t.ent != nil && t.ent.role == roleWord {
			for _, w := range strings.Fields(t.ent.value) {
				out = append(out, canonOf(w))
			}
		} else if t.ent != nil && t.ent.role == roleStop {
			continue
		} else {
			out = append(out, t.w)
		}
	}
	return out
}

// matchTier says how well request words ws name column c: 3 the same
// words, 2 the same but for generic words (name, id, speed), 1 a part of
// the column's words that leaves out no qualifier (region for
// sales_region, not temperature for temp_max), 0 not at all.
func matchTier(ws []string, c *gcol) int {
	if len(ws) == 0 || len(c.words) == 0 {
		return 0
	}
	req := stemSet(ws)
	if len(req) < len(ws) {
		// "max temp_max": a name says each word once; the word said
		// again is not the column's (an aggregation here).
		return 0
	}
	col := stemSet(c.words)
	if equalSets(req, col) {
		return 3
	}
	strip := func(s map[string]bool) map[string]bool {
		out := map[string]bool{}
		for w := range s {
			if !genericWords[w] && !genericWords[stemWord(w)] {
				out[w] = true
			}
		}
		return out
	}
	rs, cs := strip(req), strip(col)
	if len(rs) > 0 && equalSets(rs, cs) {
		return 2
	}
	if len(rs) == 0 && len(cs) == 0 && len(req) > len(col) && func() bool {
		for w := range col {
			if !req[w] {
				return false
			}
		}
		return true
	}() {
		// "info sector" for information: a name of generic words, said
		// with another generic word.
		return 2
	}
	for w := range req {
		if !col[w] {
			return 0
		}
	}
	for _, w := range c.words {
		if !req[stemWord(w)] && qualifierWords[w] && !rateImplied(w, ws) {
			return 0
		}
	}
	return 1
}

// rateImplied reports whether qualifier w of a column's name is "rate"
// and a word of the request is a rate by its meaning (inflation for
// 通胀率 "inflation rate"): the request then names the rate.
func rateImplied(w string, ws []string) bool {
	if w != "rate" {
		return false
	}
	for _, r := range ws {
		if r != "rate" && nonSummable[r] == "a rate" {
			return true
		}
	}
	return false
}

// derivations are the English endings a word and its stem differ by
// (investment ↔ invest, expectancy ↔ expect, unemployed ↔ unemployment).
var derivations = []string{"izations", "ization", "ations", "ation", "ments", "ment", "ancy", "ency", "ance", "ence", "ions", "ion", "ating", "ated", "ing", "ed"}

// stemWord is w without a derivational ending, when at least five letters
// are left; other words are themselves.
func stemWord(w string) string {
	for _, d := range derivations {
		if s, ok := strings.CutSuffix(w, d); ok && len(s) >= 5 {
			return s
		}
	}
	return w
}

func stemSet(ws []string) map[string]bool {
	m := map[string]bool{}
	for _, w := range ws {
		m[stemWord(w)] = true
	}
	return m
}

func setOf(ws []string) map[string]bool {
	m := map[string]bool{}
	for _, w := range ws {
		m[w] = true
	}
	return m
}

func equalSets(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for w := range a {
		if !b[w] {
			return false
		}
	}
	return true
}

// correctTypos replaces request words of five letters or more that are
// one edit away from a column word or a vocabulary word (and are neither
// themselves).
func (p *parsed) correctTypos() {
	known := map[string]bool{}
	for _, c := range p.t.cols {
		for _, w := range c.words {
			known[w] = true
		}
	}
	for i := range p.toks {
		t := &p.toks[i]
		if t.han || t.num || len(t.w) < 5 || known[t.w] {
			continue
		}
		if _, ok := enWords[t.w]; ok {
			continue
		}
		if _, ok := synonymWords[t.w]; ok {
			continue
		}
		// A typo is corrected only to the one word it is an edit away
		// from: of two, a map's order would pick one at random.
		if w := oneEditAway(t.w, known); w != "" {
			t.w = w
			continue
		}
		if w := oneEditAway(t.w, enWords); w != "" {
			t.w = w
		}
		if _, ok := enWords[t.w]; !ok {
			if w := lettersDropped(t.w, known); w != "" {
				t.w = w // horsepwr
			}
		}
	}
}

// isFunction reports whether word t is a vocabulary word other than a
// concept word.
func isFunction(t word) bool {
	if t.han {
		return t.ent != nil && t.ent.role != roleWord
	}
	_, ok := enWords[t.w]
	return ok
}

// place reads the tokens left to right, each span placed once: a column
// (the longest run of words naming one), a value, a sheet or file name,
// a vocabulary phrase or word, a number; what is left is unplaced.
func (p *parsed) place() {
	toks := p.toks
	n := len(toks)
	for i := 0; i < n; {
		if it, ok := p.placeAt(i); ok {
			it.text = spanText(toks[it.from:it.to])
			p.items = append(p.items, it)
			i = it.to
			continue
		}
		p.items = append(p.items, item{kind: itemUnplaced, from: i, to: i + 1, text: toks[i].raw})
		i++
	}
}

func spanText(ts []word) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 && !(t.han && ts[i-1].han) {
			b.WriteByte(' ')
		}
		b.WriteString(t.raw)
	}
	return b.String()
}

// placeAt places the span starting at word i.
func (p *parsed) placeAt(i int) (item, bool) {
	toks := p.toks
	n := len(toks)
	maxW := min(6, n-i)

	// Values and sheet names, exactly as written, longest first (a
	// funnel's stages are stages, though the stage column holds them).
	for w := maxW; w >= 1 && !p.stageW[toks[i].raw]; w-- {
		span := toks[i : i+w]
		if span[0].num && w == 1 {
			break
		}
		key := joinRaw(span)
		for _, s := range p.t.sheets {
			if (normalize(s) == key || span[0].han && strings.Join(wordsOf(span), " ") == normalize(s)) && len(p.t.sheets) > 1 {
				return item{kind: itemSheet, value: s, from: i, to: i + w}, true
			}
		}
		var found *item
		for _, c := range p.t.cols {
			if v, ok := c.values[key]; ok && (w > 1 || !isFunction(span[0]) && synonymWords[span[0].w] == nil) {
				if found == nil {
					found = &item{kind: itemValue, col: c, value: v, from: i, to: i + w}
				}
				// ATL in both origin and destination: the build
				// takes the column said beside it, or asks.
				found.cands = append(found.cands, c.name)
			}
		}
		if found != nil {
			if len(found.cands) == 1 {
				found.cands = nil
			}
			return *found, true
		}
		if w == 1 {
			// A value named by its meaning through the glossary: 男性
			// or "male" for 男, "female" for 女.
			if want := valueConcept(span[0]); want != "" && !p.namesColumn(want) {
				for _, c := range p.t.cols {
					for k, v := range c.values {
						if e, ok := zhWords[k]; ok && e.role == roleWord && e.value == want || span[0].han && (k == want || canonKey(k) == canonKey(want)) {
							// 男性 for 男; 中国 for China.
							return item{kind: itemValue, col: c, value: v, from: i, to: i + w}, true
						}
					}
				}
			}
		}
		if w == 1 && !span[0].han && !isFunction(span[0]) {
			// A value named by a word made from it: "snowy", "foggy"
			// for snow, fog; "Japanese", "European" for Japan, Europe.
			for _, c := range p.t.cols {
				for _, cand := range derivedValues(span[0].w) {
					if v, ok := c.values[cand]; ok && !p.namesColumn(span[0].w) {
						return item{kind: itemValue, col: c, value: v, from: i, to: i + 1}, true
					}
				}
			}
		}
		if w == 1 && !span[0].han && !isFunction(span[0]) && len(span[0].raw) >= 2 && isLetters(span[0].raw) {
			// A value of several words named by its initials: "GE" for
			// General Electric, when no other value or column has them.
			var hit *item
			n := 0
			for _, c := range p.t.cols {
				if c.initials == span[0].raw {
					n++
				}
				if c.text && len(c.values) < c.distinct {
					// Values the preview does not list may share them.
					n += 2
				}
				for k, v := range c.values {
					if ts := nameTokens(k); len(ts) >= 2 && initialsOf(ts) == span[0].raw {
						n++
						hit = &item{kind: itemValue, col: c, value: v, from: i, to: i + 1}
					}
				}
			}
			if n == 1 && hit != nil {
				return *hit, true
			}
		}
		if w == 1 && !span[0].han && !isFunction(span[0]) && synonymWords[span[0].w] == nil && span[0].w != normalize(span[0].raw) && !p.namesColumn(span[0].w) {
			// A value in the plural: "floods" for Flood.
			for _, c := range p.t.cols {
				if v, ok := c.values[span[0].w]; ok {
					return item{kind: itemValue, col: c, value: v, from: i, to: i + 1}, true
				}
			}
		}
		if w > 1 && !span[0].han {
			// A value of several words with plurals folded: "fossil
			// fuel" for Fossil Fuels.
			want := canonJoin(span)
			for _, c := range p.t.cols {
				for k, v := range c.values {
					if canonKey(k) == want {
						return item{kind: itemValue, col: c, value: v, from: i, to: i + w}, true
					}
				}
			}
		}
	}
	// A file's name followed by a file word ("the carriers table",
	// "flights.csv"): this table's, or another file's.
	if it, ok := p.fileAt(i, true); ok {
		return it, true
	}
	// A calendar part said in words ("month of the year", "day of week")
	// before the columns that its words name (month, year of a table of
	// both): a part of the calendar, not two groupings.
	if !toks[i].han {
		for w := min(4, n-i); w >= 3; w-- {
			var ws []string
			for _, t := range toks[i : i+w] {
				ws = append(ws, t.w)
			}
			if e, ok := enPhrases[strings.Join(ws, " ")]; ok && e.role == rolePart {
				return item{kind: itemVocab, ent: e, from: i, to: i + w}, true
			}
		}
	}
	// Columns: the longest run of words naming one column best (a name
	// exactly as the file spells it first).
	for w := maxW; w >= 1; w-- {
		span := toks[i : i+w]
		key := joinRaw(span)
		for _, c := range p.t.cols {
			if slices.Contains(nameVariants(c.name), key) {
				return item{kind: itemColumn, col: c, from: i, to: i + w}, true
			}
		}
		if span[0].num {
			continue
		}
		if span[0].ent != nil && span[0].ent.role == roleStop || !span[0].han && enWords[span[0].w].role == roleStop && w > 1 {
			continue
		}
		ws := p.spanWords(span)
		if len(ws) == 0 || w > 1 && !p.oneName(span) {
			continue
		}
		if len(ws) > 1 {
			// The table's own subject need not be said: "unemployment
			// rate" in unemployment-across-industries names rate.
			// Not when the subject is the head and names a column
			// itself: in "urban states" and "price stock" it is what is
			// ranked ("retail jobs" is retail).
			if rest := p.withoutStem(ws); len(rest) > 0 && len(rest) < len(ws) && (contentWords(rest) || p.wholeName(rest)) && !p.headNamesColumn(ws) && !p.groupedSubject(toks, i, ws, rest) {
				ws = rest
			}
		}
		bestTier, var_ := 0, []*gcol(nil)
		var generic []*gcol
		for _, c := range p.t.cols {
			tier := matchTier(ws, c)
			if tier == 1 && len(ws) == 1 && genericWords[ws[0]] && !(w == 1 && isFunction(span[0])) {
				generic = append(generic, c)
			}
			// A partial match needs words that are not the vocabulary's
			// own ("maximum" alone does not name temp_max).
			if tier == 1 && (w == 1 && isFunction(span[0]) || len(ws) == 1 && genericWords[ws[0]]) {
				tier = 0
			}
			if tier == 2 && p.absorbsColumn(ws) && slices.ContainsFunc(ws, func(w string) bool { return !genericWords[w] && !genericWords[stemWord(w)] }) {
				tier = 0
			}
			if tier > bestTier {
				bestTier, var_ = tier, []*gcol{c}
			} else if tier == bestTier && tier > 0 {
				var_ = append(var_, c)
			}
		}
		if bestTier == 0 && len(generic) == 1 && generic[0].numeric {
			// A generic word alone names the one numeric column that has
			// it: "speed" for Speed IAS in knots.
			return item{kind: itemColumn, col: generic[0], from: i, to: i + w}, true
		}
		if bestTier == 0 && w == 2 && !span[0].han {
			// "capital stock": the stock a column is said to be (capital).
			for _, c := range p.t.cols {
				if c.stock != "" && strings.Join(ws, " ") == strings.TrimPrefix(strings.TrimPrefix(c.stock, "an "), "a ") && slices.Contains(c.words, ws[0]) {
					return item{kind: itemColumn, col: c, from: i, to: i + w}, true
				}
			}
		}
		if bestTier == 0 {
			// Initials: "mpg" names Miles_per_Gallon.
			if w == 1 && !span[0].han && len(span[0].raw) >= 2 {
				var hits []*gcol
				for _, c := range p.t.cols {
					if c.initials == span[0].raw {
						hits = append(hits, c)
					}
				}
				if len(hits) == 1 {
					return item{kind: itemColumn, col: hits[0], from: i, to: i + 1}, true
				}
			}
			// Synonyms of one word: "revenue" names amount.
			if w == 1 && !isFunction(span[0]) {
				var hits []*gcol
				for _, syn := range synonymWords[ws[0]] {
					for _, c := range p.t.cols {
						if matchTier([]string{syn}, c) >= 1 && !slices.Contains(hits, c) {
							hits = append(hits, c)
						}
					}
				}
				if len(hits) == 1 {
					return item{kind: itemColumn, col: hits[0], from: i, to: i + 1}, true
				}
				if len(hits) > 1 {
					return item{kind: itemAmbig, cands: colNames(hits), from: i, to: i + 1}, true
				}
			}
			continue
		}
		if len(var_) == 1 {
			return item{kind: itemColumn, col: var_[0], from: i, to: i + w}, true
		}
		// Several columns: an exact name among them wins.
		var exact []*gcol
		for _, c := range var_ {
			if normalize(c.name) == joinRaw(span) {
				exact = append(exact, c)
			}
		}
		if len(exact) == 1 {
			return item{kind: itemColumn, col: exact[0], from: i, to: i + w}, true
		}
		if w == 1 && isFunction(span[0]) {
			break
		}
		return item{kind: itemAmbig, cands: colNames(var_), from: i, to: i + w}, true
	}
	if it, ok := p.fileRowAt(i); ok {
		return it, true
	}
	if p.stageW[toks[i].raw] {
		return item{kind: itemStage, from: i, to: i + 1}, true
	}
	// A file's name alone.
	if it, ok := p.fileAt(i, false); ok {
		return it, true
	}
	if it, ok := p.placeOfFileAt(i); ok {
		return it, true
	}
	// English phrases, longest first.
	if !toks[i].han {
		for w := min(4, n-i); w >= 2; w-- {
			var ws []string
			for _, t := range toks[i : i+w] {
				ws = append(ws, t.w)
			}
			if e, ok := enPhrases[strings.Join(ws, " ")]; ok {
				return item{kind: itemVocab, ent: e, from: i, to: i + w}, true
			}
		}
	}
	t := toks[i]
	if t.num {
		v, _ := strconv.Atoi(t.w)
		return item{kind: itemNumber, num: v, from: i, to: i + 1}, true
	}
	if t.han && t.ent != nil {
		return item{kind: itemVocab, ent: *t.ent, from: i, to: i + 1}, true
	}
	if t.han {
		if e, ok := zhWords[t.w]; ok {
			return item{kind: itemVocab, ent: e, from: i, to: i + 1}, true
		}
	} else if e, ok := enWords[t.w]; ok {
		return item{kind: itemVocab, ent: e, from: i, to: i + 1}, true
	}
	if rowNouns[t.w] {
		return item{kind: itemRowNoun, from: i, to: i + 1}, true
	}
	return item{}, false
}

// fileWords follow a file's name: "the sales table", "销售表".
var fileWords = map[string]bool{"table": true, "file": true, "csv": true, "xlsx": true, "json": true, "tsv": true, "data": true,
	"dataset": true, "sheet": true, "spreadsheet": true, "workbook": true, "表": true, "文件": true, "数据": true, "表格": true}

// fileAt places a file's name at token i; with needWord only when a file
// word follows it.
func (p *parsed) fileAt(i int, needWord bool) (item, bool) {
	toks := p.toks
	n := len(toks)
	for k, st := range append([][]string{p.t.stem, p.t.stemWhole}, p.t.otherStems...) {
		if len(st) == 0 || i+len(st) > n || !slices.Equal(wordsOf(toks[i:i+len(st)]), st) {
			continue
		}
		to := i + len(st)
		if needWord && (to >= n || !fileWords[toks[to].w] && !fileWords[toks[to].raw]) {
			continue
		}
		it := item{kind: itemFile, from: i, to: to}
		if k > 1 {
			it.kind = itemOtherFile
		}
		return it, true
	}
	return item{}, false
}

// oneName reports whether a run of words can be one column's name: it
// holds no word of the request's structure (by, the, 的, trend) that no
// column's name has.
func (p *parsed) oneName(span []word) bool {
	for _, t := range span {
		var e entry
		if t.han && t.ent != nil {
			e = *t.ent
		} else if !t.han {
			e = enWords[t.w]
		}
		switch e.role {
		case roleStop, roleBy, roleIn, roleCue, roleTimeWord, roleCompare, roleAcross:
			if !p.colWord(t.w) && !(t.han && p.colWord(cueConcepts[t.raw])) {
				return false
			}
		}
	}
	return true
}

// cueConcepts are the English column words of Chinese words that also cue
// a built-in: 非农就业变化 names nonfarm_change, when a column's name has
// "change", rather than a trend of nonfarm.
var cueConcepts = map[string]string{"变化": "change", "增长": "growth"}

// spanWords is wordsOf a span that may be one column's name, a Chinese cue
// word read as the column word it means when a column's name has it
// (cueConcepts).
func (p *parsed) spanWords(span []word) []string {
	ws := wordsOf(span)
	for i, w := range ws {
		if en := cueConcepts[w]; en != "" && p.colWord(en) {
			ws[i] = en
		}
	}
	return ws
}

func (p *parsed) colWord(w string) bool {
	for _, c := range p.t.cols {
		if slices.Contains(c.words, w) {
			return true
		}
	}
	return false
}

// absorbsColumn reports whether the generic words of ws name a column of
// their own ("price and demand" names price, not demand alone).
func (p *parsed) absorbsColumn(ws []string) bool {
	for _, w := range ws {
		if !genericWords[w] {
			continue
		}
		for _, c := range p.t.cols {
			if len(c.words) == 1 && c.words[0] == w {
				return true
			}
		}
	}
	return false
}

func joinRaw(ts []word) string {
	var parts []string
	for _, t := range ts {
		parts = append(parts, t.raw)
	}
	sep := " "
	if len(ts) > 0 && ts[0].han {
		sep = ""
	}
	return strings.Join(parts, sep)
}

func colNames(cs []*gcol) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
}

// parseOn places request's words over table t.
func parseOn(request string, t *gtable) *parsed {
	text := normalize(request)
	p := &parsed{t: t, lang: LangOf(request), text: text}
	p.toks = splitCountWords(tokenize(text, t.lexicon()), t)
	if kept := slices.DeleteFunc(slices.Clone(p.toks), func(w word) bool { return courtesies[w.raw] || courtesies[w.w] }); len(kept) > 0 {
		p.toks = kept
	}
	if st := parseRequest(request, nil).stages; len(st) >= 2 {
		p.stages, p.stageW = st, map[string]bool{}
		for _, s := range st {
			for _, w := range tokenize(normalize(s), t.lexicon()) {
				p.stageW[w.raw] = true
			}
		}
	}
	p.correctTypos()
	p.synonymsInNames()
	p.place()
	p.placeValues()
	return p
}

// withoutStem is ws without the words of the file's name (stems compared).
func (p *parsed) withoutStem(ws []string) []string {
	stem := stemSet(p.t.stem)
	var out []string
	for _, w := range ws {
		if !stem[stemWord(w)] && !stem[stemWord(stripPlural(w))] && !p.stemSynonym(stem, w) {
			out = append(out, w)
		}
	}
	return out
}

// headNamesColumn reports whether the last of words ws is a word of the
// file's name that names a column by itself or by a synonym (state for
// the column state in statecrime.tsv, stock for symbol in stocks.csv).
func (p *parsed) headNamesColumn(ws []string) bool {
	last := ws[len(ws)-1]
	if len(p.withoutStem([]string{last})) != 0 {
		return false
	}
	for _, w := range append([]string{last}, synonymWords[last]...) {
		for _, c := range p.t.cols {
			if matchTier([]string{w}, c) >= 1 {
				return true
			}
		}
	}
	return false
}

// stemSynonym reports whether w is a synonym of one of the file name's
// words and of no column's ("jobs" in us-employment.csv; not "sells" in
// sales.csv with a revenue column, which it names).
func (p *parsed) stemSynonym(stem map[string]bool, w string) bool {
	found := false
	for _, syn := range synonymWords[w] {
		if stem[stemWord(syn)] {
			found = true
			continue
		}
		for _, c := range p.t.cols {
			if matchTier([]string{syn}, c) >= 1 {
				return false
			}
		}
	}
	return found
}

// canonJoin is the words of a span, canonical (singular, abbreviations
// spelt out), joined by spaces.
func canonJoin(ts []word) string {
	var ws []string
	for _, t := range ts {
		ws = append(ws, t.w)
	}
	return strings.Join(ws, " ")
}

// canonKey is a normalised value's words, canonical, joined by spaces.
func canonKey(v string) string {
	var ws []string
	for _, t := range nameTokens(v) {
		ws = append(ws, canonOf(t))
	}
	return strings.Join(ws, " ")
}

// contentWords reports whether ws has a word other than the vocabulary's
// own (per, by, the) and generic ones (name, value).
func contentWords(ws []string) bool {
	for _, w := range ws {
		if _, ok := enWords[w]; ok || genericWords[w] {
			continue
		}
		return true
	}
	return false
}

// fileRowAt places at word i what the rows of an event log are, when the
// file is named for them: "strikes" or "bird strikes" in
// birdstrikes.csv (the words making the file's name, or its last part of
// five letters or more).
func (p *parsed) fileRowAt(i int) (item, bool) {
	subject := p.t.subject()
	if subject == "" || !p.t.eventLog() {
		return item{}, false
	}
	st := subject
	if t := p.toks[i]; t.han {
		// 鸟击 (bird strike), 撞击 (strike) in birdstrikes.csv: the
		// glossary's English words, joined, are the name or its end.
		if t.ent == nil || t.ent.role != roleWord {
			return item{}, false
		}
		ws := strings.Fields(t.ent.value)
		for k := range ws {
			ws[k] = canonOf(ws[k])
		}
		if w := strings.Join(ws, ""); w == st || len(w) >= 5 && strings.HasSuffix(st, w) {
			return item{kind: itemRowNoun, value: ws[len(ws)-1], from: i, to: i + 1}, true
		}
		return item{}, false
	}
	if i+1 < len(p.toks) && !p.toks[i+1].han && p.toks[i].w+p.toks[i+1].w == st {
		return item{kind: itemRowNoun, value: p.toks[i+1].w, from: i, to: i + 2}, true
	}
	if w := p.toks[i].w; len(w) >= 5 && w != st && strings.HasSuffix(st, w) || w == st && len(p.t.stem) > 1 {
		// "strikes" in birdstrikes.csv; "flights" in flights-2k.json,
		// whose name has more than the word.
		return item{kind: itemRowNoun, value: w, from: i, to: i + 1}, true
	}
	return item{}, false
}

// subject is the one word of the file's name that can name what it holds
// (flight in flights-2k.json: the digits and single letters aside), ""
// when it has none or several.
func (t *gtable) subject() string {
	var content []string
	for _, w := range t.stem {
		if len(w) >= 3 && isLetters(w) {
			content = append(content, w)
		}
	}
	if len(content) != 1 {
		return ""
	}
	return content[0]
}

// wholeName reports whether ws are all the words of a column's name
// ("count" for the column count).
func (p *parsed) wholeName(ws []string) bool {
	for _, c := range p.t.cols {
		if equalSets(setOf(ws), setOf(c.words)) {
			return true
		}
	}
	return false
}
