package templates

import "fmt"

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

// TitleIn is the template's title in lang (LangOf).
func (t Template) TitleIn(lang string) string {
	if b := builtinNamed(t.Name); lang == LangChinese && b != nil && b.titleZh != "" {
		return b.titleZh
	}
	return t.Title
}

// textIn is fmt.Sprintf(format, args...) in lang: with LangChinese the
// English format is swapped for its Chinese in chineseText. Every format
// the Go side writes into a report (match reasons, the parameters it
// picked, notes) goes through it; the cells' own words are in their
// Python (tr in py/common.py).
func textIn(lang, format string, args ...any) string {
	if lang == LangChinese {
		if zh, ok := chineseText[format]; ok {
			format = zh
		}
	}
	return fmt.Sprintf(format, args...)
}

// chineseText is the Chinese of each English format given to textIn (and
// to the helpers that call it: inference.reason, inference.miss,
// duckTable.pick and note). A value takes the same arguments as its key;
// %q becomes “%s”. TestChineseTextCoversEveryFormat checks both.
var chineseText = map[string]string{
	// Why a template matched, or did not.
	"the request is empty": "请求是空的",
	"the request needs more than a fixed analysis (it says %q)": "这个请求需要的不只是一项固定分析（请求中有“%s”）",
	"no table among the files to run it on":                     "文件中没有可供分析的表",
	"%s left out (%s)":                                          "%s 未分析（%s）",
	"the request names %d column of %s":                         "请求提到了 %[2]s 中的 %[1]d 列",
	"the request names %d columns of %s":                        "请求提到了 %[2]s 中的 %[1]d 列",
	"but %s":                                                    "但%s",
	"%s: chosen by the caller":                                  "%s：由调用方指定",
	"%s, sheet %s":                                              "%s，工作表 %s",
	"the request says %q: each of the %d tables is analysed":    "请求中有“%s”：%d 张表逐一分析",
	"of the %d tables, %s":                                      "%d 张表中，%s",
	"of the %d tables, %s: each is analysed":                    "%d 张表中，%s：逐一分析",
	"the request names %s":                                      "请求提到了 %s",
	"%s has the most of the columns the request names":          "%s 含有请求提到的列最多",
	"%s have as many of the columns the request names":          "%s 含有请求提到的列一样多",
	"the request names no file and no column that singles out one of the %d tables: each is analysed":                     "请求没有提到能从 %d 张表中选出一张的文件名或列名：逐一分析",
	"Only sheet %q of %s is analysed; its other sheet is not (%s): name the sheet you mean, or ask for every sheet.":      "只分析了 %[2]s 的工作表“%[1]s”；另一个工作表（%[3]s）没有分析：请指明要分析的工作表，或要求分析所有工作表。",
	"Only sheet %q of %s is analysed; its other %d sheets are not (%s): name the sheet you mean, or ask for every sheet.": "只分析了 %[2]s 的工作表“%[1]s”；其余 %[3]d 个工作表（%[4]s）没有分析：请指明要分析的工作表，或要求分析所有工作表。",

	// How a column was chosen (inference.reason) and what is missing
	// (inference.miss).
	"named in the request":                                                  "请求中提到了它",
	"the request says %q":                                                   "请求中有“%s”",
	"the request says %q, which this column's name means":                   "请求中有“%s”，即这一列名的意思",
	"time column: %s (%s)":                                                  "时间列：%s（%s）",
	"time column: %s (its name; its values will be parsed as dates)":        "时间列：%s（依据列名；其值将按日期解析）",
	"time column: %s (the %s column)":                                       "时间列：%s（%s 类型的列）",
	"no date or time column in the preview":                                 "预览中没有日期或时间列",
	"measure: %s (%s)":                                                      "度量：%s（%s）",
	"measure: none, rows are counted (the request asks for a count)":        "度量：无，统计行数（请求要的是计数）",
	"measure: %s (the request asks for %q; this is the money-like column)":  "度量：%s（请求中有“%s”；这是金额类的列）",
	"measure: %s (no measure named; this is the money-like numeric column)": "度量：%s（请求没有指明度量；这是金额类的数值列）",
	"measure: %s (no measure named; the first numeric column)":              "度量：%s（请求没有指明度量；第一个数值列）",
	"measure: none, rows are counted (no money-like numeric column)":        "度量：无，统计行数（没有金额类的数值列）",
	"measure: none, rows are counted (no measure named)":                    "度量：无，统计行数（请求没有指明度量）",
	"no numeric column in the preview":                                      "预览中没有数值列",
	"no category named; its name looks like a category":                     "请求没有指明类别；这一列的名字像是类别",
	"no category named; the first text column":                              "请求没有指明类别；第一个文本列",
	"%s: %s (%s)":  "%s：%s（%s）",
	"one line per": "每条线对应",
	"category":     "类别",
	"rows":         "行",
	"columns":      "列",
	"aggregation: %s (from the request's words)":                               "汇总方式：%s（依据请求的用词）",
	"period: %s (from the request's words)":                                    "周期：%s（依据请求的用词）",
	"no column for %q, which the request ranks or groups by (the columns: %s)": "没有“%s”列，而请求要按它排名或分组（现有的列：%s）",
	"and %d more": "等另外 %d 列",
	"comparison: %s (from the request's words)":                    "对比方式：%s（依据请求的用词）",
	"no text column to group by in the preview":                    "预览中没有可以分组的文本列",
	"n: %d (from the request)":                                     "n：%d（依据请求）",
	"the bottom %d (the request asks for the lowest)":              "最低的 %d 个（请求要的是最低）",
	"columns: %s (named in the request)":                           "列：%s（请求中提到）",
	"fewer than two numeric columns in the preview":                "预览中的数值列不足两个",
	"method: %s (from the request)":                                "方法：%s（依据请求）",
	"no text column for the rows in the preview":                   "预览中没有可作为行的文本列",
	"period: month (the columns are periods of %s)":                "周期：月（列为 %s 的各个时期）",
	"only one text column; a pivot needs two categories or a date": "只有一个文本列；数据透视表需要两个类别或一个日期",
	"entity: %s (%s)":                                              "个体：%s（%s）",
	"entity: %s (an id-like column name)":                          "个体：%s（列名像是编号）",
	"no id column (user, customer) in the preview":                 "预览中没有编号列（用户、客户）",
	"period: %s": "周期：%s",
	"stages: the columns %s, in the request's order":      "阶段：列 %s，按请求中的顺序",
	"stages: %s (in the request's order)":                 "阶段：%s（按请求中的顺序）",
	"stage column: %s (%s)":                               "阶段列：%s（%s）",
	"stage column: %s (its name)":                         "阶段列：%s（依据列名）",
	"no stage column (stage, step, event) in the preview": "预览中没有阶段列（阶段、步骤、事件）",
	"entity: %s (each stage counts distinct %s)":          "个体：%s（每个阶段统计不同的 %s 数）",
	"count column: %s (%s)":                               "计数列：%s（%s）",

	// What the DuckDB engine chose and noted, as the cells' pick() and
	// note() say it in py/.
	"time column: %s (detected: its values parse as dates)": "时间列：%s（自动识别：其值可解析为日期）",
	"sheet: %s":                              "工作表：%s",
	"measure: %s (the first numeric column)": "度量：%s（第一个数值列）",
	"category: %s (a text column with few distinct values)": "类别：%s（不同值较少的文本列）",
	"columns: the numeric columns":                          "列：所有数值列",
	"the first %d of %d numeric columns were checked":       "只检查了 %[2]d 个数值列中的前 %[1]d 个",
	"the first %d of %d columns were drawn":                 "只绘制了 %[2]d 列中的前 %[1]d 列",
	"period: %s (the data spans %d days)":                   "周期：%s（数据跨越 %d 天）",
	"Note: %s":                                              "注：%s",

	// The reading engine.
	"every word of the request is placed on the reading": "请求中的每个词都对应到了解读上",
	"category: %s (%s)":                     "类别：%s（%s）",
	"averaged rather than summed: %s":       "取平均值而不求和：%s",
	"no rows match the reading":             "没有符合条件的行",
	"the answer table was not computed: %s": "未能计算答案表：%s",
	"%d rows":                               "%d 行",

	// A column of numbers that holds text past DuckDB's sample (load).
	"column %s holds text further down than DuckDB looked to type it (line %d of the file: %q): it was read as text, as pandas reads it, and its values that do not read as numbers are left out of its numbers": "列 %s 在 DuckDB 判断类型所看的行之后含有文本（文件第 %d 行：“%s”）：该列按文本读取（与 pandas 相同），其中不能读作数字的值不计入数字",
}

// chineseWords are the Chinese of the parameter values a reason names:
// periods, aggregations and comparisons.
var chineseWords = map[string]string{
	"day": "日", "week": "周", "month": "月", "quarter": "季度", "year": "年",
	"sum": "总和", "mean": "平均值", "count": "计数", "median": "中位数", "min": "最小值", "max": "最大值", "nunique": "不同值个数", "count_distinct": "不同值个数",
	"dod": "日环比", "wow": "周环比", "mom": "月环比", "qoq": "季度环比", "yoy": "同比",
}

// wordIn is the parameter value w (a period, aggregation or comparison)
// as a reason in lang says it.
func wordIn(lang, w string) string {
	if zh, ok := chineseWords[w]; ok && lang == LangChinese {
		return zh
	}
	return w
}
