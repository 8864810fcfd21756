package templates

// LangChinese is RunOptions.Lang for a report written in Chinese.
const LangChinese = "zh"

// LangOf is the language a built-in report answers question in: Chinese
// when the question is written in Chinese, else English ("").
func LangOf(question string) string {
	if hasHan(question) {
		return LangChinese
	}
	return ""
}

// chineseTitles are the templates' titles in Chinese.
var chineseTitles = map[string]string{
	Profile: "数据概况", Trend: "趋势分析", TopN: "排名与分组", ComparePeriods: "时期对比",
	Correlation: "相关性分析", Distribution: "分布分析", Pivot: "数据透视表", Outliers: "异常值",
	Cohort: "同期群留存", Funnel: "漏斗转化",
}

// TitleIn is the template's title in lang (LangOf).
func (t Template) TitleIn(lang string) string {
	if lang == LangChinese && chineseTitles[t.Name] != "" {
		return chineseTitles[t.Name]
	}
	return t.Title
}
