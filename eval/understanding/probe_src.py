"""The probe set of the understanding evaluation: gen.py turns it into testdata/probe.jsonl.

Written on 4 December 2026 (issue 35) by a helper who had read only this harness (questions.go, run.go, score.go,
compare.go, gen.py, srcformat.py, tables.py, the test, the format of untried_src.py) and the shipped tables, and
not the parser (tools/templates/reading_*.go). It asks as analysts ask: typos and abbreviations (temprature, mfg,
hp, yr, #), colloquial Chinese (啊, 呗, 咋), long questions that give context first, values named by meaning
(Apple for AAPL, Japanese cars for Origin Japan, 旱灾 for Drought, 巴布亚企鹅 for Gentoo, 九十岁及以上 for the age
group 90), synonyms of column names (bill for beak, speed at impact for Speed IAS), exclusions (excluding, except,
不算, 除…外), two measures or two aggregations of one column, "A vs B" between two values or two years, and Chinese
numerals for years and counts (二〇〇八年, 一九七五年, 前三, 五个). About a third the data cannot answer or answers only
in part: a column, value, sheet or year it lacks, a grain it lacks (decade, hour of a daily series), a share, ratio,
weighted figure, growth or change, streak, forecast, advice, a causal or subjective question, a rate or level summed.
Its first figures, taken before anyone read its answers, are the honest figures for questions nobody here has seen:
on 4 December 2026, at commit 39317b9 (before any parser change), `go run ./eval/understanding/cmd/understand -only
probe` (load average 6.9) gave English precision 97.0% (65 right of 67 answered) and coverage 61.9% (65 of 105),
Chinese precision 95.2% (60 of 63) and coverage 61.9% (60 of 97).
Seventeen questions of its first draft turned out to be, word for word, questions of other sets (TestProbeSetIsNew) and
were dropped, not reworded.

The format is blind_src.py's: A answerable with its expected reading, U the data cannot answer, P it answers only
in part; a measure "col:value" is a column observed once per period or group, whose aggregation is left open.
"""

from srcformat import builders  # noqa: E402

PROBE = []
A, U, P = builders(PROBE)


W = "seattle-weather.csv"
# ---------------------------------------------------------------- date (daily 2012-2015), precipitation, temp_max,
# temp_min, wind, weather
A(W, "en", "whats the avg max temp for each calendar month in seattle?", None, m="temp_max:mean", t="date", g="month_of_year")
A(W, "en", "total precip by yr, rainy days only", "trend", m="precipitation:sum", t="date", g="year", f=["weather=rain"])
A(W, "en", "Median wind speed by weather condition", None, m="wind:median", by=["weather"])
A(W, "en", "I'm putting together a short note on Seattle's climate for my team. Could you show me the coldest "
  "minimum temperature recorded in each year?", "trend", m="temp_min:min", t="date", g="year")
A(W, "en", "how many snow days did we get in 2012 vs 2013", "compare_periods", m=[], t="date", g="year", p=["2012", "2013"], f=["weather=snow"])
A(W, "en", "max wind each month of 2013", "trend", m="wind:max", t="date", g="month", f=["date@2013"])
A(W, "en", "temprature max vs min correlation", "correlation", m=["temp_max", "temp_min"])
A(W, "en", "describe precipitaton", "distribution", m=["precipitation"])
A(W, "en", "count of days by weather type, excluding sun", "topn", m=[], by=["weather"], f=["weather=drizzle|fog|rain|snow"])
A(W, "en", "avg high and avg low temperature per year", "trend", m=["temp_max:mean", "temp_min:mean"], t="date", g="year")
U(W, "en", "humidity by month", "no humidity column")
P(W, "en", "what was the temp on christmas 2016", "the data ends in 2015")
P(W, "en", "avg difference between the daily high and low, each month", "a difference of two columns, which no built-in computes")
P(W, "en", "longest dry spell each year", "a streak of days, which no built-in computes")
U(W, "en", "uv index per season", "no UV index column")
A(W, "zh", "一年中各月份的平均最高温是多少啊", None, m="temp_max:mean", t="date", g="month_of_year")
A(W, "zh", "2013年各类天气分别出现了几天", "topn", m=[], by=["weather"], f=["date@2013"])
A(W, "zh", "历年降水总量", "trend", m="precipitation:sum", t="date", g="year")
A(W, "zh", "风速和降水量之间的相关系数", "correlation", m=["wind", "precipitation"])
A(W, "zh", "雨天的平均风速，按年", "trend", m="wind:mean", t="date", g="year", f=["weather=rain"])
A(W, "zh", "按天气分，最高气温有哪些异常值", "outliers", m=["temp_max"], by=["weather"])
A(W, "zh", "平均最低气温最低的两种天气", "topn", m="temp_min:mean", by=["weather"], n=2, o="asc")
A(W, "zh", "二〇一二年和二〇一五年平均最高气温对比", "compare_periods", m="temp_max:mean", t="date", g="year", p=["2012", "2015"])
A(W, "zh", "平均风速最大的是星期几", None, m="wind:mean", t="date", g="weekday")
U(W, "zh", "各月平均气压", "没有气压列")
P(W, "zh", "明年夏天会不会很热", "预测，内置分析不做")
P(W, "zh", "每年雨天所占的百分比", "百分比需要计算，内置分析不算")
P(W, "zh", "每天最高最低温差的平均值", "温差需要两列相减，内置分析不算")
U(W, "zh", "西雅图各区的降水量", "没有区域列")

C = "cars.json"
# ---------------------------------------------------------------- Name, Miles_per_Gallon, Cylinders, Displacement,
# Horsepower, Weight_in_lbs, Acceleration, Year (model year as a date), Origin
A(C, "en", "avg mpg for each origin, excluding USA", "topn", m="Miles_per_Gallon:mean", by=["Origin"], f=["Origin=Europe|Japan"])
A(C, "en", "how many 4-cyl cars per origin", "topn", m=[], by=["Origin"], f=["Cylinders=4"])
A(C, "en", "mean horsepwr by number of cylinders", None, m="Horsepower:mean", by=["Cylinders"])
A(C, "en", "acceleration vs horsepower, are they correlated", "correlation", m=["Acceleration", "Horsepower"])
A(C, "en", "avg weight and avg displacement by origin", None, m=["Weight_in_lbs:mean", "Displacement:mean"], by=["Origin"])
A(C, "en", "Japanese cars: average mpg per model year", "trend", m="Miles_per_Gallon:mean", t="Year", g="year", f=["Origin=Japan"])
A(C, "en", "1975 vs 1980 avg horsepower", "compare_periods", m="Horsepower:mean", t="Year", g="year", p=["1975", "1980"])
A(C, "en", "distribution of displacement for american cars", "distribution", m=["Displacement"], f=["Origin=USA"])
A(C, "en", "any outliers in acceleration?", "outliers", m=["Acceleration"])
A(C, "en", "number of cars per model year since 1978", "trend", m=[], t="Year", g="year", f=["Year>=1978-01-01"], unchecked=["filters"])
P(C, "en", "which origin makes the best cars", "a judgement the data cannot make")
P(C, "en", "mpg of 2020 models", "the model years end in 1982")
P(C, "en", "avg mpg weighted by horsepower, per origin", "a weighted mean, which no built-in computes")
A(C, "zh", "各产地平均马力从高到低排", "topn", m="Horsepower:mean", by=["Origin"])
A(C, "zh", "欧洲车每年的平均每加仑英里数", "trend", m="Miles_per_Gallon:mean", t="Year", g="year", f=["Origin=Europe"])
A(C, "zh", "四缸车和八缸车的平均重量", "topn", m="Weight_in_lbs:mean", by=["Cylinders"], f=["Cylinders=4|8"])
A(C, "zh", "马力和每加仑英里数的相关性", "correlation", m=["Horsepower", "Miles_per_Gallon"])
A(C, "zh", "不算日本车，各气缸数有多少辆", "topn", m=[], by=["Cylinders"], f=["Origin=Europe|USA"])
A(C, "zh", "加速时间的分布情况", "distribution", m=["Acceleration"])
A(C, "zh", "美国车的重量有没有异常值", "outliers", m=["Weight_in_lbs"], f=["Origin=USA"])
A(C, "zh", "1970年和1982年车型数量对比", "compare_periods", m=[], t="Year", g="year", p=["1970", "1982"])
A(C, "zh", "按年份和产地统计车型数", None, m=[], by=["Origin"], t="Year", g="year")
U(C, "zh", "各产地的平均售价", "没有价格列")
P(C, "zh", "哪个牌子的车最省油", "品牌只在车名里，没有品牌列")
P(C, "zh", "每辆车的功率重量比", "需要两列之比，内置分析不算")
P(C, "zh", "马力最大的车是不是最快的", "没有最高速度列，且是因果问题")

S = "stocks.csv"
# ---------------------------------------------------------------- symbol, date (monthly, Jan 2000 - Mar 2010), price
A(S, "en", "Apple avg share price by year", "trend", m="price:mean", t="date", g="year", f=["symbol=AAPL"])
A(S, "en", "avg price per stock, lowest first", "topn", m="price:mean", by=["symbol"], o="asc")
A(S, "en", "min and max price per symbol", None, m=["price:min", "price:max"], by=["symbol"])
A(S, "en", "msft and ibm avg price in 2008", "topn", m="price:mean", by=["symbol"], f=["symbol=IBM|MSFT", "date@2008"])
A(S, "en", "GOOG 2006 vs 2009 avg", "compare_periods", m="price:mean", t="date", g="year", p=["2006", "2009"], f=["symbol=GOOG"])
A(S, "en", "quarterly average price of amazon", "trend", m="price:mean", t="date", g="quarter", f=["symbol=AMZN"])
A(S, "en", "price outliers per symbol", "outliers", m=["price"], by=["symbol"])
A(S, "en", "how is IBM's price distributed", "distribution", m=["price"], f=["symbol=IBM"])
U(S, "en", "market cap per company", "no market capitalisation column")
P(S, "en", "monthly return of msft", "a return, which no built-in computes")
P(S, "en", "AAPL price in 1999", "the data starts in 2000")
P(S, "en", "which stock is the best buy right now", "advice the data cannot give")
A(S, "zh", "苹果公司每年的平均股价", "trend", m="price:mean", t="date", g="year", f=["symbol=AAPL"])
A(S, "zh", "谷歌股价每季度平均", "trend", m="price:mean", t="date", g="quarter", f=["symbol=GOOG"])
A(S, "zh", "各只股票最高价排名", "topn", m="price:max", by=["symbol"])
A(S, "zh", "2003年各股平均价从低到高", "topn", m="price:mean", by=["symbol"], o="asc", f=["date@2003"])
A(S, "zh", "微软二〇〇八年和二〇〇九年平均股价对比", "compare_periods", m="price:mean", t="date", g="year", p=["2008", "2009"], f=["symbol=MSFT"])
A(S, "zh", "亚马逊股价有没有异常值", "outliers", m=["price"], f=["symbol=AMZN"])
A(S, "zh", "除了谷歌之外各股票的均价", "topn", m="price:mean", by=["symbol"], f=["symbol=AAPL|AMZN|IBM|MSFT"])
P(S, "zh", "特斯拉的平均股价", "数据里没有特斯拉")
P(S, "zh", "各股票的年化波动率", "波动率需要计算，内置分析不算")
P(S, "zh", "苹果股价的月涨跌幅", "涨跌幅需要计算，内置分析不算")

D = "disasters.csv"
# ---------------------------------------------------------------- Entity (incl. "All natural disasters"), Year, Deaths
OTHERS = "Entity=Drought|Earthquake|Epidemic|Extreme temperature|Extreme weather|Flood|Landslide|Mass movement (dry)|Volcanic activity|Wildfire"
A(D, "en", "deaths from floods each year since 1980", "trend", m="Deaths:sum", t="Year", g="year", f=["Entity=Flood", "Year>=1980"])
A(D, "en", "drought vs epidemic: total deaths", "topn", m="Deaths:sum", by=["Entity"], f=["Entity=Drought|Epidemic"])
A(D, "en", "avg yearly deaths per disaster type (leave out the 'All natural disasters' total)", "topn", m="Deaths:mean", by=["Entity"], f=[OTHERS])
A(D, "en", "total earthquake deaths 2004 vs 2010", "compare_periods", m="Deaths:sum", t="Year", g="year", p=["2004", "2010"], f=["Entity=Earthquake"])
A(D, "en", "extreme weather deaths trend", "trend", m="Deaths:sum", t="Year", g="year", f=["Entity=Extreme weather"])
A(D, "en", "median annual deaths by disaster type", "topn", m="Deaths:median", by=["Entity"])
A(D, "en", "outliers in yearly earthquake deaths", "outliers", m=["Deaths"], f=["Entity=Earthquake"])
P(D, "en", "deaths per million people by year", "no population column")
P(D, "en", "which decade was deadliest for floods", "no decade grain; the data is yearly")
A(D, "zh", "洪水历年死亡人数", "trend", m="Deaths:sum", t="Year", g="year", f=["Entity=Flood"])
A(D, "zh", "一九八〇年以后地震每年死亡人数", "trend", m="Deaths:sum", t="Year", g="year", f=["Entity=Earthquake", "Year>=1980"])
A(D, "zh", "旱灾和洪灾的总死亡人数对比", "topn", m="Deaths:sum", by=["Entity"], f=["Entity=Drought|Flood"])
A(D, "zh", "死亡人数最多的三类灾害（不含所有自然灾害合计）", "topn", m="Deaths:sum", by=["Entity"], n=3, f=[OTHERS])
A(D, "zh", "野火每年死亡人数的分布", "distribution", m=["Deaths"], f=["Entity=Wildfire"])
A(D, "zh", "1930年和1960年所有自然灾害死亡人数比较", "compare_periods", m="Deaths:sum", t="Year", g="year", p=["1930", "1960"], f=["Entity=All natural disasters"])
U(D, "zh", "各灾害的经济损失", "没有经济损失列")
P(D, "zh", "灾害死亡人数的同比增长", "同比增长需要计算，内置分析不算")
P(D, "zh", "2018年洪水死了多少人", "数据只到2017年")

B = "birdstrikes.csv"
# ---------------------------------------------------------------- Airport Name, Aircraft Make Model, Effect Amount of
# damage, Flight Date (1990-2002), Aircraft Airline Operator, Origin State, Phase of flight, Wildlife Size, Wildlife
# Species, Time of day, Cost Other, Cost Repair, Cost Total $, Speed IAS in knots
A(B, "en", "# of strikes per phase of flight", "topn", m=[], by=["Phase of flight"])
A(B, "en", "avg total cost per strike by wildlife size", "topn", m="Cost Total $:mean", by=["Wildlife Size"])
A(B, "en", "strikes per year in California", "trend", m=[], t="Flight Date", g="year", f=["Origin State=California"])
A(B, "en", "which species hit planes most often? top 3", "topn", m=[], by=["Wildlife Species"], n=3)
A(B, "en", "bird strikes by time of day, excluding night", "topn", m=[], by=["Time of day"], f=["Time of day=Dawn|Day|Dusk"])
A(B, "en", "dawn vs dusk strike count", "topn", m=[], by=["Time of day"], f=["Time of day=Dawn|Dusk"])
A(B, "en", "avg speed at impact per phase of flight", "topn", m="Speed IAS in knots:mean", by=["Phase of flight"])
A(B, "en", "monthly strikes in 1999", "trend", m=[], t="Flight Date", g="month", f=["Flight Date@1999"])
A(B, "en", "strikes by damage level", "topn", m=[], by=["Effect Amount of damage"])
A(B, "en", "distribution of repair costs", "distribution", m=["Cost Repair"])
U(B, "en", "strikes by aircraft engine type", "no engine type column")
P(B, "en", "cost per strike in euros", "a currency conversion the data cannot make")
P(B, "en", "percentage of strikes causing damage", "a share, which no built-in computes")
A(B, "zh", "每年鸟击总维修费用", "trend", m="Cost Repair:sum", t="Flight Date", g="year")
A(B, "zh", "德州和加州的鸟击次数", "topn", m=[], by=["Origin State"], f=["Origin State=California|Texas"])
A(B, "zh", "各损伤程度的平均总费用", "topn", m="Cost Total $:mean", by=["Effect Amount of damage"])
A(B, "zh", "按一年中的月份统计鸟击次数", None, m=[], t="Flight Date", g="month_of_year")
A(B, "zh", "空速和总费用有关吗", "correlation", m=["Speed IAS in knots", "Cost Total $"])
A(B, "zh", "夜间鸟击按飞行阶段统计次数", "topn", m=[], by=["Phase of flight"], f=["Time of day=Night"])
U(B, "zh", "各机场跑道长度", "没有跑道长度列")
P(B, "zh", "鸟击造成的航班延误时间", "没有延误列")
P(B, "zh", "每架飞机平均被撞几次", "没有飞机编号列")

M = "macro_cn.csv"
# ---------------------------------------------------------------- 年份, 季度 (1-4), 实际GDP, 实际消费, 实际投资, 实际政府支出,
# 实际可支配收入, 消费价格指数, 货币供应量M1, 国债利率, 失业率, 人口, 通胀率, 实际利率 (quarterly, 1959-2009)
A(M, "zh", "每年平均实际GDP", "trend", m="实际GDP:mean", t="年份", g="year")
A(M, "zh", "历年消费价格指数最高值", "trend", m="消费价格指数:max", t="年份", g="year")
A(M, "zh", "实际投资和实际GDP相关吗", "correlation", m=["实际投资", "实际GDP"])
A(M, "zh", "一九七五年与一九八五年的平均失业率", "compare_periods", m="失业率:mean", t="年份", g="year", p=["1975", "1985"])
A(M, "zh", "通胀率的异常值", "outliers", m=["通胀率"])
A(M, "zh", "实际利率分布", "distribution", m=["实际利率"])
A(M, "zh", "1990年以后每年平均通胀率", "trend", m="通胀率:mean", t="年份", g="year", f=["年份>=1990"])
A(M, "zh", "平均国债利率最高的三年", "topn", m="国债利率:mean", by=["年份"], n=3)
A(M, "zh", "失业率和通胀率每年的平均值", "trend", m=["失业率:mean", "通胀率:mean"], t="年份", g="year")
P(M, "zh", "实际GDP的季度环比增长", "环比增长需要计算，内置分析不算")
P(M, "zh", "2012年平均国债利率", "数据只到2009年")
P(M, "zh", "失业人数每年多少", "只有失业率，没有失业人数")
A(M, "en", "avg unemployment rate per year, 2000 onward", "trend", m="失业率:mean", t="年份", g="year", f=["年份>=2000"])
A(M, "en", "cpi vs m1 correlation", "correlation", m=["消费价格指数", "货币供应量M1"])
U(M, "en", "trade balance by year", "no trade balance column")

G = "grunfeld.csv"
# ---------------------------------------------------------------- firm, year (1935-1954), invest, value, capital
A(G, "en", "GM investment per year", "trend", m="invest:value", t="year", g="year", f=["firm=General Motors"])
A(G, "en", "avg capital by firm, top 3", "topn", m="capital:mean", by=["firm"], n=3)
A(G, "en", "1935 vs 1954 total investment", "compare_periods", m="invest:sum", t="year", g="year", p=["1935", "1954"])
A(G, "en", "firms ranked by mean market value", "topn", m="value:mean", by=["firm"])
A(G, "en", "capital stock distribution", "distribution", m=["capital"])
A(G, "en", "outliers of firm value, per firm", "outliers", m=["value"], by=["firm"])
A(G, "zh", "通用汽车历年投资", "trend", m="invest:value", t="year", g="year", f=["firm=General Motors"])
A(G, "zh", "1950年各公司投资额排名", "topn", m="invest:value", by=["firm"], f=["year@1950"], unchecked=["n"])
A(G, "zh", "西屋和固特异的平均投资", "topn", m="invest:mean", by=["firm"], f=["firm=Goodyear|Westinghouse"])
A(G, "zh", "每年所有公司投资总额", "trend", m="invest:sum", t="year", g="year")
P(G, "zh", "各公司的投资回报率", "回报率需要计算，内置分析不算")
U(G, "zh", "各公司所在城市", "没有城市列")

R = "statecrime.tsv"
# ---------------------------------------------------------------- state, violent, murder, hs_grad, poverty, single,
# white, urban (one row per state)
A(R, "en", "urban % vs violent crime correlation", "correlation", m=["urban", "violent"])
A(R, "en", "murder rate distribution", "distribution", m=["murder"])
A(R, "en", "which states have the highest poverty? top 3", "topn", m="poverty:value", by=["state"], n=3)
A(R, "en", "single parent rate vs poverty, spearman", "correlation", m=["single", "poverty"], method="spearman")
P(R, "en", "average crime rate across states weighted by population", "no population column")
A(R, "zh", "暴力犯罪率最高的五个州", "topn", m="violent:value", by=["state"], n=5)
A(R, "zh", "贫困率和谋杀率的相关性", "correlation", m=["poverty", "murder"])
A(R, "zh", "高中毕业率的分布", "distribution", m=["hs_grad"])
A(R, "zh", "城市化率有异常值吗", "outliers", m=["urban"])
A(R, "zh", "白人比例最低的三个州", "topn", m="white:value", by=["state"], n=3, o="asc")
U(R, "zh", "各州警察人数", "没有警察人数列")
P(R, "zh", "各州犯罪率的变化趋势", "只有一个时点的数据")

GM = "gapminder.json"
# ---------------------------------------------------------------- year (every 5 years, 1955-2005), country, cluster,
# pop, life_expect, fertility
A(GM, "en", "avg life expectancy by cluster", "topn", m="life_expect:mean", by=["cluster"])
A(GM, "en", "China population over the years", "trend", m="pop:value", t="year", g="year", f=["country=China"])
A(GM, "en", "top 5 most populous countries in 2005", "topn", m="pop:value", by=["country"], n=5, f=["year@2005"])
A(GM, "en", "mean fertility in 1955 vs 2005", "compare_periods", m="fertility:mean", t="year", g="year", p=["1955", "2005"])
A(GM, "en", "life exp outliers in 1955", "outliers", m=["life_expect"], f=["year@1955"])
A(GM, "en", "number of countries per cluster in 2000", "topn", m=[], by=["cluster"], f=["year@2000"])
A(GM, "en", "fertility and life expectancy for Japan by year", "trend", m=["fertility:value", "life_expect:value"], t="year", g="year", f=["country=Japan"])
U(GM, "en", "co2 emissions per country", "no emissions column")
P(GM, "en", "countries where life expectancy fell", "a change between years, which no built-in computes")
A(GM, "zh", "中国历年预期寿命", "trend", m="life_expect:value", t="year", g="year", f=["country=China"])
A(GM, "zh", "2005年生育率最低的五个国家", "topn", m="fertility:value", by=["country"], n=5, o="asc", f=["year@2005"])
A(GM, "zh", "各年份总人口", "trend", m="pop:sum", t="year", g="year")
A(GM, "zh", "印度和美国2000年的人口", "topn", m="pop:value", by=["country"], f=["country=India|United States", "year@2000"])
A(GM, "zh", "预期寿命的分布", "distribution", m=["life_expect"])
A(GM, "zh", "一九六〇年和二〇〇〇年的平均预期寿命", "compare_periods", m="life_expect:mean", t="year", g="year", p=["1960", "2000"])
U(GM, "zh", "各国识字率", "没有识字率列")
P(GM, "zh", "各国预期寿命的增长速度", "增长速度需要计算，内置分析不算")

I = "iowa-electricity.csv"
# ---------------------------------------------------------------- year (a date, 2001-2017), source, net_generation
A(I, "en", "avg annual generation per source", "topn", m="net_generation:mean", by=["source"])
A(I, "en", "renewables generation by yr", "trend", m="net_generation:sum", t="year", g="year", f=["source=Renewables"])
A(I, "en", "fossil vs nuclear total generation", "topn", m="net_generation:sum", by=["source"], f=["source=Fossil Fuels|Nuclear Energy"])
A(I, "en", "net generation distribution", "distribution", m=["net_generation"])
A(I, "en", "2008 vs 2016 total generation", "compare_periods", m="net_generation:sum", t="year", g="year", p=["2008", "2016"])
P(I, "en", "carbon emissions from iowa power plants", "no emissions column")
P(I, "en", "generation cost per MWh", "no cost column")
A(I, "zh", "各能源发电总量排名", "topn", m="net_generation:sum", by=["source"])
A(I, "zh", "二〇一〇年各能源的发电量", "topn", m="net_generation:sum", by=["source"], f=["year@2010"])
A(I, "zh", "除化石燃料外每年的发电量合计", "trend", m="net_generation:sum", t="year", g="year", f=["source=Nuclear Energy|Renewables"])
P(I, "zh", "风电和太阳能各发了多少电", "可再生能源没有细分风电和太阳能")
U(I, "zh", "各电厂发电量", "没有电厂列")

UN = "unemployment-across-industries.json"
# ---------------------------------------------------------------- series, year, month, count, rate, date (monthly
# 2000-2010)
A(UN, "en", "avg unemployment rate by industry in 2008, top 3", "topn", m="rate:mean", by=["series"], n=3, f=["year=2008"], unchecked=["filters"])
A(UN, "en", "monthly unemployment rate for construction in 2009", "trend", m="rate:value", t="date", g="month", f=["series=Construction", "year=2009"], unchecked=["filters", "time"])
A(UN, "en", "which calendar month has the highest avg unemployment rate across industries", None, m="rate:mean", t="date", g="month_of_year", unchecked=["time"])
A(UN, "en", "avg unemployed count per industry", "topn", m="count:mean", by=["series"])
A(UN, "en", "rate vs count correlation in manufacturing", "correlation", m=["rate", "count"], f=["series=Manufacturing"])
A(UN, "en", "yearly avg rate: finance vs information", "trend", m="rate:mean", by=["series"], t="date", g="year", f=["series=Finance|Information"], unchecked=["time"])
P(UN, "en", "total unemployment rate summed across industries", "a rate: summing it over industries means nothing")
A(UN, "zh", "建筑业历年平均失业率", "trend", m="rate:mean", t="date", g="year", f=["series=Construction"], unchecked=["time"])
A(UN, "zh", "各行业平均失业率排名", "topn", m="rate:mean", by=["series"], unchecked=["n"])
A(UN, "zh", "政府部门失业人数的月度走势", "trend", m="count:value", t="date", g="month", f=["series=Government"], unchecked=["time"])
A(UN, "zh", "2001年和2009年平均失业率对比", "compare_periods", m="rate:mean", t="date", g="year", p=["2001", "2009"], unchecked=["time"])
A(UN, "zh", "失业率的异常值，按行业", "outliers", m=["rate"], by=["series"])
P(UN, "zh", "各行业失业率同比变化", "同比变化需要计算，内置分析不算")

PG = "penguins.json"
# ---------------------------------------------------------------- Species, Island, Beak Length (mm), Beak Depth (mm),
# Flipper Length (mm), Body Mass (g), Sex
A(PG, "en", "mean flipper length by island", "topn", m="Flipper Length (mm):mean", by=["Island"])
A(PG, "en", "avg bill length per species", "topn", m="Beak Length (mm):mean", by=["Species"])
A(PG, "en", "how many male vs female penguins", "topn", m=[], by=["Sex"], f=["Sex=FEMALE|MALE"])
A(PG, "en", "body mass distribution for adelie", "distribution", m=["Body Mass (g)"], f=["Species=Adelie"])
A(PG, "en", "beak depth vs beak length correlation", "correlation", m=["Beak Depth (mm)", "Beak Length (mm)"])
A(PG, "en", "heaviest species on avg", "topn", m="Body Mass (g):mean", by=["Species"], n=1)
A(PG, "en", "body mass outliers per species", "outliers", m=["Body Mass (g)"], by=["Species"])
A(PG, "en", "penguins per species on Dream island", "topn", m=[], by=["Species"], f=["Island=Dream"])
U(PG, "en", "penguin weight by age", "no age column")
P(PG, "en", "ratio of males to females per island", "a ratio, which no built-in computes")
A(PG, "zh", "各物种的平均鳍长", "topn", m="Flipper Length (mm):mean", by=["Species"])
A(PG, "zh", "各个岛上分别有多少只企鹅", "topn", m=[], by=["Island"])
A(PG, "zh", "巴布亚企鹅的体重分布", "distribution", m=["Body Mass (g)"], f=["Species=Gentoo"])
A(PG, "zh", "阿德利企鹅在各岛屿的平均体重", "topn", m="Body Mass (g):mean", by=["Island"], f=["Species=Adelie"])
A(PG, "zh", "雌性企鹅各物种平均体重", "topn", m="Body Mass (g):mean", by=["Species"], f=["Sex=FEMALE"])
U(PG, "zh", "企鹅的游泳速度", "没有游泳速度列")
P(PG, "zh", "各物种雌雄比例", "比例需要计算，内置分析不算")

CO = "co2-concentration.csv"
# ---------------------------------------------------------------- Date (monthly, 1958-2020), CO2, adjusted CO2
A(CO, "en", "yearly max co2 since 2000", "trend", m="CO2:max", t="Date", g="year", f=["Date>=2000-01-01"], unchecked=["filters"])
A(CO, "en", "seasonally adjusted co2, annual avg", "trend", m="adjusted CO2:mean", t="Date", g="year")
A(CO, "en", "co2 monthly values in 2019", "trend", m="CO2:value", t="Date", g="month", f=["Date@2019"])
A(CO, "en", "co2 distribution", "distribution", m=["CO2"])
A(CO, "en", "1970 vs 2010 adjusted co2", "compare_periods", m="adjusted CO2:mean", t="Date", g="year", p=["1970", "2010"])
P(CO, "en", "avg co2 per decade", "no decade grain")
P(CO, "en", "co2 growth per year", "a growth, which no built-in computes")
A(CO, "zh", "每年二氧化碳浓度最高值", "trend", m="CO2:max", t="Date", g="year")
A(CO, "zh", "一年中各月份平均二氧化碳浓度", None, m="CO2:mean", t="Date", g="month_of_year")
A(CO, "zh", "季节调整后的二氧化碳年均值", "trend", m="adjusted CO2:mean", t="Date", g="year")
A(CO, "zh", "2000年和2020年平均二氧化碳浓度比较", "compare_periods", m="CO2:mean", t="Date", g="year", p=["2000", "2020"])
P(CO, "zh", "二氧化碳浓度什么时候会到500", "预测，内置分析不做")
U(CO, "zh", "甲烷浓度每年平均", "没有甲烷列")

F = "flights-2k.json"
# ---------------------------------------------------------------- date (Jan-Mar 2001, with time), delay, distance,
# origin, destination
A(F, "en", "flights per day of week", None, m=[], t="date", g="weekday")
A(F, "en", "avg delay for flights out of LAX by month", "trend", m="delay:mean", t="date", g="month", f=["origin=LAX"])
A(F, "en", "any outliers in delay?", "outliers", m=["delay"])
A(F, "en", "weekly flight count", "trend", m=[], t="date", g="week")
A(F, "en", "avg distance by hour of day", None, m="distance:mean", t="date", g="hour_of_day")
A(F, "en", "max delay per origin, top 5", "topn", m="delay:max", by=["origin"], n=5)
U(F, "en", "delay by aircraft type", "no aircraft column")
P(F, "en", "percentage of flights delayed over 15 min", "a share, which no built-in computes")
P(F, "en", "flights on june 1st 2001", "the data covers January to March 2001")
A(F, "zh", "一天中各小时的平均延误", None, m="delay:mean", t="date", g="hour_of_day")
A(F, "zh", "每周平均延误时间", "trend", m="delay:mean", t="date", g="week")
A(F, "zh", "延误的分布情况", "distribution", m=["delay"])
A(F, "zh", "延误和飞行距离相关吗", "correlation", m=["delay", "distance"])
A(F, "zh", "每月航班数", "trend", m=[], t="date", g="month")
P(F, "zh", "各航空公司准点率", "没有航空公司列，准点率也需要计算")
U(F, "zh", "航班的乘客数量", "没有乘客列")

E = "us-employment.csv"
# ---------------------------------------------------------------- month (2006-2015), nonfarm, ... (employment levels,
# thousands), nonfarm_change (the monthly change)
A(E, "en", "avg construction employment per year", "trend", m="construction:mean", t="month", g="year")
A(E, "en", "avg mfg jobs by quarter", "trend", m="manufacturing:mean", t="month", g="quarter")
A(E, "en", "yearly total of nonfarm_change", "trend", m="nonfarm_change:sum", t="month", g="year")
A(E, "en", "monthly nonfarm change in 2009", "trend", m="nonfarm_change:value", t="month", g="month", f=["month@2009"])
A(E, "en", "leisure and hospitality employment, 2008 vs 2012 avg", "compare_periods", m="leisure_and_hospitality:mean", t="month", g="year", p=["2008", "2012"])
A(E, "en", "outliers in monthly job changes", "outliers", m=["nonfarm_change"])
P(E, "en", "share of government jobs in nonfarm", "a share, which no built-in computes")
A(E, "zh", "每年平均建筑业就业人数", "trend", m="construction:mean", t="month", g="year")
A(E, "zh", "非农就业每月变化的分布", "distribution", m=["nonfarm_change"])
A(E, "zh", "政府和私营部门就业的相关性", "correlation", m=["government", "private"])
A(E, "zh", "2010年每月的制造业就业", "trend", m="manufacturing:value", t="month", g="month", f=["month@2010"])
A(E, "zh", "零售业年均就业", "trend", m="retail_trade:mean", t="month", g="year")
P(E, "zh", "各行业工资增长", "没有工资列")

PC = "population_cn.csv"
# ---------------------------------------------------------------- 年份 (census years 1850-2000, no 1890), 年龄组, 性别
# (男, 女), 人数
A(PC, "zh", "历次普查男性人口", "trend", m="人数:sum", t="年份", g="year", f=["性别=男"])
A(PC, "zh", "1950年各年龄组男性人数", "topn", m="人数:sum", by=["年龄组"], f=["性别=男", "年份@1950"], unchecked=["n", "analysis"])
A(PC, "zh", "2000年男女人数对比", "topn", m="人数:sum", by=["性别"], f=["年份@2000"])
A(PC, "zh", "1900年和2000年总人口", "compare_periods", m="人数:sum", t="年份", g="year", p=["1900", "2000"])
A(PC, "zh", "九十岁及以上人口每次普查多少", "trend", m="人数:sum", t="年份", g="year", f=["年龄组=90"])
A(PC, "zh", "1980年人数最多的五个年龄组", "topn", m="人数:sum", by=["年龄组"], n=5, f=["年份@1980"])
P(PC, "zh", "人口平均年龄", "平均年龄需要按人数加权，内置分析不算")
P(PC, "zh", "1890年的人口", "1890年没有普查数据")
A(PC, "en", "female population per census year", "trend", m="人数:sum", t="年份", g="year", f=["性别=女"])
A(PC, "en", "population by age group in 1990, top 5", "topn", m="人数:sum", by=["年龄组"], n=5, f=["年份@1990"])
P(PC, "en", "population growth between censuses", "a growth, which no built-in computes")

X = "cars.xlsx"
# ---------------------------------------------------------------- sheets USA, Europe, Japan: Name, Miles_per_Gallon,
# Cylinders, Displacement, Horsepower, Weight_in_lbs, Acceleration, Year (integer)
A(X, "en", "Japan sheet: avg mpg by cylinders", "topn", m="Miles_per_Gallon:mean", by=["Cylinders"], sheet="Japan")
A(X, "en", "usa sheet avg horsepower per year", "trend", m="Horsepower:mean", t="Year", g="year", sheet="USA")
A(X, "en", "count of cars on every sheet", None, m=[], by=["sheet"], sheet="*")
P(X, "en", "avg mpg on the Korea tab", "no Korea sheet")
A(X, "zh", "USA表里各气缸数的平均马力", "topn", m="Horsepower:mean", by=["Cylinders"], sheet="USA")
A(X, "zh", "所有工作表合起来，每张表的平均每加仑英里数", None, m="Miles_per_Gallon:mean", by=["sheet"], sheet="*")
A(X, "zh", "Europe表中重量的分布", "distribution", m=["Weight_in_lbs"], sheet="Europe")
P(X, "zh", "Germany表的车辆数", "没有Germany工作表")

# ---------------------------------------------------------------- more questions to refuse, one or two per table
P(W, "en", "yearly rainfall in inches", "the data is in millimetres; a unit conversion no built-in makes")
P(C, "en", "avg mpg of toyotas vs hondas", "the make is only inside the car name; there is no make column")
U(S, "en", "avg trading volume of ibm per year", "no volume column")
P(B, "en", "total cost of strikes in 2005", "the data ends in 2002")
P(GM, "en", "average life expectancy in Africa", "no continent column; the clusters are unnamed numbers")
P(F, "en", "avg delay for flights to Boston in april", "the data covers January to March 2001")
P(I, "zh", "2000年的发电量", "数据从2001年开始")
P(PG, "zh", "2008年各物种的企鹅数量", "没有年份列")
P(CO, "zh", "二氧化碳浓度每十年的平均值", "没有十年这一粒度")
P(R, "en", "compare murder rate in 2010 vs 2015", "the data is one point in time, with no year")
P(UN, "en", "unemployment rate in march 2011", "the data ends in 2010")
P(G, "zh", "通用汽车和IBM的投资哪个增长更快", "增长速度需要计算，内置分析不算")
P(M, "en", "real gdp growth rate by year", "a growth rate, which no built-in computes")
