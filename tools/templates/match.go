package templates

import (
	"fmt"
	"math"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sift-agent/sift/preview"
)

// MinConfidence is the confidence below which MatchRequest returns no
// match: the request goes to a model rather than to a guessed template.
const MinConfidence = 0.6

// Confidence penalties: for each thing a template needs that the preview
// lacks (a date column for a trend), and for a request that asks for two
// analyses at once.
const (
	missingPenalty   = 0.45
	ambiguityPenalty = 0.4
)

// Match is what MatchRequest found: a template, its parameters and how sure
// the match is. An empty Template means no match.
type Match struct {
	// Template is the matched template's name; empty when nothing matched
	// with at least MinConfidence.
	Template string `json:"template,omitempty"`
	// Candidate is the best-scoring template even when it fell below
	// MinConfidence (empty when no template's words occur at all), so a
	// caller can say what almost matched.
	Candidate string `json:"candidate,omitempty"`
	// File is the chosen file's preview Name (its workspace-relative path
	// when the previews were made with BaseDir set to the workspace), and
	// FileIndex its position in the files given; -1 when none was usable.
	File      string `json:"file,omitempty"`
	FileIndex int    `json:"file_index"`
	// Params are the inferred parameters, each choice explained in
	// Params.Reasons.
	Params Params `json:"params"`
	// Confidence is in [0, 1].
	Confidence float64 `json:"confidence"`
	// Reasons say why this template matched (or nothing did).
	Reasons []string `json:"reasons,omitempty"`
	// Each holds one match per table when the request covers several
	// tables: it says every, each or all tables, names several files, or
	// names no file and no column that would single one out. File,
	// FileIndex and Params are then the first table's. Tables the template
	// cannot run on are left out, with the reason in Reasons.
	Each []Match `json:"each,omitempty"`
	// OtherSheets are the sheets with data of the chosen workbook that the
	// analysis does not cover (it runs on Params.Sheet); a report names
	// them so nobody reads one sheet's answer as the workbook's.
	OtherSheets []string `json:"other_sheets,omitempty"`
	// Absent are the request's words for things it ranks or groups by that
	// no column of the chosen table holds ("customers" in a table of
	// regions and revenue). A match with any is refused: a built-in would
	// answer about another column.
	Absent []string `json:"absent,omitempty"`
	// Lang is the language of Reasons, SheetNote and Table: the request's
	// (LangOf).
	Lang string `json:"lang,omitempty"`
	// Reading is what the request was understood to ask (see Understand):
	// complete when Template is set, the partial reading otherwise (zero
	// when the request was not parsed, e.g. an empty one, or when the
	// caller chose the template: MatchTemplate).
	Reading Reading `json:"reading"`
}

// AbsentNote says plainly what the request names that the data lacks;
// empty when nothing is absent.
func (m Match) AbsentNote() string {
	if len(m.Absent) == 0 {
		return ""
	}
	return fmt.Sprintf("The request asks about %s, but %s has no such column, so no built-in analysis answers it (one would rank or group by another column instead).",
		strings.Join(quoted(m.Absent), " and "), m.Table())
}

// OK reports whether a template matched.
func (m Match) OK() bool { return m.Template != "" }

// Table names what the match runs on: the file, and the sheet of a
// workbook ("input/sales.xlsx, sheet Europe").
func (m Match) Table() string {
	if m.Params.Sheet != "" && isWorkbook(m.File) {
		return textIn(m.Lang, "%s, sheet %s", m.File, m.Params.Sheet)
	}
	return m.File
}

// SheetNote says which sheet of a workbook the analysis used and which it
// did not; empty when the file has one table.
func (m Match) SheetNote() string {
	if len(m.OtherSheets) == 0 || m.Params.Sheet == "" {
		return ""
	}
	others := strings.Join(quoted(m.OtherSheets), ", ")
	if len(m.OtherSheets) == 1 {
		return textIn(m.Lang, "Only sheet %q of %s is analysed; its other sheet is not (%s): name the sheet you mean, or ask for every sheet.", m.Params.Sheet, m.File, others)
	}
	return textIn(m.Lang, "Only sheet %q of %s is analysed; its other %d sheets are not (%s): name the sheet you mean, or ask for every sheet.", m.Params.Sheet, m.File, len(m.OtherSheets), others)
}

func quoted(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strconv.Quote(s)
	}
	return out
}

// cue is a phrase that points to a template, with how strongly.
type cue struct {
	re     *regexp.Regexp
	weight float64
}

func cues(weight float64, patterns ...string) []cue {
	out := make([]cue, len(patterns))
	for i, p := range patterns {
		out[i] = cue{re: regexp.MustCompile(p), weight: weight}
	}
	return out
}

// periodCue is any period word (monthly, 按月, per quarter).
const periodCue = `\b(?:daily|weekly|monthly|quarterly|yearly|annual|annually)\b|\b(?:per|by|each|every) (?:day|week|month|quarter|year)\b|每天|每日|按天|按日|每周|按周|每月|按月|月度|逐月|各月|每个月|每季度|按季度|每年|按年|年度|逐年`

// blockers are requests that need reasoning, modelling, writing or several
// steps: they never match, whatever else they say.
var blockers = regexp.MustCompile(strings.Join([]string{
	`\bwhy\b`, `\breasons?\b`, `\bcauses?\b`, `\bcaused\b`, `\bexplain\w*\b`, `\bshould\b`, `\brecommend\w*\b`, `\badvi[cs]e\b`, `\bsuggest\w*\b`,
	`\bstrateg\w*\b`, `\bpredict\w*\b`, `\bforecast\w*\b`, `\bproject(?:ion|ions|ed)\b`, `\bnext (?:day|week|month|quarter|year)\b`,
	`\bmodel(?:s|ing|ling)?\b`, `\bmachine learning\b`, `\btrain\w*\b`, `\bregression\b`, `\bclassif\w*\b`, `\bcluster\w*\b`, `\bsegment(?:s|ation|ing)?\b`,
	`\bjoin\w*\b`, `\bmerg\w*\b`, `\bcombin\w*\b`, `\bclean\w*\b`, `\bdedup\w*\b`, `\bpoem\b`, `\bstory\b`, `\bessay\b`, `\bemail\b`, `\bletter\b`, `\bwrite\b`,
	`\btranslat\w*\b`, `\bimprov\w*\b`, `\boptimi[sz]\w*\b`, `\bwhat if\b`, `\bsimulat\w*\b`, `\bhow (?:can|could|do|should|would) (?:we|i)\b`, `\bimpact\b`,
	`\beffect of\b`, `\bdrivers?\b`, `\bsignifican\w*\b`, `\bhypothes\w*\b`, `\bt-?test\b`, `\bsearch\b`, `\binternet\b`, `\bthen\b`,
	`\bafterwards?\b`, `\bfix\b`, `\bimpute\b`, `\bfill in\b`,
	`为什么`, `为何`, `原因`, `怎么办`, `怎么做`, `应该`, `建议`, `预测`, `预估`, `预计`, `建模`, `模型`, `训练`, `聚类`, `回归`, `合并`, `拼接`,
	`连接`, `两个(?:文件|表)`, `清洗`, `清理`, `去重`, `写`, `诗`, `翻译`, `解释`, `策略`, `优化`, `提高`, `提升`, `改进`, `影响`, `显著`, `假设`, `搜索`,
	`网上`, `下一?(?:年|个月|季度|周)`, `明年`, `未来`, `然后`, `接着`, `之后再`, `再做`, `填补`,
}, "|"))

// notBlockers are phrases with a blocker's word that ask nothing more
// than an analysis: a car's "model year" is its year, not a model; "the
// number of models" counts the models a table lists (cars), and fits
// none; 各聚类 (each cluster) groups by clusters the data has, and makes
// none.
var notBlockers = regexp.MustCompile(`\bmodel\s+years?\b|\b(?:no\.?|number|count|how\s+many)\s+(?:of\s+)?(?:different\s+|distinct\s+)?models\b|(?:各|每个|按)聚类`)

// scored is one template's cue score for a request.
type scored struct {
	name   string
	score  float64
	phrase string
}

// scoreCues scores every template by its strongest cue in text.
// clauseSplit separates the parts of a compound request: "X, and Y",
// "X and which Y", "X；Y", "X，以及Y".
var clauseSplit = regexp.MustCompile(`(?:,|;|，|；)?\s+(?:and|also|plus|as well as)\s+|[;；]|，?(?:以及|并且|同时|还有|另外)`)

// questionWord starts a question of its own.
var questionWord = regexp.MustCompile(`^\s*(?:which|what|how|who|where|when|why|is|are|does|do)\b|哪|什么|多少|是否|怎么|为什么`)

// secondQuestion returns a later part of a compound request that asks for
// something other than the best template: a part whose own cues point to
// another template, or a part that is a question of its own. Such a
// request is more than one built-in analysis can answer.
func secondQuestion(text, best string) string {
	parts := clauseSplit.Split(text, -1)
	if len(parts) < 2 {
		return ""
	}
	for i, p := range parts {
		p = strings.TrimSpace(strings.Trim(p, "?？.。!！ "))
		if p == "" {
			continue
		}
		if cues := scoreCues(p); len(cues) > 0 && cues[0].name != best {
			return p
		}
		if i > 0 && questionWord.MatchString(p) {
			if cues := scoreCues(p); len(cues) == 0 || cues[0].name != best {
				return p
			}
		}
	}
	return ""
}

func scoreCues(text string) []scored {
	var out []scored
	for _, b := range byRank() {
		best := scored{name: b.Name}
		for _, c := range b.cues {
			if c.weight <= best.score {
				continue
			}
			if loc := c.re.FindStringIndex(text); loc != nil {
				best.score, best.phrase = c.weight, text[loc[0]:loc[1]]
			}
		}
		if best.score > 0 {
			out = append(out, best)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

// groupByTarget finds "by X" / "按X统计" naming a text column or a period,
// which make a group-by (topn) or a trend.
var (
	byWordRe    = regexp.MustCompile(`\b(?:by|per|for each|each|across)\s+([\p{L}_]+)`)
	cjkGroupRe  = regexp.MustCompile(`(?:按照|按|分|各个|各|每个)([\p{Han}\p{L}\p{N}_]{1,10}?)(?:统计|汇总|分组|分析|计算|看|排序|排名|列出|的)`)
	cjkPeriodRe = regexp.MustCompile(`^(?:天|日|周|星期|月|月份|季度|季|年|年度)$`)
)

// groupingCue scores a group-by phrase whose target is a category column
// (topn) or a period (trend).
func groupingCue(r *request, cols []*column) (topn, trend float64, phrase string) {
	isCat := func(target string) bool {
		for _, m := range r.mentions {
			if isCategory(m.col) && strings.Contains(r.text[m.pos:m.end], target) || isCategory(m.col) && strings.Contains(target, r.text[m.pos:m.end]) {
				return true
			}
		}
		return false
	}
	for _, m := range cjkGroupRe.FindAllStringSubmatch(r.text, -1) {
		target := m[1]
		switch {
		case cjkPeriodRe.MatchString(target):
			return 0, 0.75, m[0]
		case isCat(target) && r.period != "":
			return 0, 0.8, m[0]
		case isCat(target):
			return 0.78, 0, m[0]
		}
	}
	for _, m := range byWordRe.FindAllStringSubmatch(r.text, -1) {
		target := strings.TrimSuffix(m[1], "s")
		switch {
		case target == "day" || target == "week" || target == "month" || target == "quarter" || target == "year":
			return 0, 0.72, m[0]
		case isCat(m[1]) && r.period != "":
			return 0, 0.8, m[0]
		case isCat(m[1]):
			return 0.78, 0, m[0]
		}
	}
	return 0, 0, ""
}

// MatchRequest matches a request, in English or Chinese, to a built-in
// template over the given files, deterministically, by understanding it
// (see Understand): a built-in answers only when every content word of the
// request is placed on the reading and every slot is grounded on the
// data; otherwise Template is empty and Reasons say which words could not
// be placed and which columns exist. Requests that need reasoning (why,
// predict, clean, join, several steps) never match. A request about every
// table ("profile every table", or a profile over several tables none of
// which it singles out) runs on each (see Match.Each).
func MatchRequest(request string, files []*preview.FilePreview) Match {
	lang := LangOf(request)
	m := Match{FileIndex: -1, Lang: lang}
	text := normalize(request)
	if strings.TrimSpace(text) == "" {
		m.Reasons = []string{textIn(lang, "the request is empty")}
		return m
	}
	var firstSheet *preview.SheetPreview
	if all := tablesOf(text, files); len(all) > 0 {
		firstSheet = all[0].sheet
	}
	if r := parseRequest(request, columnsOf(firstSheet)); true {
		masked := []byte(r.masked)
		for _, loc := range notBlockers.FindAllStringIndex(r.text, -1) {
			copy(masked[loc[0]:loc[1]], strings.Repeat(" ", loc[1]-loc[0]))
		}
		if loc := blockers.FindIndex(masked); loc != nil {
			m.Reasons = []string{textIn(lang, "the request needs more than a fixed analysis (it says %q)", strings.TrimSpace(r.masked[loc[0]:loc[1]]))}
			return m
		}
	}
	if each, why, ok := eachTable(request, text, files); ok {
		return each.withReason(why)
	}
	rd, ok, why := Understand(request, files)
	if len(rd.Unplaced) == 0 {
		// Candidate is an analysis that almost fits: every word placed,
		// a slot left open or unclear.
		m.Candidate = rd.Analysis
	}
	if rd.File != "" {
		m.File = rd.File
		for i, f := range files {
			if f != nil && f.Name == rd.File {
				m.FileIndex = i
				break
			}
		}
	}
	m.Reading = rd
	if !ok {
		m.Reasons = []string{why}
		m.Absent = rd.Unplaced
		return m
	}
	return matchOf(rd, files, m.FileIndex, lang)
}

// matchOf is the match of a complete reading on files[fi].
func matchOf(rd Reading, files []*preview.FilePreview, fi int, lang string) Match {
	m := Match{Template: rd.Analysis, Candidate: rd.Analysis, File: rd.File, FileIndex: fi, Lang: lang, Confidence: 0.95, Reading: rd}
	f := files[fi]
	var sheet *preview.SheetPreview
	for j := range f.Sheets {
		if s := &f.Sheets[j]; len(s.Columns) > 0 && (sheet == nil || s.Name == rd.Sheet) {
			if sheet == nil || s.Name == rd.Sheet {
				sheet = s
			}
		}
	}
	p := paramsOf(rd)
	p.Reasons = readingReasons(lang, rd)
	m.Params = fileParams(p, f, sheet)
	if rd.Sheet == "*" {
		m.Params.Sheet = ""
	}
	m.Reasons = []string{rd.Text(lang)}
	if rd.Sheet != "*" {
		m.OtherSheets = otherSheets(files, table{file: fi, sheet: sheet})
	}
	return m
}

// readingReasons say how each slot of a reading was grounded, for the
// report.
func readingReasons(lang string, r Reading) []string {
	out := []string{textIn(lang, "every word of the request is placed on the reading")}
	if r.Time != "" {
		out = append(out, textIn(lang, "time column: %s (%s)", r.Time, textIn(lang, "named in the request")))
	}
	for _, m := range r.Measures {
		out = append(out, textIn(lang, "measure: %s (%s)", m.Column, textIn(lang, "named in the request")))
	}
	if len(r.Columns) > 0 {
		out = append(out, textIn(lang, "columns: %s (named in the request)", strings.Join(r.Columns, ", ")))
	}
	for _, g := range r.GroupBy {
		out = append(out, textIn(lang, "category: %s (%s)", g, textIn(lang, "named in the request")))
	}
	if r.N > 0 {
		out = append(out, textIn(lang, "n: %d (from the request)", r.N))
	}
	for _, b := range r.ByMean {
		out = append(out, textIn(lang, "averaged rather than summed: %s", b))
	}
	return out
}

// eachTable is the match of a request about every table: it says every,
// each or all tables, or it asks for a profile over several tables and
// names none of them. ok is false when the request is about one table.
func eachTable(request, text string, files []*preview.FilePreview) (Match, string, bool) {
	lang := LangOf(request)
	var tables []table
	why := ""
	if loc := allTables.FindStringIndex(text); loc != nil {
		tables = everySheet(text, files)
		why = textIn(lang, "the request says %q: each of the %d tables is analysed", text[loc[0]:loc[1]], len(tables))
	}
	if len(tables) < 2 {
		all := everySheet(text, files)
		if len(all) < 2 {
			return Match{}, "", false
		}
		// A profile of several tables the request does not single out.
		var named []table
		for _, t := range all {
			if namesFile(text, files[t.file].Name) || namesSheet(text, t.sheet.Name) {
				named = append(named, t)
			}
		}
		if len(named) == 1 {
			return Match{}, "", false
		}
		cands := all
		if len(named) > 1 {
			cands = named
		}
		rd, ok, _ := Understand(request, onlyTable(files, cands[0]))
		if !ok || !builtinHas(rd.Analysis, func(b *builtin) bool { return b.wholeTable }) {
			return Match{}, "", false
		}
		tables = cands
		var names []string
		for _, t := range named {
			names = append(names, files[t.file].Name)
		}
		if len(named) > 1 {
			why = textIn(lang, "of the %d tables, %s: each is analysed", len(all), textIn(lang, "the request names %s", strings.Join(names, ", ")))
		} else {
			why = textIn(lang, "the request names no file and no column that singles out one of the %d tables: each is analysed", len(all))
		}
	}
	out := Match{FileIndex: -1, Lang: lang}
	for _, t := range tables {
		rd, ok, whyNot := Understand(request, onlyTable(files, t))
		if !ok {
			out.Reasons = append(out.Reasons, textIn(lang, "%s left out (%s)", files[t.file].Name, whyNot))
			continue
		}
		e := matchOf(rd, files, t.file, lang)
		e.OtherSheets = nil
		if files[t.file].Kind == preview.KindXLSX {
			e.Params.Sheet = t.sheet.Name
		}
		out.Each = append(out.Each, e)
	}
	if len(out.Each) == 0 {
		return Match{}, "", false
	}
	f := out.Each[0]
	out.Template, out.Candidate, out.File, out.FileIndex, out.Params, out.Confidence, out.Reading = f.Template, f.Template, f.File, f.FileIndex, f.Params, f.Confidence, f.Reading
	if len(out.Each) == 1 {
		out.Each = nil
	}
	return out, why, true
}

// withReason puts why first among m's reasons.
func (m Match) withReason(why string) Match {
	if why != "" {
		m.Reasons = append([]string{why}, m.Reasons...)
	}
	return m
}

// onlyTable is files with only table t: its file, with only its sheet.
func onlyTable(files []*preview.FilePreview, t table) []*preview.FilePreview {
	out := make([]*preview.FilePreview, len(files))
	for i, o := range files {
		if o == nil {
			continue
		}
		c := *o
		c.Sheets = nil
		if i == t.file {
			c.Sheets = []preview.SheetPreview{*t.sheet}
		}
		out[i] = &c
	}
	return out
}

// namesSheet reports whether text names the sheet.
func namesSheet(text, name string) bool {
	s, _ := findWord(text, normalize(name))
	return s >= 0 && len(name) >= 3
}

// onTable is the match of the template name on one table, from the
// confidence conf that the request's words gave: the parameters inferred
// from the table's columns, and the reasons for the confidence added or
// taken away there. Template is set when the confidence reaches
// MinConfidence.
func onTable(name string, conf float64, request string, files []*preview.FilePreview, t table) Match {
	f := files[t.file]
	cols := columnsOf(t.sheet)
	r := parseRequest(request, cols)
	in := infer(name, r, cols)
	m := Match{Candidate: name, File: f.Name, FileIndex: t.file, Lang: r.lang}
	if n := len(r.mentions); n > 0 {
		conf += 0.05 * float64(min(n, 2))
		format := "the request names %d columns of %s"
		if n == 1 {
			format = "the request names %d column of %s"
		}
		m.Reasons = append(m.Reasons, textIn(r.lang, format, n, f.Name))
	}
	for _, miss := range in.missing {
		conf -= missingPenalty
		m.Reasons = append(m.Reasons, textIn(r.lang, "but %s", miss))
	}
	m.Absent = in.absent
	if len(in.absent) > 0 {
		conf = min(conf, MinConfidence-0.1)
	}
	m.Params = fileParams(in.p, f, t.sheet)
	m.Confidence = round2(math.Max(0, math.Min(1, conf)))
	if m.Confidence >= MinConfidence {
		m.Template = name
	}
	return m
}

// MatchTemplate is MatchRequest with the template chosen by the caller
// (`--mode template`, or an agent's run_template call): it picks the file
// and infers the parameters for that template from the request and the
// previews, and reports the confidence it would have had. Template is set
// whatever the confidence. It fails only for an unknown template name.
func MatchTemplate(name, request string, files []*preview.FilePreview) (Match, error) {
	t, err := Lookup(name)
	if err != nil {
		return Match{}, err
	}
	text := normalize(request)
	fi, sheet := pickFile(text, files)
	cols := columnsOf(sheet)
	r := parseRequest(request, cols)
	in := infer(t.Name, r, cols)
	m := Match{Template: t.Name, Candidate: t.Name, FileIndex: fi, Confidence: 1, Lang: r.lang, Reasons: []string{textIn(r.lang, "%s: chosen by the caller", t.Name)}}
	for _, miss := range in.missing {
		m.Confidence -= missingPenalty
		m.Reasons = append(m.Reasons, textIn(r.lang, "but %s", miss))
	}
	m.Absent = in.absent
	m.Confidence = round2(math.Max(0, m.Confidence))
	if fi >= 0 {
		m.File = files[fi].Name
		m.Params = fileParams(in.p, files[fi], sheet)
		m.OtherSheets = otherSheets(files, table{file: fi, sheet: sheet})
	} else {
		m.Params = in.p
	}
	return m, nil
}

// raise sets a template's score to at least score.
func raise(ranked []scored, name string, score float64, phrase string) []scored {
	if score <= 0 {
		return ranked
	}
	found := false
	for i := range ranked {
		if ranked[i].name == name {
			found = true
			if ranked[i].score < score {
				ranked[i].score, ranked[i].phrase = score, phrase
			}
		}
	}
	if !found {
		ranked = append(ranked, scored{name: name, score: score, phrase: phrase})
	}
	sort.SliceStable(ranked, func(i, j int) bool {
		if ranked[i].score != ranked[j].score {
			return ranked[i].score > ranked[j].score
		}
		return rankOf(ranked[i].name) < rankOf(ranked[j].name)
	})
	return ranked
}

// pickFile chooses the table to analyse: among files with a sheet that has
// columns, the sheet naming the most request columns; ties go to the first.
func pickFile(text string, files []*preview.FilePreview) (int, *preview.SheetPreview) {
	best := table{file: -1, score: -1}
	for _, t := range tablesOf(text, files) {
		if t.score > best.score {
			best = t
		}
	}
	return best.file, best.sheet
}

// table is a file's sheet a request may be about, and how strongly the
// request names its columns.
type table struct {
	file  int
	sheet *preview.SheetPreview
	score int
}

// tablesOf lists each file that has a sheet with columns, with its sheet
// naming the most request columns (ties go to the first sheet).
func tablesOf(text string, files []*preview.FilePreview) []table {
	var out []table
	for i, f := range files {
		if f == nil {
			continue
		}
		best := table{file: i, score: -1}
		for j := range f.Sheets {
			s := &f.Sheets[j]
			if len(s.Columns) == 0 {
				continue
			}
			if n := mentionScore(text, s); n > best.score {
				best.sheet, best.score = s, n
			}
		}
		if best.sheet != nil {
			out = append(out, best)
		}
	}
	return out
}

// everySheet lists every sheet with columns of every file as a table of
// its own, for a request about all of them ("profile every sheet").
func everySheet(text string, files []*preview.FilePreview) []table {
	var out []table
	for i, f := range files {
		if f == nil {
			continue
		}
		for j := range f.Sheets {
			if s := &f.Sheets[j]; len(s.Columns) > 0 {
				out = append(out, table{file: i, sheet: s, score: mentionScore(text, s)})
			}
		}
	}
	return out
}

// mentionScore is how strongly text names the sheet's columns.
func mentionScore(text string, s *preview.SheetPreview) int {
	n := 0
	for _, m := range findMentions(text, columnsOf(s)) {
		n += 1 + int(m.kind)
	}
	return n
}

// otherSheets names the sheets with data of t's workbook other than the
// one t analyses; empty for a file of one table.
func otherSheets(files []*preview.FilePreview, t table) []string {
	f := files[t.file]
	if f == nil || f.Kind != preview.KindXLSX || t.sheet == nil {
		return nil
	}
	var out []string
	for j := range f.Sheets {
		if s := &f.Sheets[j]; len(s.Columns) > 0 && s.Name != t.sheet.Name {
			out = append(out, s.Name)
		}
	}
	return out
}

// allTables is a request about every table given: "profile every table",
// "each of the files", "所有表".
var allTables = regexp.MustCompile(`\b(?:every|each|all)(?: of)?(?: the| these| those| my| our| your)?\s+(?:tables?|files?|sheets?|datasets?|data sets?|csvs?|spreadsheets?|inputs?)\b|\b(?:each|all) of (?:them|these|those)\b|(?:每一?(?:个|张|份)|所有|全部|各个?)的?(?:表格?|文件|数据表|数据集)`)

// scope chooses the tables a request is about, and says why when there
// were several to choose from: every table when the request says so; else
// the files it names; else the tables with the most of the columns it
// names; every table when it names no file and no column.
func scope(lang, text string, files []*preview.FilePreview) ([]table, string) {
	if loc := allTables.FindStringIndex(text); loc != nil {
		// Every sheet of a workbook is a table of its own here.
		if every := everySheet(text, files); len(every) >= 2 {
			return every, textIn(lang, "the request says %q: each of the %d tables is analysed", text[loc[0]:loc[1]], len(every))
		}
	}
	all := tablesOf(text, files)
	if len(all) < 2 {
		return all, ""
	}
	var chosen []table
	var names []string
	for _, t := range all {
		if namesFile(text, files[t.file].Name) {
			chosen, names = append(chosen, t), append(names, files[t.file].Name)
		}
	}
	why := textIn(lang, "the request names %s", strings.Join(names, ", "))
	if len(chosen) == 0 {
		top := 0
		for _, t := range all {
			top = max(top, t.score)
		}
		if top == 0 {
			return all, textIn(lang, "the request names no file and no column that singles out one of the %d tables: each is analysed", len(all))
		}
		for _, t := range all {
			if t.score == top {
				chosen, names = append(chosen, t), append(names, files[t.file].Name)
			}
		}
		why = textIn(lang, "%s has the most of the columns the request names", strings.Join(names, ", "))
		if len(chosen) > 1 {
			why = textIn(lang, "%s have as many of the columns the request names", strings.Join(names, ", "))
		}
	}
	if len(chosen) == 1 {
		return chosen, textIn(lang, "of the %d tables, %s", len(all), why)
	}
	return chosen, textIn(lang, "of the %d tables, %s: each is analysed", len(all), why)
}

// namesFile reports whether text (normalised) names the file: its base name
// ("sales.csv") or, when at least three letters long, its stem ("sales",
// "order items" for order_items.csv).
func namesFile(text, name string) bool {
	base := normalize(path.Base(filepath.ToSlash(name)))
	if s, _ := findWord(text, base); s >= 0 {
		return true
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	if utf8.RuneCountInString(stem) < 3 {
		return false
	}
	for _, v := range nameVariants(stem) {
		if s, _ := findWord(text, v); s >= 0 {
			return true
		}
	}
	return false
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }
