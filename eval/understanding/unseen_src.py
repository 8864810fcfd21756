"""The unseen set of the understanding evaluation: gen.py turns it into testdata/unseen.jsonl.

Written on 2 December 2026 by a helper who had read only this harness (questions_src.py, fresh_src.py, gen.py,
questions.go, score.go), the shipped tables and docs/understanding-eval.md, not the parser (tools/templates),
after the fresh set had been used to change the parser. It spreads over every shipped table, in the way analysts
type (abbreviations, typos, 按…统计, company and place names as the data writes them), about half of it Chinese and
about a third to refuse. Like the held-out and fresh sets it is reported, not enforced, and is not for tuning the
parser: once a parser change has been made after reading its answers, its figures are no longer those of
unseen questions (docs/understanding-eval.md says when that happened).

The format is fresh_src.py's: A answerable with its expected reading, U the data cannot answer, P it answers only
in part; a measure "col:value" is a column observed once per period or group, whose aggregation is left open.
"""

from srcformat import builders  # noqa: E402

UNSEEN = []
A, U, P = builders(UNSEEN)


W = "seattle-weather.csv"
# ---------------------------------------------------------------- date, precipitation, temp_max, temp_min, wind, weather
A(W, "en", "whats the avg wind speed each month in 2013", "trend", m="wind:mean", t="date", g="month", f=["date@2013"])
A(W, "en", "total precip per yr", "trend", m="precipitation:sum", t="date", g="year")
A(W, "en", "mean temp_min by weather", "topn", m="temp_min:mean", by=["weather"])
A(W, "en", "how many snowy days each year?", "trend", m=[], t="date", g="year", f=["weather=snow"])
A(W, "en", "corelation of wind and temp_max", "correlation", m=["wind", "temp_max"])
A(W, "en", "quarterly avg temp_max", "trend", m="temp_max:mean", t="date", g="quarter")
A(W, "en", "number of foggy days per month in 2012", "trend", m=[], t="date", g="month", f=["weather=fog", "date@2012"])
A(W, "zh", "每个季度的平均最低气温", "trend", m="temp_min:mean", t="date", g="quarter")
A(W, "zh", "2014年每周的平均风速", "trend", m="wind:mean", t="date", g="week", f=["date@2014"])
A(W, "zh", "各种天气的平均降水量", "topn", m="precipitation:mean", by=["weather"])
A(W, "zh", "最低气温的分布情况", "distribution", m=["temp_min"])
A(W, "zh", "风速和降水量有没有相关性", "correlation", m=["wind", "precipitation"])
A(W, "zh", "每年的最大日降水量", "trend", m="precipitation:max", t="date", g="year")
A(W, "zh", "每月下雪的天数", "trend", m=[], t="date", g="month", f=["weather=snow"])
U(W, "en", "average dew point by month", "no dew-point column")
P(W, "en", "total max temp per month", "a temperature must not be summed")
P(W, "en", "avg temp_max in Seattle vs Tacoma", "no city column: the data is Seattle only")
U(W, "zh", "每月的平均气压", "没有气压列")
P(W, "zh", "2016年的总降水量", "数据到2015年为止，没有2016年")
U(W, "zh", "每年的日照时数", "没有日照列")

C = "cars.json"
# ---------------------------------------------------------------- Name, Miles_per_Gallon, Cylinders, Displacement, Horsepower, Weight_in_lbs, Acceleration, Year (date), Origin
A(C, "en", "avg acceleration by # of cylinders", "topn", m="Acceleration:mean", by=["Cylinders"])
A(C, "en", "mpg vs weight correlation", "correlation", m=["Miles_per_Gallon", "Weight_in_lbs"])
A(C, "en", "which origin has the heaviest cars on average", "topn", m="Weight_in_lbs:mean", by=["Origin"], n=1)
A(C, "en", "distribution of horsepower for USA cars", "distribution", m=["Horsepower"], f=["Origin=USA"])
A(C, "en", "max mpg per origin", "topn", m="Miles_per_Gallon:max", by=["Origin"])
A(C, "en", "average displacement per year for Japanese cars", "trend", m="Displacement:mean", t="Year", g="year", f=["Origin=Japan"])
A(C, "zh", "各产地汽车的平均重量", "topn", m="Weight_in_lbs:mean", by=["Origin"])
A(C, "zh", "每年平均每加仑英里数", "trend", m="Miles_per_Gallon:mean", t="Year", g="year")
A(C, "zh", "排量和马力的相关性", "correlation", m=["Displacement", "Horsepower"])
A(C, "zh", "车重的分布", "distribution", m=["Weight_in_lbs"])
A(C, "zh", "平均马力最低的产地", "topn", m="Horsepower:mean", by=["Origin"], n=1, o="asc")
A(C, "zh", "各气缸数的平均加速时间", "topn", m="Acceleration:mean", by=["Cylinders"])
U(C, "en", "avg engine torque by origin", "no torque column")
P(C, "en", "total mpg by origin", "miles per gallon is a ratio: it must not be summed")
U(C, "en", "average price of ford models", "no price column")
U(C, "zh", "各产地的平均排放量", "没有排放列")
U(C, "zh", "按产地统计平均油价", "没有油价列")

X = "cars.xlsx"
# ---------------------------------------------------------------- sheets USA, Europe, Japan; Name, Miles_per_Gallon, Cylinders, Displacement, Horsepower, Weight_in_lbs, Acceleration, Year (int)
A(X, "en", "avg horsepower per cylinder count on the Japan sheet", "topn", m="Horsepower:mean", by=["Cylinders"], sheet="Japan")
A(X, "en", "how many cars does each sheet have", None, m=[], by=["sheet"], sheet="*")
A(X, "en", "mean weight per sheet", "topn", m="Weight_in_lbs:mean", by=["sheet"], sheet="*")
A(X, "en", "USA sheet: average mpg per year", "trend", m="Miles_per_Gallon:mean", t="Year", g="year", sheet="USA")
A(X, "zh", "Europe表中每年的平均车重", "trend", m="Weight_in_lbs:mean", t="Year", g="year", sheet="Europe")
A(X, "zh", "各工作表的最大马力", "topn", m="Horsepower:max", by=["sheet"], sheet="*")
A(X, "zh", "Japan工作表里加速时间的分布", "distribution", m=["Acceleration"], sheet="Japan")
U(X, "en", "average mpg in the Sweden sheet", "no sheet Sweden: the sheets are USA, Europe, Japan")
U(X, "en", "average fuel tank size on the Europe sheet", "no fuel-tank column")
U(X, "zh", "英国表的平均马力", "没有英国（UK）工作表")

S = "stocks.csv"
# ---------------------------------------------------------------- symbol, date, price
A(S, "en", "avg monthly price of IBM in 2008", "trend", m="price:mean", t="date", g="month", f=["symbol=IBM", "date@2008"])
A(S, "en", "highest price ever for each ticker", "topn", m="price:max", by=["symbol"])
A(S, "en", "GOOG price distribution", "distribution", m=["price"], f=["symbol=GOOG"])
A(S, "en", "compare MSFT avg price 2001 vs 2010", "compare_periods", m="price:mean", t="date", g="year", p=["2001", "2010"], f=["symbol=MSFT"])
A(S, "en", "lowest avg price stock", "topn", m="price:mean", by=["symbol"], n=1, o="asc")
A(S, "en", "quarterly avg price of AAPL since 2005", "trend", m="price:mean", t="date", g="quarter", f=["symbol=AAPL", "date>=2005-01-01"])
A(S, "zh", "GOOG每年的平均股价", "trend", m="price:mean", t="date", g="year", f=["symbol=GOOG"])
A(S, "zh", "各股票的价格中位数", "topn", m="price:median", by=["symbol"])
A(S, "zh", "IBM股价的异常值", "outliers", m=["price"], f=["symbol=IBM"])
A(S, "zh", "2007年AAPL每月的平均价格", "trend", m="price:mean", t="date", g="month", f=["symbol=AAPL", "date@2007"])
A(S, "zh", "平均股价最低的两只股票", "topn", m="price:mean", by=["symbol"], n=2, o="asc")
U(S, "en", "avg trading vol by ticker", "no volume column")
P(S, "en", "sum of MSFT price per yr", "a price must not be summed")
U(S, "en", "NVDA yearly avg price", "no NVDA in symbol (MSFT, AMZN, IBM, GOOG, AAPL)")
P(S, "en", "AAPL vs MSFT price correlation", "the two prices are one column: it needs a reshape by date, which no built-in does")
U(S, "zh", "各股票的市值", "没有市值列")
P(S, "zh", "AAPL的年收益率", "内置分析不计算收益率")
U(S, "zh", "阿里巴巴的股价走势", "没有阿里巴巴（BABA）这只股票")

D = "disasters.csv"
# ---------------------------------------------------------------- Entity, Year (int), Deaths
A(D, "en", "top 3 entities by max deaths in a year", "topn", m="Deaths:max", by=["Entity"], n=3)
A(D, "en", "flood deaths per year since 1990", "trend", m="Deaths:sum", t="Year", g="year", f=["Entity=Flood", "Year>=1990"])
A(D, "en", "distribution of deaths from Earthquake", "distribution", m=["Deaths"], f=["Entity=Earthquake"])
A(D, "en", "number of records per entity", None, m=[], by=["Entity"])
A(D, "en", "compare Drought deaths in 1920 vs 2010", "compare_periods", m="Deaths:sum", t="Year", g="year", p=["1920", "2010"], f=["Entity=Drought"])
A(D, "zh", "平均死亡人数最高的3类灾害", "topn", m="Deaths:mean", by=["Entity"], n=3)
A(D, "zh", "各灾害类型的死亡人数中位数", "topn", m="Deaths:median", by=["Entity"])
A(D, "zh", "Flood的死亡人数分布", "distribution", m=["Deaths"], f=["Entity=Flood"])
A(D, "zh", "Earthquake每年的死亡人数", "trend", m="Deaths:sum", t="Year", g="year", f=["Entity=Earthquake"])
U(D, "en", "deaths by region", "no region column")
U(D, "en", "total people affected by disaster type", "no affected column")
P(D, "en", "wildfire deaths in 2030", "the data ends in 2017")
U(D, "zh", "各大洲的死亡人数", "没有大洲列")
U(D, "zh", "每年的受灾人数", "没有受灾人数列")

B = "birdstrikes.csv"
# ---------------------------------------------------------------- Airport Name, ..., Flight Date, Aircraft Airline Operator, Origin State, Phase of flight, Wildlife Size, Wildlife Species, Time of day, Cost Other, Cost Repair, Cost Total $, Speed IAS in knots
A(B, "en", "total repair cost per phase of flight", "topn", m="Cost Repair:sum", by=["Phase of flight"])
A(B, "en", "strikes by wildlife size", None, m=[], by=["Wildlife Size"])
A(B, "en", "avg speed per time of day", "topn", m="Speed IAS in knots:mean", by=["Time of day"])
A(B, "en", "monthly number of strikes in 1995", "trend", m=[], t="Flight Date", g="month", f=["Flight Date@1995"])
A(B, "en", "top 3 states by # of strikes", "topn", m=[], by=["Origin State"], n=3)
A(B, "en", "Cost Total $ by airline operator, top 5", "topn", m="Cost Total $:sum", by=["Aircraft Airline Operator"], n=5)
A(B, "zh", "各机场的撞击次数", None, m=[], by=["Airport Name"])
A(B, "zh", "不同时段的平均速度", "topn", m="Speed IAS in knots:mean", by=["Time of day"])
A(B, "zh", "每年的总费用（Cost Total $）", "trend", m="Cost Total $:sum", t="Flight Date", g="year")
A(B, "zh", "各物种的平均维修费用，前5", "topn", m="Cost Repair:mean", by=["Wildlife Species"], n=5)
A(B, "zh", "速度的分布", "distribution", m=["Speed IAS in knots"])
A(B, "zh", "Texas每年的鸟击次数", "trend", m=[], t="Flight Date", g="year", f=["Origin State=Texas"])
P(B, "en", "avg cost per airport", "ambiguous: three cost columns (Cost Total $, Cost Repair, Cost Other)")
U(B, "en", "number of birds killed per species", "no count of birds: one row is one strike")
U(B, "en", "flight delay caused by strikes per airline", "no delay column")
P(B, "zh", "各州的平均费用", "费用有三列，不清楚指哪一列")
U(B, "zh", "各航空公司的航班延误", "没有延误列")

M = "macro_cn.csv"
# ---------------------------------------------------------------- 年份, 季度, 实际GDP, 实际消费, 实际投资, 实际政府支出, 实际可支配收入, 消费价格指数, 货币供应量M1, 国债利率, 失业率, 人口, 通胀率, 实际利率
A(M, "zh", "每年平均实际消费", "trend", m="实际消费:mean", t="年份", g="year")
A(M, "zh", "货币供应量M1和消费价格指数的相关性", "correlation", m=["货币供应量M1", "消费价格指数"])
A(M, "zh", "1990年以来每年的平均失业率", "trend", m="失业率:mean", t="年份", g="year", f=["年份>=1990"])
A(M, "zh", "实际投资的分布", "distribution", m=["实际投资"])
A(M, "zh", "各季度的平均通胀率", None, m="通胀率:mean", by=["季度"])
A(M, "zh", "比较1980年和1970年的平均国债利率", "compare_periods", m="国债利率:mean", t="年份", g="year", p=["1970", "1980"])
A(M, "zh", "每年实际政府支出的最小值", "trend", m="实际政府支出:min", t="年份", g="year")
A(M, "zh", "通胀率的异常值有哪些", "outliers", m=["通胀率"])
A(M, "en", "avg 实际GDP per year", "trend", m="实际GDP:mean", t="年份", g="year")
A(M, "en", "corr of 国债利率 and 通胀率", "correlation", m=["国债利率", "通胀率"])
P(M, "zh", "每年消费价格指数的总和", "价格指数不能求和")
P(M, "zh", "实际GDP的同比增长", "内置分析不计算同比增长")
U(M, "zh", "每年的出口额", "没有出口列")
P(M, "zh", "2010年的平均失业率", "数据到2009年第三季度为止，没有2010年")
U(M, "en", "average exchange rate per year", "no exchange-rate column")

G = "grunfeld.csv"
# ---------------------------------------------------------------- firm, year (int), invest, value, capital
A(G, "en", "avg capital per firm", "topn", m="capital:mean", by=["firm"])
A(G, "en", "total investment per year since 1945", "trend", m="invest:sum", t="year", g="year", f=["year>=1945"])
A(G, "en", "Chrysler's value by yr", "trend", m="value:value", t="year", g="year", f=["firm=Chrysler"])
A(G, "en", "which firm invested the most in total", "topn", m="invest:sum", by=["firm"], n=1)
A(G, "en", "corr value capital", "correlation", m=["value", "capital"])
A(G, "en", "bottom 3 firms by mean value", "topn", m="value:mean", by=["firm"], n=3, o="asc")
A(G, "zh", "各公司的平均市值", "topn", m="value:mean", by=["firm"])
A(G, "zh", "每年的平均投资", "trend", m="invest:mean", t="year", g="year")
A(G, "zh", "IBM每年的资本存量", "trend", m="capital:value", t="year", g="year", f=["firm=IBM"])
A(G, "zh", "总投资最多的3家公司", "topn", m="invest:sum", by=["firm"], n=3)
A(G, "zh", "市值和投资的相关系数", "correlation", m=["value", "invest"])
U(G, "en", "revenue by firm", "no revenue column")
P(G, "en", "sum of capital by firm", "capital is a stock observed once a year: summing twenty years counts it twenty times")
P(G, "zh", "各公司资本存量的总和", "资本存量是每年的存量，把各年相加会重复计算")
U(G, "zh", "各公司的负债", "没有负债列")

R_ = "statecrime.tsv"
# ---------------------------------------------------------------- state, violent, murder, hs_grad, poverty, single, white, urban
A(R_, "en", "top 5 most urban states", "topn", m="urban:mean", by=["state"], n=5)
A(R_, "en", "murder vs poverty correlation", "correlation", m=["murder", "poverty"])
A(R_, "en", "states with the highest violent crime, top 10", "topn", m="violent:mean", by=["state"], n=10)
A(R_, "en", "distribution of the murder rate", "distribution", m=["murder"])
A(R_, "en", "outliers in hs_grad", "outliers", m=["hs_grad"])
A(R_, "zh", "暴力犯罪率最高的5个州", "topn", m="violent:mean", by=["state"], n=5)
A(R_, "zh", "白人比例和谋杀率的相关性", "correlation", m=["white", "murder"])
A(R_, "zh", "贫困率的分布", "distribution", m=["poverty"])
A(R_, "zh", "城市化率最低的3个州", "topn", m="urban:mean", by=["state"], n=3, o="asc")
P(R_, "en", "total violent crime rate across states", "a rate must not be summed")
U(R_, "en", "crime trend 2000-2009", "no time column: the data is one year (2009)")
U(R_, "en", "murders by county", "no county column")
U(R_, "zh", "各州的平均收入", "没有收入列")
P(R_, "zh", "各州的犯罪率排名", "不清楚是暴力犯罪率（violent）还是谋杀率（murder）")

GM = "gapminder.json"
# ---------------------------------------------------------------- year (int), country, cluster, pop, life_expect, fertility
A(GM, "en", "avg fertility by cluster in 2005", "topn", m="fertility:mean", by=["cluster"], f=["year=2005"])
A(GM, "en", "India life expectancy over the years", "trend", m="life_expect:mean", t="year", g="year", f=["country=India"])
A(GM, "en", "top 5 countries by life expectancy in 2005", "topn", m="life_expect:mean", by=["country"], n=5, f=["year=2005"])
A(GM, "en", "correlation between pop and fertility", "correlation", m=["pop", "fertility"])
A(GM, "en", "total pop by yr", "trend", m="pop:sum", t="year", g="year")
A(GM, "en", "compare mean fertility 1955 vs 2005", "compare_periods", m="fertility:mean", t="year", g="year", p=["1955", "2005"])
A(GM, "zh", "2005年预期寿命最低的5个国家", "topn", m="life_expect:mean", by=["country"], n=5, o="asc", f=["year=2005"])
A(GM, "zh", "每年的平均生育率", "trend", m="fertility:mean", t="year", g="year")
A(GM, "zh", "各cluster的平均预期寿命", "topn", m="life_expect:mean", by=["cluster"])
A(GM, "zh", "人口和预期寿命的相关性", "correlation", m=["pop", "life_expect"])
A(GM, "zh", "2005年生育率的分布", "distribution", m=["fertility"], f=["year=2005"])
P(GM, "en", "sum of life expectancy by cluster", "life expectancy must not be summed")
U(GM, "en", "CO2 per capita by country", "no emissions column")
P(GM, "en", "population by country in 1950", "the data starts in 1955 (every five years): no 1950")
P(GM, "zh", "各国的总人口", "人口是每五年一次的存量，把各年相加会重复计算；需要指定年份")
U(GM, "zh", "各国的婴儿死亡率", "没有婴儿死亡率列")
P(GM, "zh", "生育率的年增长率", "内置分析不计算增长率")

I = "iowa-electricity.csv"
# ---------------------------------------------------------------- year (date), source, net_generation
A(I, "en", "avg net generation per source since 2010", "topn", m="net_generation:mean", by=["source"], f=["year>=2010-01-01"])
A(I, "en", "fossil fuels generation by year", "trend", m="net_generation:sum", t="year", g="year", f=["source=Fossil Fuels"])
A(I, "en", "which source generated the most in total", "topn", m="net_generation:sum", by=["source"], n=1)
A(I, "zh", "2017年各来源的发电量", "topn", m="net_generation:sum", by=["source"], f=["year@2017"])
A(I, "zh", "比较2001年和2017年的总发电量", "compare_periods", m="net_generation:sum", t="year", g="year", p=["2001", "2017"])
A(I, "zh", "Nuclear Energy每年的发电量", "trend", m="net_generation:sum", t="year", g="year", f=["source=Nuclear Energy"])
U(I, "en", "generation capacity by plant", "no plant or capacity column")
P(I, "en", "wind power trend", "no wind source: wind is inside Renewables")
U(I, "zh", "各来源的发电成本", "没有成本列")
P(I, "zh", "2020年的总发电量", "数据到2017年为止")

UN = "unemployment-across-industries.json"
# ---------------------------------------------------------------- series, year, month, count, rate, date
A(UN, "en", "avg unemployment rate in Manufacturing per year", "trend", m="rate:mean", g="year", f=["series=Manufacturing"], unchecked=["time"])
A(UN, "en", "top 5 industries by avg rate in 2010", "topn", m="rate:mean", by=["series"], n=5, f=["year=2010"])
A(UN, "en", "monthly unemployed count for Finance in 2009", "trend", m="count:value", t="date", g="month", f=["series=Finance", "date@2009"])
A(UN, "en", "distribution of the unemployment rate", "distribution", m=["rate"])
A(UN, "en", "which industry has the fewest unemployed on average", "topn", m="count:mean", by=["series"], n=1, o="asc")
A(UN, "zh", "Finance每年的平均失业率", "trend", m="rate:mean", g="year", f=["series=Finance"], unchecked=["time"])
A(UN, "zh", "各行业失业人数的中位数", "topn", m="count:median", by=["series"])
A(UN, "zh", "2008年各行业的平均失业率", "topn", m="rate:mean", by=["series"], f=["year=2008"])
P(UN, "en", "sum of rate for Construction by year", "a rate must not be summed")
U(UN, "en", "unemployment by gender", "no sex or gender column")
U(UN, "zh", "各行业的平均工时", "没有工时列")

PG = "penguins.json"
# ---------------------------------------------------------------- Species, Island, Beak Length (mm), Beak Depth (mm), Flipper Length (mm), Body Mass (g), Sex
A(PG, "en", "avg bill depth by species", "topn", m="Beak Depth (mm):mean", by=["Species"])
A(PG, "en", "count of penguins per species", None, m=[], by=["Species"])
A(PG, "en", "body mass distribution for Gentoo", "distribution", m=["Body Mass (g)"], f=["Species=Gentoo"])
A(PG, "en", "corr beak length vs beak depth", "correlation", m=["Beak Length (mm)", "Beak Depth (mm)"])
A(PG, "en", "heaviest species on average", "topn", m="Body Mass (g):mean", by=["Species"], n=1)
A(PG, "zh", "各岛企鹅的平均体重", "topn", m="Body Mass (g):mean", by=["Island"])
A(PG, "zh", "喙长的分布", "distribution", m=["Beak Length (mm)"])
A(PG, "zh", "各物种的企鹅数量", None, m=[], by=["Species"])
U(PG, "en", "penguin weight over time", "no time column")
P(PG, "en", "sum of flipper length per island", "a body measurement must not be summed")
U(PG, "zh", "各岛的平均气温", "没有气温列")

CO = "co2-concentration.csv"
# ---------------------------------------------------------------- Date (monthly, 1958-03 … 2020-04), CO2, adjusted CO2
A(CO, "en", "monthly CO2 in 2020", "trend", m="CO2:value", t="Date", g="month", f=["Date@2020"])
A(CO, "en", "avg adjusted co2 per year since 2000", "trend", m="adjusted CO2:mean", t="Date", g="year", f=["Date>=2000-01-01"])
A(CO, "en", "compare avg CO2 1960 vs 2019", "compare_periods", m="CO2:mean", t="Date", g="year", p=["1960", "2019"])
A(CO, "en", "quarterly avg co2", "trend", m="CO2:mean", t="Date", g="quarter")
A(CO, "zh", "每年二氧化碳的最大值", "trend", m="CO2:max", t="Date", g="year")
A(CO, "zh", "CO2和adjusted CO2的相关性", "correlation", m=["CO2", "adjusted CO2"])
P(CO, "en", "sum of CO2 by year", "a concentration must not be summed")
P(CO, "en", "co2 in 1950", "the data starts in March 1958")
U(CO, "zh", "每年的甲烷浓度", "没有甲烷列")

F = "flights-2k.json"
# ---------------------------------------------------------------- date (2001-01-01 … 2001-03-31, with time), delay, distance, origin, destination
A(F, "en", "avg delay by dest airport", "topn", m="delay:mean", by=["destination"])
A(F, "en", "how many flights per hour of the day", None, m=[], t="date", g="hour_of_day")
A(F, "en", "max distance by origin", "topn", m="distance:max", by=["origin"])
A(F, "en", "avg delay per week for LAX departures", "trend", m="delay:mean", t="date", g="week", f=["origin=LAX"])
A(F, "zh", "各目的地的平均飞行距离", "topn", m="distance:mean", by=["destination"])
A(F, "zh", "每周航班数", "trend", m=[], t="date", g="week")
A(F, "zh", "延误的异常值", "outliers", m=["delay"])
A(F, "zh", "LAX出发航班按月统计的平均延误", "trend", m="delay:mean", t="date", g="month", f=["origin=LAX"])
A(F, "zh", "每天的平均延误", "trend", m="delay:mean", t="date", g="day")
U(F, "en", "avg delay by aircraft type", "no aircraft column")
P(F, "en", "delays in 2019", "the data is January–March 2001 only")
U(F, "zh", "各航线的票价", "没有票价列")
P(F, "zh", "4月的航班数", "数据只有2001年1–3月，没有4月")

E = "us-employment.csv"
# ---------------------------------------------------------------- month (2006-01 … 2015-12), 22 supersector columns, nonfarm_change
A(E, "en", "avg construction employment by year", "trend", m="construction:mean", t="month", g="year")
A(E, "en", "corr of retail_trade and wholesale_trade", "correlation", m=["retail_trade", "wholesale_trade"])
A(E, "en", "monthly manufacturing jobs in 2010", "trend", m="manufacturing:value", t="month", g="month", f=["month@2010"])
A(E, "en", "average government jobs per quarter in 2012", "trend", m="government:mean", t="month", g="quarter", f=["month@2012"])
A(E, "en", "distribution of nonfarm employment", "distribution", m=["nonfarm"])
A(E, "zh", "每年建筑业就业人数的平均值", "trend", m="construction:mean", t="month", g="year")
A(E, "zh", "2012年每月的政府就业人数", "trend", m="government:value", t="month", g="month", f=["month@2012"])
A(E, "zh", "非农就业和私营部门就业的相关性", "correlation", m=["nonfarm", "private"])
P(E, "en", "total manufacturing employment per year", "employment is a monthly level: summing twelve months counts the same jobs twelve times")
U(E, "en", "jobs by county", "no county column")
P(E, "zh", "各行业平均就业人数排名", "行业是列而不是某一列的取值，排名需要先转成长表，内置分析不做")
U(E, "zh", "每月的失业人数", "没有失业人数列：数据只统计就业")

PC = "population_cn.csv"
# ---------------------------------------------------------------- 年份 (1850 … 2000, no 1890), 年龄组, 性别 (男, 女), 人数
A(PC, "zh", "1950年按性别统计人数", "topn", m="人数:sum", by=["性别"], f=["年份=1950"])
A(PC, "zh", "每年女性总人数", "trend", m="人数:sum", t="年份", g="year", f=["性别=女"])
A(PC, "zh", "2000年各年龄组的人数", None, m="人数:sum", by=["年龄组"], f=["年份=2000"])
A(PC, "zh", "比较1950年和2000年的男性人口", "compare_periods", m="人数:sum", t="年份", g="year", p=["1950", "2000"], f=["性别=男"])
A(PC, "en", "male population per census year", "trend", m="人数:sum", t="年份", g="year", f=["性别=男"])
A(PC, "en", "top 3 age groups by people in 1900", "topn", m="人数:sum", by=["年龄组"], n=3, f=["年份=1900"])
P(PC, "zh", "各年龄组的总人数", "人数是每次普查时的人口，把各次普查相加会重复计算同一批人；需要指定年份")
U(PC, "zh", "每年的出生人数", "没有出生人数列")
P(PC, "en", "average 年龄组 per year", "年龄组 is the start of an age band, a code, not an age to average")
