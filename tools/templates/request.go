package templates

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/sift-agent/sift/preview"
	"golang.org/x/text/unicode/norm"
)

// column is one column of the chosen sheet with what its name and sample
// values suggest.
type column struct {
	name    string
	typ     string
	numeric bool // int or float
	timeish bool // a date type, or a text column with a time-like name
	idish   bool // an id-like name (id, user, customer, 编号)
	money   bool // a money-like name (amount, revenue, 销售额)
	stage   bool // a stage-like name (stage, event, 阶段)
	catHint bool // a category-like name (region, product, 地区)
}

// mentionKind orders how directly a request names a column.
type mentionKind int

const (
	mentionSynonym mentionKind = iota // a word of the same meaning (revenue → amount)
	mentionToken                      // one word of the column's name (customers → customer_name)
	mentionExact                      // the column's whole name
)

// mention is a column the request names, and where.
type mention struct {
	col   *column
	pos   int
	end   int
	kind  mentionKind
	label string
}

// request is what the words of a request say, independent of templates.
type request struct {
	raw      string
	lang     string // LangOf(raw): the language of the reasons
	text     string // normalised: NFKC, lower case
	masked   string // text with exactly mentioned column names blanked
	mentions []mention
	n        int
	period   string
	agg      string
	compare  string
	method   string
	bottom   bool
	stages   []string
}

// Name hints, matched as whole words (ASCII) or substrings (CJK).
var (
	timeHints = []string{"date", "time", "day", "month", "year", "week", "quarter", "period", "timestamp", "datetime", "created", "updated", "dt", "ts", "日期", "时间", "月份", "年月", "年份", "日", "月"}
	idHints   = []string{"id", "uid", "uuid", "user", "userid", "customer", "client", "member", "account", "用户", "客户", "会员", "账号", "编号", "顾客"}
	// perUnitHints mark money-like columns that hold a price per unit, not
	// an amount to add up.
	perUnitHints = []string{"price", "unit", "rate", "单价", "价格", "费率"}
	moneyHints   = []string{"amount", "revenue", "sales", "sale", "price", "total", "value", "profit", "cost", "income", "spend", "spending", "gmv", "turnover", "payment", "paid", "fee", "销售额", "金额", "收入", "营收", "利润", "成本", "价格", "单价", "总额", "费用", "营业额", "销售"}
	stageHints   = []string{"stage", "step", "event", "status", "phase", "funnel", "action", "阶段", "步骤", "事件", "环节", "状态", "行为"}
	catHints     = []string{"region", "category", "product", "city", "country", "state", "province", "channel", "segment", "type", "store", "shop", "department", "dept", "brand", "group", "class", "sku", "item", "地区", "区域", "类别", "品类", "分类", "产品", "商品", "城市", "省份", "渠道", "门店", "部门", "品牌", "类型"}
)

// synonymGroups are words of one meaning; a request word and a column name
// in the same group make a synonym mention.
var synonymGroups = [][]string{
	{"customer", "customers", "client", "clients", "buyer", "buyers", "客户", "顾客", "买家"},
	{"user", "users", "member", "members", "account", "accounts", "用户", "会员", "账号"},
	{"region", "regions", "area", "areas", "territory", "territories", "地区", "区域", "大区", "片区"},
	{"city", "cities", "城市"},
	{"province", "provinces", "state", "states", "省份"},
	{"country", "countries", "国家"},
	{"product", "products", "item", "items", "sku", "skus", "goods", "产品", "商品", "货品"},
	{"category", "categories", "类别", "品类", "分类", "类目"},
	{"channel", "channels", "渠道"},
	{"store", "stores", "shop", "shops", "门店", "店铺"},
	{"department", "departments", "dept", "部门"},
	{"brand", "brands", "品牌"},
	{"revenue", "sales", "amount", "turnover", "income", "gmv", "销售额", "金额", "收入", "营收", "营业额", "销售"},
	{"profit", "profits", "margin", "利润", "毛利"},
	{"quantity", "qty", "units", "volume", "数量", "销量", "件数"},
	{"price", "prices", "单价", "价格"},
	{"cost", "costs", "spend", "spending", "expense", "expenses", "成本", "费用", "支出"},
	{"event", "events", "stage", "stages", "step", "steps", "事件", "阶段", "步骤", "环节"},
}

// genericTokens are name words too common to count as a mention alone.
var genericTokens = map[string]bool{"name": true, "id": true, "no": true, "num": true, "number": true, "code": true, "the": true, "of": true, "by": true, "and": true, "total": true, "value": true, "type": true, "date": true, "time": true}

// hasHint reports whether a column name contains one of hints: a whole word
// for ASCII hints (after splitting on _ - . space and camelCase), a
// substring for CJK ones.
func hasHint(name string, hints []string) bool {
	words := nameTokens(name)
	for _, h := range hints {
		if isASCII(h) {
			for _, w := range words {
				if w == h || w == h+"s" {
					return true
				}
			}
		} else if strings.Contains(name, h) {
			return true
		}
	}
	return false
}

// nameTokens splits a column name into lower-case words.
func nameTokens(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prev := rune(0)
	for _, r := range name {
		switch {
		case r > unicode.MaxASCII:
			flush()
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
	return words
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// columnsOf describes the columns of a sheet from its preview.
func columnsOf(sheet *preview.SheetPreview) []*column {
	if sheet == nil {
		return nil
	}
	cols := make([]*column, 0, len(sheet.Columns))
	for _, c := range sheet.Columns {
		col := &column{name: c.Name, typ: c.Type}
		col.numeric = c.Type == preview.ColumnInt || c.Type == preview.ColumnFloat
		col.idish = hasHint(c.Name, idHints)
		col.money = hasHint(c.Name, moneyHints)
		col.stage = hasHint(c.Name, stageHints)
		col.catHint = hasHint(c.Name, catHints)
		col.timeish = c.Type == preview.ColumnDate || c.Type == preview.ColumnDatetime ||
			(c.Type == preview.ColumnText && hasHint(c.Name, timeHints))
		cols = append(cols, col)
	}
	return cols
}

// normalize folds a request for matching: NFKC (full-width digits and
// punctuation become ASCII) and lower case.
func normalize(s string) string {
	return strings.ToLower(norm.NFKC.String(s))
}

// wordRes caches wordRe's compiled patterns; column names and synonyms
// repeat across requests.
var wordRes sync.Map // string → *regexp.Regexp

// wordRe matches w as a whole word (optionally plural) in normalised text.
func wordRe(w string) *regexp.Regexp {
	if re, ok := wordRes.Load(w); ok {
		return re.(*regexp.Regexp)
	}
	// The word ends where letters of another script begin: "revenue和units"
	// names revenue and units.
	re := regexp.MustCompile(`(?:^|[^\p{Latin}\p{Greek}\p{Cyrillic}\p{N}])(` + regexp.QuoteMeta(w) + `(?:e?s)?)(?:$|[^\p{Latin}\p{Greek}\p{Cyrillic}\p{N}])`)
	wordRes.Store(w, re)
	return re
}

// findWord returns where w occurs in text: as a whole word for ASCII, as a
// substring for CJK; -1 when it does not.
func findWord(text, w string) (int, int) {
	if w == "" {
		return -1, -1
	}
	if !isASCII(w) {
		i := strings.Index(text, w)
		if i < 0 {
			return -1, -1
		}
		return i, i + len(w)
	}
	loc := wordRe(w).FindStringSubmatchIndex(text)
	if loc == nil {
		return -1, -1
	}
	return loc[2], loc[3]
}

// unitSuffix matches a bracketed unit at the end of a column name, "销售额(元)".
var unitSuffix = regexp.MustCompile(`\s*[(\[][^)\]]*[)\]]\s*$`)

// cjkNameSuffixes are dropped from CJK column names to find shorter
// mentions: 客户名称 is named by 客户.
var cjkNameSuffixes = []string{"名称", "名字", "姓名", "编号", "代码"}

// nameVariants are the spellings of a column name a request may use.
func nameVariants(name string) []string {
	n := normalize(strings.TrimSpace(name))
	vs := []string{n}
	add := func(v string) {
		v = strings.TrimSpace(v)
		if v != "" && !contains(vs, v) {
			vs = append(vs, v)
		}
	}
	add(strings.NewReplacer("_", " ", "-", " ", ".", " ").Replace(n))
	add(strings.NewReplacer("_", "", "-", "").Replace(n))
	add(unitSuffix.ReplaceAllString(n, ""))
	for _, s := range cjkNameSuffixes {
		if strings.HasSuffix(n, s) && utf8.RuneCountInString(n) > utf8.RuneCountInString(s)+1 {
			add(strings.TrimSuffix(n, s))
		}
	}
	return vs
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// findMentions lists the columns text names, in order of position; one
// mention per column, the most direct kind found.
func findMentions(text string, cols []*column) []mention {
	var ms []mention
	for _, c := range cols {
		best := mention{pos: -1}
		try := func(w string, kind mentionKind) {
			if (isASCII(w) && len(w) < 2) || (!isASCII(w) && utf8.RuneCountInString(w) < 2) {
				return
			}
			s, e := findWord(text, w)
			if s < 0 {
				return
			}
			if best.pos < 0 || kind > best.kind || (kind == best.kind && s < best.pos) {
				best = mention{col: c, pos: s, end: e, kind: kind, label: w}
			}
		}
		for _, v := range nameVariants(c.name) {
			try(v, mentionExact)
		}
		if best.pos < 0 {
			for _, tok := range nameTokens(c.name) {
				if len(tok) >= 3 && !genericTokens[tok] {
					try(tok, mentionToken)
				}
			}
		}
		if best.pos < 0 {
			for _, g := range synonymGroups {
				if !hasHint(c.name, g) {
					continue
				}
				for _, w := range g {
					try(normalize(w), mentionSynonym)
				}
			}
		}
		if best.pos >= 0 {
			ms = append(ms, best)
		}
	}
	// An exact mention owns its span: a looser mention inside it goes.
	var kept []mention
	for _, m := range ms {
		covered := false
		for _, o := range ms {
			if o.col != m.col && o.kind > m.kind && o.pos <= m.pos && m.end <= o.end {
				covered = true
				break
			}
		}
		if !covered {
			kept = append(kept, m)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if kept[i].pos != kept[j].pos {
			return kept[i].pos < kept[j].pos
		}
		return kept[i].kind > kept[j].kind
	})
	return kept
}

// maskMentions blanks the exactly named columns so their words (a column
// called "count" or "model") do not read as instructions.
func maskMentions(text string, ms []mention) string {
	b := []byte(text)
	for _, m := range ms {
		if m.kind != mentionExact {
			continue
		}
		for i := m.pos; i < m.end; i++ {
			b[i] = ' '
		}
	}
	return string(b)
}

// Request patterns for N, period, aggregation, comparison and method.
var (
	topNRe    = regexp.MustCompile(`\b(?:top|bottom|best|worst|highest|lowest|largest|biggest|smallest)\s*-?\s*(\d{1,4})\b`)
	nFirstRe  = regexp.MustCompile(`\b(\d{1,4})\s+(?:top|best|biggest|largest|highest|lowest|worst|smallest|most)\b`)
	cjkTopNRe = regexp.MustCompile(`(?:前|后|排名前|top)\s*(\d{1,4}|[一二两三四五六七八九十百]+)\s*(?:名|个|位|大|家|条|款)?`)
	// cjkSuperlativeNRe is "最低的3个", "销量最高的五家": a count after a
	// superlative, with its measure word.
	cjkSuperlativeNRe = regexp.MustCompile(`(?:最高|最低|最多|最少|最大|最小|最好|最差)的?\s*(\d{1,4}|[一二两三四五六七八九十百]+)\s*(?:名|个|位|家|条|款)`)
	bottomRe          = regexp.MustCompile(`\b(?:bottom|lowest|least|worst|fewest|smallest)\b|最低|最少|最差|倒数|最小|后\s*\d|后[一二三四五六七八九十]`)
	cjkDigitMap       = map[rune]int{'一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9, '〇': 0, '零': 0}
)

// periodWords map request phrases to Periods, most specific first.
var periodWords = []struct {
	re     *regexp.Regexp
	period string
}{
	{regexp.MustCompile(`\b(?:daily|per day|by day|each day|every day|day by day|a day|which day)\b|每天|每日|按天|按日|日度|逐日|哪一?天`), "day"},
	{regexp.MustCompile(`\b(?:weekly|per week|by week|each week|every week|week by week|a week|which week)\b|每周|按周|周度|逐周|每星期|哪一?周`), "week"},
	{regexp.MustCompile(`\b(?:quarterly|per quarter|by quarter|each quarter|every quarter|a quarter|which quarter)\b|每季度|按季度|按季|季度|哪个?季度`), "quarter"},
	{regexp.MustCompile(`\b(?:monthly|per month|by month|each month|every month|month by month|a month|which month)\b|每月|按月|月度|逐月|各月|每个月|哪个?月`), "month"},
	{regexp.MustCompile(`\b(?:yearly|annual|annually|per year|by year|each year|every year|year by year|a year|which year)\b|每年|按年|年度|逐年|各年|哪一?年`), "year"},
}

// aggWords map request phrases to Aggregations, in priority order.
var aggWords = []struct {
	re  *regexp.Regexp
	agg string
}{
	{regexp.MustCompile(`\b(?:average|avg|mean)\b|平均|均值|均价`), "mean"},
	{regexp.MustCompile(`\bmedian\b|中位数`), "median"},
	{regexp.MustCompile(`\b(?:count|counts|number of|how many|frequency)\b|数量|个数|次数|多少个|多少次|笔数|订单数|单数|人数`), "count"},
	{regexp.MustCompile(`\b(?:maximum|max)\b|最大值`), "max"},
	{regexp.MustCompile(`\b(?:minimum|min)\b|最小值`), "min"},
	{regexp.MustCompile(`\b(?:total|sum|totals)\b|总额|总和|合计|总计|总`), "sum"},
}

// compareWords map request phrases to Comparisons; "seq" is "each period
// against the one before", resolved by the period.
var compareWords = []struct {
	re   *regexp.Regexp
	mode string
}{
	{regexp.MustCompile(`year[- ]over[- ]year|\byoy\b|\by/y\b|同比|去年同期|(?:last|previous|prior|same period last) year|上一?年|去年`), "yoy"},
	{regexp.MustCompile(`quarter[- ]over[- ]quarter|\bqoq\b|(?:last|previous|prior) quarter|上(?:个)?季度`), "qoq"},
	{regexp.MustCompile(`week[- ]over[- ]week|\bwow\b|(?:last|previous|prior) week|上周`), "wow"},
	{regexp.MustCompile(`day[- ]over[- ]day|\bdod\b|昨天|前一天`), "dod"},
	{regexp.MustCompile(`month[- ]over[- ]month|\bmom\b|\bm/m\b|(?:last|previous|prior) month|上(?:个)?月`), "mom"},
	{regexp.MustCompile(`环比|\bsequential\b|period[- ]over[- ]period|(?:previous|prior|last) period`), "seq"},
}

var (
	spearmanRe = regexp.MustCompile(`\bspearman\b|\brank correlation\b|斯皮尔曼|秩相关`)
	kendallRe  = regexp.MustCompile(`\bkendall\b|肯德尔`)
	// arrowRe splits a list of stages: visit -> signup -> purchase.
	arrowRe = regexp.MustCompile(`\s*(?:->|=>|→|⇒|>|➔|＞)\s*`)
	// stageListRe finds "stages: a, b, c" or "阶段: a、b、c".
	stageListRe = regexp.MustCompile(`(?:stages?|steps?|阶段|步骤|环节)\s*(?:are|is|:|：|为|是)\s*(.+)$`)
)

// parseRequest reads what the request says about N, period, aggregation,
// comparison, method, direction and funnel stages, given the sheet's
// columns for mentions.
func parseRequest(raw string, cols []*column) *request {
	r := &request{raw: raw, lang: LangOf(raw), text: normalize(raw)}
	r.mentions = findMentions(r.text, cols)
	r.masked = maskMentions(r.text, r.mentions)
	t := r.masked
	if m := topNRe.FindStringSubmatch(t); m != nil {
		r.n, _ = strconv.Atoi(m[1])
	} else if m := nFirstRe.FindStringSubmatch(t); m != nil {
		r.n, _ = strconv.Atoi(m[1])
	} else if m := cjkTopNRe.FindStringSubmatch(t); m != nil {
		r.n = parseCJKNumber(m[1])
	} else if m := cjkSuperlativeNRe.FindStringSubmatch(t); m != nil {
		r.n = parseCJKNumber(m[1])
	}
	r.bottom = bottomRe.MatchString(t)
	first := len(t) + 1
	for _, pw := range periodWords {
		if loc := pw.re.FindStringIndex(r.text); loc != nil && loc[0] < first {
			first, r.period = loc[0], pw.period
		}
	}
	for _, aw := range aggWords {
		if aw.re.MatchString(t) {
			r.agg = aw.agg
			break
		}
	}
	for _, cw := range compareWords {
		if cw.re.MatchString(t) {
			r.compare = cw.mode
			break
		}
	}
	switch {
	case spearmanRe.MatchString(t):
		r.method = "spearman"
	case kendallRe.MatchString(t):
		r.method = "kendall"
	}
	r.stages = parseStages(normalize(raw), raw)
	return r
}

// parseCJKNumber reads digits or a Chinese numeral (十, 二十, 十五, 两千零一十五), or
// one written digit by digit (二〇一五, 二零一五: 2015).
func parseCJKNumber(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	if !strings.ContainsAny(s, "十百千") && (utf8.RuneCountInString(s) >= 3 || strings.ContainsRune(s, '〇')) {
		n := 0
		for _, c := range s {
			n = 10*n + cjkDigitMap[c]
		}
		return n
	}
	total, cur := 0, 0
	for _, c := range s {
		switch c {
		case '千':
			if cur == 0 {
				cur = 1
			}
			total += cur * 1000
			cur = 0
		case '十':
			if cur == 0 {
				cur = 1
			}
			total += cur * 10
			cur = 0
		case '百':
			if cur == 0 {
				cur = 1
			}
			total += cur * 100
			cur = 0
		default:
			cur = cjkDigitMap[c]
		}
	}
	return total + cur
}

// parseStages finds an ordered list of funnel stages written with arrows
// ("visit -> signup -> purchase") or after "stages:". The stages keep the
// request's own spelling (not lower-cased).
func parseStages(text, raw string) []string {
	src := norm.NFKC.String(raw)
	parts := arrowRe.Split(src, -1)
	if len(parts) >= 2 {
		var out []string
		for i, p := range parts {
			p = strings.TrimSpace(p)
			if i == 0 {
				p = lastPhrase(p)
			} else if i == len(parts)-1 {
				p = firstPhrase(p)
			}
			p = strings.Trim(p, " ,.;:!?'\"()[]")
			if p == "" {
				return nil
			}
			out = append(out, p)
		}
		return out
	}
	if m := stageListRe.FindStringSubmatch(src); m != nil {
		var out []string
		for _, p := range regexp.MustCompile(`\s*(?:,|、|;|，)\s*|\s+(?:and|then)\s+`).Split(m[1], -1) {
			if p = strings.Trim(p, " .;:!?'\"()[]"); p != "" {
				out = append(out, p)
			}
		}
		if len(out) >= 2 {
			return out
		}
	}
	return nil
}

// lastPhrase is the stage name at the end of the text before the first
// arrow: its last word, or what follows a colon or 漏斗/funnel.
func lastPhrase(s string) string {
	for _, sep := range []string{":", "：", "漏斗", "funnel", "from", "从"} {
		if i := strings.LastIndex(strings.ToLower(s), sep); i >= 0 {
			s = s[i+len(sep):]
		}
	}
	s = strings.TrimSpace(s)
	if i := strings.LastIndexAny(s, " \t,，"); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// firstPhrase is the stage name at the start of the text after the last
// arrow: its first word.
func firstPhrase(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t,，.。;；"); i >= 0 {
		s = s[:i]
	}
	for _, suffix := range []string{"的转化率", "转化率", "的转化", "的漏斗", "漏斗"} {
		s = strings.TrimSuffix(s, suffix)
	}
	return s
}
