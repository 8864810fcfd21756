"""The untried set of the understanding evaluation: gen.py turns it into testdata/untried.jsonl.

Written on 4 December 2026 (issue 35) by a helper who had read only this harness (questions.go, run.go, score.go,
compare.go, gen.py, srcformat.py, tables.py, the test, the structure of novel_src.py) and the shipped tables, not the
parser (tools/templates) nor the questions of the other sets, after the novel set had been used to change the parser.
It asks as analysts ask, with phrasings of its own: negations and exclusions (excluding Japan, 除了美国, not counting
"All natural disasters"), ranges of years (between 1960 and 1980, 1990年以来), two aggregations of one column at once,
questions naming a company, country, airline, state, island or industry, calendar parts (quarter of the year,
weekday, hour of departure), comparisons of two years, bottom-N, per-group outliers, correlations named loosely
(relationship, linked, 相关), missing-value profiles, pivots; in Chinese 各…, 按…分, 逐年, 历年, 排名后N, 对比, 口语
(咋样, 多少来着). About a third the data cannot answer or answers only in part: a column it lacks, a value, year or
sheet it lacks, a grain finer than the data, a share, ratio, per-capita figure, growth rate, running total, rank
change or forecast, a causal "why", an ambiguous measure, a level or stock summed over time, two questions at once.
Its first figures, taken before anyone read its answers, are the honest figures for questions nobody here has seen.
Forty-two questions of its first draft turned out to be, word for word, questions of other sets (TestUntriedSetIsNew)
and were dropped, not reworded.

The format is blind_src.py's: A answerable with its expected reading, U the data cannot answer, P it answers only
in part; a measure "col:value" is a column observed once per period or group, whose aggregation is left open.
"""

from srcformat import builders  # noqa: E402

UNTRIED = []
A, U, P = builders(UNTRIED)


W = "seattle-weather.csv"
# ---------------------------------------------------------------- date (daily 2012-2015), precipitation, temp_max,
# temp_min, wind, weather
A(W, "en", "yearly avg wind speed, seattle", "trend", m="wind:mean", t="date", g="year")
A(W, "en", "total rainfall every quarter pls", "trend", m="precipitation:sum", t="date", g="quarter")
A(W, "en", "lowest min temp each yr", "trend", m="temp_min:min", t="date", g="year")
A(W, "en", "number of foggy days by year", "trend", m=[], t="date", g="year", f=["weather=fog"])
A(W, "en", "avg temp_max per weekday", None, m="temp_max:mean", t="date", g="weekday")
A(W, "en", "relationship between daily high and low temps", "correlation", m=["temp_max", "temp_min"])
A(W, "en", "wind speed outliers per weather type", "outliers", m=["wind"], by=["weather"])
A(W, "en", "avg precipitation for each kind of weather", "topn", m="precipitation:mean", by=["weather"])
A(W, "en", "2013 vs 2015: how many days of rain", "compare_periods", m=[], t="date", g="year", p=["2013", "2015"], f=["weather=rain"])
A(W, "en", "top 3 windiest weather types on average", "topn", m="wind:mean", by=["weather"], n=3)
A(W, "en", "summary stats for temp_min", "distribution", m=["temp_min"])
P(W, "en", "rain forecast for next month", "a forecast, which no built-in makes")
P(W, "en", "what share of days were sunny each year", "a share of days, which no built-in computes")
P(W, "en", "weather in 2017 by month", "the data ends in 2015")
P(W, "en", "why was 2014 so warm", "a causal question the data cannot answer")
A(W, "zh", "西雅图每年最高气温的最大值", "trend", m="temp_max:max", t="date", g="year")
A(W, "zh", "每个月（按年月）平均风速", "trend", m="wind:mean", t="date", g="month")
A(W, "zh", "一年里每个季度的平均降水量，不分年份", None, m="precipitation:mean", t="date", g="quarter_of_year")
A(W, "zh", "各种天气的平均最低温度", "topn", m="temp_min:mean", by=["weather"])
A(W, "zh", "2015年各种天气各有几天", "topn", m=[], by=["weather"], f=["date@2015"])
A(W, "zh", "最高气温和风速有关系吗", "correlation", m=["temp_max", "wind"])
A(W, "zh", "最低气温的分布", "distribution", m=["temp_min"])
A(W, "zh", "对比一下2012和2013年的总降水", "compare_periods", m="precipitation:sum", t="date", g="year", p=["2012", "2013"])
A(W, "zh", "降水量有没有异常值", "outliers", m=["precipitation"])
U(W, "zh", "每月日照时长", "没有日照时长列")
P(W, "zh", "晴天占比多少", "占比需要计算，内置分析不算")
P(W, "zh", "2011年的平均风速", "数据从2012年开始")
P(W, "zh", "上午和下午的气温差", "数据是按天的，没有上午下午")

C = "cars.json"
# ---------------------------------------------------------------- Name, Miles_per_Gallon, Cylinders, Displacement,
# Horsepower, Weight_in_lbs, Acceleration, Year (model year as a date), Origin
A(C, "en", "avg mpg excluding japanese cars, by cylinders", "topn", m="Miles_per_Gallon:mean", by=["Cylinders"], f=["Origin=Europe|USA"])
A(C, "en", "heaviest 3 origins? avg weight", "topn", m="Weight_in_lbs:mean", by=["Origin"], n=3)
A(C, "en", "no. of models per model year", "trend", m=[], t="Year", g="year")
A(C, "en", "avg hp and avg weight per origin", None, m=["Horsepower:mean", "Weight_in_lbs:mean"], by=["Origin"])
A(C, "en", "is weight linked to mpg?", "correlation", m=["Weight_in_lbs", "Miles_per_Gallon"])
A(C, "en", "hp outliers for each origin", "outliers", m=["Horsepower"], by=["Origin"])
A(C, "en", "8 cylinder cars: avg displacement per year", "trend", m="Displacement:mean", t="Year", g="year", f=["Cylinders=8"])
A(C, "en", "1970 vs 1982 average mpg", "compare_periods", m="Miles_per_Gallon:mean", t="Year", g="year", p=["1970", "1982"])
A(C, "en", "which missing values does the cars data have", "profile")
A(C, "en", "weight distribution, european cars", "distribution", m=["Weight_in_lbs"], f=["Origin=Europe"])
U(C, "en", "avg mpg by transmission type", "no transmission column")
P(C, "en", "mpg per 1000 lbs of weight by origin", "a ratio of two columns, which no built-in computes")
P(C, "en", "share of cars from japan", "a share, which no built-in computes")
P(C, "en", "fastest car", "ambiguous: fastest by acceleration or horsepower; there is no top speed")
P(C, "en", "avg mpg for 1990 models", "the model years end in 1982")
A(C, "zh", "各产地汽车的平均加速时间", "topn", m="Acceleration:mean", by=["Origin"])
A(C, "zh", "除了美国以外，各产地的车辆数", "topn", m=[], by=["Origin"], f=["Origin=Europe|Japan"])
A(C, "zh", "逐年平均马力", "trend", m="Horsepower:mean", t="Year", g="year")
A(C, "zh", "6缸车按产地的平均油耗（每加仑英里数）", "topn", m="Miles_per_Gallon:mean", by=["Origin"], f=["Cylinders=6"])
A(C, "zh", "重量和马力相关吗", "correlation", m=["Weight_in_lbs", "Horsepower"])
A(C, "zh", "每加仑英里数的分布咋样", "distribution", m=["Miles_per_Gallon"])
A(C, "zh", "按气缸数看排量的异常值", "outliers", m=["Displacement"], by=["Cylinders"])
A(C, "zh", "平均重量最轻的两个产地", "topn", m="Weight_in_lbs:mean", by=["Origin"], n=2, o="asc")
U(C, "zh", "各产地汽车的平均保险费", "没有保险费列")
P(C, "zh", "马力重量比最高的车", "需要两列之比，内置分析不算")
P(C, "zh", "日本车每年销量", "没有销量列；数据是车型，不是销量")
P(C, "zh", "哪款车最省油又最便宜", "没有价格列，且是两个问题")

S = "stocks.csv"
# ---------------------------------------------------------------- symbol, date (monthly, Jan 2000 - Mar 2010), price
A(S, "en", "avg price per year for amazon", "trend", m="price:mean", t="date", g="year", f=["symbol=AMZN"])
A(S, "en", "highest price each ticker ever hit", "topn", m="price:max", by=["symbol"])
A(S, "en", "MSFT price by month in 2009", "trend", m="price:value", t="date", g="month", f=["symbol=MSFT", "date@2009"])
A(S, "en", "cheapest stock on average in 2002", "topn", m="price:mean", by=["symbol"], n=1, o="asc", f=["date@2002"])
A(S, "en", "ibm: 2005 vs 2008 mean price", "compare_periods", m="price:mean", t="date", g="year", p=["2005", "2008"], f=["symbol=IBM"])
A(S, "en", "how many monthly observations does each symbol have", "topn", m=[], by=["symbol"])
A(S, "en", "Apple stock price outliers", "outliers", m=["price"], f=["symbol=AAPL"])
A(S, "en", "summary of google prices", "distribution", m=["price"], f=["symbol=GOOG"])
U(S, "en", "dividend yield by symbol", "no dividend column")
P(S, "en", "total price of MSFT over 2003", "a price is a level: summing it over months means nothing")
P(S, "en", "tesla avg price by year", "no Tesla (TSLA) in the data")
P(S, "en", "which stock grew the most since 2000", "a growth rate, which no built-in computes")
P(S, "en", "weekly AAPL prices", "the data is monthly; it has no weeks")
A(S, "zh", "IBM历年最高股价", "trend", m="price:max", t="date", g="year", f=["symbol=IBM"])
A(S, "zh", "2009年各股票平均价格", "topn", m="price:mean", by=["symbol"], f=["date@2009"])
A(S, "zh", "亚马逊2007年每个月的股价", "trend", m="price:value", t="date", g="month", f=["symbol=AMZN", "date@2007"])
A(S, "zh", "股价最低的那只股票（按均价）", "topn", m="price:mean", by=["symbol"], n=1, o="asc")
A(S, "zh", "微软股价的分布", "distribution", m=["price"], f=["symbol=MSFT"])
P(S, "zh", "苹果和谷歌哪个涨得多", "涨幅需要计算变化率，内置分析不算")
P(S, "zh", "2012年谷歌股价", "数据只到2010年")
P(S, "zh", "每只股票的累计收益", "累计收益需要计算，内置分析不算")

D = "disasters.csv"
# ---------------------------------------------------------------- Entity (incl. "All natural disasters"), Year, Deaths
A(D, "en", "earthquake deaths per year 1990 to 2010", "trend", m="Deaths:sum", t="Year", g="year", f=["Entity=Earthquake", "Year>=1990", "Year<=2010"])
A(D, "en", "top 5 deadliest disaster types overall, not counting 'All natural disasters'", "topn", m="Deaths:sum", by=["Entity"], n=5,
  f=["Entity=Drought|Earthquake|Epidemic|Extreme temperature|Extreme weather|Flood|Landslide|Mass movement (dry)|Volcanic activity|Wildfire"])
A(D, "en", "wildfire deaths by year", "trend", m="Deaths:sum", t="Year", g="year", f=["Entity=Wildfire"])
A(D, "en", "total deaths from all natural disasters, 1950 vs 2000", "compare_periods", m="Deaths:sum", t="Year", g="year", p=["1950", "2000"], f=["Entity=All natural disasters"])
A(D, "en", "max single-year death toll for each disaster type", "topn", m="Deaths:max", by=["Entity"])
A(D, "en", "distribution of yearly flood deaths", "distribution", m=["Deaths"], f=["Entity=Flood"])
A(D, "en", "how many years of data per disaster type", "topn", m=[], by=["Entity"], unchecked=["measures"])
P(D, "en", "economic damage from floods by year", "no damage column")
P(D, "en", "what % of all disaster deaths were droughts", "a share, which no built-in computes")
P(D, "en", "earthquake deaths in 2020", "the data ends in 2017")
A(D, "zh", "历年火山活动死亡人数", "trend", m="Deaths:sum", t="Year", g="year", f=["Entity=Volcanic activity"])
A(D, "zh", "2000年以来各类灾害的总死亡人数", "topn", m="Deaths:sum", by=["Entity"], f=["Year>=2000"], unchecked=["n"])
A(D, "zh", "极端高温每年死多少人", "trend", m="Deaths:sum", t="Year", g="year", f=["Entity=Extreme temperature"])
A(D, "zh", "1920年和1965年干旱死亡人数对比", "compare_periods", m="Deaths:sum", t="Year", g="year", p=["1920", "1965"], f=["Entity=Drought"])
A(D, "zh", "山体滑坡的年死亡人数分布", "distribution", m=["Deaths"], f=["Entity=Landslide"])
A(D, "zh", "各灾害类型单年最多死亡人数", "topn", m="Deaths:max", by=["Entity"])
U(D, "zh", "各省份的灾害死亡人数", "没有省份列")
P(D, "zh", "每次地震平均死多少人", "没有事件次数，只有每年死亡总数")
P(D, "zh", "下一年洪水会死多少人", "预测，内置分析不做")
P(D, "zh", "受伤人数按年统计", "没有受伤人数列")

B = "birdstrikes.csv"
# ---------------------------------------------------------------- Airport Name, Aircraft Make Model, Effect Amount of
# damage, Flight Date (1990-2002), Aircraft Airline Operator, Origin State, Phase of flight, Wildlife Size, Wildlife
# Species, Time of day, Cost Other, Cost Repair, Cost Total $, Speed IAS in knots
A(B, "en", "top 5 states by number of bird strikes", "topn", m=[], by=["Origin State"], n=5)
A(B, "en", "strikes at night by airline, top 3", "topn", m=[], by=["Aircraft Airline Operator"], n=3, f=["Time of day=Night"])
A(B, "en", "american airlines strikes per month of the year", None, m=[], t="Flight Date", g="month_of_year", f=["Aircraft Airline Operator=AMERICAN AIRLINES"])
A(B, "en", "corr between speed and total cost", "correlation", m=["Speed IAS in knots", "Cost Total $"])
A(B, "en", "1995 vs 2000 number of strikes", "compare_periods", m=[], t="Flight Date", g="year", p=["1995", "2000"])
A(B, "en", "strikes by time of day in Texas", "topn", m=[], by=["Time of day"], f=["Origin State=Texas"])
U(B, "en", "strikes by aircraft altitude", "no altitude column")
P(B, "en", "avg cost per passenger", "no passenger column")
P(B, "en", "how many birds were killed", "the data counts strikes, not birds killed")
P(B, "en", "strikes in 2010", "the data ends in 2002")
A(B, "zh", "各飞行阶段的平均维修费用", "topn", m="Cost Repair:mean", by=["Phase of flight"])
A(B, "zh", "加州各机场的鸟击次数", "topn", m=[], by=["Airport Name"], f=["Origin State=California"], unchecked=["n"])
A(B, "zh", "按野生动物体型看总损失", "topn", m="Cost Total $:sum", by=["Wildlife Size"])
A(B, "zh", "一周中哪天鸟击最多", None, m=[], t="Flight Date", g="weekday")
A(B, "zh", "空速的分布", "distribution", m=["Speed IAS in knots"])
A(B, "zh", "按季度统计鸟击数", "trend", m=[], t="Flight Date", g="quarter")
U(B, "zh", "各航班的乘客人数", "没有乘客列")
P(B, "zh", "鸟击导致的伤亡人数", "没有伤亡列")
P(B, "zh", "每小时鸟击次数", "日期没有时间，只有一天中的时段")
P(B, "zh", "各航空公司损失占比", "占比需要计算，内置分析不算")

M = "macro_cn.csv"
# ---------------------------------------------------------------- 年份, 季度 (1-4), 实际GDP, 实际消费, 实际投资, 实际政府支出,
# 实际可支配收入, 消费价格指数, 货币供应量M1, 国债利率, 失业率, 人口, 通胀率, 实际利率 (quarterly, 1959-2009)
A(M, "zh", "历年平均失业率", "trend", m="失业率:mean", t="年份", g="year")
A(M, "zh", "1980年到1990年每年的平均国债利率", "trend", m="国债利率:mean", t="年份", g="year", f=["年份>=1980", "年份<=1990"])
A(M, "zh", "按季度（1到4季度）看平均通胀率", "topn", m="通胀率:mean", by=["季度"], unchecked=["analysis", "n", "order"])
A(M, "zh", "实际消费和实际可支配收入的相关性", "correlation", m=["实际消费", "实际可支配收入"])
A(M, "zh", "失业率的分布情况", "distribution", m=["失业率"])
A(M, "zh", "1970年和2000年平均实际GDP对比", "compare_periods", m="实际GDP:mean", t="年份", g="year", p=["1970", "2000"])
A(M, "zh", "每年最高的通胀率", "trend", m="通胀率:max", t="年份", g="year")
A(M, "zh", "失业率最高的五个年份（年均）", "topn", m="失业率:mean", by=["年份"], n=5)
A(M, "zh", "国债利率有异常值吗", "outliers", m=["国债利率"])
P(M, "zh", "人均实际GDP的变化", "人均需要两列相除，内置分析不算")
P(M, "zh", "2015年的失业率", "数据只到2009年")
P(M, "zh", "GDP增长率每年是多少", "增长率需要计算，内置分析不算")
P(M, "zh", "每月的通胀率", "数据是按季度的，没有月")
A(M, "en", "correlation of inflation and unemployment", "correlation", m=["通胀率", "失业率"])
A(M, "en", "mean real interest rate, 1975 vs 1985", "compare_periods", m="实际利率:mean", t="年份", g="year", p=["1975", "1985"])
U(M, "en", "exports by year", "no exports column")
P(M, "en", "gdp per capita by year", "a ratio of two columns, which no built-in computes")

G = "grunfeld.csv"
# ---------------------------------------------------------------- firm, year (1935-1954), invest, value, capital
A(G, "en", "IBM's investment each year", "trend", m="invest:value", t="year", g="year", f=["firm=IBM"])
A(G, "en", "total invest across all firms per yr", "trend", m="invest:sum", t="year", g="year")
A(G, "en", "avg firm value per year for US Steel", "trend", m="value:value", t="year", g="year", f=["firm=US Steel"])
A(G, "en", "invest vs capital correlation", "correlation", m=["invest", "capital"])
A(G, "en", "bottom 3 firms by mean investment", "topn", m="invest:mean", by=["firm"], n=3, o="asc")
A(G, "en", "investment outliers for each firm", "outliers", m=["invest"], by=["firm"])
A(G, "en", "compare total investment 1940 and 1950", "compare_periods", m="invest:sum", t="year", g="year", p=["1940", "1950"])
U(G, "en", "firm revenue by year", "no revenue column")
P(G, "en", "total capital stock of GM over all years", "capital is a stock: summing it over years means nothing")
A(G, "zh", "各公司平均投资额", "topn", m="invest:mean", by=["firm"])
A(G, "zh", "通用电气每年的投资", "trend", m="invest:value", t="year", g="year", f=["firm=General Electric"])
A(G, "zh", "1954年市值最高的三家公司", "topn", m="value:value", by=["firm"], n=3, f=["year@1954"])
A(G, "zh", "投资和市值的相关系数", "correlation", m=["invest", "value"])
U(G, "zh", "各公司员工人数", "没有员工人数列")
P(G, "zh", "各公司资本总和（所有年份加总）", "资本是存量，跨年相加没有意义")
P(G, "zh", "投资增长最快的公司", "增长率需要计算，内置分析不算")

R = "statecrime.tsv"
# ---------------------------------------------------------------- state, violent, murder, hs_grad, poverty, single,
# white, urban (one row per state)
A(R, "en", "poverty vs violent crime: correlated?", "correlation", m=["poverty", "violent"])
A(R, "en", "states with the lowest hs graduation rate, bottom 5", "topn", m="hs_grad:value", by=["state"], n=5, o="asc")
A(R, "en", "distribution of poverty rates across states", "distribution", m=["poverty"])
A(R, "en", "any outlier states for violent crime?", "outliers", m=["violent"])
U(R, "en", "violent crime by year", "no year column")
P(R, "en", "total murder rate of all states", "a rate: summing it over states means nothing")
P(R, "en", "crime in texas cities", "no city column")
A(R, "zh", "谋杀率最高的十个州", "topn", m="murder:value", by=["state"], n=10)
A(R, "zh", "单亲比例最低的三个州", "topn", m="single:value", by=["state"], n=3, o="asc")
U(R, "zh", "各州人口", "没有人口列")
P(R, "zh", "各州暴力犯罪总数", "数据是比率，不是案件数")
P(R, "zh", "加州的犯罪率比去年如何", "只有一年的数据")

GM = "gapminder.json"
# ---------------------------------------------------------------- year (every 5 years, 1955-2005), country, cluster,
# pop, life_expect, fertility
A(GM, "en", "life expectancy in Japan over time", "trend", m="life_expect:value", t="year", g="year", f=["country=Japan"])
A(GM, "en", "avg fertility by year", "trend", m="fertility:mean", t="year", g="year")
A(GM, "en", "lowest life expectancy in 1960, bottom 3", "topn", m="life_expect:value", by=["country"], n=3, o="asc", f=["year@1960"])
A(GM, "en", "fertility vs life expectancy corr", "correlation", m=["fertility", "life_expect"])
A(GM, "en", "world pop (sum of countries) each year", "trend", m="pop:sum", t="year", g="year")
A(GM, "en", "india 1970 vs 2000 fertility", "compare_periods", m="fertility:value", t="year", g="year", p=["1970", "2000"], f=["country=India"])
A(GM, "en", "distribution of life expectancy in 2000", "distribution", m=["life_expect"], f=["year@2000"])
U(GM, "en", "gdp per country", "no GDP column")
P(GM, "en", "total population of china across all years", "population is a level: summing it over years means nothing")
P(GM, "en", "population growth rate per country", "a growth rate, which no built-in computes")
A(GM, "zh", "1980年预期寿命最高的五个国家", "topn", m="life_expect:value", by=["country"], n=5, f=["year@1980"])
A(GM, "zh", "各年份平均预期寿命", "trend", m="life_expect:mean", t="year", g="year")
A(GM, "zh", "巴西的生育率随时间变化", "trend", m="fertility:value", t="year", g="year", f=["country=Brazil"])
A(GM, "zh", "各聚类的平均生育率", "topn", m="fertility:mean", by=["cluster"])
U(GM, "zh", "各国人均收入", "没有收入列")
P(GM, "zh", "俄罗斯的预期寿命", "数据里没有俄罗斯")
P(GM, "zh", "各国人口占世界比例", "占比需要计算，内置分析不算")
P(GM, "zh", "美国每年的人口总和加起来", "人口是存量，跨年相加没有意义")

I = "iowa-electricity.csv"
# ---------------------------------------------------------------- year (a date, 2001-2017), source, net_generation
A(I, "en", "total net generation by source since 2010", "topn", m="net_generation:sum", by=["source"], f=["year>=2010-01-01"], unchecked=["filters"])
A(I, "en", "iowa total electricity each year", "trend", m="net_generation:sum", t="year", g="year")
A(I, "en", "nuclear: 2005 vs 2015", "compare_periods", m="net_generation:sum", t="year", g="year", p=["2005", "2015"], f=["source=Nuclear Energy"])
A(I, "en", "which source generated the least overall", "topn", m="net_generation:sum", by=["source"], n=1, o="asc")
P(I, "en", "renewables share of generation by year", "a share, which no built-in computes")
P(I, "en", "monthly generation of fossil fuels", "the data is yearly; it has no months")
A(I, "zh", "化石燃料历年发电量", "trend", m="net_generation:sum", t="year", g="year", f=["source=Fossil Fuels"])
A(I, "zh", "各能源类型的平均年发电量", "topn", m="net_generation:mean", by=["source"])
A(I, "zh", "2017年各来源发电量", "topn", m="net_generation:sum", by=["source"], f=["year@2017"])
A(I, "zh", "对比2001年和2017年可再生能源发电", "compare_periods", m="net_generation:sum", t="year", g="year", p=["2001", "2017"], f=["source=Renewables"])
P(I, "zh", "可再生能源发电量的年增长率", "增长率需要计算，内置分析不算")
P(I, "zh", "2020年发电量", "数据只到2017年")

UN = "unemployment-across-industries.json"
# ---------------------------------------------------------------- series, year, month, count, rate, date (monthly
# 2000-2010)
A(UN, "en", "construction unemployment rate by yr, avg", "trend", m="rate:mean", t="date", g="year", f=["series=Construction"], unchecked=["time"])
A(UN, "en", "which industry had the highest avg unemployment rate in 2009", "topn", m="rate:mean", by=["series"], n=1, f=["year=2009"], unchecked=["filters"])
A(UN, "en", "avg rate per industry, top 5", "topn", m="rate:mean", by=["series"], n=5)
A(UN, "en", "finance unemployed count, monthly 2008", "trend", m="count:value", t="date", g="month", f=["series=Finance", "year=2008"], unchecked=["filters", "time"])
A(UN, "en", "seasonality: avg leisure and hospitality rate by month of year", None, m="rate:mean", t="date", g="month_of_year", f=["series=Leisure and hospitality"])
A(UN, "en", "manufacturing rate outliers", "outliers", m=["rate"], f=["series=Manufacturing"])
P(UN, "en", "total unemployed in construction over the decade", "a count of the unemployed is a level: summing it over months means nothing")
P(UN, "en", "unemployment rate for 2012", "the data ends in 2010")
A(UN, "zh", "制造业每年的平均失业率", "trend", m="rate:mean", t="date", g="year", f=["series=Manufacturing"], unchecked=["time"])
A(UN, "zh", "2010年失业率最低的三个行业", "topn", m="rate:mean", by=["series"], n=3, o="asc", f=["year=2010"], unchecked=["filters"])
A(UN, "zh", "失业率和失业人数的相关性", "correlation", m=["rate", "count"])
A(UN, "zh", "信息行业失业率的分布", "distribution", m=["rate"], f=["series=Information"])
P(UN, "zh", "各行业失业人数占比", "占比需要计算，内置分析不算")
P(UN, "zh", "每周的失业率", "数据是按月的，没有周")

PG = "penguins.json"
# ---------------------------------------------------------------- Species, Island, Beak Length (mm), Beak Depth (mm),
# Flipper Length (mm), Body Mass (g), Sex
A(PG, "en", "avg body mass per species (g)", "topn", m="Body Mass (g):mean", by=["Species"])
A(PG, "en", "penguins per island", "topn", m=[], by=["Island"])
A(PG, "en", "flipper length vs body mass correlation", "correlation", m=["Flipper Length (mm)", "Body Mass (g)"])
A(PG, "en", "beak length distribution for gentoo", "distribution", m=["Beak Length (mm)"], f=["Species=Gentoo"])
A(PG, "en", "count by species and island", None, m=[], by=["Species", "Island"])
A(PG, "en", "which columns have missing values", "profile")
A(PG, "en", "mean flipper length of females, per species", "topn", m="Flipper Length (mm):mean", by=["Species"], f=["Sex=FEMALE"])
U(PG, "en", "avg age of penguins by island", "no age column")
P(PG, "en", "emperor penguin body mass", "no Emperor penguins in the data")
P(PG, "en", "penguin counts per year", "no year column")
A(PG, "zh", "各岛屿企鹅的平均体重", "topn", m="Body Mass (g):mean", by=["Island"])
A(PG, "zh", "每个物种有多少只企鹅", "topn", m=[], by=["Species"])
A(PG, "zh", "Biscoe岛上各物种数量", "topn", m=[], by=["Species"], f=["Island=Biscoe"])
A(PG, "zh", "雄性企鹅按物种的平均喙长", "topn", m="Beak Length (mm):mean", by=["Species"], f=["Sex=MALE"])
U(PG, "zh", "企鹅的寿命", "没有寿命列")
P(PG, "zh", "体重和鳍长的比值", "需要两列之比，内置分析不算")
P(PG, "zh", "南极各国的企鹅数量", "没有国家列")

CO = "co2-concentration.csv"
# ---------------------------------------------------------------- Date (monthly, 1958-2020), CO2, adjusted CO2
A(CO, "en", "annual mean co2", "trend", m="CO2:mean", t="Date", g="year")
A(CO, "en", "co2 by month of year (seasonal cycle), avg", None, m="CO2:mean", t="Date", g="month_of_year")
A(CO, "en", "1960 vs 2020 average co2", "compare_periods", m="CO2:mean", t="Date", g="year", p=["1960", "2020"])
A(CO, "en", "corr of co2 and adjusted co2", "correlation", m=["CO2", "adjusted CO2"])
P(CO, "en", "sum of co2 readings per year", "a concentration is a level: summing it over months means nothing")
P(CO, "en", "co2 in 2030", "a forecast, which no built-in makes")
P(CO, "en", "daily co2 for 2015", "the data is monthly; it has no days")
A(CO, "zh", "二氧化碳浓度每年平均值", "trend", m="CO2:mean", t="Date", g="year")
A(CO, "zh", "按季度看平均二氧化碳浓度", "trend", m="CO2:mean", t="Date", g="quarter")
A(CO, "zh", "1990年以来每年最低的二氧化碳浓度", "trend", m="CO2:min", t="Date", g="year", f=["Date>=1990-01-01"])
A(CO, "zh", "1980年和2010年平均二氧化碳对比", "compare_periods", m="CO2:mean", t="Date", g="year", p=["1980", "2010"])
U(CO, "zh", "各城市二氧化碳浓度", "没有城市列")
P(CO, "zh", "二氧化碳浓度年增长率", "增长率需要计算，内置分析不算")
P(CO, "zh", "每小时的二氧化碳浓度", "数据是按月的，没有小时")

F = "flights-2k.json"
# ---------------------------------------------------------------- date (Jan-Mar 2001, with time), delay, distance,
# origin, destination
A(F, "en", "mean delay by hour of departure", None, m="delay:mean", t="date", g="hour_of_day")
A(F, "en", "avg delay per weekday", None, m="delay:mean", t="date", g="weekday")
A(F, "en", "is distance correlated with delay", "correlation", m=["distance", "delay"])
A(F, "en", "how many flights out of ORD by destination, top 3", "topn", m=[], by=["destination"], n=3, f=["origin=ORD"])
A(F, "en", "delay distribution (minutes)", "distribution", m=["delay"])
A(F, "en", "longest avg distance by origin", "topn", m="distance:mean", by=["origin"], n=1)
U(F, "en", "delays by airline", "no airline column")
P(F, "en", "on-time percentage by origin", "a share of flights, which no built-in computes")
P(F, "en", "flights in december 2001", "the data covers January to March 2001")
P(F, "en", "why are flights from ORD late", "a causal question the data cannot answer")
A(F, "zh", "每个出发机场的平均延误，前五", "topn", m="delay:mean", by=["origin"], n=5)
A(F, "zh", "每天的航班数", "trend", m=[], t="date", g="day")
A(F, "zh", "各到达机场的航班数量前十", "topn", m=[], by=["destination"], n=10)
A(F, "zh", "按周统计平均延误", "trend", m="delay:mean", t="date", g="week")
A(F, "zh", "距离的分布", "distribution", m=["distance"])
A(F, "zh", "从洛杉矶（LAX）出发的航班每月平均延误", "trend", m="delay:mean", t="date", g="month", f=["origin=LAX"])
A(F, "zh", "延误时间有没有异常", "outliers", m=["delay"])
U(F, "zh", "各航空公司的航班数", "没有航空公司列")
P(F, "zh", "航班准点率", "准点率需要计算，内置分析不算")
P(F, "zh", "2002年的航班延误", "数据只有2001年1到3月")

E = "us-employment.csv"
# ---------------------------------------------------------------- month (2006-2015), nonfarm, ... (employment levels,
# thousands), nonfarm_change (the monthly change)
A(E, "en", "construction jobs each month in 2009", "trend", m="construction:value", t="month", g="month", f=["month@2009"])
A(E, "en", "sum of monthly nonfarm changes by year", "trend", m="nonfarm_change:sum", t="month", g="year")
A(E, "en", "manufacturing employment 2007 vs 2010, yearly avg", "compare_periods", m="manufacturing:mean", t="month", g="year", p=["2007", "2010"])
A(E, "en", "correlation between construction and manufacturing employment", "correlation", m=["construction", "manufacturing"])
A(E, "en", "distribution of the monthly nonfarm change", "distribution", m=["nonfarm_change"])
P(E, "en", "total construction employment over 2010 (sum of months)", "employment is a level: summing it over months means nothing")
A(E, "zh", "每年平均政府部门就业人数", "trend", m="government:mean", t="month", g="year")
A(E, "zh", "2008年每月非农就业变化", "trend", m="nonfarm_change:value", t="month", g="month", f=["month@2008"])
A(E, "zh", "按季度看平均信息业就业", "trend", m="information:mean", t="month", g="quarter")
A(E, "zh", "零售业和批发业就业的相关性", "correlation", m=["retail_trade", "wholesale_trade"])
A(E, "zh", "2006年和2015年教育医疗平均就业对比", "compare_periods", m="education_and_health_services:mean", t="month", g="year", p=["2006", "2015"])
U(E, "zh", "各行业平均工资", "没有工资列")
P(E, "zh", "制造业就业占非农比例", "占比需要计算，内置分析不算")
P(E, "zh", "2016年非农就业", "数据只到2015年")
P(E, "zh", "每天新增就业", "数据是按月的，没有天")

PC = "population_cn.csv"
# ---------------------------------------------------------------- 年份 (census years 1850-2000), 年龄组, 性别 (男, 女), 人数
A(PC, "zh", "每次普查的女性人口", "trend", m="人数:sum", t="年份", g="year", f=["性别=女"])
A(PC, "zh", "2000年各年龄组人数", "topn", m="人数:sum", by=["年龄组"], f=["年份@2000"], unchecked=["n", "analysis"])
A(PC, "zh", "1900年男性和女性人数", "topn", m="人数:sum", by=["性别"], f=["年份@1900"])
A(PC, "zh", "1950年和2000年男性人口对比", "compare_periods", m="人数:sum", t="年份", g="year", p=["1950", "2000"], f=["性别=男"])
A(PC, "zh", "1960年人数最少的三个年龄组", "topn", m="人数:sum", by=["年龄组"], n=3, o="asc", f=["年份@1960"])
U(PC, "zh", "各城市人口", "没有城市列")
P(PC, "zh", "所有年份人口加起来", "人口是存量，跨普查年相加没有意义")
P(PC, "zh", "男女比例", "比例需要计算，内置分析不算")
P(PC, "zh", "1955年人口", "1955年不是普查年")
A(PC, "en", "total people per census", "trend", m="人数:sum", t="年份", g="year")
A(PC, "en", "men vs women in 1970", "topn", m="人数:sum", by=["性别"], f=["年份@1970"])
P(PC, "en", "share of children under 10 in 2000", "a share, which no built-in computes")
U(PC, "en", "population by province", "no province column")

X = "cars.xlsx"
# ---------------------------------------------------------------- sheets USA, Europe, Japan: Name, Miles_per_Gallon,
# Cylinders, Displacement, Horsepower, Weight_in_lbs, Acceleration, Year (integer)
A(X, "en", "europe sheet: mean mpg by year", "trend", m="Miles_per_Gallon:mean", t="Year", g="year", sheet="Europe")
A(X, "en", "avg weight on each sheet", None, m="Weight_in_lbs:mean", by=["sheet"], sheet="*")
A(X, "en", "USA tab, how many cars per cylinder count", "topn", m=[], by=["Cylinders"], sheet="USA")
P(X, "en", "mpg on the China sheet", "no China sheet")
A(X, "zh", "Japan表中每年的平均马力", "trend", m="Horsepower:mean", t="Year", g="year", sheet="Japan")
A(X, "zh", "Europe表按气缸数的车辆数", "topn", m=[], by=["Cylinders"], sheet="Europe")
P(X, "zh", "韩国表的平均重量", "没有韩国工作表")
