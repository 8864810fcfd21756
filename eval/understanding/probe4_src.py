"""The fourth probe set of the understanding evaluation: gen.py turns it into testdata/probe4.jsonl.

Written on 4 December 2026 (issue 35) by a helper who had read only this harness (questions.go, run.go, score.go,
compare.go, gen.py, srcformat.py, tables.py, understanding_test.go, kept_test.go, cmd/understand), the docstring and
builder format of probe3_src.py (its first and last lines, a few of its questions among them, and the keyword
arguments of its answerable questions, to learn the format), the Makefile target eval-understanding, and the shipped
tables with SOURCES.md; not the parser (tools/templates/*.go) or its tests, nor the questions of the other sets, and
without running the parser on this set. It asks as analysts ask, in phrasings of its own: per-group aggregates,
trends by year, quarter, month, week, day and hour, calendar parts (month of year, weekday, hour of day), rankings
with counts in digits and words and an order, values named directly or by meaning (Microsoft, Apple, Google, 苹果, 微软,
谷歌, 亚马逊 for the tickers; Atlanta, Denver, Phoenix, 西雅图, 拉斯维加斯, 波士顿 for airport codes; 阿德利, 巴布亚, 帽带, 梦幻岛 for the
penguins; 美国钢铁, 西屋, 固特异 for firms; men and women for 男 and 女; 所有自然灾害 for the all-disasters row), two values
compared, two years compared, correlations, distributions, outliers overall and per group, counts of rows,
exclusions (except, leaving out, 除了), two measures at once, a named sheet of the workbook, English questions on the
tables whose headers are Chinese and Chinese questions on the English ones, typos (temprature, avrage, expectency,
想关性), shorthand (avg px by sym, hp, mpg, wk), polite long-winded requests and Chinese without punctuation.
About a third the data cannot answer or answers only in part, chosen so that a keyword matcher is tempted: a column
the table lacks (sticker price, volume, dividends, cloud cover, injuries, wages, continent, infant mortality), a
value the data lacks (Ford, a Korea or China sheet), a share, ratio, growth rate, year-on-year change, difference or
volatility, a grain the data lacks (hour, day, week, month, quarter, decade, a single year between censuses), a year
outside the data, forecasts, why-questions, a count of events where the rows are deaths, rates or stocks
(earthquakes, murders, layoffs), and questions where two columns fit equally (average temperature, interest rate,
length, employment) or where the workbook's sheet is not named.
Its first draft (364 questions) was cut by hand to 291, to balance the languages and the share to refuse; 33 of
those were, word for word, questions of other sets (TestProbe4SetIsNew) and were dropped, not reworded; 30 questions
of other content were then written, 2 of which again repeated other sets and were dropped. 286 remain: 140 English
and 146 Chinese, 95 to refuse (47 English, 48 Chinese); per table seattle-weather 21, stocks 20, gapminder 20,
flights-2k 20, cars.json 18, birdstrikes 18, grunfeld 18, disasters 17, macro_cn 17, unemployment-across-industries
16, penguins 16, us-employment 16, co2-concentration 15, statecrime 14, population_cn 14, cars.xlsx 13,
iowa-electricity 13.
Its first figures, to be taken once by the lead after the set was committed and before anyone reads its answers or
changes the parser, are the honest figures for questions nobody here has seen.
The format is probe3_src.py's: A answerable with its expected reading, U the data cannot answer, P it answers only
in part; a measure "col:value" is a column observed once per period or group, whose aggregation is left open.
"""

from srcformat import builders  # noqa: E402

PROBE4 = []
A, U, P = builders(PROBE4)


W = "seattle-weather.csv"
A(W, "en", "Could you tell me, for each month of 2015, how much precipitation fell in total?", "trend", m="precipitation:sum", t="date", g="month", f=["date@2015"])
A(W, "en", "avg wind by day of wk", None, m="wind:mean", t="date", g="weekday")
A(W, "en", "how many foggy days were recorded in each year", "trend", m=[], t="date", g="year", f=["weather=fog"])
A(W, "en", "rank the weather types by their mean minimum temprature, coldest first", "topn", m="temp_min:mean", by=["weather"], o="asc")
A(W, "en", "biggest single-day precipitation seen under each kind of weather", None, m="precipitation:max", by=["weather"])
A(W, "en", "is wind speed correlated with precipitation at all?", "correlation", m=["precipitation", "wind"])
A(W, "en", "number of days per weather type, leaving out sunny days", None, m=[], by=["weather"], f=["weather=drizzle|fog|rain|snow"])
A(W, "en", "for every weather type give me both the mean max temp and the mean min temp", None, m=["temp_max:mean", "temp_min:mean"], by=["weather"])
U(W, "en", "What is the average temperature in each month?", "two columns fit equally (temp_max, temp_min); there is no mean temperature column")
U(W, "en", "hourly wind speed on 1 March 2014", "the data is daily; there is no hour")
U(W, "en", "mean cloud cover for each month of 2013", "no cloud cover column")
A(W, "zh", "麻烦帮我看一下2012年每个月的平均最低气温，谢谢", "trend", m="temp_min:mean", t="date", g="month", f=["date@2012"])
A(W, "zh", "各种天气类型的平均降水量 从高到低排一下", "topn", m="precipitation:mean", by=["weather"])
A(W, "zh", "最高气温和最低气温之间的相关系数是多少", "correlation", m=["temp_max", "temp_min"])
A(W, "zh", "不分年份按月份看平均风速", None, m="wind:mean", t="date", g="month_of_year")
A(W, "zh", "最高气温的分布情况怎么样", "distribution", m=["temp_max"])
A(W, "zh", "除了雪天以外各类天气的平均风速", None, m="wind:mean", by=["weather"], f=["weather=drizzle|fog|rain|sun"])
A(W, "zh", "对比2013年和2015年的平均最高气温", "compare_periods", m="temp_max:mean", t="date", g="year", p=["2013", "2015"])
U(W, "zh", "每个月的平均日照时长", "没有日照时长列")
P(W, "zh", "每年降水总量的增长率", "增长率，内置分析不算")
P(W, "zh", "为什么雾天的气温比较低", "原因问题，数据回答不了")


C = "cars.json"
A(C, "en", "Which three cylinder counts have the heaviest cars on average?", "topn", m="Weight_in_lbs:mean", by=["Cylinders"], n=3)
A(C, "en", "mean horsepower per model year, American cars only", "trend", m="Horsepower:mean", t="Year", g="year", f=["Origin=USA"])
A(C, "en", "how does weight relate to mpg? give me the correlation", "correlation", m=["Weight_in_lbs", "Miles_per_Gallon"])
A(C, "en", "hp outliers within each origin", "outliers", m=["Horsepower"], by=["Origin"])
A(C, "en", "max and min acceleration for each number of cylinders", None, m=["Acceleration:max", "Acceleration:min"], by=["Cylinders"])
A(C, "en", "average displacement by origin for everything except US cars", None, m="Displacement:mean", by=["Origin"], f=["Origin=Europe|Japan"])
U(C, "en", "average sticker price by origin", "no price column")
P(C, "en", "what percentage of the cars have eight cylinders", "a share, which no built-in computes")
U(C, "en", "average mpg of the 1985 models", "model years run from 1970 to 1982")
A(C, "zh", "各产地汽车平均马力多少", None, m="Horsepower:mean", by=["Origin"])
A(C, "zh", "按气缸数统计车辆数", None, m=[], by=["Cylinders"])
A(C, "zh", "欧洲车每年的平均车重", "trend", m="Weight_in_lbs:mean", t="Year", g="year", f=["Origin=Europe"])
A(C, "zh", "加速性能和马力的相关性", "correlation", m=["Acceleration", "Horsepower"])
A(C, "zh", "1975年各产地的平均每加仑英里数", None, m="Miles_per_Gallon:mean", by=["Origin"], f=["Year@1975"])
P(C, "zh", "美国车比日本车平均重百分之多少", "百分比差异")
U(C, "zh", "每个月生产了多少辆车", "只有年份，没有月份")


X = "cars.xlsx"
A(X, "en", "In the Japan sheet, what is the average mpg per model year?", "trend", m="Miles_per_Gallon:mean", t="Year", g="year", sheet="Japan")
A(X, "en", "USA sheet: count of cars by cylinders", None, m=[], by=["Cylinders"], sheet="USA")
A(X, "en", "europe tab - mean weight by cylinder count", None, m="Weight_in_lbs:mean", by=["Cylinders"], sheet="Europe")
A(X, "en", "distribution of horsepower on the Europe sheet", "distribution", m=["Horsepower"], sheet="Europe")
U(X, "en", "average mpg by origin across the workbook", "the workbook has no Origin column; each origin is a sheet")
U(X, "en", "What is the average horsepower for each cylinder count?", "the workbook has three sheets (USA, Europe, Japan) and the question names none")
U(X, "en", "average weight on the Korea sheet", "there is no Korea sheet")
A(X, "zh", "日本这张表里每种气缸数的平均马力", None, m="Horsepower:mean", by=["Cylinders"], sheet="Japan")
A(X, "zh", "USA工作表中每年有多少辆车", "trend", m=[], t="Year", g="year", sheet="USA")
A(X, "zh", "欧洲表 重量和加速度的相关性", "correlation", m=["Weight_in_lbs", "Acceleration"], sheet="Europe")
A(X, "zh", "美国那张表里排量的异常值", "outliers", m=["Displacement"], sheet="USA")
U(X, "zh", "中国工作表里的平均马力", "没有中国这张表")
P(X, "zh", "三张表合起来哪个产地的平均马力最高", "要同时读三张表，内置分析一次读一张")


S = "stocks.csv"
A(S, "en", "avg px by sym", None, m="price:mean", by=["symbol"])
A(S, "en", "Microsoft's average share price per year", "trend", m="price:mean", t="date", g="year", f=["symbol=MSFT"])
A(S, "en", "quarterly average Amazon price in 2008", "trend", m="price:mean", t="date", g="quarter", f=["symbol=AMZN", "date@2008"])
A(S, "en", "Google vs Apple: the highest price each one reached", None, m="price:max", by=["symbol"], f=["symbol=GOOG|AAPL"])
A(S, "en", "IBM's monthly price during 2005", "trend", m="price:value", t="date", g="month", f=["symbol=IBM", "date@2005"])
A(S, "en", "Compare IBM's mean price in 2001 against 2009.", "compare_periods", m="price:mean", t="date", g="year", f=["symbol=IBM"], p=["2001", "2009"])
A(S, "en", "the two stocks with the lowest average price", "topn", m="price:mean", by=["symbol"], n=2, o="asc")
P(S, "en", "AAPL monthly return", "a return (a change between months), which no built-in computes")
P(S, "en", "Which stock was the most volatile?", "volatility, which no built-in computes")
U(S, "en", "MSFT trading volume per year", "no volume column")
P(S, "en", "correlation between Apple's and Microsoft's prices", "a correlation between values of one column, which needs a reshape")
A(S, "zh", "各股票的最高价", None, m="price:max", by=["symbol"])
A(S, "zh", "2007年每只股票的平均价格", None, m="price:mean", by=["symbol"], f=["date@2007"])
A(S, "zh", "微软和IBM的平均股价对比", None, m="price:mean", by=["symbol"], f=["symbol=MSFT|IBM"])
A(S, "zh", "谷歌股价逐月走势", "trend", m="price:value", t="date", g="month", f=["symbol=GOOG"])
A(S, "zh", "亚马逊股价有哪些异常值", "outliers", m=["price"], f=["symbol=AMZN"])
A(S, "zh", "除了谷歌之外各股票的平均价格", None, m="price:mean", by=["symbol"], f=["symbol=AAPL|AMZN|IBM|MSFT"])
P(S, "zh", "哪只股票涨幅最大", "涨幅，内置分析不算")
P(S, "zh", "苹果股价为什么在2008年下跌", "原因问题")


D = "disasters.csv"
A(D, "en", "deaths from earthquakes year by year", "trend", m="Deaths:value", t="Year", g="year", f=["Entity=Earthquake"])
A(D, "en", "top 5 deadliest years for epidemics", "topn", m="Deaths:value", by=["Year"], f=["Entity=Epidemic"], n=5)
A(D, "en", "compare drought deaths in 1965 and 1983", "compare_periods", m="Deaths:value", t="Year", g="year", f=["Entity=Drought"], p=["1965", "1983"])
A(D, "en", "wildfire deaths: what does the distribution look like", "distribution", m=["Deaths"], f=["Entity=Wildfire"])
A(D, "en", "outliers among annual earthquake death tolls", "outliers", m=["Deaths"], f=["Entity=Earthquake"])
U(D, "en", "how many earthquakes happened in 2010", "the rows are deaths per type and year, not events")
P(D, "en", "deaths per million people for each year", "a rate, and no population column")
U(D, "en", "Which decade was the deadliest?", "a decade, a grain the data lacks")
A(D, "zh", "洪水每年的死亡人数走势", "trend", m="Deaths:value", t="Year", g="year", f=["Entity=Flood"])
A(D, "zh", "干旱和流行病的总死亡人数对比", None, m="Deaths:sum", by=["Entity"], f=["Entity=Drought|Epidemic"])
A(D, "zh", "极端温度死亡人数最多的三年", "topn", m="Deaths:value", by=["Year"], f=["Entity=Extreme temperature"], n=3)
A(D, "zh", "1950年和2000年所有自然灾害的死亡人数比较", "compare_periods", m="Deaths:value", t="Year", g="year", f=["Entity=All natural disasters"], p=["1950", "2000"])
A(D, "zh", "野火死亡人数有没有异常的年份", "outliers", m=["Deaths"], f=["Entity=Wildfire"])
U(D, "zh", "2010年发生了多少次洪水", "行是每类每年的死亡人数，不是事件")
P(D, "zh", "地震死亡人数占所有灾害的比例", "占比")
P(D, "zh", "未来十年干旱会导致多少人死亡", "预测")


B = "birdstrikes.csv"
A(B, "en", "strikes per phase of flight, most to least", "topn", m=[], by=["Phase of flight"])
A(B, "en", "avrage repair cost by wildlife size", None, m="Cost Repair:mean", by=["Wildlife Size"])
A(B, "en", "top 5 operators by number of strikes", "topn", m=[], by=["Aircraft Airline Operator"], n=5)
A(B, "en", "bird strikes per month in 2001", "trend", m=[], t="Flight Date", g="month", f=["Flight Date@2001"])
A(B, "en", "strike counts by day of the week", None, m=[], t="Flight Date", g="weekday")
A(B, "en", "Illinois and New York: how many strikes each?", None, m=[], by=["Origin State"], f=["Origin State=Illinois|New York"])
A(B, "en", "average indicated airspeed at dawn and at dusk", None, m="Speed IAS in knots:mean", by=["Time of day"], f=["Time of day=Dawn|Dusk"])
P(B, "en", "repair cost as a share of total cost for each operator", "a share")
U(B, "en", "how many strikes were reported in 2008", "the data covers 1990 to 2002")
U(B, "en", "strikes by hour of the day", "only the date and a time-of-day category; no hour")
A(B, "zh", "各野生动物体型的鸟击次数", None, m=[], by=["Wildlife Size"])
A(B, "zh", "只看夜间，每年发生多少次鸟击", "trend", m=[], t="Flight Date", g="year", f=["Time of day=Night"])
A(B, "zh", "德克萨斯州每年的维修费用总和", "trend", m="Cost Repair:sum", t="Flight Date", g="year", f=["Origin State=Texas"])
A(B, "zh", "鸟击最多的五个机场", "topn", m=[], by=["Airport Name"], n=5)
A(B, "zh", "一年中各个月份的鸟击次数", None, m=[], t="Flight Date", g="month_of_year")
U(B, "zh", "每次鸟击的受伤人数", "没有受伤人数列")
P(B, "zh", "大型鸟类撞击占全部鸟击的比例", "占比")
U(B, "zh", "2010年的鸟击次数", "数据只有1990到2002年")


M = "macro_cn.csv"
A(M, "en", "T-bill rate in each quarter of 2008", None, m="国债利率:value", by=["季度"], f=["年份=2008"])
A(M, "en", "correlation between unemployment and the real interest rate", "correlation", m=["失业率", "实际利率"])
A(M, "en", "compare mean inflation in 1975 with 2005", "compare_periods", m="通胀率:mean", t="年份", g="year", p=["1975", "2005"])
A(M, "en", "the 3 years with the highest average unemployment", "topn", m="失业率:mean", by=["年份"], n=3)
A(M, "en", "yearly avg of M1 money supply", "trend", m="货币供应量M1:mean", t="年份", g="year")
U(M, "en", "monthly unemployment rate in 1990", "the data is quarterly")
P(M, "en", "real GDP growth rate for each year", "a growth rate")
U(M, "en", "average interest rate per year", "two columns fit equally (国债利率, 实际利率)")
A(M, "zh", "每年的平均通胀率", "trend", m="通胀率:mean", t="年份", g="year")
A(M, "zh", "失业率有哪些异常值", "outliers", m=["失业率"])
A(M, "zh", "2005年每个季度的实际可支配收入", None, m="实际可支配收入:value", by=["季度"], f=["年份=2005"])
A(M, "zh", "平均国债利率最高的五个年份", "topn", m="国债利率:mean", by=["年份"], n=5)
A(M, "zh", "1960年和2000年的平均消费价格指数比较", "compare_periods", m="消费价格指数:mean", t="年份", g="year", p=["1960", "2000"])
A(M, "zh", "每年实际政府支出的平均值", "trend", m="实际政府支出:mean", t="年份", g="year")
P(M, "zh", "每年GDP比上一年增长了多少", "增长，内置分析不算")
P(M, "zh", "为什么1982年失业率那么高", "原因问题")


G = "grunfeld.csv"
A(G, "en", "which 4 firms invest the most on average", "topn", m="invest:mean", by=["firm"], n=4)
A(G, "en", "GE market value by year", "trend", m="value:value", t="year", g="year", f=["firm=General Electric"])
A(G, "en", "Would you be so kind as to show me the total capital stock across all firms for each year, please?", "trend", m="capital:sum", t="year", g="year")
A(G, "en", "Chrysler vs Westinghouse average investment", None, m="invest:mean", by=["firm"], f=["firm=Chrysler|Westinghouse"])
A(G, "en", "compare the combined value of all firms in 1935 and 1954", "compare_periods", m="value:sum", t="year", g="year", p=["1935", "1954"])
A(G, "en", "the three firms with the smallest mean capital", "topn", m="capital:mean", by=["firm"], n=3, o="asc")
P(G, "en", "GM's investment growth rate", "a growth rate")
U(G, "en", "quarterly investment of IBM", "the data is yearly")
A(G, "zh", "美国钢铁每年的资本存量", "trend", m="capital:value", t="year", g="year", f=["firm=US Steel"])
A(G, "zh", "1950年投资最多的三家公司", "topn", m="invest:value", by=["firm"], f=["year@1950"], n=3)
A(G, "zh", "固特异和IBM的平均市值对比", None, m="value:mean", by=["firm"], f=["firm=Goodyear|IBM"])
A(G, "zh", "每年各公司的平均市值", "trend", m="value:mean", t="year", g="year")
A(G, "zh", "投资额有没有异常值", "outliers", m=["invest"])
A(G, "zh", "市值和资本存量的相关性", "correlation", m=["value", "capital"])
P(G, "zh", "通用电气明年会投资多少", "预测")


SC = "statecrime.tsv"
A(SC, "en", "states with the 5 highest violent crime rates", "topn", m="violent:value", by=["state"], n=5)
A(SC, "en", "which three states have the lowest high school graduation rate", "topn", m="hs_grad:value", by=["state"], n=3, o="asc")
A(SC, "en", "correlation between the single-parent share and the murder rate", "correlation", m=["single", "murder"])
A(SC, "en", "poverty outliers among the states", "outliers", m=["poverty"])
A(SC, "en", "Florida vs New York violent crime rate", None, m="violent:value", by=["state"], f=["state=Florida|New York"])
U(SC, "en", "number of murders in Texas", "murder is a rate per 100,000, not a count")
U(SC, "en", "violent crime trend over the years", "one year (2009) only; no time column")
A(SC, "zh", "谋杀率最高的三个州", "topn", m="murder:value", by=["state"], n=3)
A(SC, "zh", "白人比例和城市化率的相关性", "correlation", m=["white", "urban"])
A(SC, "zh", "加州和德州的贫困率", None, m="poverty:value", by=["state"], f=["state=California|Texas"])
A(SC, "zh", "城市化率最低的五个州", "topn", m="urban:value", by=["state"], n=5, o="asc")
P(SC, "zh", "为什么哥伦比亚特区的犯罪率这么高", "原因问题")
U(SC, "zh", "2015年各州的谋杀率", "只有2009年的数据")


GP = "gapminder.json"
A(GP, "en", "Indias life expectency over the years", "trend", m="life_expect:value", t="year", g="year", f=["country=India"])
A(GP, "en", "average fertility by cluster in 1960", None, m="fertility:mean", by=["cluster"], f=["year@1960"])
A(GP, "en", "top three most populous countries in 2005", "topn", m="pop:value", by=["country"], f=["year@2005"], n=3)
A(GP, "en", "compare the combined population of all countries in 1960 and 2000", "compare_periods", m="pop:sum", t="year", g="year", p=["1960", "2000"])
A(GP, "en", "fertility of Japan and Germany in 1970", None, m="fertility:value", by=["country"], f=["country=Japan|Germany", "year@1970"])
A(GP, "en", "fertility outliers per cluster", "outliers", m=["fertility"], by=["cluster"])
U(GP, "en", "life expectancy in 2010 for every country", "the data ends in 2005")
U(GP, "en", "population of China in 1962", "the data is every five years (1960, 1965)")
U(GP, "en", "average life expectancy by continent", "no continent column (cluster is not a continent)")
A(GP, "zh", "中国各个年份的生育率", "trend", m="fertility:value", t="year", g="year", f=["country=China"])
A(GP, "zh", "2005年预期寿命最高的五个国家", "topn", m="life_expect:value", by=["country"], f=["year@2005"], n=5)
A(GP, "zh", "美国和墨西哥2000年的人口", None, m="pop:value", by=["country"], f=["country=United States|Mexico", "year@2000"])
A(GP, "zh", "每年所有国家的平均生育率", "trend", m="fertility:mean", t="year", g="year")
A(GP, "zh", "人口和生育率的相关性", "correlation", m=["pop", "fertility"])
P(GP, "zh", "日本的生育率为什么下降", "原因问题")
U(GP, "zh", "1950年各国的预期寿命", "数据从1955年开始")


I = "iowa-electricity.csv"
A(I, "en", "generation by source in 2016", None, m="net_generation:value", by=["source"], f=["year@2016"])
A(I, "en", "total generation from all sources per year", "trend", m="net_generation:sum", t="year", g="year")
A(I, "en", "compare renewable generation in 2001 and 2017", "compare_periods", m="net_generation:value", t="year", g="year", f=["source=Renewables"], p=["2001", "2017"])
U(I, "en", "monthly generation in 2010", "the data is yearly")
P(I, "en", "renewables' share of total generation by year", "a share")
A(I, "zh", "化石燃料每年的发电量", "trend", m="net_generation:value", t="year", g="year", f=["source=Fossil Fuels"])
A(I, "zh", "各能源类型的最大发电量", None, m="net_generation:max", by=["source"])
A(I, "zh", "除了核能之外各来源的总发电量", None, m="net_generation:sum", by=["source"], f=["source=Fossil Fuels|Renewables"])
A(I, "zh", "发电量有异常值吗", "outliers", m=["net_generation"])
U(I, "zh", "各能源来源的碳排放量", "没有碳排放列")
P(I, "zh", "为什么化石燃料发电量减少了", "原因问题")


UE = "unemployment-across-industries.json"
A(UE, "en", "Finance: yearly average unemployment rate", "trend", m="rate:mean", t="date", g="year", f=["series=Finance"], unchecked=["time"])
A(UE, "en", "mean rate by calendar month for Agriculture", None, m="rate:mean", t="date", g="month_of_year", f=["series=Agriculture"], unchecked=["time"])
A(UE, "en", "the 3 industries with the lowest average rate", "topn", m="rate:mean", by=["series"], n=3, o="asc")
A(UE, "en", "Manufacturing unemployed count each month in 2009", "trend", m="count:value", t="date", g="month", f=["series=Manufacturing", "date@2009"], unchecked=["time"])
A(UE, "en", "compare the average rate in 2000 and 2009", "compare_periods", m="rate:mean", t="date", g="year", p=["2000", "2009"], unchecked=["time"])
U(UE, "en", "how many people were laid off in 2009", "count is the number unemployed in a month, not layoffs")
U(UE, "en", "weekly unemployment rate for construction", "the data is monthly")
P(UE, "en", "Which industry's unemployment rate is the most volatile?", "volatility")
A(UE, "zh", "平均失业率最高的五个行业", "topn", m="rate:mean", by=["series"], n=5)
A(UE, "zh", "2008年建筑业每个月的失业人数", "trend", m="count:value", t="date", g="month", f=["series=Construction", "date@2008"], unchecked=["time"])
A(UE, "zh", "政府部门每年的平均失业率", "trend", m="rate:mean", t="date", g="year", f=["series=Government"], unchecked=["time"])
A(UE, "zh", "2009年平均失业人数最多的三个行业", "topn", m="count:mean", by=["series"], f=["date@2009"], n=3)
P(UE, "zh", "明年制造业失业率会是多少", "预测")


PG = "penguins.json"
A(PG, "en", "avg body mass per island", None, m="Body Mass (g):mean", by=["Island"])
A(PG, "en", "for Gentoo penguins, how correlated are flipper length and beak length", "correlation", m=["Flipper Length (mm)", "Beak Length (mm)"], f=["Species=Gentoo"])
A(PG, "en", "how many penguins of each species live on Dream island", None, m=[], by=["Species"], f=["Island=Dream"])
A(PG, "en", "which species is the heaviest on average", "topn", m="Body Mass (g):mean", by=["Species"], n=1)
A(PG, "en", "flipper length outliers by island", "outliers", m=["Flipper Length (mm)"], by=["Island"])
A(PG, "en", "mean beak length and mean beak depth by species", None, m=["Beak Length (mm):mean", "Beak Depth (mm):mean"], by=["Species"])
P(PG, "en", "what fraction of the Adelie penguins are male", "a share")
U(PG, "en", "average length per species", "two columns fit equally (beak length, flipper length)")
A(PG, "zh", "阿德利企鹅在各个岛上的数量", None, m=[], by=["Island"], f=["Species=Adelie"])
A(PG, "zh", "喙长和体重的想关性", "correlation", m=["Beak Length (mm)", "Body Mass (g)"])
A(PG, "zh", "帽带企鹅和阿德利企鹅的平均喙深对比", None, m="Beak Depth (mm):mean", by=["Species"], f=["Species=Chinstrap|Adelie"])
U(PG, "zh", "各岛企鹅的平均寿命", "没有寿命列")
P(PG, "zh", "雄企鹅比雌企鹅平均重多少", "差值")


CO = "co2-concentration.csv"
A(CO, "en", "annual maximum CO2 reading", "trend", m="CO2:max", t="Date", g="year")
A(CO, "en", "monthly CO2 values in 1990", "trend", m="CO2:value", t="Date", g="month", f=["Date@1990"])
A(CO, "en", "average seasonally adjusted CO2 by calendar month", None, m="adjusted CO2:mean", t="Date", g="month_of_year")
A(CO, "en", "quarterly average CO2 in 2015", "trend", m="CO2:mean", t="Date", g="quarter", f=["Date@2015"])
A(CO, "en", "CO2 in 1980 vs 2020, on average", "compare_periods", m="CO2:mean", t="Date", g="year", p=["1980", "2020"])
U(CO, "en", "daily CO2 readings in March 2000", "the data is monthly")
P(CO, "en", "annual increase of CO2 in ppm", "a difference between years")
A(CO, "zh", "每年二氧化碳浓度的最小值", "trend", m="CO2:min", t="Date", g="year")
A(CO, "zh", "2000年每个月的二氧化碳浓度", "trend", m="CO2:value", t="Date", g="month", f=["Date@2000"])
A(CO, "zh", "1970年和2010年调整后二氧化碳浓度的比较", "compare_periods", m="adjusted CO2:mean", t="Date", g="year", p=["1970", "2010"])
A(CO, "zh", "2019年按季度的平均二氧化碳浓度", "trend", m="CO2:mean", t="Date", g="quarter", f=["Date@2019"])
P(CO, "zh", "二氧化碳浓度为什么每年都在上升", "原因问题")
U(CO, "zh", "各国的二氧化碳排放量", "没有国家列")
P(CO, "zh", "二氧化碳浓度的年增长率", "增长率")


F = "flights-2k.json"
A(F, "en", "number of departures by hour of the day", None, m=[], t="date", g="hour_of_day")
A(F, "en", "avg delay by weekday", None, m="delay:mean", t="date", g="weekday")
A(F, "en", "flights per day", "trend", m=[], t="date", g="day")
A(F, "en", "flights out of Atlanta: average delay each month", "trend", m="delay:mean", t="date", g="month", f=["origin=ATL"])
A(F, "en", "top 5 destinations by number of flights", "topn", m=[], by=["destination"], n=5)
A(F, "en", "Denver vs Phoenix: average delay of the flights leaving each", None, m="delay:mean", by=["origin"], f=["origin=DEN|PHX"])
U(F, "en", "delays in April 2001", "the data covers January to March 2001")
P(F, "en", "percentage of flights delayed more than 15 minutes", "a share")
U(F, "en", "number of cancelled flights per month", "no cancellation column; every row is a flown flight")
A(F, "zh", "到达航班最多的三个目的地机场", "topn", m=[], by=["destination"], n=3)
A(F, "zh", "每周的平均延误", "trend", m="delay:mean", t="date", g="week")
A(F, "zh", "拉斯维加斯和波士顿出发航班的平均延误对比", None, m="delay:mean", by=["origin"], f=["origin=LAS|BOS"])
A(F, "zh", "每天的平均延误时间", "trend", m="delay:mean", t="date", g="day")
A(F, "zh", "飞行距离有没有异常值", "outliers", m=["distance"])
P(F, "zh", "延误超过半小时的航班占多少比例", "占比")
U(F, "zh", "2001年5月的航班数", "数据只有2001年1月到3月")


E = "us-employment.csv"
A(E, "en", "monthly retail trade jobs in 2012", "trend", m="retail_trade:value", t="month", g="month", f=["month@2012"])
A(E, "en", "I'd like to compare the mean construction employment in 2006 with that in 2011, if that's possible.", "compare_periods", m="construction:mean", t="month", g="year", p=["2006", "2011"])
A(E, "en", "correlation between manufacturing and construction employment", "correlation", m=["manufacturing", "construction"])
A(E, "en", "quarterly average government employment", "trend", m="government:mean", t="month", g="quarter")
P(E, "en", "growth rate of health care jobs", "a growth rate")
U(E, "en", "average employment per year", "many employment columns fit (nonfarm, private, ...)")
A(E, "zh", "每年制造业的平均就业人数", "trend", m="manufacturing:mean", t="month", g="year")
A(E, "zh", "2015年每个月教育和医疗服务业的就业人数", "trend", m="education_and_health_services:value", t="month", g="month", f=["month@2015"])
A(E, "zh", "休闲酒店业和零售业就业的相关性", "correlation", m=["leisure_and_hospitality", "retail_trade"])
A(E, "zh", "非农就业月变化按年取平均", "trend", m="nonfarm_change:mean", t="month", g="year")
A(E, "zh", "2008年和2014年非农就业平均值对比", "compare_periods", m="nonfarm:mean", t="month", g="year", p=["2008", "2014"])
A(E, "zh", "采矿和伐木业就业人数的分布", "distribution", m=["mining_and_logging"])
P(E, "zh", "为什么2009年就业人数下降", "原因问题")
U(E, "zh", "各行业的平均工资", "没有工资列")
P(E, "zh", "预测2016年的非农就业", "预测")


PC = "population_cn.csv"
A(PC, "en", "men vs women in 2000", None, m="人数:sum", by=["性别"], f=["年份=2000"])
A(PC, "en", "the 3 largest age groups in 1950", "topn", m="人数:sum", by=["年龄组"], f=["年份=1950"], n=3)
A(PC, "en", "female population in each census", "trend", m="人数:sum", t="年份", g="year", f=["性别=女"])
A(PC, "en", "compare the total population of 1850 and 1950", "compare_periods", m="人数:sum", t="年份", g="year", p=["1850", "1950"])
U(PC, "en", "population in 2010", "the censuses run from 1850 to 2000")
P(PC, "en", "male-to-female ratio by year", "a ratio")
U(PC, "en", "population in each year from 1901 to 1909", "the data is one census every ten years")
A(PC, "zh", "每次普查男性和女性各有多少人", "trend", m="人数:sum", by=["性别"], t="年份", g="year")
A(PC, "zh", "1900年人数最多的五个年龄组", "topn", m="人数:sum", by=["年龄组"], f=["年份=1900"], n=5)
A(PC, "zh", "1960年男性和女性的总人数", None, m="人数:sum", by=["性别"], f=["年份=1960"])
A(PC, "zh", "20到24岁人口在每个普查年份的总数", "trend", m="人数:sum", t="年份", g="year", f=["年龄组=20"])
P(PC, "zh", "人口的年增长率", "增长率")
U(PC, "zh", "1845年的人口", "数据从1850年开始")


# Written after the duplicate check dropped 33 questions (TestProbe4SetIsNew): new questions, none a rewording of
# a dropped one, to bring the Chinese half back to about half.
A(G, "zh", "西屋公司每年的市值", "trend", m="value:value", t="year", g="year", f=["firm=Westinghouse"])
A(G, "zh", "平均资本存量最大的两家公司", "topn", m="capital:mean", by=["firm"], n=2)
P(G, "zh", "通用汽车和福特的投资对比", "福特不在数据里，只有通用汽车")
A(UE, "zh", "信息业每年的平均失业人数", "trend", m="count:mean", t="date", g="year", f=["series=Information"], unchecked=["time"])
A(UE, "zh", "金融业和信息业平均失业率对比", None, m="rate:mean", by=["series"], f=["series=Finance|Information"])
U(UE, "zh", "每天的失业人数", "数据是月度的，没有日")
A(GP, "zh", "尼日利亚历年人口", "trend", m="pop:value", t="year", g="year", f=["country=Nigeria"])
A(GP, "zh", "1980年生育率最低的三个国家", "topn", m="fertility:value", by=["country"], f=["year@1980"], n=3, o="asc")
U(GP, "zh", "各国每年的婴儿死亡率", "没有婴儿死亡率列")
U(GP, "zh", "各大洲的平均生育率", "没有大洲列（cluster不是大洲）")
A(F, "zh", "西雅图出发的航班每个月有多少班", "trend", m=[], t="date", g="month", f=["origin=SEA"])
A(F, "zh", "按小时统计平均飞行距离", None, m="distance:mean", t="date", g="hour_of_day")
U(F, "zh", "航班延误原因的分布", "没有延误原因列")
A(F, "en", "avg delay for flights into SFO vs LAX", None, m="delay:mean", by=["destination"], f=["destination=SFO|LAX"])
A(PG, "zh", "各岛企鹅体重的最大值和最小值", None, m=["Body Mass (g):max", "Body Mass (g):min"], by=["Island"])
A(PG, "zh", "梦幻岛上企鹅鳍长的异常值", "outliers", m=["Flipper Length (mm)"], f=["Island=Dream"])
P(PG, "zh", "各物种喙长与喙深之比", "两列之比")
U(S, "zh", "各股票的分红金额", "没有分红列")
A(I, "zh", "2005年各能源的发电量", None, m="net_generation:value", by=["source"], f=["year@2005"])
U(I, "zh", "爱荷华州每个月的用电量", "没有用电量列，数据也只是年度的")
A(PC, "zh", "1950年和2000年女性人口对比", "compare_periods", m="人数:sum", t="年份", g="year", f=["性别=女"], p=["1950", "2000"])
A(C, "zh", "每种气缸数的平均排量", None, m="Displacement:mean", by=["Cylinders"])
P(C, "zh", "各产地汽车的每加仑英里数每年提高了多少", "逐年差值")
A(CO, "zh", "每年调整后二氧化碳的平均值", "trend", m="adjusted CO2:mean", t="Date", g="year")
A(M, "zh", "按季度看平均实际利率", None, m="实际利率:mean", by=["季度"])
P(E, "zh", "各行业就业人数占非农就业的比例", "占比")
U(SC, "zh", "谋杀案件数量最多的州", "murder是每十万人的比率，不是案件数")
U(D, "en", "which country suffered the most earthquake deaths", "no country column; the rows are world totals by type")
