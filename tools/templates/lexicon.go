package templates

import (
	"strings"
)

// The vocabulary the grounded parse (Understand) reads a request with.
// Every word of a request is either one of these, a word of a column name,
// a category value, a sheet or file name, a number it can place (top 10,
// a year), or unplaced, and an unplaced word stops a built-in from
// answering.

// role is what a vocabulary entry does in a reading.
type role int

const (
	roleStop     role = iota + 1 // a word with no slot of its own (the, show, 的)
	roleAgg                      // an aggregation: mean, sum, median, min, max, count, count_distinct
	roleGrain                    // a time grain: day, week, month, quarter, year
	rolePart                     // a calendar part: month_of_year, weekday, quarter_of_year, hour_of_day
	roleCue                      // names an analysis (trend, correlation, ...)
	roleOrder                    // desc (highest, most) or asc (lowest, least)
	roleBy                       // a group-by marker: by, per, each, 按, 各
	roleCompare                  // a comparison: yoy, mom, qoq, wow, dod, or "with" between periods
	roleWord                     // a concept word (value: its English words), matched against column names
	roleSuper                    // a superlative naming a measure: wettest → precipitation, desc
	roleAcross                   // across the sheets of a workbook
	roleTop                      // top/bottom/前: a ranking with a count
	roleTimeWord                 // "over time", "时间": the time axis itself
	roleIn                       // in/during/在: introduces a filter
	roleBound                    // a bound of a range of years: since, until, 以来 (value: ge, gt, le, lt)
)

// entry is one vocabulary entry.
type entry struct {
	role  role
	value string // the agg, grain, part, analysis, order or comparison; for roleWord/roleSuper the concept words
	order string // roleSuper: desc|asc
}

// enPhrases are English phrases of more than one word, longest first when
// matched; their words are canonical (see canonWord).
var enPhrases = map[string]entry{
	"over time": {role: roleTimeWord}, "number of": {role: roleAgg, value: "count"},
	"how many": {role: roleAgg, value: "count"}, "count of": {role: roleAgg, value: "count"}, "per capita": {role: roleWord, value: "per capita"},
	"month of year": {role: rolePart, value: "month_of_year"}, "month of the year": {role: rolePart, value: "month_of_year"},
	"calendar month": {role: rolePart, value: "month_of_year"}, "day of week": {role: rolePart, value: "weekday"},
	"day of the week": {role: rolePart, value: "weekday"}, "hour of day": {role: rolePart, value: "hour_of_day"},
	"hour of the day": {role: rolePart, value: "hour_of_day"}, "quarter of year": {role: rolePart, value: "quarter_of_year"},
	"quarter of the year": {role: rolePart, value: "quarter_of_year"}, "calendar quarter": {role: rolePart, value: "quarter_of_year"},
	"year over year": {role: roleCompare, value: "yoy"}, "month over month": {role: roleCompare, value: "mom"},
	"quarter over quarter": {role: roleCompare, value: "qoq"}, "week over week": {role: roleCompare, value: "wow"},
	"day over day": {role: roleCompare, value: "dod"}, "on average": {role: roleAgg, value: "mean"},
	"for each": {role: roleBy}, "broken down by": {role: roleBy}, "break down by": {role: roleBy}, "grouped by": {role: roleBy},
	"group by": {role: roleBy}, "split by": {role: roleBy}, "across sheet": {role: roleAcross}, "across all sheet": {role: roleAcross},
	"all sheet": {role: roleAcross}, "every sheet": {role: roleAcross}, "each sheet": {role: roleAcross}, "by sheet": {role: roleAcross},
	"per sheet": {role: roleAcross}, "best selling": {role: roleSuper, value: "sale", order: "desc"}, "top selling": {role: roleSuper, value: "sale", order: "desc"}, "compared to": {role: roleCompare, value: "with"},
	"compared with": {role: roleCompare, value: "with"},
	"in total":      {role: roleAgg, value: "sum"},
	"the most":      {role: roleOrder, value: "desc"}, "the least": {role: roleOrder, value: "asc"},
	"last year":     {role: roleCompare, value: "yoy"},
	"previous year": {role: roleCompare, value: "yoy"}, "prior year": {role: roleCompare, value: "yoy"},
	"last month": {role: roleCompare, value: "mom"}, "previous month": {role: roleCompare, value: "mom"},
	"last quarter": {role: roleCompare, value: "qoq"}, "previous quarter": {role: roleCompare, value: "qoq"},
	"last week": {role: roleCompare, value: "wow"}, "previous week": {role: roleCompare, value: "wow"},
	"same period last year": {role: roleCompare, value: "yoy"},
}

// enWords are single English words (canonical).
var enWords = map[string]entry{}

func init() {
	add := func(e entry, words ...string) {
		for _, w := range words {
			enWords[w] = e
		}
	}
	add(entry{role: roleStop}, "the", "a", "an", "of", "to", "is", "are", "was", "were", "be", "been", "what", "which", "show", "me",
		"give", "list", "please", "tell", "find", "get", "see", "display", "plot", "chart", "draw", "compute", "calculate", "report",
		"i", "we", "want", "need", "like", "would", "could", "can", "you", "do", "does", "did", "has", "have", "had", "it", "its",
		"this", "that", "these", "those", "there", "and", "or", "with", "from", "for", "at", "on", "as", "my", "our", "your", "all",
		"data", "dataset", "file", "table", "sheet", "tab", "spreadsheet", "workbook", "value", "values", "figure", "look", "let",
		"us", "how", "much", "some", "any", "about", "into", "where", "when", "who", "then", "make", "create", "value", "record",
		"row", "column", "field", "entry", "level", "has", "had", "overall", "whole", "here",
		"just", "only", "also", "census", "one", "their", "them", "they", "so", "far", "up", "out", "recorded", "observed", "measured", "flown", "travelled", "traveled", "reached", "reach", "hit",
		"s", "versus", "vs", "v", "against", "check", "csv", "xlsx", "xls", "tsv", "json", "jsonl", "matrix", "last", "current", "now", "so", "far", "over", "during", "within", "throughout", "period", "than", "vs.", "ever", "among")
	add(entry{role: roleBy}, "by", "per", "each", "every", "across")
	add(entry{role: roleIn}, "in", "for", "during", "of")
	add(entry{role: roleAgg, value: "mean"}, "average", "mean", "typical")
	add(entry{role: roleAgg, value: "median"}, "median")
	add(entry{role: roleAgg, value: "sum"}, "total", "sum", "combined", "cumulative", "aggregate")
	add(entry{role: roleAgg, value: "count"}, "count", "frequency")
	add(entry{role: roleAgg, value: "count_distinct"}, "distinct", "unique")
	add(entry{role: roleAgg, value: "max"}, "maximum", "peak")
	add(entry{role: roleAgg, value: "min"}, "minimum")
	add(entry{role: roleGrain, value: "day"}, "daily", "day", "date")
	add(entry{role: roleGrain, value: "week"}, "weekly", "week")
	add(entry{role: roleGrain, value: "month"}, "monthly", "month")
	add(entry{role: roleGrain, value: "quarter"}, "quarterly", "quarter")
	add(entry{role: roleGrain, value: "year"}, "yearly", "annual", "annually", "year", "calendar")
	add(entry{role: rolePart, value: "weekday"}, "weekday")
	// An hour is an hour of the day: the series' hours are "hourly".
	add(entry{role: rolePart, value: "hour_of_day"}, "hour")
	for _, b := range builtins {
		b.addWords()
	}
	for _, c := range []string{"yoy", "mom", "qoq", "wow", "dod"} {
		enWords[c] = entry{role: roleCompare, value: c}
	}
	add(entry{role: roleOrder, value: "desc"}, "highest", "most", "largest", "biggest", "best", "greatest", "top", "high", "leading", "largest")
	add(entry{role: roleOrder, value: "asc"}, "lowest", "least", "smallest", "worst", "fewest", "bottom", "low", "weakest", "shortest")
	add(entry{role: roleOrder, value: "desc"}, "strongest", "longest")
	// The busiest airport has the most flights: the most rows of an event
	// log (the build counts them).
	add(entry{role: roleOrder, value: "desc"}, "busiest")
	add(entry{role: roleTop}, "rank", "ranking", "ranked")
	add(entry{role: roleTimeWord}, "time")
	// Seasonality is the pattern over the months (or quarters) of the
	// calendar: a month said with it is a month of the year.
	add(entry{role: roleWord, value: "seasonality"}, "seasonality", "seasonal")
	add(entry{role: roleBound, value: "ge"}, "since", "onwards", "onward")
	add(entry{role: roleBound, value: "gt"}, "after")
	add(entry{role: roleBound, value: "lt"}, "before")
	add(entry{role: roleBound, value: "le"}, "until", "till", "through", "thru")
	add(entry{role: roleBound, value: "between"}, "between")
	add(entry{role: roleSuper, value: "precipitation", order: "desc"}, "wettest", "rainiest")
	add(entry{role: roleSuper, value: "precipitation", order: "asc"}, "driest")
	add(entry{role: roleSuper, value: "wind", order: "desc"}, "windiest")
	add(entry{role: roleSuper, value: "temperature maximum", order: "desc"}, "hottest", "warmest")
	add(entry{role: roleSuper, value: "temperature minimum", order: "asc"}, "coldest", "coolest")
	add(entry{role: roleSuper, value: "price", order: "desc"}, "expensive", "priciest")
	add(entry{role: roleSuper, value: "price", order: "asc"}, "cheapest")
	add(entry{role: roleSuper, value: "weight", order: "desc"}, "heaviest")
	add(entry{role: roleSuper, value: "death", order: "desc"}, "deadliest")
	add(entry{role: roleSuper, value: "weight", order: "asc"}, "lightest")
	// "top", "bottom" carry a count ("top 10"); "most" and "least" an order.
	enWords["top"] = entry{role: roleOrder, value: "desc"}
	enWords["bottom"] = entry{role: roleOrder, value: "asc"}
}

// courtesies are greetings and thanks around a request ("hey, …", "…
// pls"): dropped when the request says something else, so that a greeting
// alone is still no request.
var courtesies = map[string]bool{"hi": true, "hey": true, "hello": true, "thanks": true, "thank": true, "thx": true, "pls": true, "plz": true}

// abbreviations map short forms, in column names and requests, to the
// word they stand for.
var abbreviations = map[string]string{
	"temp": "temperature", "tmp": "temperature", "dest": "destination", "max": "maximum", "min": "minimum", "avg": "average", "qty": "quantity",
	"amt": "amount", "pct": "percent", "percentage": "percent", "yr": "year", "yrs": "year", "mo": "month", "mth": "month",
	"wk": "week", "dt": "date", "precip": "precipitation", "prcp": "precipitation", "num": "number", "no": "number",
	"nr": "number", "cnt": "count", "desc": "description", "cat": "category", "dept": "department", "prod": "product",
	"rev": "revenue", "hp": "horsepower", "mpg": "mpg", "pop": "population", "gdp": "gdp", "id": "id", "std": "deviation",
	"vol": "volume", "px": "price", "temperatures": "temperature", "lat": "latitude", "lon": "longitude", "lng": "longitude",
	"mean": "average", "humid": "humidity", "accel": "acceleration", "disp": "displacement", "wt": "weight", "cyl": "cylinder",
	"cylinders": "cylinder", "info": "information", "sales": "sale", "kms": "km", "mins": "minute", "hrs": "hour", "hr": "hour",
	"ppl": "people", "headcount": "people", "headcounts": "people", "sex": "gender", "len": "length", "high": "maximum", "low": "minimum", "highs": "maximum", "lows": "minimum", "does": "do", "has": "have", "was": "be", "is": "be", "its": "it", "this": "this", "news": "news", "capita": "capita", "stats": "statistic", "desc.": "description",
}

// unitWords are units a request may write beside a measure ("total
// precip (mm)", "delay minutes"), canonical, each with its one spelling
// (unitSame). A unit is the measure's when the measure's name declares it
// ("Speed IAS in knots", "Beak Depth (mm)"), or, on a name that declares
// none, when it is the one unit of what the column measures
// (conventionalUnits): precipitation in mm, a delay in minutes, never a
// temperature (°C or °F) or a distance (km or miles).
var unitWords = map[string]string{
	"mm": "mm", "millimeter": "mm", "millimetre": "mm", "毫米": "mm", "cm": "cm", "minute": "minute", "分钟": "minute",
	"second": "second", "knot": "knot", "节": "knot", "mph": "mph", "km": "km", "kilometer": "km", "kilometre": "km",
	"公里": "km", "千米": "km", "mile": "mile", "celsius": "celsius", "fahrenheit": "fahrenheit", "kg": "kg", "kilogram": "kg",
	"lb": "lb", "pound": "lb", "gram": "g",
}

// unitSame spells the units of column names as unitWords do ("mins",
// "lbs", "g").
var unitSame = map[string]string{"min": "minute", "mins": "minute", "lbs": "lb", "g": "g", "sec": "second", "s": "second", "mi": "mile", "kt": "knot", "kts": "knot"}

// conventionalUnits are the column words whose values are in one unit
// wherever they are recorded, with it.
var conventionalUnits = map[string]string{"precipitation": "mm", "rainfall": "mm", "delay": "minute"}

// genericWords in a column's name do not need to be said: "customer"
// names customer_name and customer_id, "wind speed" names wind.
var genericWords = map[string]bool{
	"name": true, "id": true, "code": true, "value": true, "amount": true, "number": true, "speed": true, "data": true,
	"information": true, "key": true, "label": true, "title": true, "usd": true, "eur": true, "rmb": true, "cny": true,
	"level": true, "figure": true, "type": true, "price": true, "kind": true, "sector": true,
}

// qualifierWords change what a column measures: a request that names a
// column without them ("temperature" for temp_max) is not naming it.
var qualifierWords = map[string]bool{
	"maximum": true, "minimum": true, "average": true, "median": true, "total": true, "sum": true, "high": true,
	"low": true, "open": true, "close": true, "adj": true, "adjusted": true, "first": true, "last": true, "start": true,
	"end": true, "per": true, "capita": true, "rate": true, "percent": true, "ratio": true, "change": true, "growth": true,
	"deviation": true, "variance": true, "count": true, "share": true, "index": true,
	"cumulative": true, "repair": true, "other": true, "daily": true, "monthly": true, "annual": true, "yearly": true,
	"new": true, "old": true, "previous": true, "prior": true, "next": true, "estimated": true, "projected": true,
	"expected": true, "actual": true, "target": true, "budget": true, "forecast": true, "rank": true,
}

// synonymWords are request words of one meaning with a column word:
// "revenue" names a sales or amount column when exactly one numeric
// column has such a word.
var synonymWords = map[string][]string{
	"revenue": {"sale", "turnover", "income", "amount"}, "sale": {"revenue", "turnover", "amount"}, "turnover": {"revenue", "sale", "amount"},
	"customer": {"client", "buyer"}, "client": {"customer"}, "buyer": {"customer"},
	"user": {"member", "account"}, "member": {"user"}, "region": {"area", "territory"}, "area": {"region"},
	"product": {"item", "sku", "goods"}, "item": {"product", "sku"}, "sku": {"product", "item"},
	"rain": {"precipitation", "rainfall"}, "rainfall": {"precipitation", "rain"}, "precipitation": {"rain", "rainfall"},
	"quantity": {"unit"}, "unit": {"quantity"}, "cost": {"expense", "spend"}, "expense": {"cost"},
	"profit": {"margin"}, "category": {"class", "group"}, "state": {"province"}, "province": {"state"},
	"car": {"model", "vehicle"}, "vehicle": {"car"}, "model": {"car", "vehicle"}, "stock": {"symbol", "ticker"}, "ticker": {"symbol"}, "symbol": {"ticker", "stock"},
	"death": {"fatality", "killed"}, "fatality": {"death"}, "killed": {"death", "fatality"},
	"people": {"person", "population"}, "weather": {"condition"}, "country": {"nation"}, "nation": {"country"},
	"origin": {"country"}, "departure": {"origin"}, "arrival": {"destination"}, "job": {"employment"}, "weight": {"mass"}, "bill": {"beak"},
	"output": {"generation", "production"}, "firm": {"company"}, "company": {"symbol", "ticker", "firm"}, "sell": {"sale", "revenue", "amount"}, "selling": {"sale", "amount"},
}

// zhWords are the Chinese vocabulary: function words and concept words
// (roleWord, whose value is the English words a column name would use).
var zhWords = map[string]entry{}

func init() {
	add := func(e entry, words ...string) {
		for _, w := range words {
			zhWords[w] = e
		}
	}
	word := func(en string, words ...string) { add(entry{role: roleWord, value: en}, words...) }
	add(entry{role: roleStop}, "的", "了", "是", "请", "帮我", "帮忙", "给我", "我", "我们", "看看", "看", "一下", "多少", "什么", "显示",
		"列出", "数据", "表", "表格", "文件", "里", "中", "上", "吗", "呢", "吧", "啊", "有", "都", "情况", "一共", "分别", "哪", "哪个", "哪些",
		"哪一", "哪种", "哪类", "哪家", "哪只", "是多少", "怎样", "如何", "怎么样", "工作表", "这个", "这份", "该", "的是", "得", "出", "计算", "统计", "分析", "汇总", "看一下",
		"，", "。", "？", "！", "、", "：", "；", "（", "）", "和", "与", "及", "以及", "跟", "在", "期间", "中的", "所有", "全部", "各个", "之间",
		"对比", "比较", "相比", "做", "画", "图", "画出", "给出", "查看", "哪一个", "个", "位", "名", "家", "条", "款", "值", "有没有", "是否", "本", "这", "那", "按照统计", "矩阵", "只", "造成", "导致",
		"这张", "张", "这张表", "各列", "每列", "每一列", "所有列", "列", "一天中", "一天里", "飞往", "前往",
		"一年中", "一年里", "一年当中",
		"咋样", "怎么样了", "各有", // fillers: how is it, each has (各种天气各有几天)
		"普查", // a census year is the year of a census table
		// 随年份 (along the years) introduces the axis; 出现 (occurs) and
		// 表里 (in the sheet) say nothing of their own.
		"随", "随着", "出现", "表里", "表中",
		"不分年", "不分年份") // all years together: a month said with it is a month of the year
	add(entry{role: roleGrain, value: "month"}, "本月", "当月")
	add(entry{role: roleGrain, value: "quarter"}, "本季度")
	add(entry{role: roleGrain, value: "year"}, "今年", "本年")
	add(entry{role: roleAgg, value: "count"}, "订单数", "单数", "人数", "订单量")
	add(entry{role: roleAgg, value: "mean"}, "平均", "均值", "平均值", "平均数")
	// 人均 is per capita (a total divided by the people), not a mean of
	// the rows: it names a per-capita column, or nothing.
	word("capita", "人均")
	add(entry{role: roleAgg, value: "median"}, "中位数")
	add(entry{role: roleAgg, value: "sum"}, "总", "总数", "总和", "合计", "总计", "总额", "总量", "累计", "加总", "总共")
	add(entry{role: roleAgg, value: "count"}, "数量", "个数", "次数", "计数", "多少次", "多少个", "笔数", "条数", "频数")
	add(entry{role: roleAgg, value: "max"}, "最大值", "峰值")
	add(entry{role: roleAgg, value: "min"}, "最小值")
	add(entry{role: roleGrain, value: "day"}, "每天", "每日", "按天", "按日", "日度", "逐日", "日", "天", "哪天", "哪一天")
	add(entry{role: roleGrain, value: "week"}, "每周", "按周", "周度", "逐周", "每星期", "周")
	add(entry{role: roleGrain, value: "month"}, "每月", "按月", "月度", "逐月", "各月", "每个月", "月", "月份", "哪个月", "月均")
	add(entry{role: roleGrain, value: "quarter"}, "每季度", "按季度", "按季", "季度", "各季度")
	add(entry{role: roleGrain, value: "year"}, "每年", "按年", "年度", "逐年", "各年", "年", "年份", "历年", "哪一年", "哪年", "年均", "每一年")
	add(entry{role: rolePart, value: "weekday"}, "星期几", "周几", "工作日", "每周各天", "一周各天", "一周中各天", "一周内各天")
	add(entry{role: rolePart, value: "hour_of_day"}, "小时", "几点")
	add(entry{role: rolePart, value: "month_of_year"}, "几月", "几月份", "哪个月份",
		// a month within the year: a month of the calendar, not of the series
		"一年中哪个月", "一年里哪个月", "一年中的哪个月", "一年当中哪个月")
	for _, b := range builtins {
		b.addWordsZh()
	}
	add(entry{role: roleCompare, value: "yoy"}, "同比", "去年同期")
	add(entry{role: roleCompare, value: "seq"}, "环比")
	add(entry{role: roleOrder, value: "desc"}, "最高", "最多", "最大", "最好", "最", "最热", "排名", "排行", "前", "榜")
	add(entry{role: roleOrder, value: "asc"}, "最低", "最少", "最小", "最差", "后", "倒数")
	add(entry{role: roleBy}, "按", "按照", "各", "每个", "分", "每", "不同", "各个", "每种", "各类", "依", "各种")
	add(entry{role: roleAcross}, "各工作表", "每个工作表", "所有工作表", "各个工作表", "每张表", "每张工作表", "各张表")
	add(entry{role: roleTimeWord}, "时间", "随时间", "时间上")
	add(entry{role: roleBound, value: "ge"}, "以来", "以后", "之后", "起", "开始")
	add(entry{role: roleBound, value: "lt"}, "以前", "之前")
	add(entry{role: roleBound, value: "to"}, "至", "到")
	add(entry{role: roleBound, value: "from"}, "自", "从")
	add(entry{role: roleSuper, value: "precipitation", order: "desc"}, "最湿润", "雨最多", "降水最多")
	add(entry{role: roleSuper, value: "temperature maximum", order: "desc"}, "最热")
	add(entry{role: roleSuper, value: "temperature minimum", order: "asc"}, "最冷")
	add(entry{role: roleSuper, value: "weight", order: "desc"}, "最重")
	add(entry{role: roleSuper, value: "weight", order: "asc"}, "最轻")
	word("temperature maximum", "最高气温", "最高温度", "最高温")
	word("temperature minimum", "最低气温", "最低温度", "最低温")
	word("temperature", "气温", "温度")
	word("precipitation", "降水量", "降水", "降雨量", "降雨", "雨量")
	word("wind", "风速", "风力", "风")
	word("weather", "天气")
	word("type", "类型", "种类")
	word("weather type", "天气类型", "天气状况")
	word("sale", "销售额", "销售", "营业额", "销售金额")
	word("revenue", "收入", "营收")
	word("amount", "金额")
	word("profit", "利润", "毛利")
	word("cost", "成本", "费用", "支出")
	word("price", "价格", "单价", "价钱", "股价", "价")
	word("quantity", "数量件", "销量", "件数")
	word("customer", "客户", "顾客", "买家")
	word("user", "用户", "会员")
	word("region", "地区", "区域", "大区", "片区")
	word("city", "城市")
	word("province", "省份", "省")
	word("country", "国家")
	word("product", "产品", "商品")
	word("category", "类别", "品类", "分类", "类目")
	word("channel", "渠道")
	word("store", "门店", "店铺")
	word("department", "部门")
	word("brand", "品牌")
	word("name", "名称", "名字", "姓名")
	word("id", "编号", "代码", "id")
	word("date", "日期")
	word("order", "订单")
	word("volume", "成交量", "交易量")
	word("symbol", "股票", "代码股票")
	word("horsepower", "马力")
	word("weight", "重量", "车重")
	word("origin", "产地", "原产地")
	word("humidity", "湿度")
	word("population", "人口")
	word("income", "收入额")
	word("death", "死亡", "死亡人数")
	word("age", "年龄")
	word("salary", "工资", "薪资", "薪水")
	word("score", "分数", "得分", "成绩")
	word("gender", "性别")
	word("event", "事件", "阶段", "步骤", "环节")
	word("model", "型号", "车型")
	word("speed", "速度", "空速")
	word("airline", "航空公司")
	word("total cost", "总费用")
	word("rate", "率", "比率")
	word("growth", "增长", "增长率", "增速")
	word("range", "范围", "温差", "极差")
	// A small bilingual glossary of data-analysis words: general words,
	// matched to a column by its English name's words (and their stems).
	word("life expectancy", "预期寿命", "人均寿命", "平均寿命", "寿命")
	word("fertility", "生育率", "生育")
	word("investment", "投资", "投资额")
	word("capital", "资本", "资本存量")
	word("value", "市值", "价值")
	word("company", "公司", "企业")
	word("generation", "发电量", "发电")
	word("net", "净")
	word("source", "能源来源", "来源", "能源")
	word("unemployment rate", "失业率")
	word("unemployment count", "失业人数")
	word("industry", "行业", "产业")
	word("cylinder", "气缸", "气缸数", "缸数")
	word("acceleration", "加速", "加速度", "加速时间")
	word("miles per gallon", "每加仑英里数")
	word("state", "州")
	word("species", "物种")
	word("airport", "机场")
	word("disaster", "灾害", "灾难")
	word("car", "汽车", "车辆")
	word("japan", "日本")
	word("usa", "美国")
	word("europe", "欧洲")
	word("china", "中国")
	word("germany", "德国")
	word("korea", "韩国")
	word("france", "法国")
	word("car", "车")
	// Chinese names of category values the data writes in English
	word("drought", "干旱", "旱灾")
	word("earthquake", "地震")
	word("flood", "洪水", "洪涝", "水灾")
	word("wildfire", "野火", "山火")
	word("nuclear energy", "核能", "核电")
	word("renewable", "可再生能源")
	word("fossil fuel", "化石燃料", "化石能源")
	word("volcanic activity", "火山", "火山活动", "火山喷发")
	word("extreme temperature", "极端气温", "极端温度")
	word("california", "加州", "加利福尼亚", "加利福尼亚州")
	word("texas", "德州", "得州", "德克萨斯", "得克萨斯")
	word("manufacturing", "制造业")
	word("construction", "建筑业")
	word("finance", "金融业")
	word("agriculture", "农业")
	word("night", "夜间", "夜里")
	word("dawn", "黎明")
	word("dusk", "黄昏")
	// Chinese names of companies whose data writes their ticker or
	// English name
	word("goog", "谷歌")
	word("msft", "微软")
	word("aapl", "苹果公司", "苹果")
	word("amzn", "亚马逊")
	word("general motors", "通用汽车")
	word("general electric", "通用电气")
	word("us steel", "美国钢铁")
	word("consumption", "消费")
	word("inflation", "通胀", "通货膨胀")
	word("inflation rate", "通胀率", "通货膨胀率")
	word("real", "实际")
	word("seasonality", "季节变化", "季节性", "季节", "季节规律")
	word("adjusted", "季节调整后", "季节调整", "调整后")
	word("interest rate", "利率")
	word("group", "组", "组别")
	word("cluster", "聚类")
	word("employment", "就业")
	word("inventory", "库存", "库存量")
	word("balance", "余额")
	word("length", "长度", "体长")
	word("murder", "谋杀")
	word("crime", "犯罪")
	word("violent", "暴力")
	word("poverty", "贫困")
	word("urban", "城市化", "城镇化")
	word("hs grad", "高中毕业")
	word("bird strike", "鸟击")
	word("strike", "撞击")
	word("phase flight", "飞行阶段")
	word("repair", "维修", "修理")
	word("time of day", "时段", "时间段")
	word("male", "男性", "男", "男子")
	word("female", "女性", "女", "女子", "雌性", "雌")
	word("male", "雄性", "雄")
	word("delay", "延误", "延迟", "晚点")
	word("flight", "航班", "飞行")
	word("origin", "出发", "出发地", "始发")
	word("destination", "目的地", "到达")
	word("distance", "距离", "里程")
	word("nonfarm", "非农")
	word("employment", "就业人数", "雇员人数")
	word("manufacturing", "制造业")
	word("construction", "建筑业")
	word("retail", "零售业", "零售")
	word("government", "政府", "政府部门")
	word("body mass", "体重")
	word("flipper length", "鳍长", "鳍状肢长度")
	word("flipper", "鳍", "鳍状肢")
	word("island", "岛", "岛屿")
	word("penguin", "企鹅")
	word("co 2", "二氧化碳")
	word("concentration", "浓度")
	word("wildlife", "野生动物")
	word("size", "体型", "大小", "尺寸")
	word("displacement", "排量", "排气量")
	word("white", "白人")
	word("share", "比例", "占比", "比重")
	word("private", "私营", "私营部门")
	word("beak", "喙")
	word("beak length", "喙长")
	word("beak depth", "喙深")
	word("rain", "雨", "下雨", "雨天")
	word("snow", "雪", "下雪", "雪天")
	word("fog", "雾", "大雾", "雾天")
	word("sun", "晴", "晴天")
	word("station", "站点", "车站")
	word("single", "单亲", "单亲家庭")
}

// stripPlural returns the singular of an English word, conservatively.
func stripPlural(w string) string {
	switch {
	case len(w) <= 3, w == "series", w == "species":
		return w
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// canonWord is the form of an English word the parse compares: lower
// case, abbreviations spelt out, singular.
func canonWord(w string) string {
	w = strings.ToLower(w)
	if a, ok := abbreviations[w]; ok {
		return a
	}
	s := stripPlural(w)
	if a, ok := abbreviations[s]; ok {
		return a
	}
	return s
}

// editDistance1 reports whether a and b differ by one edit (insert,
// delete, substitute or swap of neighbours).
func editDistance1(a, b string) bool {
	if a == b {
		return false
	}
	la, lb := len(a), len(b)
	if la-lb > 1 || lb-la > 1 {
		return false
	}
	if la == lb {
		diff := -1
		for i := 0; i < la; i++ {
			if a[i] != b[i] {
				if diff >= 0 {
					// a swap of neighbours
					return diff == i-1 && a[diff] == b[i] && a[i] == b[diff] && a[i+1:] == b[i+1:]
				}
				diff = i
			}
		}
		return true
	}
	if la < lb {
		a, b = b, a
	}
	// a is one longer
	for i := 0; i < len(b); i++ {
		if a[i] != b[i] {
			return a[i+1:] == b[i:]
		}
	}
	return true
}
