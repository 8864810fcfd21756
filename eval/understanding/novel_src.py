"""The novel set of the understanding evaluation: gen.py turns it into testdata/novel.jsonl.

Written on 3 December 2026 (issue 35) by a helper who had read only this harness (srcformat.py, gen.py,
tables.py, compare.go, the head of blind_src.py for its format) and the shipped tables, not the parser
(tools/templates) nor the questions of the other sets. It asks as analysts ask: terse and chatty, typos and
abbreviations, units in the question, "by"/"per"/"for each", calendar parts (month of the year, weekday, hour),
year and category filters, top-N, two periods compared, distributions, correlations, outliers; in Chinese
按…看, 各…, 每…, 历年, 前N, 对比. About a third the data cannot answer or answers only in part: a measure it lacks,
a grain finer than the data (hours of daily data, days of monthly data), a ratio or share needing a computation
or a column it lacks, a growth rate or forecast, a year or sheet it does not have, an ambiguous "best" or
"average temperature", a level or stock summed over periods. Its first figures, taken before anyone read its
answers, are the honest figures for questions nobody here has seen (docs/understanding-eval.md). Thirty-three
questions of its first draft turned out to be, word for word, questions of other sets (TestNovelSetIsNew) and were
dropped, not reworded.

The format is blind_src.py's: A answerable with its expected reading, U the data cannot answer, P it answers only
in part; a measure "col:value" is a column observed once per period or group, whose aggregation is left open.
"""

from srcformat import builders  # noqa: E402

NOVEL = []
A, U, P = builders(NOVEL)


W = "seattle-weather.csv"
# ---------------------------------------------------------------- date, precipitation, temp_max, temp_min, wind, weather
A(W, "en", "total precip per yr (mm)", "trend", m="precipitation:sum", t="date", g="year")
A(W, "en", "avg daily precipitation by calendar month", None, m="precipitation:mean", t="date", g="month_of_year")
A(W, "en", "max wind recorded each year", "trend", m="wind:max", t="date", g="year")
A(W, "en", "how many snow days per year?", "trend", m=[], t="date", g="year", f=["weather=snow"])
A(W, "en", "corr between wind and precipitation", "correlation", m=["wind", "precipitation"])
A(W, "en", "distribution of daily highs", "distribution", m=["temp_max"])
A(W, "en", "avg high by weather type, 2014 only", "topn", m="temp_max:mean", by=["weather"], f=["date@2014"])
A(W, "en", "median precipitation for each weather type", "topn", m="precipitation:median", by=["weather"])
A(W, "en", "quarterly mean of the daily low temps", "trend", m="temp_min:mean", t="date", g="quarter")
A(W, "en", "compare total rainfall 2012 vs 2015", "compare_periods", m="precipitation:sum", t="date", g="year",
  p=["2012", "2015"])
U(W, "en", "avg UV index per month", "no UV index column")
P(W, "en", "what's the average temperature each year", "ambiguous: the data has a daily high and a daily low, no mean")
P(W, "en", "hourly rain totals for 2013", "the data is daily; it has no hours")
P(W, "en", "chance of rain in May", "a probability (share of rainy days) that no built-in computes")
U(W, "en", "which weather station recorded the most rain", "no station column")
A(W, "zh", "每年的总降水量是多少", "trend", m="precipitation:sum", t="date", g="year")
A(W, "zh", "按月份（1-12月，不分年）统计平均最低气温", None, m="temp_min:mean", t="date", g="month_of_year")
A(W, "zh", "按星期几看平均风速", None, m="wind:mean", t="date", g="weekday")
A(W, "zh", "2013年各天气类型出现的天数", "topn", m=[], by=["weather"], f=["date@2013"])
A(W, "zh", "降水量的分布情况", "distribution", m=["precipitation"])
A(W, "zh", "按天气类型看风速的异常值", "outliers", m=["wind"], by=["weather"])
A(W, "zh", "2012年和2014年平均最高气温对比", "compare_periods", m="temp_max:mean", t="date", g="year",
  p=["2012", "2014"])
A(W, "zh", "每季度平均最高气温", "trend", m="temp_max:mean", t="date", g="quarter")
A(W, "zh", "平均风速最大的三种天气", "topn", m="wind:mean", by=["weather"], n=3)
U(W, "zh", "每个月的平均气压", "没有气压列")
P(W, "zh", "每年的平均气温", "有歧义：数据只有最高和最低气温")
U(W, "zh", "哪个城市降雨最多", "没有城市列")
P(W, "zh", "每小时的风速变化", "数据是按天的，没有小时")

C = "cars.json"
# ---------------------------------------------------------------- Name, Miles_per_Gallon, Cylinders, Displacement,
# Horsepower, Weight_in_lbs, Acceleration, Year (model year as a date), Origin
A(C, "en", "mean mpg per origin", "topn", m="Miles_per_Gallon:mean", by=["Origin"])
A(C, "en", "how many cars by number of cylinders", "topn", m=[], by=["Cylinders"])
A(C, "en", "which origin has the lowest avg weight", "topn", m="Weight_in_lbs:mean", by=["Origin"], n=1, o="asc")
A(C, "en", "avg hp by model year", "trend", m="Horsepower:mean", t="Year", g="year")
A(C, "en", "spread of acceleration times", "distribution", m=["Acceleration"])
A(C, "en", "Japanese cars only: avg mpg per year", "trend", m="Miles_per_Gallon:mean", t="Year", g="year",
  f=["Origin=Japan"])
A(C, "en", "count of 4-cyl cars by origin", "topn", m=[], by=["Origin"], f=["Cylinders=4"])
A(C, "en", "median displacement for each cyl count", "topn", m="Displacement:median", by=["Cylinders"])
U(C, "en", "avg price by origin", "no price column")
U(C, "en", "fuel tank size distribution", "no tank size column")
P(C, "en", "power-to-weight ratio by origin", "a ratio of two columns, which no built-in computes")
P(C, "en", "best car in the dataset", "ambiguous: best by which measure")
P(C, "en", "avg mpg by month", "the data has only the model year, no month")
A(C, "zh", "按气缸数统计车辆数量", "topn", m=[], by=["Cylinders"])
A(C, "zh", "每年车型的平均重量", "trend", m="Weight_in_lbs:mean", t="Year", g="year")
A(C, "zh", "美国产汽车每年的平均每加仑英里数", "trend", m="Miles_per_Gallon:mean", t="Year", g="year", f=["Origin=USA"])
A(C, "zh", "马力和加速时间的相关性", "correlation", m=["Horsepower", "Acceleration"])
A(C, "zh", "排量分布", "distribution", m=["Displacement"])
A(C, "zh", "欧洲车按气缸数的平均马力", "topn", m="Horsepower:mean", by=["Cylinders"], f=["Origin=Europe"])
A(C, "zh", "1980年各产地的平均每加仑英里数", "topn", m="Miles_per_Gallon:mean", by=["Origin"], f=["Year@1980"])
A(C, "zh", "按产地分，重量有没有异常值", "outliers", m=["Weight_in_lbs"], by=["Origin"])
U(C, "zh", "各品牌的平均售价", "没有价格列")
P(C, "zh", "每升油跑多少公里，平均值", "需要换算单位，内置分析不做换算")
P(C, "zh", "最好的车是哪款", "有歧义：按什么衡量最好")
U(C, "zh", "各车型的二氧化碳排放量", "没有排放列")

S = "stocks.csv"
# ---------------------------------------------------------------- symbol, date (monthly, Jan 2000 - Mar 2010), price
A(S, "en", "AAPL monthly price 2008", "trend", m="price:value", t="date", g="month", f=["symbol=AAPL", "date@2008"])
A(S, "en", "yearly max price of MSFT", "trend", m="price:max", t="date", g="year", f=["symbol=MSFT"])
A(S, "en", "which stock had the highest average price in 2005", "topn", m="price:mean", by=["symbol"], n=1,
  f=["date@2005"])
A(S, "en", "IBM avg price by quarter", "trend", m="price:mean", t="date", g="quarter", f=["symbol=IBM"])
A(S, "en", "price distribution for GOOG", "distribution", m=["price"], f=["symbol=GOOG"])
A(S, "en", "compare AMZN's average price 2003 vs 2009", "compare_periods", m="price:mean", t="date", g="year",
  p=["2003", "2009"], f=["symbol=AMZN"])
A(S, "en", "any unusual prices for each ticker?", "outliers", m=["price"], by=["symbol"])
A(S, "en", "lowest avg price among the stocks", "topn", m="price:mean", by=["symbol"], n=1, o="asc")
U(S, "en", "trading volume by symbol", "no volume column")
P(S, "en", "monthly return of AAPL", "a return (change between months) that no built-in computes")
P(S, "en", "daily closing price of IBM in 2004", "the data is monthly; it has no days")
P(S, "en", "correlation between AAPL and MSFT prices", "needs the two symbols' prices side by side per date")
U(S, "en", "P/E ratio for each stock", "no earnings column")
A(S, "zh", "谷歌每年的平均股价", "trend", m="price:mean", t="date", g="year", f=["symbol=GOOG"])
A(S, "zh", "2007年各只股票平均价格排名", "topn", m="price:mean", by=["symbol"], f=["date@2007"])
A(S, "zh", "微软2001年每月股价", "trend", m="price:value", t="date", g="month", f=["symbol=MSFT", "date@2001"])
A(S, "zh", "按季度看AMZN的平均价格", "trend", m="price:mean", t="date", g="quarter", f=["symbol=AMZN"])
A(S, "zh", "比较2004年和2006年苹果公司的平均股价", "compare_periods", m="price:mean", t="date", g="year",
  p=["2004", "2006"], f=["symbol=AAPL"])
P(S, "zh", "苹果股票的年化收益率", "收益率需要计算变化率，内置分析不算")
P(S, "zh", "每天的股价", "数据是按月的，没有每天")
U(S, "zh", "各股票所属行业的平均价格", "没有行业列")

D = "disasters.csv"
# ---------------------------------------------------------------- Entity (incl. "All natural disasters"), Year, Deaths
A(D, "en", "deaths from floods each year since 1950", "trend", m="Deaths:sum", t="Year", g="year",
  f=["Entity=Flood", "Year>=1950"])
A(D, "en", "drought vs earthquake: total deaths", "topn", m="Deaths:sum", by=["Entity"],
  f=["Entity=Drought|Earthquake"])
A(D, "en", "distribution of yearly earthquake deaths", "distribution", m=["Deaths"], f=["Entity=Earthquake"])
A(D, "en", "yearly deaths from extreme temperature", "trend", m="Deaths:sum", t="Year", g="year",
  f=["Entity=Extreme temperature"])
A(D, "en", "outlier years for drought deaths", "outliers", m=["Deaths"], f=["Entity=Drought"])
A(D, "en", "Earthquake deaths 2004 vs 2010", "compare_periods", m="Deaths:sum", t="Year", g="year",
  p=["2004", "2010"], f=["Entity=Earthquake"])
A(D, "en", "how many years of data for each disaster type, top 3", "topn", m=[], by=["Entity"], n=3)
U(D, "en", "deaths by country", "no country column")
P(D, "en", "average deaths per disaster event", "no count of events")
U(D, "en", "injuries from floods per year", "no injuries column")
A(D, "zh", "每年地震死亡人数", "trend", m="Deaths:sum", t="Year", g="year", f=["Entity=Earthquake"])
A(D, "zh", "1980年起每年干旱死亡人数", "trend", m="Deaths:sum", t="Year", g="year", f=["Entity=Drought", "Year>=1980"])
A(D, "zh", "平均每年死亡人数排名前5的灾害类型", "topn", m="Deaths:mean", by=["Entity"], n=5)
A(D, "zh", "火山和野火的死亡人数对比", "topn", m="Deaths:sum", by=["Entity"], f=["Entity=Volcanic activity|Wildfire"])
A(D, "zh", "洪水死亡人数的分布", "distribution", m=["Deaths"], f=["Entity=Flood"])
U(D, "zh", "各省的灾害死亡人数", "没有省份列")
P(D, "zh", "每场地震平均死亡多少人", "没有地震次数")
P(D, "zh", "2020年的灾害死亡人数", "数据只到2017年")

B = "birdstrikes.csv"
# ---------------------------------------------------------------- Airport Name, Aircraft Make Model, Effect Amount of
# damage, Flight Date, Aircraft Airline Operator, Origin State, Phase of flight, Wildlife Size, Wildlife Species,
# Time of day, Cost Other, Cost Repair, Cost Total $, Speed IAS in knots
A(B, "en", "strikes per year", "trend", m=[], t="Flight Date", g="year")
A(B, "en", "top 5 airports by number of bird strikes", "topn", m=[], by=["Airport Name"], n=5)
A(B, "en", "total repair cost by phase of flight", "topn", m="Cost Repair:sum", by=["Phase of flight"])
A(B, "en", "avg speed (knots) per wildlife size", "topn", m="Speed IAS in knots:mean", by=["Wildlife Size"])
A(B, "en", "strikes by time of day", "topn", m=[], by=["Time of day"])
A(B, "en", "which state has the most strikes at night", "topn", m=[], by=["Origin State"], f=["Time of day=Night"], n=1)
A(B, "en", "total cost by month of the year", None, m="Cost Total $:sum", t="Flight Date", g="month_of_year")
A(B, "en", "strikes per weekday", None, m=[], t="Flight Date", g="weekday")
A(B, "en", "distribution of impact speed in knots", "distribution", m=["Speed IAS in knots"])
A(B, "en", "how many different species were hit in each phase of flight", "topn", m="Wildlife Species:count_distinct",
  by=["Phase of flight"])
U(B, "en", "number of passengers injured by airport", "no injuries column")
P(B, "en", "bird strikes per 1000 flights by airport", "a rate that needs the number of flights, which the data lacks")
P(B, "en", "most dangerous airport", "ambiguous: dangerous by strikes, damage or cost")
P(B, "en", "strikes per hour of the day", "the data has only a time of day (dawn, day, dusk, night), no hour")
A(B, "zh", "每年鸟击次数", "trend", m=[], t="Flight Date", g="year")
A(B, "zh", "各飞行阶段的鸟击数量", "topn", m=[], by=["Phase of flight"])
A(B, "zh", "维修费用最高的5家航空公司", "topn", m="Cost Repair:sum", by=["Aircraft Airline Operator"], n=5)
A(B, "zh", "按野生动物体型统计平均总费用", "topn", m="Cost Total $:mean", by=["Wildlife Size"])
A(B, "zh", "加州每年的鸟击次数", "trend", m=[], t="Flight Date", g="year", f=["Origin State=California"])
A(B, "zh", "夜间鸟击最多的三个机场", "topn", m=[], by=["Airport Name"], f=["Time of day=Night"], n=3)
A(B, "zh", "按月份(1-12)统计鸟击次数", None, m=[], t="Flight Date", g="month_of_year")
A(B, "zh", "空速的异常值", "outliers", m=["Speed IAS in knots"])
U(B, "zh", "每起事故的伤亡人数", "没有伤亡列")
P(B, "zh", "哪个机场最危险", "有歧义：按次数、损坏还是费用")
P(B, "zh", "每千架次航班的鸟击率", "需要航班架次，数据没有")

M = "macro_cn.csv"
# ---------------------------------------------------------------- 年份, 季度 (1-4), 实际GDP, 实际消费, 实际投资, 实际政府支出,
# 实际可支配收入, 消费价格指数, 货币供应量M1, 国债利率, 失业率, 人口, 通胀率, 实际利率 (quarterly, 1959-2009)
A(M, "en", "average unemployment rate per year", "trend", m="失业率:mean", t="年份", g="year")
A(M, "en", "correlation between inflation and unemployment", "correlation", m=["通胀率", "失业率"])
A(M, "en", "distribution of the T-bill rate", "distribution", m=["国债利率"])
U(M, "en", "GDP by state", "no state column")
P(M, "en", "real GDP growth yoy", "a growth rate that no built-in computes")
A(M, "zh", "1990年起每年平均通胀率", "trend", m="通胀率:mean", t="年份", g="year", f=["年份>=1990"])
A(M, "zh", "各季度（第1到第4季度）的平均失业率", "topn", m="失业率:mean", by=["季度"])
A(M, "zh", "实际GDP与实际消费的相关性", "correlation", m=["实际GDP", "实际消费"])
A(M, "zh", "通胀率分布", "distribution", m=["通胀率"])
A(M, "zh", "国债利率的异常值", "outliers", m=["国债利率"])
A(M, "zh", "比较1970年和2000年的平均国债利率", "compare_periods", m="国债利率:mean", t="年份", g="year",
  p=["1970", "2000"])
A(M, "zh", "历年实际投资的年平均值", "trend", m="实际投资:mean", t="年份", g="year")
U(M, "zh", "每年的出口总额", "没有出口列")
P(M, "zh", "GDP增长率", "增长率需要计算，内置分析不算")
P(M, "zh", "每月的失业率", "数据是按季度的，没有月份")
U(M, "zh", "各省GDP", "没有省份列")
P(M, "zh", "人均实际GDP每年的平均值", "需要实际GDP除以人口，内置分析不算比率")

G = "grunfeld.csv"
# ---------------------------------------------------------------- firm, year (1935-1954), invest, value, capital
A(G, "en", "total investment per year across firms", "trend", m="invest:sum", t="year", g="year")
A(G, "en", "GE's capital stock over the years", "trend", m="capital:value", t="year", g="year",
  f=["firm=General Electric"])
A(G, "en", "top 3 firms by mean market value", "topn", m="value:mean", by=["firm"], n=3)
A(G, "en", "correlation of invest with capital", "correlation", m=["invest", "capital"])
A(G, "en", "invest distribution for US Steel", "distribution", m=["invest"], f=["firm=US Steel"])
A(G, "en", "avg invest per firm since 1950", "topn", m="invest:mean", by=["firm"], f=["year>=1950"])
A(G, "en", "compare total investment 1940 vs 1950", "compare_periods", m="invest:sum", t="year", g="year",
  p=["1940", "1950"])
A(G, "en", "firm value outliers, per firm", "outliers", m=["value"], by=["firm"])
U(G, "en", "employees per firm", "no employees column")
P(G, "en", "return on capital by firm", "a ratio the data has no profit for")
P(G, "en", "investment growth rate of IBM", "a growth rate that no built-in computes")
A(G, "zh", "每家公司的平均投资额", "topn", m="invest:mean", by=["firm"])
A(G, "zh", "通用汽车每年的投资", "trend", m="invest:value", t="year", g="year", f=["firm=General Motors"])
A(G, "zh", "1945年各公司市值排名", "topn", m="value:value", by=["firm"], f=["year@1945"])
A(G, "zh", "资本存量和市值的相关系数", "correlation", m=["capital", "value"])
A(G, "zh", "各公司投资的异常值", "outliers", m=["invest"], by=["firm"])
A(G, "zh", "比较1935年和1954年的总资本", "compare_periods", m="capital:sum", t="year", g="year", p=["1935", "1954"])
P(G, "zh", "资本回报率", "需要利润，数据没有")
P(G, "zh", "1960年的投资", "数据只到1954年")

R = "statecrime.tsv"
# ---------------------------------------------------------------- state, violent, murder, hs_grad, poverty, single,
# white, urban (one row per state)
A(R, "en", "10 states with the highest violent crime rate", "topn", m="violent:value", by=["state"], n=10)
A(R, "en", "lowest 5 states by high school graduation", "topn", m="hs_grad:value", by=["state"], n=5, o="asc")
A(R, "en", "poverty vs murder correlation", "correlation", m=["poverty", "murder"])
A(R, "en", "distribution of urbanization across states", "distribution", m=["urban"])
A(R, "en", "outlier states by violent crime", "outliers", m=["violent"])
A(R, "en", "spearman correlation between single and violent", "correlation", m=["single", "violent"],
  method="spearman")
A(R, "en", "give me a quick overview of the columns and missing values", "profile", m=[])
P(R, "en", "crime rate by county", "the data is per state; it has no counties")
U(R, "en", "property crime by state", "no property crime column")
U(R, "en", "violent crime per 100k by region", "no region column")
P(R, "en", "safest state", "ambiguous: by violent crime or murder")
A(R, "zh", "谋杀率最高的5个州", "topn", m="murder:value", by=["state"], n=5)
A(R, "zh", "贫困率和高中毕业率的相关性", "correlation", m=["poverty", "hs_grad"])
A(R, "zh", "白人比例最低的3个州", "topn", m="white:value", by=["state"], n=3, o="asc")
P(R, "zh", "各州的犯罪总数", "数据只有比率，没有人口，算不出总数")
P(R, "zh", "哪个州治安最好", "有歧义：按暴力犯罪还是谋杀率")

GM = "gapminder.json"
# ---------------------------------------------------------------- year (every 5 years, 1955-2005), country, cluster,
# pop, life_expect, fertility
A(GM, "en", "avg life expectancy by year", "trend", m="life_expect:mean", t="year", g="year")
A(GM, "en", "sum of population over countries per year", "trend", m="pop:sum", t="year", g="year")
A(GM, "en", "top 5 countries by population in 2005", "topn", m="pop:value", by=["country"], n=5, f=["year@2005"])
A(GM, "en", "bottom 3 countries for life expectancy in 1955", "topn", m="life_expect:value", by=["country"], n=3,
  o="asc", f=["year@1955"])
A(GM, "en", "fertility vs life expectancy correlation", "correlation", m=["fertility", "life_expect"])
A(GM, "en", "China's fertility over time", "trend", m="fertility:value", t="year", g="year", f=["country=China"])
A(GM, "en", "avg fertility per cluster", "topn", m="fertility:mean", by=["cluster"])
A(GM, "en", "distribution of fertility rates in 2000", "distribution", m=["fertility"], f=["year@2000"])
A(GM, "en", "compare mean life expectancy 1960 vs 2000", "compare_periods", m="life_expect:mean", t="year", g="year",
  p=["1960", "2000"])
P(GM, "en", "population growth rate of India", "a growth rate that no built-in computes")
U(GM, "en", "life expectancy by continent", "no continent column")
P(GM, "en", "population of each country in 2003", "the data has every fifth year; there is no 2003")
A(GM, "zh", "日本的预期寿命变化", "trend", m="life_expect:value", t="year", g="year", f=["country=Japan"])
A(GM, "zh", "各聚类的平均预期寿命", "topn", m="life_expect:mean", by=["cluster"])
A(GM, "zh", "预期寿命和人口的相关性", "correlation", m=["life_expect", "pop"])
A(GM, "zh", "预期寿命的异常值", "outliers", m=["life_expect"])
A(GM, "zh", "比较1970年和2005年的总人口", "compare_periods", m="pop:sum", t="year", g="year", p=["1970", "2005"])
U(GM, "zh", "各国的GDP", "没有GDP列")
P(GM, "zh", "每年的人口增长率", "增长率需要计算，内置分析不算")
P(GM, "zh", "中国1963年的人口", "数据每五年一次，没有1963年")

I = "iowa-electricity.csv"
# ---------------------------------------------------------------- year (a date, 2001-2017), source, net_generation
A(I, "en", "net generation per source", "topn", m="net_generation:sum", by=["source"])
A(I, "en", "renewables output by year", "trend", m="net_generation:value", t="year", g="year",
  f=["source=Renewables"])
A(I, "en", "total generation each year", "trend", m="net_generation:sum", t="year", g="year")
A(I, "en", "compare total generation 2001 vs 2017", "compare_periods", m="net_generation:sum", t="year", g="year",
  p=["2001", "2017"])
A(I, "en", "nuclear generation distribution", "distribution", m=["net_generation"], f=["source=Nuclear Energy"])
U(I, "en", "generation by county", "no county column")
P(I, "en", "share of renewables each year", "a share that no built-in computes")
P(I, "en", "monthly generation", "the data is yearly; it has no months")
U(I, "en", "electricity price per year", "no price column")
A(I, "zh", "各能源类型的总发电量", "topn", m="net_generation:sum", by=["source"])
A(I, "zh", "化石燃料每年发电量", "trend", m="net_generation:value", t="year", g="year", f=["source=Fossil Fuels"])
A(I, "zh", "2010年以来每年总发电量", "trend", m="net_generation:sum", t="year", g="year", f=["year>=2010-01-01"])
A(I, "zh", "按来源看平均年发电量", "topn", m="net_generation:mean", by=["source"])
P(I, "zh", "可再生能源占比", "占比需要计算，内置分析不算")
U(I, "zh", "各电厂的发电量", "没有电厂列")
P(I, "zh", "每季度发电量", "数据是按年的，没有季度")

UN = "unemployment-across-industries.json"
# ---------------------------------------------------------------- series, year, month, count, rate, date (monthly)
A(UN, "en", "avg unemployment rate per industry", "topn", m="rate:mean", by=["series"])
A(UN, "en", "average monthly number unemployed in construction, by year", "trend", m="count:mean", t="date", g="year",
  f=["series=Construction"], unchecked=["time"])
A(UN, "en", "agriculture unemployment rate by month of year", None, m="rate:mean", t="date", g="month_of_year",
  f=["series=Agriculture"], unchecked=["time"])
A(UN, "en", "which industry had the highest avg rate in 2009", "topn", m="rate:mean", by=["series"], n=1,
  f=["date@2009"])
A(UN, "en", "unemployment rate distribution", "distribution", m=["rate"])
A(UN, "en", "Finance unemployment rate monthly, 2008", "trend", m="rate:value", t="date", g="month",
  f=["series=Finance", "date@2008"], unchecked=["time"])
U(UN, "en", "unemployment by state", "no state column")
U(UN, "en", "youth unemployment rate", "no age column")
P(UN, "en", "weekly unemployment", "the data is monthly; it has no weeks")
A(UN, "zh", "各行业平均失业率排名前5", "topn", m="rate:mean", by=["series"], n=5)
A(UN, "zh", "2010年各行业平均失业人数", "topn", m="count:mean", by=["series"], f=["date@2010"])
A(UN, "zh", "按行业看失业率的异常值", "outliers", m=["rate"], by=["series"])
A(UN, "zh", "比较2007年和2009年的平均失业率", "compare_periods", m="rate:mean", t="date", g="year", p=["2007", "2009"],
  unchecked=["time"])
U(UN, "zh", "各地区失业率", "没有地区列")
P(UN, "zh", "失业率同比变化", "失业率是各行业各自的比率：跨行业对比要把它们平均，请求没有要求平均")
P(UN, "zh", "各行业失业人数总和", "失业人数是月度存量，不能跨月相加")

P_ = "penguins.json"
# ---------------------------------------------------------------- Species, Island, Beak Length (mm), Beak Depth (mm),
# Flipper Length (mm), Body Mass (g), Sex
A(P_, "en", "heaviest species on Biscoe, by avg mass", "topn", m="Body Mass (g):mean", by=["Species"], n=1,
  f=["Island=Biscoe"])
A(P_, "en", "body mass outliers by species", "outliers", m=["Body Mass (g)"], by=["Species"])
A(P_, "en", "avg beak depth on each island", "topn", m="Beak Depth (mm):mean", by=["Island"])
U(P_, "en", "penguin age by species", "no age column")
U(P_, "en", "penguins counted per year", "no date or year column")
P(P_, "en", "biggest penguin species", "ambiguous: by mass or by flipper length")
A(P_, "zh", "每个岛屿上企鹅的数量", "topn", m=[], by=["Island"])
A(P_, "zh", "鳍长的分布", "distribution", m=["Flipper Length (mm)"])
A(P_, "zh", "雌性企鹅按物种的平均鳍长", "topn", m="Flipper Length (mm):mean", by=["Species"], f=["Sex=FEMALE"])
A(P_, "zh", "体重的异常值", "outliers", m=["Body Mass (g)"])
U(P_, "zh", "各物种的寿命", "没有寿命列")
U(P_, "zh", "每年观测到的企鹅数量", "没有年份列")
P(P_, "zh", "哪种企鹅最大", "有歧义：按体重还是鳍长")

CO = "co2-concentration.csv"
# ---------------------------------------------------------------- Date (monthly, 1958-2020), CO2, adjusted CO2
A(CO, "en", "co2 by calendar month (seasonality)", None, m="CO2:mean", t="Date", g="month_of_year")
A(CO, "en", "CO2 vs adjusted CO2 correlation", "correlation", m=["CO2", "adjusted CO2"])
A(CO, "en", "monthly CO2 in 2019", "trend", m="CO2:value", t="Date", g="month", f=["Date@2019"])
A(CO, "en", "seasonally adjusted co2 per year since 2000", "trend", m="adjusted CO2:mean", t="Date", g="year",
  f=["Date>=2000-01-01"])
U(CO, "en", "co2 by country", "no country column")
P(CO, "en", "daily co2 readings", "the data is monthly; it has no days")
P(CO, "en", "co2 growth rate per year", "a growth rate that no built-in computes")
U(CO, "en", "methane levels over time", "no methane column")
A(CO, "zh", "每年二氧化碳浓度平均值", "trend", m="CO2:mean", t="Date", g="year")
A(CO, "zh", "按月份看二氧化碳的季节变化（各月平均）", None, m="CO2:mean", t="Date", g="month_of_year")
A(CO, "zh", "2010年每月的二氧化碳浓度", "trend", m="CO2:value", t="Date", g="month", f=["Date@2010"])
A(CO, "zh", "季节调整后二氧化碳的分布", "distribution", m=["adjusted CO2"])
A(CO, "zh", "比较1980年和2010年平均二氧化碳浓度", "compare_periods", m="CO2:mean", t="Date", g="year",
  p=["1980", "2010"])
P(CO, "zh", "预测2030年的二氧化碳浓度", "没有内置预测")
U(CO, "zh", "各国二氧化碳排放量", "没有国家列")
P(CO, "zh", "每日二氧化碳浓度", "数据是按月的，没有每天")

F = "flights-2k.json"
# ---------------------------------------------------------------- date (Jan-Mar 2001, with time), delay, distance,
# origin, destination
A(F, "en", "mean delay by departure hour", None, m="delay:mean", t="date", g="hour_of_day")
A(F, "en", "top 5 busiest origin airports", "topn", m=[], by=["origin"], n=5)
A(F, "en", "delay by weekday (avg minutes)", None, m="delay:mean", t="date", g="weekday")
A(F, "en", "flights per month", "trend", m=[], t="date", g="month")
A(F, "en", "delay distribution", "distribution", m=["delay"])
A(F, "en", "pearson r between delay and distance", "correlation", m=["delay", "distance"])
A(F, "en", "delay outliers", "outliers", m=["delay"])
A(F, "en", "flights out of LAX per day of week", None, m=[], t="date", g="weekday", f=["origin=LAX"])
U(F, "en", "delay by airline", "no airline column")
P(F, "en", "share of flights delayed over 15 min", "a share that no built-in computes")
P(F, "en", "avg delay per month in 2002", "the data covers January to March 2001 only")
U(F, "en", "passenger count by route", "no passenger column")
A(F, "zh", "按出发小时看平均延误", None, m="delay:mean", t="date", g="hour_of_day")
A(F, "zh", "每周各天的平均延误时间", None, m="delay:mean", t="date", g="weekday")
A(F, "zh", "航班数最多的5个出发机场", "topn", m=[], by=["origin"], n=5)
A(F, "zh", "从SFO出发的航班每月平均延误", "trend", m="delay:mean", t="date", g="month", f=["origin=SFO"])
P(F, "zh", "准点率是多少", "需要计算占比，内置分析不算")
U(F, "zh", "每条航线的平均票价", "没有票价列")

E = "us-employment.csv"
# ---------------------------------------------------------------- month (2006-2015), nonfarm, ... (employment levels,
# thousands), nonfarm_change (the monthly change)
A(E, "en", "monthly nonfarm in 2009", "trend", m="nonfarm:value", t="month", g="month", f=["month@2009"])
A(E, "en", "compare avg government jobs 2006 vs 2015", "compare_periods", m="government:mean", t="month", g="year",
  p=["2006", "2015"])
A(E, "en", "correlation between manufacturing and construction", "correlation", m=["manufacturing", "construction"])
A(E, "en", "nonfarm_change distribution", "distribution", m=["nonfarm_change"])
A(E, "en", "outliers in monthly nonfarm change", "outliers", m=["nonfarm_change"])
A(E, "en", "total nonfarm change per year", "trend", m="nonfarm_change:sum", t="month", g="year")
A(E, "en", "quarterly avg retail trade jobs", "trend", m="retail_trade:mean", t="month", g="quarter")
U(E, "en", "wages by sector", "no wage column")
U(E, "en", "unemployment rate by year", "no unemployment column")
P(E, "en", "total manufacturing employment summed per year", "an employment level must not be summed over months")
P(E, "en", "government share of nonfarm jobs", "a share that no built-in computes")
A(E, "zh", "每年制造业平均就业人数", "trend", m="manufacturing:mean", t="month", g="year")
A(E, "zh", "2012年每月的建筑业就业", "trend", m="construction:value", t="month", g="month", f=["month@2012"])
A(E, "zh", "每年非农就业净增加总和", "trend", m="nonfarm_change:sum", t="month", g="year")
A(E, "zh", "信息业和金融业就业的相关性", "correlation", m=["information", "financial_activities"])
A(E, "zh", "休闲和酒店业就业人数的分布", "distribution", m=["leisure_and_hospitality"])
A(E, "zh", "比较2007年和2010年的平均建筑业就业人数", "compare_periods", m="construction:mean", t="month", g="year",
  p=["2007", "2010"])
U(E, "zh", "各州就业人数", "没有州列")
P(E, "zh", "各行业就业人数占比", "占比需要计算，内置分析不算")
P(E, "zh", "每周就业数据", "数据是按月的，没有周")

PC = "population_cn.csv"
# ---------------------------------------------------------------- 年份 (census years 1850-2000), 年龄组, 性别 (男, 女), 人数
A(PC, "zh", "1980年人口最多的三个年龄组", "topn", m="人数:sum", by=["年龄组"], f=["年份@1980"], n=3)
A(PC, "zh", "1990年男女各有多少人", "topn", m="人数:sum", by=["性别"], f=["年份@1990"])
A(PC, "zh", "男性人数随年份的变化", "trend", m="人数:sum", t="年份", g="year", f=["性别=男"])
A(PC, "zh", "历年总人口", "trend", m="人数:sum", t="年份", g="year")
A(PC, "zh", "比较1900年和2000年的总人口", "compare_periods", m="人数:sum", t="年份", g="year", p=["1900", "2000"])
A(PC, "zh", "各组人数的分布情况", "distribution", m=["人数"])
U(PC, "zh", "各民族人口", "没有民族列")
P(PC, "zh", "平均年龄", "年龄组是编码，需要加权计算，内置分析不算")
P(PC, "zh", "2010年人口", "数据只到2000年")
A(PC, "en", "total population by sex in 1950", "topn", m="人数:sum", by=["性别"], f=["年份@1950"])
A(PC, "en", "women per census year", "trend", m="人数:sum", t="年份", g="year", f=["性别=女"])
P(PC, "en", "median age in 2000", "age groups are codes; a median age needs a weighted computation")
U(PC, "en", "population by state", "no state column")

X = "cars.xlsx"
# ---------------------------------------------------------------- sheets USA, Europe, Japan: Name, Miles_per_Gallon,
# Cylinders, Displacement, Horsepower, Weight_in_lbs, Acceleration, Year (integer)
A(X, "en", "Japan sheet: avg horsepower per year", "trend", m="Horsepower:mean", t="Year", g="year", sheet="Japan")
A(X, "en", "cars per sheet", None, m=[], by=["sheet"], sheet="*")
A(X, "en", "avg acceleration by cylinders, Europe tab", "topn", m="Acceleration:mean", by=["Cylinders"], sheet="Europe")
P(X, "en", "avg mpg on the Korea sheet", "no Korea sheet")
A(X, "zh", "在USA表里按气缸数看平均排量", "topn", m="Displacement:mean", by=["Cylinders"], sheet="USA")
A(X, "zh", "每张表的最大马力", "topn", m="Horsepower:max", by=["sheet"], sheet="*")
P(X, "zh", "德国工作表的平均油耗", "没有德国工作表")
