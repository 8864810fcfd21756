package templates

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/sift-agent/sift/preview"
)

// problem is why a reading is not complete, in English with its Chinese.
type problem struct{ en, zh string }

// build turns the placed items into a Reading and says what keeps it
// from being complete.
func (p *parsed) build() (Reading, []problem) {
	t := p.t
	r := Reading{File: t.file.Name}
	if t.file.Kind == preview.KindXLSX {
		r.Sheet = t.sheet.Name
	}
	var probs []problem
	add := func(en, zh string, args ...any) {
		probs = append(probs, problem{fmt.Sprintf(en, args...), fmt.Sprintf(zh, args...)})
	}
	var (
		aggs     []item
		cues     = map[string]bool{}
		grain    string
		part     string
		order    string
		compare  string
		timeWord bool
		ranking  bool
		across   bool
		// pooled are the categories said after "over" or "across"
		// ("total investment per year across firms"): summed over, or
		// split by, when nothing else groups.
		pooled    []pooledDim
		rowNoun   bool
		supers    []entry
		measures  []*gcol
		dims      []*gcol
		timeCols  []*gcol
		years     []int
		nums      []item
		sheetName string
		// boundWords are since, until, between, 以来…; spans the ranges of
		// years they and the years make.
		boundWords []item
		spans      []yearBound
		// countedPeriod is the period "how many days" counts; perGrain
		// that the grain was said as "per year", "每年".
		countedPeriod string
		perGrain      bool
		// dailyAdj: the grain is a "daily" before a measure, which
		// another grain replaces (dailyValue).
		dailyAdj bool
		// rowIs is what a row is when the file is named for it (a strike
		// in birdstrikes.csv).
		rowIs string
		// judged are the order words that judge (best, worst) rather
		// than say highest or lowest.
		judged []string
		// periodSplit: a period was said after by, per, each, 按, 每
		// ("by year", 每年), not as an adjective (monthly co2).
		periodSplit bool
		// daysCounted: a row noun that is a period (天数) is what is
		// counted, not a grain.
		daysCounted bool
		// rated are the columns the request called a rate ("murder
		// rate" for murder), averaged rather than summed.
		rated = map[*gcol]bool{}
		// bothOrders: the request says the highest and the lowest.
		bothOrders bool
	)
	byBefore := func(k int) bool {
		and := false
		for j := k - 1; j >= 0; j-- {
			it := p.items[j]
			if it.kind == itemVocab && it.ent.role == roleBy {
				return true
			}
			if it.kind == itemVocab && it.ent.role == roleAgg && it.ent.value == "count" && j > 0 && p.items[j-1].kind == itemVocab && p.items[j-1].ent.role == roleBy {
				return true // "by number of cylinders"
			}
			if it.kind == itemVocab && (it.ent.role == roleStop || it.ent.role == roleIn) {
				if conjunctions[it.text] {
					and = true
				}
				continue
			}
			if and && it.kind == itemVocab && it.ent.role == roleAcross && (strings.HasPrefix(it.text, "by ") || strings.HasPrefix(it.text, "per ")) {
				return true // "by sheet and cylinders"
			}
			// "by source and year", "按产地和气缸数": the second is grouped too.
			if and && (it.kind == itemColumn || it.kind == itemSheet || it.kind == itemVocab && it.ent.role == roleAcross || it.kind == itemVocab && it.ent.role == roleWord) {
				and = false
				continue
			}
			return false
		}
		return false
	}
	var unplaced []string
	var sheetAs string
	// seasonal: the request asks for seasonality (a calendar part).
	seasonal := false
	// busiest: "busiest" asked for the most events (rows counted).
	busiest := false
	// units are the units written in the request (unitOfMeasures).
	var units []item
	// countNums are the numbers that are a filter's count (countFilter).
	countNums := map[int]bool{}
	// "2015年": the 年 is the year's, not a grain.
	for k := 0; k+1 < len(p.items); k++ {
		a, b := p.items[k], &p.items[k+1]
		if a.kind == itemNumber && t.isYear(a.num) && b.kind == itemVocab && b.ent.role == roleGrain && (b.text == "年" || b.text == "年度") {
			b.ent = entry{role: roleStop}
		}
	}
	p.foldCounts()
	p.valueDaysAreRows()
	p.ellipsis()
	wholePart := p.wholeCalendarRange()
	for k := 0; k < len(p.items); k++ {
		it := p.items[k]
		switch it.kind {
		case itemVocab:
			e := it.ent
			switch e.role {
			case roleAgg:
				if e.value == "count" && k > 0 && k+1 < len(p.items) && p.items[k-1].kind == itemVocab && p.items[k-1].ent.role == roleBy && p.items[k+1].kind == itemColumn && p.items[k+1].col.numeric {
					// "by number of cylinders": the column is the grouping.
					continue
				}
				if e.value == "count" && k > 0 && p.items[k-1].kind == itemColumn && p.items[k-1].col.counts != nil && p.items[k-1].to == it.from && byBefore(k-1) && !slices.ContainsFunc(p.items[k+1:], func(o item) bool { return o.kind == itemColumn || o.kind == itemRowNoun || o.kind == itemFile }) {
					// "for each cyl count", "by cylinder count": the
					// column holds the counts grouped by.
					continue
				}
				aggs = append(aggs, it)
			case roleGrain:
				if p.allPeriods(it) {
					// "across all years", 所有年份, "sum of months": the
					// span summed or averaged over, not a period each.
					continue
				}
				if c := t.periodColumn(e.value, it.text); c != nil {
					// "by quarter" over a table of years with a column of
					// quarters (1–4): that column is the grouping.
					dims = appendOnce(dims, c)
					continue
				}
				prev := p.prevItem(it)
				if prev != nil && prev.kind == itemValue {
					// "how many snowy days": the value qualifies the
					// periods counted.
					prev = p.prevItem(*prev)
				}
				if prev != nil && prev.kind == itemVocab && prev.ent.role == roleAgg && prev.ent.value == "count" && countedPeriod == "" {
					// "how many days", "number of years": the periods are
					// what is counted, not the grain.
					countedPeriod = e.value
					continue
				}
				if prev := p.prevItem(it); prev != nil && prev.kind == itemVocab && prev.ent.role == roleBy && (prev.text == "per" || prev.text == "a") || eachPeriodZh(it.text) {
					perGrain = true
				}
				if p.splitsByPeriod(it) {
					periodSplit = true
				}
				if grain != "" && grain != e.value && p.dailyValue(it) {
					// "max daily precipitation each year" on one row a
					// day, "average monthly change by year" on one row a
					// month: the word says what the values are, not a
					// grain.
					continue
				}
				if grain != "" && grain != e.value && dailyAdj {
					grain, dailyAdj = e.value, false
					continue
				}
				if grain != "" && grain != e.value {
					probs = append(probs, problem{fmt.Sprintf("it names two periods (%s and %s)", grain, e.value), fmt.Sprintf("请求提到了两种周期（%s 和 %s）", zhGrain(grain), zhGrain(e.value))})
				}
				grain = e.value
				dailyAdj = p.dailyValue(it)
			case rolePart:
				part = e.value
				if p.splitsByPeriod(it) {
					periodSplit = true
				}
			case roleCue:
				cues[e.value] = true
			case roleOrder:
				if judgedOrder[it.text] {
					judged = append(judged, it.text)
				}
				if order != "" && order != e.value {
					// Unless each is the maximum or minimum of a measure
					// (below).
					bothOrders = true
				}
				order = e.value
				if it.text == "busiest" {
					// The most events: rows counted, on a table whose rows
					// are events timed to the minute (flights), not totals
					// of a period.
					if !slices.ContainsFunc(t.cols, func(c *gcol) bool { return c.typ == preview.ColumnDatetime }) {
						add("“busiest” counts events, and the rows of %s are not one event each", "“最繁忙”要数事件，而 %s 的行并非每行一个事件", t.file.Name)
					}
					rowNoun, busiest = true, true
				}
			case roleTop:
				ranking = true
			case roleBy:
			case roleCompare:
				if e.value != "with" {
					compare = e.value
				}
				for _, b := range builtins {
					if b.compareCue {
						cues[b.Name] = true
					}
				}
			case roleSuper:
				supers = append(supers, e)
				order = e.order
			case roleAcross:
				across = true
			case roleTimeWord:
				timeWord = true
			case roleBound:
				boundWords = append(boundWords, it)
			case roleWord:
				// A concept word that names no column of this table: the
				// kind of the table's one category (类型), or what the
				// file is across (行业 in an industries file); else unplaced.
				if e.value == "seasonality" {
					seasonal = true
					continue
				}
				if p.placeByTable(k, e.value, &dims, &measures, rated) {
					continue
				}
				if it.to-it.from == 1 && p.toks[it.from].han && len(p.withoutStem(strings.Fields(e.value))) == 0 {
					// 车型 (model) in cars.json: the file's subject by a
					// synonym, what its rows are.
					continue
				}
				if valueNouns[e.value] && k > 0 && p.items[k-1].kind == itemColumn && p.items[k-1].col.text && valueNounFits(p.items[k-1].col) {
					// 出发机场: what the values of the column just named are.
					continue
				}
				if byBefore(k) && len(t.sheets) > 1 && sheetAs == "" {
					// 按产地 over sheets USA, Europe, Japan.
					sheetAs = it.text
					continue
				}
				unplaced = append(unplaced, it.text)
			}
		case itemColumn:
			c := it.col
			if departureWords[it.text] && slices.Contains(c.words, "origin") && (hourPart(p.nextItem(it)) || hourPart(p.prevItem(it))) {
				// "departure hour", "hour of departure", 出发小时 over
				// flights from an origin: the hour of the flights' time,
				// not a grouping by origin.
				continue
			}
			if p.countFilter(k) {
				// "4-cyl cars", "8-cylinder cars": the rows with that many.
				r.Filters = addFilter(r.Filters, c.name, strconv.Itoa(p.items[k-1].num))
				countNums[p.items[k-1].from] = true
				continue
			}
			if (c.date || c.yearInt) && p.allPeriods(it) {
				// "total investment across all years" over a column year:
				// the years are pooled, not each a period.
				continue
			}
			if (c.date || c.yearInt) && p.splitsByPeriod(it) {
				periodSplit = true
			}
			switch {
			case c.date:
				timeCols = appendOnce(timeCols, c)
				if len(c.words) == 1 && (c.words[0] == "year" || c.words[0] == "month" || c.words[0] == "week" || c.words[0] == "quarter") && grain == "" {
					// A date column named for its period: "by year" over
					// a column year of dates is per year.
					grain = c.words[0]
				} else if byBefore(k) && grain == "" {
					grain = "day"
				}
			case c.yearInt:
				timeCols = appendOnce(timeCols, c)
				prev := p.prevItem(it)
				if prev != nil && prev.kind == itemVocab && prev.ent.role == roleAgg && prev.ent.value == "count" && countedPeriod == "" {
					countedPeriod = "year"
					continue
				}
				if prev != nil && prev.kind == itemVocab && prev.ent.role == roleBy && prev.text == "per" || eachPeriodZh(it.text) {
					perGrain = true
				}
				if grain == "" {
					grain = "year"
				}
			case c.numeric && !c.idish && !c.coded && !(byBefore(k) && c.typ == preview.ColumnInt && c.distinct > 0 && c.distinct <= 30 && !p.ranks()):
				measures = appendOnce(measures, c)
			default:
				if p.valueOf(k-1, c) || p.valueOf(k+1, c) {
					// "ORD出发", "origin ORD": the column names the
					// filter's value, not a grouping.
					continue
				}
				if p.modifies(k) {
					// "firm value", "stock price": the dimension names
					// whose measure it is, not a grouping.
					continue
				}
				if w := p.poolWord(it); w != "" || p.allOf(it) {
					if w == "" {
						w = "all"
					}
					pooled = append(pooled, pooledDim{c, w})
					continue
				}
				if p.distinctCounted(it) {
					// "how many different species", 有多少种天气: its
					// values counted once each.
					measures = appendOnce(measures, c)
					continue
				}
				if p.countedColumn(it) {
					// "number of countries per cluster", 有多少个不同的目的地:
					// the column's values are counted, not grouped by.
					add("it counts the values of %s, which no built-in counts per group", "请求要数 %s 有多少个值，内置分析不按组数", c.name)
					continue
				}
				dims = appendOnce(dims, c)
			}
		case itemValue:
			col := it.col
			if len(it.cands) > 1 {
				// A value of several columns: the one named beside it.
				col = nil
				for _, j := range []int{k - 1, k + 1} {
					if j >= 0 && j < len(p.items) && p.items[j].kind == itemColumn && slices.Contains(it.cands, p.items[j].col.name) {
						col = p.items[j].col
						p.items[k].col = col
					}
				}
				if col == nil {
					col = p.directed(it)
				}
				if col == nil {
					add("%q is a value of %s: say which", "“%s”是 %s 中的值：请指明是哪一列", it.value, strings.Join(it.cands, ", "))
					continue
				}
			}
			v := it.value
			if cv, ok := col.values[normalize(it.value)]; ok {
				v = cv
			}
			if p.excluded[it.from] {
				r.Filters = addExclusion(r.Filters, col.name, v)
				continue
			}
			r.Filters = addFilter(r.Filters, col.name, v)
		case itemSheet:
			sheetName = it.value
		case itemFile:
			if d := p.onlyDimension(k, strings.Join(wordsOf(p.toks[it.from:it.to]), " ")); d != nil && k > 0 && !p.items[k-1].isStop() || d != nil && p.asksWhich() {
				// "which disaster had the most deaths", 哪种灾害: the
				// file's subject after which or by is its one category.
				dims = appendOnce(dims, d)
				continue
			}
			isCount := func(o *item) bool {
				return o != nil && o.kind == itemVocab && o.ent.role == roleAgg && o.ent.value == "count"
			}
			if (isCount(p.prevItem(it)) || isCount(p.nextItem(it))) && !t.rowsAreItems() {
				// "number of disasters", 灾害数量 over yearly totals per
				// disaster type: its rows are not one disaster each.
				add("it counts %s, and the rows of %s are not one each: say what to count", "请求要数%s，而 %s 的行并非每行一个：请说明要数什么", it.text, t.file.Name)
			}
			if nx := p.nextItem(it); nx != nil && nx.kind == itemVocab && (nx.ent.role == roleBy || nx.ent.role == roleAcross) && strings.HasPrefix(nx.text, "per") && p.prevItem(it) == nil &&
				!slices.ContainsFunc(p.items, func(o item) bool { return o.kind == itemColumn && o.col.numeric && !o.col.yearInt }) {
				// "cars per sheet", "disasters per year": how many of
				// them, when a row is one.
				if !t.rowsAreItems() {
					add("it counts %s, and the rows of %s are not one each: say what to count", "请求要数%s，而 %s 的行并非每行一个：请说明要数什么", it.text, t.file.Name)
				}
				rowNoun = true
			}
		case itemNumber:
			nums = append(nums, it)
		case itemRowNoun:
			rowNoun = true
			prev := p.prevItem(it)
			if prev != nil && prev.kind == itemFile {
				prev = p.prevItem(*prev) // per disaster event
			}
			if prev != nil && prev.kind == itemVocab && prev.ent.role == roleBy && !isPeriodNoun(it.text) && !t.rowsAreItems() {
				// "average deaths per disaster event" over yearly totals
				// per disaster type: a row is not one event.
				add("it asks per %s, and the rows of %s are not one each", "请求要按每个%s计算，而 %s 的行并非每行一个", it.text, t.file.Name)
			}
			if it.value != "" {
				rowIs = it.value
			}
			if isPeriodNoun(it.text) && !(prev != nil && prev.kind == itemVocab && prev.ent.role == roleBy) {
				// 天数: the days are what is counted.
				daysCounted = true
			}
		case itemUnplaced:
			// A word after "by" that no column holds, on a workbook whose
			// same-schema sheets stand for it: "by Origin" over sheets
			// USA, Europe, Japan.
			if byBefore(k) && len(t.sheets) > 1 && sheetAs == "" {
				sheetAs = it.text
				continue
			}
			// "disaster type" over a table whose one text column is the
			// type: that column; "by industry" over an industries file.
			if kindWords[p.toks[it.from].w] && k > 0 && p.items[k-1].kind == itemColumn && p.items[k-1].col.text {
				// "weather type": the kind of the column just named.
				continue
			}
			if valueNouns[p.toks[it.from].w] && k > 0 && p.items[k-1].kind == itemColumn && p.items[k-1].col.text && valueNounFits(p.items[k-1].col) {
				// "origin airport": what the values of the column just
				// named are.
				continue
			}
			if p.placeByTable(k, p.toks[it.from].w, &dims, &measures, rated) {
				continue
			}
			if _, ok := unitWords[p.toks[it.from].w]; ok {
				// "(mm)", "minutes": the unit of a measure, checked
				// once the measures are known.
				units = append(units, it)
				continue
			}
			if p.toks[it.from].w == "seasonally" && k+1 < len(p.items) && p.items[k+1].kind == itemColumn && p.toks[p.items[k+1].from].w == "adjusted" && slices.Contains(p.items[k+1].col.words, "adjusted") {
				// "seasonally adjusted co2": the column's own qualifier.
				continue
			}
			if it.text == "数" && k > 0 && p.items[k-1].to == it.from && (p.items[k-1].kind == itemFile || p.items[k-1].kind == itemRowNoun) {
				// 车辆数, 航班数: the number of them.
				if p.items[k-1].kind == itemFile && !t.rowsAreItems() {
					add("it counts %s, and the rows of %s are not one each: say what to count", "请求要数%s，而 %s 的行并非每行一个：请说明要数什么", p.items[k-1].text, t.file.Name)
				}
				aggs = append(aggs, item{kind: itemVocab, ent: entry{role: roleAgg, value: "count"}, from: it.from, to: it.to, text: it.text})
				continue
			}
			if it.text == "产" && k > 0 && p.items[k-1].kind == itemValue && slices.Contains(p.items[k-1].col.words, "origin") {
				// 美国产汽车: made in the origin just named.
				continue
			}
			unplaced = append(unplaced, it.text)
		case itemAmbig:
			add("%q could be any of %s: say which", "“%s”可能是 %s 中的任何一列：请指明是哪一列", it.text, strings.Join(it.cands, ", "))
		}
	}
	if len(measures) == 0 {
		// "daily highs", "avg low by weather type": the one column of
		// maxima (minima) the table has, not an aggregation of nothing.
		var named []item // the words so read
		for j, a := range aggs {
			w := map[string]string{"high": "maximum", "highs": "maximum", "low": "minimum", "lows": "minimum"}[a.text]
			if w == "" || a.ent.value != "max" && a.ent.value != "min" {
				continue
			}
			var hits []*gcol
			for _, c := range t.cols {
				if c.numeric && !c.yearInt && !c.idish && !c.coded && slices.Contains(c.words, w) {
					hits = append(hits, c)
				}
			}
			if len(hits) == 1 {
				measures = append(measures, hits[0])
				named = append(named, item{kind: itemColumn, col: hits[0], from: a.from, to: a.to, text: a.text})
				aggs = slices.Delete(aggs, j, j+1)
				break
			}
		}
		// "daily high and low": the low too is the column of minima,
		// not the minimum of the highs.
		for j := 0; len(measures) == 1 && j < len(aggs); j++ {
			w := map[string]string{"high": "maximum", "highs": "maximum", "low": "minimum", "lows": "minimum"}[aggs[j].text]
			if w == "" || aggs[j].ent.value != "max" && aggs[j].ent.value != "min" {
				continue
			}
			var hits []*gcol
			for _, c := range t.cols {
				if c.numeric && !c.yearInt && !c.idish && !c.coded && slices.Contains(c.words, w) && c != measures[0] {
					hits = append(hits, c)
				}
			}
			if len(hits) == 1 {
				measures = append(measures, hits[0])
				named = append(named, item{kind: itemColumn, col: hits[0], from: aggs[j].from, to: aggs[j].to, text: aggs[j].text})
				aggs = slices.Delete(aggs, j, j+1)
			}
		}
		if len(measures) > 1 {
			// Each word is its column's item, for the list's check.
			for _, n := range named {
				for k := range p.items {
					if p.items[k].from == n.from {
						p.items[k] = n
					}
				}
			}
		}
	}
	// Ranges of years: "2005-2009", "from 2005 to 2009", "since 2000",
	// "2000年以来" — a filter on the time column, not two periods.
	var inRange map[int]bool
	if len(t.timeColumns()) > 0 {
		var used map[int]bool
		var ambiguous bool
		spans, inRange, used, ambiguous = p.yearBounds(nums, cuesHave(cues, func(b *builtin) bool { return b.comparesYears }))
		if ambiguous {
			add("it gives two years that can be a range or two periods to compare: say “from … to …” for a range, or “compare … with …”", "请求中的两个年份既可以是一个时间范围，也可以是两个要比较的时期：范围请说“从…到…”，比较请说“比较…和…”")
		}
		for _, b := range boundWords {
			if !used[b.from] && b.ent.value != "between" && b.ent.value != "from" && b.ent.value != "to" {
				unplaced = append(unplaced, b.text)
			}
		}
	} else {
		for _, b := range boundWords {
			if b.ent.value != "between" && b.ent.value != "from" && b.ent.value != "to" {
				unplaced = append(unplaced, b.text)
			}
		}
	}
	// "… and the trend of Finance": a second question after the first.
	for k := 0; k+1 < len(p.items); k++ {
		if it := p.items[k]; it.kind == itemVocab && conjunctions[it.text] && k > 0 {
			j := k + 1
			for j < len(p.items) && p.items[j].kind == itemVocab && p.items[j].ent.role == roleStop {
				j++
			}
			if j < len(p.items) && p.items[j].kind == itemVocab && p.items[j].ent.role == roleCue && p.otherQuestionBefore(k, p.items[j].ent.value) {
				add("it asks two questions at once (… and %s): ask them one at a time", "请求一次问了两个问题（……和%s）：请分开问", p.items[j].text)
				break
			}
		}
	}
	// "lowest price each stock reached", "每只股票的最高价": an order word
	// right before a measure, with each/per and no ranking asked, is the
	// measure's minimum or maximum per group.
	if len(aggs) == 0 {
		if it, ok := p.averagePerYear(); ok {
			// 年均发电量: an average a year, as "average annual".
			aggs = append(aggs, item{kind: itemVocab, ent: entry{role: roleAgg, value: "mean"}, from: it.from, to: it.to, text: it.text})
		}
	}
	if len(aggs) == 0 && !p.asksWhich() && r.N == 0 && !p.hasRole(roleTop) && (p.hasEach() || perGrain || p.listsValues()) {
		for k := 0; k+1 < len(p.items); k++ {
			it, j := p.items[k], k+1
			// "highest IBM price each year", "每年最高的通胀率": a filter's
			// value or 的 between the order word and its measure.
			for j+1 < len(p.items) && (p.items[j].kind == itemValue || p.items[j].kind == itemVocab && p.items[j].text == "的" ||
				bothOrders && it.kind == itemVocab && it.ent.role == roleOrder && p.items[j].kind == itemVocab && (conjunctions[p.items[j].text] || p.items[j].ent.role == roleOrder)) {
				// "highest and lowest price": the list's measure.
				j++
			}
			next := p.items[j]
			if next.kind == itemVocab && next.ent.role == roleGrain && j+1 < len(p.items) && p.dailyValue(next) {
				// "最大日降水量", "highest daily precipitation".
				next = p.items[j+1]
			}
			// A superlative too: "the hottest temp_max recorded each year"
			// is the yearly maximum, not the yearly mean.
			if it.kind == itemVocab && (it.ent.role == roleOrder || it.ent.role == roleSuper) && next.kind == itemColumn && next.col.numeric && !next.col.yearInt && !next.col.idish && !next.col.coded {
				a := "max"
				if it.ent.value == "asc" || it.ent.role == roleSuper && it.ent.order == "asc" {
					a = "min"
				}
				aggs = append(aggs, item{kind: itemVocab, ent: entry{role: roleAgg, value: a}, from: it.from, to: it.to, text: it.text})
				order = ""
				if !bothOrders {
					break
				}
				// "最高价和最低价", "highest and lowest price per symbol":
				// each order word the maximum or minimum of its measure.
			}
		}
		if bothOrders && len(aggs) >= 2 {
			bothOrders = false
		}
	}
	if bothOrders {
		add("it asks for both the highest and the lowest", "请求同时要最高和最低")
	}
	// Numbers: a count after top/前, a year with a time column.
	for _, it := range nums {
		if inRange[it.from] || countNums[it.from] {
			continue
		}
		prev := p.prevItem(it)
		next := p.nextItem(it)
		switch {
		case prev != nil && prev.kind == itemVocab && (prev.ent.role == roleOrder || prev.ent.role == roleTop || prev.ent.role == roleSuper) && it.num > 0 && it.num <= 1000:
			// "top 5", 前五, "deadliest 3", 最轻的两个.
			r.N = it.num
			ranking = true
		case next != nil && next.kind == itemVocab && next.ent.role == roleOrder && it.num > 0 && it.num <= 1000 && !p.toks[it.from].han && next.text != "年":
			r.N = it.num
			ranking = true
		case next != nil && next.kind == itemColumn && next.col.text && next.from == it.to && it.num > 0 && it.num <= 1000 && !t.isYear(it.num) && p.ranks():
			// "5 origins with the lowest avg delay": how many of them.
			r.N = it.num
			ranking = true
		case it.from > 0 && showWords[p.toks[it.from-1].w] && it.num > 0 && it.num <= 1000 && !t.isYear(it.num):
			// "show 5", "list 10": how many rows of a ranking.
			r.N = it.num
			ranking = true
		case t.isYear(it.num) && len(t.timeColumns()) > 0:
			years = append(years, it.num)
			if next != nil && next.kind == itemVocab && next.ent.role == roleGrain && next.text == "年" && grain == "year" && p.countGrain("年") == 1 {
				grain = ""
			}
		default:
			unplaced = append(unplaced, p.toks[it.from].raw)
		}
	}
	for _, u := range units {
		if !unitOfMeasures(p.toks[u.from].w, measures) {
			unplaced = append(unplaced, u.text)
		}
	}
	if len(unplaced) > 0 {
		r.Unplaced = unplaced
	}
	// The sheet.
	switch {
	case sheetName != "" && t.file.Kind == preview.KindXLSX:
		r.Sheet = sheetName
	case (across || sheetAs != "") && len(t.sheets) > 1:
		r.Sheet = "*"
		r.SheetAs = sheetAs
	}
	if t.file.Kind == preview.KindXLSX && len(t.sheets) > 1 && sheetName == "" && r.Sheet != "*" && !cuesHave(cues, func(b *builtin) bool { return b.wholeTable }) {
		add("the workbook has %d sheets with these columns (%s): name one, or ask across all sheets", "工作簿有 %d 个列相同的工作表（%s）：请指明一个，或要求跨所有工作表分析", len(t.sheets), strings.Join(t.sheets, ", "))
	}
	// Superlatives name their measure: wettest → precipitation.
	for _, s := range supers {
		ws := strings.Fields(s.value)
		var hits []*gcol
		for _, c := range t.cols {
			if c.numeric && matchTier(ws, c) >= 1 {
				hits = append(hits, c)
			}
		}
		if len(hits) == 0 && len(ws) == 1 {
			for _, syn := range synonymWords[ws[0]] {
				for _, c := range t.cols {
					if c.numeric && matchTier([]string{syn}, c) >= 1 && !slices.Contains(hits, c) {
						hits = append(hits, c)
					}
				}
			}
		}
		if len(hits) == 0 && len(ws) > 1 {
			for _, c := range t.cols {
				if c.numeric && matchTier(ws[:1], c) >= 1 {
					hits = append(hits, c)
				}
			}
		}
		switch len(hits) {
		case 1:
			measures = appendOnce(measures, hits[0])
		case 0:
			add("no column measures what %q asks about", "没有列能衡量“%s”", s.value)
		default:
			add("%q could be any of %s: say which", "“%s”可能是 %s 中的任何一列：请指明是哪一列", s.value, strings.Join(colNames(hits), ", "))
		}
	}
	// The analysis.
	var named []string
	for c := range cues {
		named = append(named, c)
	}
	sort.Strings(named)
	if one := unsubsumed(named); len(one) == 1 {
		// "the year-over-year trend": compare_periods, which subsumes trend.
		named = one
	}
	if len(named) > 1 {
		add("it asks for more than one analysis (%s)", "请求要的不止一项分析（%s）", strings.Join(named, ", "))
	}
	if c := p.versusDimension(&r, named, dims, grain, part); c != nil {
		dims = append(dims, c)
	}
	if part == "" && (grain == "month" || grain == "quarter") && (p.saysRaw("一年中", "一年里", "一年当中", "不分年", "不分年份") || wholePart == grain || p.yearsTogether()) {
		// 一年中各月份: the months of the calendar, all years together.
		part, grain = grain+"_of_year", ""
	}
	if seasonal && part == "" {
		if grain == "month" || grain == "quarter" {
			// "co2 by month (seasonality)", 按月份看季节变化: the months
			// of the calendar.
			part, grain = grain+"_of_year", ""
		} else {
			add("seasonality is a pattern over the months or quarters of the year: say which", "季节变化是一年中各月或各季度的规律：请说明按月还是按季度")
		}
	}
	if len(pooled) > 0 {
		if grain == "" && part == "" && len(dims) == 0 {
			// "avg mpg across origins": the only grouping asked; not
			// "the sum of the countries", which adds them up.
			for _, d := range pooled {
				if t.oneRowEach(d.col) && cuesHave(cues, func(b *builtin) bool { return b.columnsIn }) {
					// "distribution of urbanization across states" on one
					// row a state: the values of the rows, not one group
					// each.
					continue
				}
				if d.word != "sum of" && d.word != "all" {
					dims = appendOnce(dims, d.col)
				}
			}
		} else {
			for _, d := range pooled {
				if d.word == "across" {
					// "investment per year across firms" can be the total of
					// the firms each year or each firm's: say which.
					add("“across %[1]s” can mean summed over the %[1]s values or one result for each: say “for each %[1]s” or “in total”", "“跨%[1]s”可以是把各%[1]s加总，也可以是每个%[1]s分别统计：请说明", d.col.name)
				}
			}
		}
	}
	if c := p.versusDim(r, dims, grain, part); c != nil {
		dims = append(dims, c)
	}
	if c := p.listedDim(&r, dims); c != nil {
		dims = append(dims, c)
	}
	period := grain
	if part != "" {
		period = part
	}
	// What the built-ins' rules read of the request, as it stands.
	ask := func() *asking {
		return &asking{p: p, measures: measures, dims: dims, years: len(years), aggs: len(aggs), period: period, grain: grain, order: order, compare: compare, sheetAs: sheetAs,
			timeWord: timeWord, ranking: ranking, across: across, perGrain: perGrain, add: add, problem: func(en, zh string) { probs = append(probs, problem{en, zh}) }}
	}
	if len(named) == 1 {
		r.Analysis = named[0]
	} else if b := claimant(ask(), r); b != nil {
		r.Analysis = b.Name
	} else if len(measures) > 0 && len(aggs) > 0 {
		add("it asks for one number over the whole table, which no built-in analysis gives", "请求要的是整张表的一个数，内置分析不提供")
	} else {
		add("it names no analysis", "请求没有指明分析")
	}
	if b := builtinNamed(r.Analysis); b != nil && b.chosen != nil {
		b.chosen(ask(), &r)
	}
	// The time axis.
	needTime := builtinHas(r.Analysis, func(b *builtin) bool { return b.needsTime != nil && b.needsTime(period) }) || len(years) > 0 || len(spans) > 0
	if needTime {
		tc := timeCols
		if len(tc) == 0 {
			tc = t.timeColumns()
		}
		switch {
		case len(tc) == 1:
			r.Time = tc[0].name
			r.Span = [2]string{tc[0].min, tc[0].max}
			if tc[0].yearInt {
				r.YearTime = true
				if period != "" && period != "year" {
					add("%s holds years, so it has no %s", "%s 是年份，没有%s", tc[0].name, period)
				}
				if !builtinHas(r.Analysis, func(b *builtin) bool { return b.noPeriod }) {
					period = "year"
				}
			}
		case len(tc) == 0:
			add("the table has no date or time column", "表中没有日期或时间列")
		default:
			add("which time column: %s?", "用哪个时间列：%s？", strings.Join(colNames(tc), ", "))
		}
	}
	if period == "" && r.Time != "" && !r.YearTime && builtinHas(r.Analysis, func(b *builtin) bool { return b.periodic != nil && b.periodic(ask()) }) {
		// No period asked: the data's own, when its dates are years
		// (2001-01-01, 2002-01-01, …).
		if t.yearlyDates(r.Time) {
			period = "year"
		}
	}
	r.Grain = period
	if g, has := t.finerThanData(r); g != "" {
		probs = append(probs, problem{fmt.Sprintf("%s has one value a %s at most, so it has no %s", r.Time, has, grainText("", g)),
			fmt.Sprintf("%s 每%s至多一个值，没有%s", r.Time, zhGrain(has), grainText(LangChinese, g))})
	}
	if len(years) > 0 && r.Time != "" {
		ys := make([]string, 0, len(years))
		for _, y := range years {
			ys = append(ys, strconv.Itoa(y))
		}
		slices.Sort(ys)
		ys = slices.Compact(ys)
		if builtinHas(r.Analysis, func(b *builtin) bool { return b.comparesYears }) && len(ys) >= 2 {
			r.Periods = ys
			if r.Grain == "" {
				r.Grain = "year"
			}
		} else {
			r.Filters = append(r.Filters, Filter{Column: r.Time, Op: "year", Values: ys})
		}
	}
	if len(spans) > 0 && r.Time != "" {
		for _, b := range spans {
			v := strconv.Itoa(b.year)
			if !r.YearTime {
				v += "-01-01"
				if b.op == "<=" {
					v = strconv.Itoa(b.year) + "-12-31"
				}
			}
			r.Filters = append(r.Filters, Filter{Column: r.Time, Op: b.op, Values: []string{v}})
		}
	}
	// Aggregations: each measure takes the word before it, else the one
	// word said.
	agg := ""
	// "min and max price": one measure for each aggregation of the list.
	var aggList []string
	if len(measures) == 1 {
		aggList = p.aggList(measures[0], aggs)
	}
	for _, a := range aggs {
		if agg != "" && agg != a.ent.value && len(measures) < 2 && aggList == nil {
			add("it asks for two aggregations (%s and %s)", "请求要两种汇总方式（%s 和 %s）", agg, a.ent.value)
		}
		agg = a.ent.value
	}
	counting := agg == "count" || agg == "count_distinct" || rowNoun && (agg == "" || agg == "sum")
	type asked struct {
		c   *gcol
		agg string
	}
	var each []asked
	for _, c := range measures {
		a := agg
		for _, it := range aggs {
			if it.to <= p.colPos(c) {
				a = it.ent.value
			}
		}
		each = append(each, asked{c, a})
	}
	if len(measures) > 1 && aggList == nil && !slices.ContainsFunc(aggs, func(a item) bool { return a.from > p.colPos(measures[len(measures)-1]) }) {
		// "delay and avg distance": the aggregation said between the
		// measures is the second's; the first's is not said.
		for i := 0; i+1 < len(measures); i++ {
			at, next := p.colPos(measures[i]), p.colPos(measures[i+1])
			before := slices.ContainsFunc(aggs, func(a item) bool { return a.to <= at })
			between := slices.ContainsFunc(aggs, func(a item) bool { return a.from > at && a.to <= next })
			if !before && between && nonSumOf(measures[i], rated) == "" {
				add("it says how to aggregate %[2]s but not %[1]s: say it for each (“average %[1]s and average %[2]s”)", "请求说了 %[2]s 的汇总方式，却没说 %[1]s 的：请分别说明（如“%[1]s 的平均值和 %[2]s 的平均值”）", measures[i].name, measures[i+1].name)
				break
			}
		}
	}
	if aggList != nil {
		each = nil
		for _, a := range aggList {
			each = append(each, asked{measures[0], a})
		}
	}
	for _, e := range each {
		c, a := e.c, e.agg
		switch {
		case a == "count" && c.numeric && !rowNoun:
			// "number of murders in each state" over a murder column: a
			// count would count its rows (one a state), not add up what
			// it holds, which may be a rate.
			probs = append(probs, problem{countOfMeasure(c, false), countOfMeasure(c, true)})
		case a == "count" || a == "count_distinct":
		case a == "":
			a = "sum"
			if why := nonSumOf(c, rated); why != "" {
				a = "mean"
				r.ByMean = append(r.ByMean, fmt.Sprintf("%s (%s)", c.name, why))
			} else if len(dims) == 1 && t.oneRowEach(dims[0]) {
				// "states with the highest violent crime" on one row per
				// state: each value is ranked as it is; nothing is added
				// up (a rate may not say it is one).
				a = "mean"
			}
		case a == "sum" && nonSumOf(c, rated) != "":
			probs = append(probs, problem{fmt.Sprintf("a total of %s means nothing (it is %s): ask for its average", c.name, nonSumOf(c, rated)), fmt.Sprintf("%s 的总和没有意义（它是%s）：请问它的平均值", c.name, zhKind(nonSumOf(c, rated)))})
		}
		r.Measures = append(r.Measures, Measure{Column: c.name, Agg: a})
	}
	if busiest && len(measures) > 0 {
		add("“busiest” ranks by the number of events, and it names %s too: say which to rank by", "“最繁忙”按事件数排名，而请求还提到了 %s：请说明按哪个排名", measures[0].name)
	}
	for _, w := range judged {
		if len(measures) == 0 || w == "worst" || w == "最差" {
			// "worst airports for bird strikes" is the most strikes, not
			// the fewest; "worst delay" the longest: whether more is
			// better is not in the data.
			add("“%s” depends on whether more is better: say highest or lowest", "“%s”取决于越多越好还是越少越好：请说最高或最低", w)
			break
		}
	}
	if strings.Contains(p.text, "%") && !slices.ContainsFunc(t.cols, func(c *gcol) bool { return strings.Contains(normalize(c.name), "%") }) {
		// "% of flights by origin": a percentage of a total, which no
		// built-in computes (the tokens drop the sign).
		add("it asks for a percentage, which no built-in computes", "请求要百分比，内置分析不算")
	}
	if len(measures) > 0 && (countedPeriod != "" && agg == "count" || daysCounted && (agg == "" || agg == "count")) {
		// "how many days of rain", 有降水的天数 over a precipitation
		// column: the days with some, a condition on its values that no
		// built-in reads, not how many values it has nor their sum.
		cp := countedPeriod
		if cp == "" {
			cp = "day"
		}
		probs = append(probs, problem{fmt.Sprintf("it counts the %ss with %s, a condition on its values that the built-ins do not read", cp, measures[0].name),
			fmt.Sprintf("请求要数有%s的%s数，这是对其数值的条件，内置分析不读", measures[0].name, zhGrain(cp))})
	}
	if countedPeriod != "" && len(measures) == 0 {
		// Counting periods counts rows only when each row is one period.
		tc := t.timeColumns()
		switch {
		case len(tc) == 1 && tc[0].date && countedPeriod == "day" && t.sheet.RowCountExact && tc[0].distinct > 0 && tc[0].distinct == t.sheet.RowCount && t.sheet.StatsRows == t.sheet.RowCount:
			counting = true
			r.RowIs = "day"
		default:
			probs = append(probs, problem{fmt.Sprintf("it counts %ss, and the rows of the table are not one %s each: say what to count", countedPeriod, countedPeriod), fmt.Sprintf("请求要数%s的个数，而表中的行并非每%s一行：请说明要数什么", zhGrain(countedPeriod), zhGrain(countedPeriod))})
		}
	}
	if b := builtinNamed(r.Analysis); b != nil && b.measured != nil {
		a := ask()
		a.agg = agg
		b.measured(a, &r)
	}
	if len(measures) == 0 && rowIs != "" {
		r.RowIs = rowIs
	}
	if len(measures) == 0 && (counting || agg == "" && builtinHas(r.Analysis, func(b *builtin) bool { return b.countsRows })) && aggregates(r.Analysis) {
		// Rows are counted.
	} else if len(measures) == 0 && aggregates(r.Analysis) {
		add("it names no measure (the numeric columns: %s)", "请求没有指明度量（数值列：%s）", strings.Join(colNames(t.measures()), ", "))
	}
	for _, d := range dims {
		r.GroupBy = append(r.GroupBy, d.name)
	}
	if r.Sheet == "*" && (sheetAs != "" || p.says("by sheet") || p.says("per sheet") || p.says("each sheet") || p.says("for every sheet") || p.saysRaw("各工作表", "每个工作表", "各个工作表", "每张表", "每张工作表", "各张表")) {
		r.GroupBy = append(r.GroupBy, "sheet")
	}
	r.Order = order
	if aggregates(r.Analysis) {
		for _, y := range years {
			if tc := t.column(r.Time); tc != nil && !tc.holdsYear(y) {
				add("%d is outside %s (%s to %s)", "%d 年不在 %s 的范围内（%s 至 %s）", y, tc.name, tc.min, tc.max)
			}
		}
		for _, m := range r.Measures {
			c := t.column(m.Column)
			if m.Agg != "sum" || c == nil || c.stock == "" {
				continue
			}
			if tc := t.sumsOverPeriods(r); tc != nil {
				probs = append(probs, problem{fmt.Sprintf("%[1]s is %[2]s counted at each %[3]s (%[4]s to %[5]s): a total over several of them means nothing; name one %[3]s, ask per %[3]s, or ask for its average", c.name, c.stock, tc.name, tc.min, tc.max),
					fmt.Sprintf("%[1]s 是每个%[3]s的存量（%[2]s，%[4]s 至 %[5]s）：跨多个%[3]s求和没有意义；请指定一个%[3]s、按%[3]s统计，或求平均值", c.name, zhKind(c.stock), tc.name, tc.min, tc.max)})
			}
		}
	}
	// What each analysis needs.
	// A built-in whose input is a list of numeric columns reads the named
	// measures as its columns; then what it needs of its own.
	if b := builtinNamed(r.Analysis); b != nil {
		if b.columnsIn {
			if len(measures) == 0 && len(aggs) > 0 {
				// "distribution of daily highs": highs is no column, and a
				// distribution of every numeric column was not asked.
				add("it names %q but no column to read", "请求提到了“%s”，但没有指明要看的列", aggs[0].text)
			}
			aggregatedColumns(ask(), b, aggs)
			if period != "" && periodSplit {
				// "distribution of wind by year", 每年风速的分布: one per
				// period, which it is not (it reads every row at once);
				// "daily precipitation" says what the values are.
				probs = append(probs, problem{fmt.Sprintf("it asks for it per %s, and %s reads all the rows at once", grainText("", period), b.Name),
					fmt.Sprintf("请求要按%s分别看，而 %s 一次读所有行", grainText(LangChinese, period), b.Name)})
			}
			r.Measures = nil
			for _, c := range measures {
				r.Columns = append(r.Columns, c.name)
				r.Measures = append(r.Measures, Measure{Column: c.name})
			}
			r.ByMean = nil
			r.Grain, r.Span = "", [2]string{}
			if len(years) == 0 {
				r.Time = ""
			}
		}
		if b.needs != nil {
			b.needs(ask(), &r)
		}
		countUnused(ask(), b, r)
		relativePeriods(ask())
		sharesOfTotal(ask(), r)
	}
	if col := p.versusColumn(r); col != "" && !slices.Contains(r.GroupBy, col) {
		// "male vs female avg body mass by species": the values set
		// against each other, pooled by the filter, are not compared.
		add("it sets values of %[1]s against each other: ask by %[1]s", "请求把 %[1]s 的几个值相互比较：请按 %[1]s 分组来问", col)
	}
	probs = append(probs, p.valueProblems(r)...)
	probs = append(probs, p.periodValueProblems()...)
	probs = append(probs, p.averagePerYearProblems(r)...)
	if col := p.aggregatedDimension(r); col != "" {
		add("it aggregates %[1]s, which is a category it would group by: say what to measure for each %[1]s", "请求对 %[1]s 做汇总，而 %[1]s 是分组的类别：请说明每个 %[1]s 要统计什么", col)
	}
	if len(r.Measures) > 1 && aggregates(r.Analysis) && !builtinHas(r.Analysis, func(b *builtin) bool { return b.columnsIn }) {
		var pr *problem
		if aggList != nil {
			var ks []int
			for k, it := range p.items {
				if it.kind == itemColumn && it.col == measures[0] || slices.ContainsFunc(aggs, func(a item) bool { return a.from == it.from }) {
					ks = append(ks, k)
				}
			}
			pr = p.listOf(ks, aggs, &r.Unplaced, measures)
		} else {
			pr = p.measureList(measures, aggs, &r.Unplaced)
		}
		if pr != nil {
			probs = append(probs, *pr)
		}
		if len(r.Unplaced) == 0 {
			r.Unplaced = nil
		}
		if agg == "sum" && p.says("combined") {
			// "combined sales and profit": the two added up, which no
			// built-in computes.
			add("“combined” can mean the measures added together, which no built-in computes: ask for the total of each", "“combined”可以是把几个度量加在一起，内置分析不算：请分别问各自的总和")
		}
	}
	return r, probs
}

// versusColumn is the column of a filter of several values that the
// request sets against each other ("AAPL vs MSFT", 苹果和微软…对比);
// "" when it says no vs, versus, 对比 or 相比, or filters on no column
// with two values or more.
func (p *parsed) versusColumn(r Reading) string {
	if !(p.says("vs") || p.says("versus") || p.saysRaw("对比", "相比")) {
		return ""
	}
	for _, f := range r.Filters {
		if f.Op == "=" && len(f.Values) > 1 {
			return f.Column
		}
	}
	return ""
}

// periodColumn is the column of a table with no date column that holds
// the period a grain word names (季度 of 1–4 beside 年份, an integer
// quarter column), when the word names it: its words are the grain, or
// the word less its 按, 每, 各 is the column's name.
func (t *gtable) periodColumn(grain, text string) *gcol {
	for _, c := range t.cols {
		if c.date {
			return nil
		}
	}
	bare := strings.TrimLeft(text, "按每各个")
	for _, c := range t.cols {
		if c.yearInt || c.text && c.distinct > 53 {
			continue
		}
		if len(c.words) == 1 && c.words[0] == grain || normalize(c.name) == bare {
			return c
		}
	}
	return nil
}

// fromWords and toWords say which end of a trip a value is ("from ORD",
// "to ATL"); originWords and destWords name the columns of each end.
var (
	fromWords   = map[string]bool{"from": true, "out": true, "departing": true, "leaving": true, "出发": true, "从": true, "自": true}
	toWords     = map[string]bool{"to": true, "into": true, "arriving": true, "飞往": true, "到": true, "至": true, "到达": true}
	originWords = map[string]bool{"origin": true, "source": true, "departure": true, "from": true, "start": true}
	destWords   = map[string]bool{"destination": true, "dest": true, "arrival": true, "to": true, "target": true, "end": true}
)

// directed is the column of a value found in several (ATL in origin and
// destination) that a direction word right before it, or 出发 right after
// it, names: "from ATL" the origin, "to ATL" the destination; nil when
// none or both do.
func (p *parsed) directed(it item) *gcol {
	var dir map[string]bool
	if it.from > 0 {
		w := p.toks[it.from-1].raw
		if it.from > 1 && w == "of" && p.toks[it.from-2].raw == "out" {
			w = "out"
		}
		switch {
		case fromWords[w]:
			dir = originWords
		case toWords[w]:
			dir = destWords
		}
	}
	if dir == nil && it.to < len(p.toks) && fromWords[p.toks[it.to].raw] && p.toks[it.to].han {
		dir = originWords // ORD出发
	}
	if dir == nil {
		return nil
	}
	var hit *gcol
	for _, name := range it.cands {
		c := p.t.column(name)
		if c != nil && slices.ContainsFunc(c.words, func(w string) bool { return dir[w] }) {
			if hit != nil {
				return nil
			}
			hit = c
		}
	}
	return hit
}

// rateWords call a column's values a rate or a share.
var rateWords = map[string]bool{"rate": true, "percent": true, "share": true, "ratio": true, "proportion": true}

// ratedColumn is the column right before item k when k is a word calling
// it a rate ("murder rate", 谋杀率, "poverty rates") and the column's
// values are fractions (written with decimals), so the word says what the
// column holds; nil otherwise (a count of deaths is no death rate).
func (p *parsed) ratedColumn(k int) *gcol {
	if k == 0 {
		return nil
	}
	it, prev := p.items[k], p.items[k-1]
	if prev.kind != itemColumn || prev.to != it.from || it.to-it.from != 1 {
		return nil
	}
	c := prev.col
	if !c.numeric || c.typ != preview.ColumnFloat || c.decimals == 0 || c.idish || c.coded || c.yearInt {
		return nil
	}
	if !slices.ContainsFunc(wordsOf(p.toks[it.from:it.to]), func(w string) bool { return rateWords[w] }) {
		return nil
	}
	for _, w := range c.words {
		if rateWords[w] {
			return nil // murder_rate was named by its own words
		}
	}
	return c
}

// subjectAfterColumn reports whether item k is a word of the file's name
// right after a measure column.
func (p *parsed) subjectAfterColumn(k int) bool {
	if k == 0 {
		return false
	}
	it, prev := p.items[k], p.items[k-1]
	if prev.kind != itemColumn || prev.to != it.from || !prev.col.numeric || prev.col.yearInt || prev.col.coded || prev.col.idish {
		return false
	}
	var ws []string
	if it.kind == itemVocab {
		ws = strings.Fields(it.ent.value)
	} else {
		ws = wordsOf(p.toks[it.from:it.to])
	}
	return len(ws) == 1 && slices.Contains(p.t.stem, ws[0])
}

// valueOf reports whether item j is a value that column c may hold.
func (p *parsed) valueOf(j int, c *gcol) bool {
	if j < 0 || j >= len(p.items) || p.items[j].kind != itemValue {
		return false
	}
	return p.items[j].col == c || slices.Contains(p.items[j].cands, c.name)
}

// subjectMeasure is the table's one measure column when item k is a
// word that is the file's subject (population in population_cn.csv), and
// the subject is a level the column counts; nil otherwise.
func (p *parsed) subjectMeasure(k int) *gcol {
	it := p.items[k]
	var ws []string
	if it.kind == itemVocab {
		ws = strings.Fields(it.ent.value)
	} else {
		ws = wordsOf(p.toks[it.from:it.to])
	}
	if len(ws) != 1 || !slices.Contains(p.t.stem, ws[0]) {
		return nil
	}
	ms := p.t.measures()
	if len(ms) != 1 || ms[0].stock == "" {
		return nil
	}
	return ms[0]
}

// nonSumOf is why a sum of c means nothing: its own reason, or a rate
// when the request called it one.
func nonSumOf(c *gcol, rated map[*gcol]bool) string {
	if c.nonSum == "" && rated[c] {
		return "a rate"
	}
	return c.nonSum
}

// placeByTable places the word at token k (its text ws) that names no
// column by what the table is: the only column of its kind (a dimension
// the file is across), a column it rates, what the file's subject says a
// column measures, or the file's one measure. It reports whether it did.
func (p *parsed) placeByTable(k int, ws string, dims, measures *[]*gcol, rated map[*gcol]bool) bool {
	if d := p.onlyDimension(k, ws); d != nil {
		*dims = appendOnce(*dims, d)
		return true
	}
	if c := p.ratedColumn(k); c != nil {
		rated[c] = true
		return true
	}
	if p.subjectAfterColumn(k) {
		// 二氧化碳浓度 in co2-concentration.csv: the file's subject says
		// what the column just named measures.
		return true
	}
	if c := p.subjectMeasure(k); c != nil {
		// "total population" over population_cn.csv, whose one measure
		// is 人数.
		*measures = appendOnce(*measures, c)
		return true
	}
	return false
}

func appendOnce(cs []*gcol, c *gcol) []*gcol {
	if slices.Contains(cs, c) {
		return cs
	}
	return append(cs, c)
}

func addFilter(fs []Filter, col, v string) []Filter {
	for i := range fs {
		if fs[i].Column == col && fs[i].Op == "=" {
			if !slices.Contains(fs[i].Values, v) {
				fs[i].Values = append(fs[i].Values, v)
			}
			return fs
		}
	}
	return append(fs, Filter{Column: col, Op: "=", Values: []string{v}})
}

// prevItem is the item before it, words without a slot (的, the) skipped.
func (p *parsed) prevItem(it item) *item {
	for k := range p.items {
		if p.items[k].from == it.from {
			for j := k - 1; j >= 0; j-- {
				if !p.items[j].isStop() {
					return &p.items[j]
				}
			}
		}
	}
	return nil
}

// nextItem is the item after it, words without a slot skipped (but 年,
// 个 and the like, which a number may carry, kept).
func (p *parsed) nextItem(it item) *item {
	for k := range p.items {
		if p.items[k].from == it.from && k+1 < len(p.items) {
			return &p.items[k+1]
		}
	}
	return nil
}

// meanOfPeriod reports whether a grain word stands between a mean and
// the measure it is of ("平均年发电量", "average yearly output"): the
// average of the yearly amounts, said as an adjective of the measure.
func (p *parsed) meanOfPeriod() bool {
	if _, ok := p.averagePerYear(); ok {
		return true
	}
	for k := 1; k+1 < len(p.items); k++ {
		a, g, m := p.items[k-1], p.items[k], p.items[k+1]
		if a.kind == itemVocab && a.ent.role == roleAgg && a.ent.value == "mean" && g.kind == itemVocab && g.ent.role == roleGrain &&
			m.kind == itemColumn && m.col.numeric {
			return true
		}
	}
	return false
}

// isPeriodNoun reports whether a row noun is a period (per day: a
// grain, whatever the rows are).
func isPeriodNoun(w string) bool {
	return w == "day" || w == "days" || w == "天数" || w == "天"
}

// pooledDim is a category a request pools over ("over countries"), with
// the word that said so.
type pooledDim struct {
	col  *gcol
	word string
}

// poolWord is "over" or "across" when it comes right before the column
// item it ("sum of population over countries", "across all firms"), "sum
// of" when that does ("pop (sum of countries)"); "". "all" before it is
// allOf's.
func (p *parsed) poolWord(it item) string {
	for j := it.from - 1; j >= 0; j-- {
		switch p.toks[j].w {
		case "of":
			if j > 0 && (p.toks[j-1].w == "sum" || p.toks[j-1].w == "total") {
				// "pop (sum of countries) each year": summed over them.
				return "sum of"
			}
			continue
		case "all", "the", "every":
			continue
		case "over", "across":
			return p.toks[j].w
		}
		return ""
	}
	return ""
}

// countedColumn reports whether the text column item it is what a count
// word right before it counts: "number of countries", "how many
// islands", "distinct destinations", 多少个（不同的）目的地.
func (p *parsed) countedColumn(it item) bool {
	if it.col == nil || it.col.numeric {
		return false
	}
	prev := p.prevItem(it)
	if prev != nil && prev.kind == itemVocab && prev.text == "不同" {
		prev = p.prevItem(*prev)
	}
	return prev != nil && prev.kind == itemVocab && prev.ent.role == roleAgg && (prev.ent.value == "count" || prev.ent.value == "count_distinct")
}

// judgedOrder are the order words that judge a value good or bad, whose
// direction depends on the measure (the worst delay is the longest).
var judgedOrder = map[string]bool{"best": true, "worst": true, "最好": true, "最差": true}

// splitsByPeriod reports whether a period word or a column it is said as
// a split: after by, per, each, every, 按, 各 ("by year", "per month",
// "by species"), or as 每年, 按年, 各月, 逐年, 历年.
func (p *parsed) splitsByPeriod(it item) bool {
	if prev := p.prevItem(it); prev != nil && prev.kind == itemVocab && prev.ent.role == roleBy {
		return true
	}
	return eachPeriodZh(it.text) || strings.HasPrefix(it.text, "按")
}

// eachPeriodZh reports whether a Chinese period word says each period:
// 每年, 各年, 逐年, 历年 (year by year, not the whole span).
func eachPeriodZh(w string) bool {
	for _, pre := range []string{"每", "各", "逐", "历"} {
		if strings.HasPrefix(w, pre) {
			return true
		}
	}
	return false
}

// allPeriods reports whether a period word or time column is said as the
// whole span rather than as a grain: after "all" ("across all years",
// "over all the months"), 所有, 全部, or "sum of"/"total of" ("sum of
// months").
func (p *parsed) allPeriods(it item) bool {
	j := it.from - 1
	if j >= 0 && p.toks[j].w == "the" {
		j--
	}
	if j < 0 {
		return false
	}
	switch {
	case p.toks[j].w == "all" || p.toks[j].raw == "所有" || p.toks[j].raw == "全部":
		return true
	case p.toks[j].w == "of" && j > 0 && (p.toks[j-1].w == "sum" || p.toks[j-1].w == "total"):
		return true
	}
	return false
}

// valueNouns say what the values of a text column are, when said right
// after its name ("origin airport", "pickup station", 出发机场).
var valueNouns = map[string]bool{"airport": true, "station": true, "stop": true, "port": true, "hub": true, "site": true, "location": true}

// placeRoles are the column words that say a place's role (origin
// airport, pickup station, 出发机场): the column's values are then places
// that a value noun names.
var placeRoles = map[string]bool{"origin": true, "destination": true, "departure": true, "arrival": true, "pickup": true,
	"dropoff": true, "start": true, "end": true, "source": true, "target": true, "home": true, "from": true, "to": true,
	"出发": true, "到达": true, "始发": true, "目的": true, "起点": true, "终点": true}

// valueNounFits reports whether a value noun (station, airport) can say
// what text column c's values are: c names a place's role (origin), or
// holds the many values of places; "weather station" over a weather
// column of five kinds of weather names a station the table lacks.
func valueNounFits(c *gcol) bool {
	for _, w := range c.words {
		if placeRoles[w] {
			return true
		}
	}
	return placeRoles[normalize(c.name)] || c.distinct >= 20
}

// kindWords name the kind of a thing a table's one text column holds.
var kindWords = map[string]bool{"type": true, "kind": true, "category": true, "sort": true, "类型": true, "种类": true, "类": true, "种": true, "类别": true}

// asksWhich reports whether the request asks which one (which, 哪).
func (p *parsed) asksWhich() bool {
	for _, t := range p.toks {
		if t.w == "which" || t.w == "what" || strings.HasPrefix(t.raw, "哪") {
			return true
		}
	}
	return false
}

// ranks reports whether the request ranks (top, highest, 前).
func (p *parsed) ranks() bool {
	for _, it := range p.items {
		if it.kind == itemVocab && (it.ent.role == roleOrder || it.ent.role == roleTop || it.ent.role == roleSuper) {
			return true
		}
	}
	return false
}

func (it item) isStop() bool {
	return it.kind == itemVocab && (it.ent.role == roleStop || it.ent.role == roleIn)
}

func (p *parsed) countGrain(text string) int {
	n := 0
	for _, it := range p.items {
		if it.kind == itemVocab && it.ent.role == roleGrain && it.text == text {
			n++
		}
	}
	return n
}

// colPos is the word index where column c is first named.
func (p *parsed) colPos(c *gcol) int {
	for _, it := range p.items {
		if it.col == c {
			return it.from
		}
	}
	return len(p.toks)
}

// says reports whether the request has the canonical words ws in a row.
func (p *parsed) says(phrase string) bool {
	ws := strings.Fields(phrase)
	for i := 0; i+len(ws) <= len(p.toks); i++ {
		ok := true
		for k, w := range ws {
			if p.toks[i+k].w != canonOf(w) && p.toks[i+k].raw != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// timeColumns are the table's date columns and integer year columns.
func (t *gtable) timeColumns() []*gcol {
	var dates, years []*gcol
	for _, c := range t.cols {
		if c.date {
			dates = append(dates, c)
		} else if c.yearInt {
			years = append(years, c)
		}
	}
	if len(dates) > 0 {
		return dates
	}
	return years
}

func (t *gtable) measures() []*gcol {
	var out []*gcol
	for _, c := range t.cols {
		if c.numeric && !c.idish && !c.yearInt && !c.coded {
			out = append(out, c)
		}
	}
	return out
}

func (t *gtable) dimensions() []*gcol {
	var out []*gcol
	for _, c := range t.cols {
		if c.text {
			out = append(out, c)
		}
	}
	return out
}

// compareUnits are the periods a comparison steps by, and its names.
var (
	compareUnits   = map[string]string{"yoy": "year", "qoq": "quarter", "mom": "month", "wow": "week", "dod": "day"}
	compareNames   = map[string]string{"yoy": "year-over-year", "qoq": "quarter-over-quarter", "mom": "month-over-month", "wow": "week-over-week", "dod": "day-over-day"}
	compareNamesZh = map[string]string{"yoy": "同比", "qoq": "季度环比", "mom": "月环比", "wow": "周环比", "dod": "日环比"}
)

// dailyValue reports whether the period word it stands right before a
// numeric column of a table of one row a period of that grain ("daily
// precipitation", 日降水量 on one row a day; "monthly change" on one row a
// month): it says what the values are, and another period in the request
// is the grain.
func (p *parsed) dailyValue(it item) bool {
	next := p.nextItem(it)
	if next == nil || next.kind != itemColumn || !next.col.numeric {
		return false
	}
	t := p.t
	tc := t.timeColumns()
	n := t.sheet.RowCount
	return len(tc) == 1 && tc[0].date && t.sheet.RowCountExact && t.sheet.StatsRows == n && tc[0].distinct == n && n > 1 && tc[0].periodsAt(it.ent.value) == n
}

// dropSingleRowGroups drops from a reading's grouping the keys each of
// whose values is on one row (state in a table of one row per state): a
// group of one row has no distribution and no outliers; its values are
// what the analysis examines.
func dropSingleRowGroups(p *parsed, r *Reading) {
	r.GroupBy = slices.DeleteFunc(r.GroupBy, func(name string) bool {
		c := p.t.column(name)
		return c != nil && p.t.oneRowEach(c)
	})
}

// oneRowEach reports whether every value of column c is on one row of
// the whole table (a state in a table of states).
func (t *gtable) oneRowEach(c *gcol) bool {
	sh := t.sheet
	return c.text && sh.RowCountExact && sh.StatsRows == sh.RowCount && c.distinct == sh.RowCount && c.distinct > 1
}

// pinned reports whether a filter keeps one value of column col.
func (r *Reading) pinned(col string) bool {
	for _, f := range r.Filters {
		if f.Column == col && f.Op == "=" && len(f.Values) == 1 {
			return true
		}
	}
	return false
}

// seriesKey is the text column that names the series of a table holding
// several (symbol in a file of stock prices): a text column with a few
// values, each on many rows, beside a date column.
func (t *gtable) seriesKey() string {
	if len(t.timeColumns()) == 0 {
		return ""
	}
	for _, c := range t.cols {
		if !c.text || c.distinct < 2 || c.distinct > 50 {
			continue
		}
		for _, w := range c.words {
			switch w {
			case "symbol", "ticker", "stock", "series", "station", "entity", "country", "sensor", "device", "firm", "company":
				return c.name
			}
		}
	}
	return ""
}

// columnsText lists the table's columns for a message, bounded.
func (t *gtable) columnsText() string {
	var names []string
	for i, c := range t.cols {
		if i == 20 {
			names = append(names, fmt.Sprintf("+%d", len(t.cols)-20))
			break
		}
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}

// yearBound is one end of a range of years: op ">=" or "<=", inclusive.
type yearBound struct {
	op   string
	year int
}

// rangeWords join two years into a range: "2005 to 2009", "2005–2009",
// "2005年至2009年"; "and" only after "between".
var rangeWords = map[string]bool{"-": true, "–": true, "—": true, "~": true, "to": true, "through": true, "thru": true, "until": true,
	"till": true, "至": true, "到": true, "-年": true}

// yearBounds finds the ranges of years among the request's numbers: two
// years joined by a dash, "to", "through" (or "and" after "between"), and
// one year bounded by since, after, before, until, 以来, 以前. It returns
// the bounds, the numbers and bound words it used, and whether two years
// joined by a word could as well be two periods to compare (a comparison
// is asked for).
func (p *parsed) yearBounds(nums []item, comparing bool) (out []yearBound, inRange, used map[int]bool, ambiguous bool) {
	inRange, used = map[int]bool{}, map[int]bool{}
	isYear := func(it item) bool { return p.t.isYear(it.num) }
	bound := func(op string, y int) {
		switch op {
		case "ge":
			out = append(out, yearBound{">=", y})
		case "gt":
			out = append(out, yearBound{">=", y + 1})
		case "le":
			out = append(out, yearBound{"<=", y})
		case "lt":
			out = append(out, yearBound{"<=", y - 1})
		}
	}
	for k := 0; k+1 < len(nums); k++ {
		a, b := nums[k], nums[k+1]
		if !isYear(a) || !isYear(b) || a.num >= b.num {
			continue
		}
		// What lies between the two years: punctuation and words (年 aside).
		between := strings.TrimSpace(p.text[p.toks[a.to-1].end:p.toks[b.from].start])
		between = strings.TrimSpace(strings.TrimPrefix(between, "年"))
		sep, wordy := "", false
		switch {
		case rangeWords[between] && !isLetters(between):
			sep = between
		case rangeWords[between]:
			sep, wordy = between, true
		case between == "and" || between == "和" || between == "与":
			if prev := p.prevItem(a); prev != nil && prev.kind == itemVocab && prev.ent.role == roleBound && prev.ent.value == "between" {
				sep, wordy = between, true
				used[prev.from] = true
			}
		}
		if sep == "" {
			continue
		}
		if wordy && comparing {
			ambiguous = true
			continue
		}
		out = append(out, yearBound{">=", a.num}, yearBound{"<=", b.num})
		inRange[a.from], inRange[b.from] = true, true
		for _, it := range p.items {
			if it.from >= a.to && it.to <= b.from {
				used[it.from] = true
			}
		}
		if prev := p.prevItem(a); prev != nil && prev.kind == itemVocab && prev.ent.role == roleBound && prev.ent.value == "from" {
			used[prev.from] = true
		}
		k++
	}
	for _, it := range nums {
		if !isYear(it) || inRange[it.from] {
			continue
		}
		if prev := p.prevItem(it); prev != nil && prev.kind == itemVocab && prev.ent.role == roleBound && prev.ent.value != "between" && prev.ent.value != "to" && prev.ent.value != "from" {
			bound(prev.ent.value, it.num)
			inRange[it.from], used[prev.from] = true, true
			continue
		}
		// A bound after the year: "2000 onwards", "2000年以来".
		for k := range p.items {
			if p.items[k].from != it.from {
				continue
			}
			j := k + 1
			if j < len(p.items) && p.items[j].text == "年" {
				j++
			}
			if j+1 < len(p.items) && (p.items[j].text == "及" || p.items[j].text == "或") {
				j++ // 1950年及以后
			}
			if j < len(p.items) && p.items[j].kind == itemVocab && p.items[j].ent.role == roleBound {
				if v := p.items[j].ent.value; v == "ge" || v == "lt" {
					bound(v, it.num)
					inRange[it.from], used[p.items[j].from] = true, true
					if prev := p.prevItem(it); prev != nil && prev.kind == itemVocab && prev.ent.role == roleBound && prev.ent.value == "from" {
						used[prev.from] = true
					}
				}
			}
		}
	}
	return out, inRange, used, ambiguous
}

func isLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// modifies reports whether the dimension column at item k stands before a
// measure as its modifier ("firm value", "stock price", 股票价格): no
// by, per, which or ranking word before it, a measure column right after.
func (p *parsed) modifies(k int) bool {
	if k+1 >= len(p.items) {
		return false
	}
	next := p.items[k+1]
	if next.kind != itemColumn || !next.col.numeric || next.col.idish || next.col.coded || next.col.yearInt || next.col.date {
		return false
	}
	for j := k - 1; j >= 0; j-- {
		it := p.items[j]
		if it.kind != itemVocab {
			break
		}
		switch it.ent.role {
		case roleBy, roleOrder, roleTop, roleSuper:
			return false
		case roleStop, roleIn:
			if it.text == "which" || it.text == "what" || strings.HasPrefix(it.text, "哪") {
				return false
			}
			continue
		}
		break
	}
	return true
}

// onlyDimension is the table's one text column when the word at item k
// (its English words ws) can only mean it: a kind word ("type", 类型), or
// after by, each or which a word of the file's name ("by industry" in
// unemployment-across-industries.json). Nil otherwise.
func (p *parsed) onlyDimension(k int, ws string) *gcol {
	ds := p.t.dimensions()
	if len(ds) != 1 || !unnamedDimension(ds[0]) {
		return nil
	}
	words := strings.Fields(ws)
	if len(words) == 1 && kindWords[words[0]] || kindWords[p.toks[p.items[k].from].w] {
		return ds[0]
	}
	if len(words) != 1 || len(p.withoutStem(words)) != 0 {
		return nil
	}
	for j := k - 1; j >= 0; j-- {
		it := p.items[j]
		if it.kind == itemNumber {
			continue // "top 3 industries"
		}
		if it.kind != itemVocab {
			return nil
		}
		switch {
		case it.ent.role == roleBy, it.ent.role == roleOrder, it.ent.role == roleTop:
			return ds[0]
		case it.text == "which" || it.text == "what" || strings.HasPrefix(it.text, "哪"):
			return ds[0]
		case it.ent.role == roleStop || it.ent.role == roleIn:
			continue
		}
		return nil
	}
	return nil
}

// unnamedDimension reports whether a text column's name does not say what
// it holds (Entity, series, name, category), so that a word for its kind
// can name it.
func unnamedDimension(c *gcol) bool {
	for _, w := range c.words {
		switch w {
		case "entity", "series", "name", "category", "type", "kind", "label", "group", "class", "item":
		default:
			return false
		}
	}
	return len(c.words) > 0
}

// yearlyDates reports whether the preview's values of date column name
// are all the first of January (one date a year), two at least.
func (t *gtable) yearlyDates(name string) bool {
	k := -1
	for i, c := range t.sheet.Columns {
		if c.Name == name {
			k = i
		}
	}
	if k < 0 {
		return false
	}
	n := 0
	for _, row := range t.sheet.Rows {
		if k >= len(row) || row[k] == "" {
			continue
		}
		v := row[k]
		if len(v) < 10 || !isDigits(v[:4]) || v[4:10] != "-01-01" || len(v) > 10 && strings.Trim(v[10:], "T 0:Z.") != "" {
			return false
		}
		n++
	}
	return n >= 2
}

// conjunctions join two groupings: "by source and year".
var conjunctions = map[string]bool{"and": true, "和": true, "与": true, "及": true, "以及": true, "、": true}

// unitOfMeasures reports whether unit word w (canonical) is the unit
// of one of the measures (unitWords), and of no other measure a
// different unit is said.
func unitOfMeasures(w string, measures []*gcol) bool {
	u := unitWords[w]
	fits := 0
	for _, c := range measures {
		d := declaredUnit(c.name)
		switch {
		case d == u:
			fits++
		case d != "":
			return false
		default:
			for _, cw := range c.words {
				if conventionalUnits[cw] == u {
					fits++
					break
				}
			}
		}
	}
	return fits == 1
}

// declaredUnit is the unit a column's name writes, as unitWords spell
// it: in brackets ("Beak Length (mm)") or after a last "in" ("Speed IAS
// in knots"); "" when none, "?" when one unitWords does not know.
func declaredUnit(name string) string {
	spell := func(w string) string {
		w = strings.ToLower(strings.TrimSpace(w))
		if u, ok := unitSame[w]; ok {
			return u
		}
		if u, ok := unitWords[canonWord(w)]; ok {
			return u
		}
		return "?"
	}
	if m := unitSuffix.FindString(name); m != "" {
		return spell(strings.Trim(strings.TrimSpace(m), "()[]"))
	}
	toks := nameTokens(name)
	if n := len(toks); n >= 3 && toks[n-2] == "in" {
		return spell(toks[n-1])
	}
	return ""
}

// wholeCalendarRange finds a range of numbers that is every month (1-12)
// or quarter (1-4, 第1到第4) of the year, said beside its period word
// ("按月份（1-12月）", "各季度（第1到第4季度）"): it names the months or
// quarters of the calendar and keeps them all, so its items are made
// words with no slot of their own. It returns the period, or "".
func (p *parsed) wholeCalendarRange() string {
	isOrdinal := func(j int) bool {
		return j >= 0 && j < len(p.items) && p.items[j].kind == itemUnplaced && p.items[j].text == "第"
	}
	for k := range p.items {
		if p.items[k].kind != itemNumber || p.items[k].num != 1 {
			continue
		}
		j := k + 1
		for j < len(p.items) && (isOrdinal(j) || p.items[j].kind == itemVocab && (p.items[j].ent.role == roleStop || p.items[j].ent.role == roleBound && p.items[j].ent.value == "to")) {
			j++
		}
		if j >= len(p.items) || p.items[j].kind != itemNumber {
			continue
		}
		unit := map[int]string{12: "month", 4: "quarter"}[p.items[j].num]
		if unit == "" {
			continue
		}
		// The period word right after the range, or before it.
		names := func(o *item) bool {
			return o != nil && (o.kind == itemVocab && o.ent.role == roleGrain && o.ent.value == unit || o.kind == itemColumn && slices.Contains(o.col.words, unit))
		}
		from, to := k, j
		if isOrdinal(k - 1) {
			from = k - 1
		}
		after, before := names(p.nextItem(p.items[j])), names(p.prevItem(p.items[from]))
		if !after && !before {
			continue
		}
		if after && before && j+1 < len(p.items) {
			// 各季度（第1到第4季度）: the second 季度 repeats the first.
			to = j + 1
		}
		for m := from; m <= to; m++ {
			p.items[m].kind, p.items[m].ent = itemVocab, entry{role: roleStop}
		}
		return unit
	}
	return ""
}

// hourPart reports whether x is the hour of the day.
func hourPart(x *item) bool {
	return x != nil && x.kind == itemVocab && x.ent.role == rolePart && x.ent.value == "hour_of_day"
}

// departureWords name the departure of what a table's rows are, before
// "hour": the hour of its time.
var departureWords = map[string]bool{"departure": true, "departing": true, "出发": true}

// countFilter reports whether the column item k follows a number said
// right before it that is one of the column's counts ("4-cyl", "8
// cylinder"): the rows with that many, not a measure. Not after a word
// that makes the number a bound or a length ("at least 4", "top 4").
func (p *parsed) countFilter(k int) bool {
	if k == 0 {
		return false
	}
	it, prev := p.items[k], p.items[k-1]
	c := it.col
	if prev.kind != itemNumber || prev.to != it.from || c.counts == nil || c.yearInt || p.t.isYear(prev.num) || !c.counts[strconv.Itoa(prev.num)] {
		return false
	}
	if prev.from > 0 {
		switch p.toks[prev.from-1].w {
		case "than", "least", "most", "over", "under", "above", "below", "top", "bottom", "first", "last", "or", "and", "to", "from", "between":
			return false
		}
		if before := p.prevItem(prev); before != nil && before.kind == itemVocab && (before.ent.role == roleOrder || before.ent.role == roleTop || before.ent.role == roleBound) {
			return false
		}
		if showWords[p.toks[prev.from-1].w] {
			return false
		}
	}
	return true
}

// showWords before a number make it a ranking's length.
var showWords = map[string]bool{"show": true, "list": true, "give": true, "display": true}

func (p *parsed) hasRole(r role) bool {
	for _, it := range p.items {
		if it.kind == itemVocab && it.ent.role == r {
			return true
		}
	}
	return false
}

// hasEach reports whether the request groups by each or per (each stock,
// 每只股票), as opposed to ranking by something.
func (p *parsed) hasEach() bool {
	for _, it := range p.items {
		if it.kind == itemVocab && it.ent.role == roleBy && (it.text == "each" || it.text == "per" || it.text == "every" || it.text == "for each" || strings.HasPrefix(it.text, "每") || it.text == "各") {
			return true
		}
		// "per sheet", "各工作表": each sheet is a group.
		if it.kind == itemVocab && it.ent.role == roleAcross && (strings.HasPrefix(it.text, "each") || strings.HasPrefix(it.text, "per") || strings.HasPrefix(it.text, "every") || strings.HasPrefix(it.text, "每") || strings.HasPrefix(it.text, "各")) {
			return true
		}
	}
	return false
}

// otherQuestionBefore reports whether the items before k ask for an
// analysis other than cue: another cue, or a grouping (a ranking).
func (p *parsed) otherQuestionBefore(k int, cue string) bool {
	for _, it := range p.items[:k] {
		if it.kind == itemVocab && (it.ent.role == roleCue && it.ent.value != cue || it.ent.role == roleBy) {
			return true
		}
	}
	return false
}

// eventLog reports whether the table's rows are events: it has one date
// column whose dates repeat (several rows a day), so a row is one event.
func (t *gtable) eventLog() bool {
	var dates []*gcol
	for _, c := range t.cols {
		if c.date {
			dates = append(dates, c)
		}
	}
	return len(dates) == 1 && dates[0].distinct > 0 && dates[0].distinct < t.sheet.RowCount
}

// rowsAreItems reports whether each row of the table is one thing of what
// the file is named for: an event log, or a table whose name or id column
// has many values, one for most rows (cars.json, one car a row).
func (t *gtable) rowsAreItems() bool {
	if t.eventLog() {
		return true
	}
	for _, c := range t.cols {
		if !c.text && !c.idish {
			continue
		}
		for _, w := range c.words {
			if (w == "name" || w == "id" || w == "title") && c.distinct > 0 && c.distinct*2 >= t.sheet.RowCount {
				return true
			}
		}
	}
	// A table of measurements of individuals (penguins.json: species,
	// island, beak length, body mass…): no time column, and no number
	// that adds up, so no row is a total of several things.
	if len(t.timeColumns()) > 0 {
		return false
	}
	measured := false
	for _, c := range t.cols {
		if c.numeric && !c.coded && !c.idish {
			if c.nonSum == "" || c.stock != "" {
				return false
			}
			measured = true
		}
	}
	return measured
}

// saysRaw reports whether one of the words was written in the request.
func (p *parsed) saysRaw(ws ...string) bool {
	for _, t := range p.toks {
		for _, w := range ws {
			if t.raw == w {
				return true
			}
		}
	}
	return false
}
