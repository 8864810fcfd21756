"""The fresh set of the understanding evaluation: gen.py turns it into testdata/fresh.jsonl.

Written on 1 December 2026 by a helper who had not read the parser (tools/templates), only the evaluation
harness, over three tables no other question uses (flights-2k.json, us-employment.csv, population_cn.csv; see
testdata/tables/SOURCES.md). It stands for "questions nobody here has seen": it is reported, not enforced, and is
not for tuning the parser — a change made to pass one of these questions makes the set worthless.

The format is questions_src.py's (A: answerable with its expected reading; U: the data cannot answer; P: it
answers only in part), with one addition: a measure written "col:value" is a column observed once per period
(us-employment.csv has one row a month), so any aggregation of it at that grain is the value itself; its
expected aggregation is left open and gen.py checks that every period holds exactly one row.
"""

FRESH = []


def A(table, lang, question, analysis, m=None, by=None, t=None, g=None, f=None, n=None, o=None, p=None,
      sheet=None, method=None, unchecked=None):
    FRESH.append(dict(table=table, lang=lang, question=question, answerable=True, analysis=analysis,
                      m=m, by=by, t=t, g=g, f=f, n=n, o=o, p=p, sheet=sheet, method=method,
                      unchecked=unchecked or []))


def U(table, lang, question, why):
    FRESH.append(dict(table=table, lang=lang, question=question, answerable=False, why=why))


def P(table, lang, question, why):
    FRESH.append(dict(table=table, lang=lang, question=question, answerable="partial", why=why))


F = "flights-2k.json"
# ---------------------------------------------------------------- flights-2k.json: date (2001-01-01 … 2001-03-31, with time), delay, distance, origin, destination
A(F, "en", "avg delay by origin", "topn", m="delay:mean", by=["origin"])
A(F, "en", "which airport has the most departures", None, m=[], by=["origin"], n=1)
A(F, "en", "top 5 destinations by # of flights", None, m=[], by=["destination"], n=5)
A(F, "en", "average delay per month", "trend", m="delay:mean", t="date", g="month")
A(F, "en", "avg delay by hour of day", None, m="delay:mean", t="date", g="hour_of_day")
A(F, "en", "no. of flights per weekday", None, m=[], t="date", g="weekday")
A(F, "en", "total distance flown per month", "trend", m="distance:sum", t="date", g="month")
A(F, "en", "corr between distance and delay", "correlation", m=["distance", "delay"])
A(F, "en", "distribution of delays", "distribution", m=["delay"])
A(F, "en", "outliers in delay", "outliers", m=["delay"])
A(F, "en", "monthly avg delay for flights out of ORD", "trend", m="delay:mean", t="date", g="month", f=["origin=ORD"])
A(F, "en", "avg distance by destination, top 5", "topn", m="distance:mean", by=["destination"], n=5)
A(F, "en", "compare avg delay in January vs March", "compare_periods", m="delay:mean", t="date", g="month", p=["2001-01", "2001-03"])
A(F, "en", "median delay per origin airport", "topn", m="delay:median", by=["origin"])
A(F, "en", "weekly avg delay", "trend", m="delay:mean", t="date", g="week")
A(F, "en", "delay distribution for DFW departures", "distribution", m=["delay"], f=["origin=DFW"])
A(F, "en", "top 10 origins by total delay minutes", "topn", m="delay:sum", by=["origin"], n=10)
A(F, "en", "Which destination has the longest average flight distance?", "topn", m="distance:mean", by=["destination"], n=1)
A(F, "en", "how many flights per month out of ATL?", "trend", m=[], t="date", g="month", f=["origin=ATL"])
A(F, "en", "spearman corr of distance vs delay", "correlation", m=["distance", "delay"], method="spearman")
A(F, "en", "avg delay by destination for flights from ORD", "topn", m="delay:mean", by=["destination"], f=["origin=ORD"])
A(F, "en", "daily number of flights", "trend", m=[], t="date", g="day")
A(F, "en", "averge distance per origin", "topn", m="distance:mean", by=["origin"])
A(F, "en", "max delay for each month", "trend", m="delay:max", t="date", g="month")
A(F, "en", "5 origins with the lowest avg delay", "topn", m="delay:mean", by=["origin"], n=5, o="asc")
U(F, "en", "average delay by airline", "no airline or carrier column")
U(F, "en", "cancellation rate by origin", "no cancellation column: only flights that flew are listed")
P(F, "en", "avg departure delay vs arrival delay", "one delay column only: departure and arrival delays are not told apart")
U(F, "en", "average ticket price per route", "no price column")
P(F, "en", "on-time rate by origin", "no on-time column; it needs the share of flights under a delay threshold the data does not define, which no built-in computes")
P(F, "en", "average delay in 2002", "the data is January–March 2001 only: no rows for 2002")
P(F, "en", "delay by month and the top origins by distance", "two questions at once")
U(F, "en", "average flight time by origin", "no flight-time column: distance is miles, not minutes")
P(F, "en", "yoy change in avg delay", "the data covers three months of one year: no year to compare with")
U(F, "en", "avg delay by weather conditions", "no weather column")
U(F, "en", "forecast april delays", "no built-in forecasts")
P(F, "en", "number of flights in December", "the data is January–March 2001 only: no December")
A(F, "zh", "各出发机场的平均延误", "topn", m="delay:mean", by=["origin"])
A(F, "zh", "每月航班数量", "trend", m=[], t="date", g="month")
A(F, "zh", "按星期几统计平均延误时间", None, m="delay:mean", t="date", g="weekday")
A(F, "zh", "飞行距离和延误的相关性", "correlation", m=["distance", "delay"])
A(F, "zh", "延误时间的分布", "distribution", m=["delay"])
A(F, "zh", "ORD出发的航班每月平均延误", "trend", m="delay:mean", t="date", g="month", f=["origin=ORD"])
A(F, "zh", "航班最多的5个目的地", None, m=[], by=["destination"], n=5)
U(F, "zh", "各航空公司的平均延误", "没有航空公司列")
U(F, "zh", "各机场的航班取消率", "没有取消列，数据只有已飞的航班")
P(F, "zh", "2001年和2000年的平均延误对比", "数据只有2001年1–3月，没有2000年")

E = "us-employment.csv"
# ---------------------------------------------------------------- us-employment.csv: month (2006-01 … 2015-12), 22 supersector columns (thousands employed), nonfarm_change
A(E, "en", "avg nonfarm employment per year", "trend", m="nonfarm:mean", t="month", g="year")
A(E, "en", "average monthly nonfarm_change by yr", "trend", m="nonfarm_change:mean", t="month", g="year")
A(E, "en", "correlation between construction and manufacturing", "correlation", m=["construction", "manufacturing"])
A(E, "en", "distribution of nonfarm_change", "distribution", m=["nonfarm_change"])
A(E, "en", "outliers in the monthly nonfarm change", "outliers", m=["nonfarm_change"])
A(E, "en", "compare avg manufacturing employment in 2015 vs 2007", "compare_periods", m="manufacturing:mean", t="month", g="year", p=["2007", "2015"])
A(E, "en", "average government employment by quarter", "trend", m="government:mean", t="month", g="quarter")
A(E, "en", "avg retail_trade jobs per yr", "trend", m="retail_trade:mean", t="month", g="year")
A(E, "en", "monthly construction employment in 2009", "trend", m="construction:value", t="month", g="month", f=["month@2009"])
A(E, "en", "info sector employment, yearly average", "trend", m="information:mean", t="month", g="year")
A(E, "en", "mean education and health services employment per year", "trend", m="education_and_health_services:mean", t="month", g="year")
A(E, "en", "min nonfarm_change per year", "trend", m="nonfarm_change:min", t="month", g="year")
A(E, "en", "is mining_and_logging correlated with construction?", "correlation", m=["mining_and_logging", "construction"])
A(E, "en", "yearly avg wholesale trade employment since 2010", "trend", m="wholesale_trade:mean", t="month", g="year", f=["month>=2010-01-01"])
A(E, "en", "profile this dataset", "profile", m=[])
A(E, "en", "leisure and hospitality employment per month in 2015", "trend", m="leisure_and_hospitality:value", t="month", g="month", f=["month@2015"])
P(E, "en", "avg trade employment per year", "ambiguous: wholesale_trade, retail_trade or trade_transportation_utilties")
P(E, "en", "which sector lost the most jobs in 2009", "the sectors are columns, not values of a column, and losses need a change no built-in computes per column")
U(E, "en", "unemployment rate by month", "no unemployment column: the data counts the employed")
U(E, "en", "average wage in manufacturing", "no wage column")
P(E, "en", "yoy growth of nonfarm employment", "no built-in computes year-over-year growth")
U(E, "en", "employment by state", "no state column")
P(E, "en", "total construction jobs in 2009", "employment is a monthly level (thousands employed): summing twelve months counts the same jobs twelve times")
P(E, "en", "avg manufacturing employment by year and construction by quarter", "two questions at once")
U(E, "en", "farm employment per year", "no farm column: nonfarm is everything but farms")
P(E, "en", "average nonfarm employment in 2016", "the data ends in December 2015")
P(E, "en", "avg healthcare employment per year", "no healthcare column: health is counted with education in education_and_health_services")
U(E, "en", "manufacturing share of nonfarm jobs by year", "a ratio of two columns, which no built-in computes")
A(E, "zh", "每年非农就业人数的平均值", "trend", m="nonfarm:mean", t="month", g="year")
A(E, "zh", "建筑业和制造业就业的相关性", "correlation", m=["construction", "manufacturing"])
A(E, "zh", "2009年每月的制造业就业人数", "trend", m="manufacturing:value", t="month", g="month", f=["month@2009"])
A(E, "zh", "政府部门就业按季度的平均值", "trend", m="government:mean", t="month", g="quarter")
A(E, "zh", "nonfarm_change的分布", "distribution", m=["nonfarm_change"])
A(E, "zh", "比较2015年和2008年的平均非农就业", "compare_periods", m="nonfarm:mean", t="month", g="year", p=["2008", "2015"])
A(E, "zh", "零售业每年平均就业人数", "trend", m="retail_trade:mean", t="month", g="year")
P(E, "zh", "非农就业同比增长率", "内置分析不计算同比增长")
P(E, "zh", "各行业就业人数排名", "行业是列而不是某一列的取值，排名需要先转成长表，内置分析不做")
U(E, "zh", "各州的就业人数", "没有州列")
U(E, "zh", "制造业的平均工资", "没有工资列")

PC = "population_cn.csv"
# ---------------------------------------------------------------- population_cn.csv: 年份 (1850 … 2000, every census, no 1890), 年龄组, 性别 (男, 女), 人数
A(PC, "zh", "每年的总人口", "trend", m="人数:sum", t="年份", g="year")
A(PC, "zh", "2000年按性别统计总人数", "topn", m="人数:sum", by=["性别"], f=["年份=2000"])
A(PC, "zh", "2000年人数最多的5个年龄组", "topn", m="人数:sum", by=["年龄组"], n=5, f=["年份=2000"])
A(PC, "zh", "1900年和2000年的总人口对比", "compare_periods", m="人数:sum", t="年份", g="year", p=["1900", "2000"])
A(PC, "zh", "每年男性人口", "trend", m="人数:sum", t="年份", g="year", f=["性别=男"])
A(PC, "zh", "女性人数历年变化", "trend", m="人数:sum", t="年份", g="year", f=["性别=女"])
A(PC, "zh", "按性别和年份统计人数的透视表", "pivot", m="人数:sum", by=["性别"], t="年份", g="year")
A(PC, "zh", "1950年及以后每年的总人口", "trend", m="人数:sum", t="年份", g="year", f=["年份>=1950"])
A(PC, "zh", "2000年女性人数最多的3个年龄组", "topn", m="人数:sum", by=["年龄组"], n=3, f=["年份=2000", "性别=女"])
A(PC, "zh", "按年份统计人口总数", "trend", m="人数:sum", t="年份", g="year")
A(PC, "zh", "人口数据概况", "profile", m=[])
A(PC, "zh", "1900年男性人数最多的3个年龄组", "topn", m="人数:sum", by=["年龄组"], n=3, f=["年份=1900", "性别=男"])
P(PC, "zh", "各年龄组的平均年龄", "年龄组是分组的起点，不是个人年龄，平均年龄无从计算")
P(PC, "zh", "按年份统计年龄组的总和", "年龄组不能求和")
U(PC, "zh", "每年的平均收入", "没有收入列")
U(PC, "zh", "各州的人口", "没有州列")
P(PC, "zh", "人口增长率", "内置分析不计算增长率")
P(PC, "zh", "2010年的总人口", "数据到2000年为止，没有2010年")
P(PC, "zh", "1890年的总人口", "没有1890年：数据缺这一次普查")
P(PC, "zh", "每年的男女比例", "需要把男女两组相除，内置分析不算比率")
P(PC, "zh", "每年总人口和各年龄组平均人数", "一次问了两个问题")
U(PC, "zh", "城乡人口对比", "没有城乡列")
P(PC, "zh", "按性别统计总人数", "人数是每次普查时的人口，把各次普查相加会重复计算同一批人；需要指定年份")
A(PC, "en", "total population per year", "trend", m="人数:sum", t="年份", g="year")
A(PC, "en", "population by sex in 2000", "topn", m="人数:sum", by=["性别"], f=["年份=2000"])
A(PC, "en", "top 5 age groups by population in 1950", "topn", m="人数:sum", by=["年龄组"], n=5, f=["年份=1950"])
A(PC, "en", "compare total people in 1950 vs 2000", "compare_periods", m="人数:sum", t="年份", g="year", p=["1950", "2000"])
A(PC, "en", "female population by year", "trend", m="人数:sum", t="年份", g="year", f=["性别=女"])
U(PC, "en", "avg income by age group", "no income column")
P(PC, "en", "sum of age by year", "an age group must not be summed")
P(PC, "en", "population growth rate per decade", "no built-in computes a growth rate")
