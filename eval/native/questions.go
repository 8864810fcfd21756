package native

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/sift-agent/sift/eval"
)

// spec is one question: its text, the Python that answers it, and the Go
// that computes the expected answer from the generated data.
type spec struct {
	id, category, question string
	files                  []string
	python                 string
	expect                 func(d *data) []eval.Expected
	artifacts              []string
}

// Tolerances: money to the cent, ratios to a thousandth.
var cent, milli = 0.011, 0.0011

func num(name string, v float64, tol float64) eval.Expected {
	decimals := 2
	if tol < 0.005 {
		decimals = 3
	}
	return eval.Expected{Name: name, Value: fmt.Sprintf("%.*f", decimals, v), Tolerance: &tol}
}

func count(name string, n int) eval.Expected {
	return eval.Expected{Name: name, Value: fmt.Sprint(n)}
}

func text(name, v string) eval.Expected { return eval.Expected{Name: name, Value: v} }

// Python preludes.
const (
	loadSales   = "import pandas as pd\ns = pd.read_csv('input/sales.csv', parse_dates=['date'])\n"
	loadSensors = "import pandas as pd\nx = pd.read_csv('input/sensors.csv', parse_dates=['timestamp'])\n"
	openDB      = "import sqlite3\ndb = sqlite3.connect('file:input/shop.db?mode=ro&immutable=1', uri=True)\nq = lambda sql: db.execute(sql).fetchall()\n"
)

func sumRevenue(ss []sale, keep func(sale) bool) float64 {
	t := 0.0
	for _, s := range ss {
		if keep == nil || keep(s) {
			t += s.Revenue
		}
	}
	return t
}

// argmax returns the key with the largest value (ties: the first in
// sorted key order).
func argmax(m map[string]float64) (string, float64) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	best := keys[0]
	for _, k := range keys {
		if m[k] > m[best] {
			best = k
		}
	}
	return best, m[best]
}

func group(ss []sale, key func(sale) string, val func(sale) float64) map[string]float64 {
	m := map[string]float64{}
	for _, s := range ss {
		m[key(s)] += val(s)
	}
	return m
}

func revenue(s sale) float64 { return s.Revenue }

func mean(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

// quantile is numpy's default (linear) quantile.
func quantile(xs []float64, p float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	pos := p * float64(len(s)-1)
	lo := math.Floor(pos)
	hi := math.Ceil(pos)
	return s[int(lo)] + (s[int(hi)]-s[int(lo)])*(pos-lo)
}

func stdSample(xs []float64) float64 {
	m := mean(xs)
	t := 0.0
	for _, x := range xs {
		t += (x - m) * (x - m)
	}
	return math.Sqrt(t / float64(len(xs)-1))
}

func corr(xs, ys []float64) float64 {
	mx, my := mean(xs), mean(ys)
	var sxy, sxx, syy float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
		syy += (ys[i] - my) * (ys[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

func temps(d *data, sensor string) []float64 {
	var out []float64
	for _, r := range d.readings {
		if r.Sensor == sensor && !r.Missing {
			out = append(out, r.Temp)
		}
	}
	return out
}

func paid(o order) bool { return o.Status == "paid" }

var specs = []spec{
	// Aggregation.
	{id: "agg-total-revenue", category: "aggregation", question: "What was the total revenue in 2024?", files: []string{"sales.csv"},
		python: loadSales + "print(f\"@total_revenue[{s.revenue.sum():.2f}]\")",
		expect: func(d *data) []eval.Expected {
			return []eval.Expected{num("total_revenue", sumRevenue(d.sales, nil), cent)}
		}},
	{id: "agg-gizmo-units", category: "aggregation", question: "How many Gizmo units were sold?", files: []string{"sales.csv"},
		python: loadSales + "print(f\"@units[{s[s['product'] == 'Gizmo'].units.sum()}]\")",
		expect: func(d *data) []eval.Expected {
			n := 0
			for _, s := range d.sales {
				if s.Product == "Gizmo" {
					n += s.Units
				}
			}
			return []eval.Expected{count("units", n)}
		}},
	{id: "agg-avg-order", category: "aggregation", question: "What is the average revenue per order?", files: []string{"sales.csv"},
		python: loadSales + "print(f\"@avg_revenue[{s.revenue.mean():.2f}]\")",
		expect: func(d *data) []eval.Expected {
			return []eval.Expected{num("avg_revenue", sumRevenue(d.sales, nil)/float64(len(d.sales)), cent)}
		}},
	{id: "agg-east-revenue", category: "aggregation", question: "What revenue did the East region make?", files: []string{"sales.csv"},
		python: loadSales + "print(f\"@east_revenue[{s[s.region == 'East'].revenue.sum():.2f}]\")",
		expect: func(d *data) []eval.Expected {
			return []eval.Expected{num("east_revenue", sumRevenue(d.sales, func(s sale) bool { return s.Region == "East" }), cent)}
		}},
	{id: "agg-distinct-customers", category: "aggregation", question: "How many distinct customers placed an order, and how many orders were there?", files: []string{"sales.csv"},
		python: loadSales + "print(f\"@customers[{s.customer_id.nunique()}] @orders[{len(s)}]\")",
		expect: func(d *data) []eval.Expected {
			seen := map[string]bool{}
			for _, s := range d.sales {
				seen[s.CustomerID] = true
			}
			return []eval.Expected{count("customers", len(seen)), count("orders", len(d.sales))}
		}},
	{id: "agg-sql-paid-total", category: "aggregation", question: "In the shop database, what is the total amount of paid orders?", files: []string{"shop.db"},
		python: openDB + "(t,), = q(\"SELECT SUM(amount) FROM orders WHERE status = 'paid'\")\nprint(f\"@paid_total[{t:.2f}]\")",
		expect: func(d *data) []eval.Expected {
			t := 0.0
			for _, o := range d.orders {
				if paid(o) {
					t += o.Amount
				}
			}
			return []eval.Expected{num("paid_total", t, cent)}
		}},

	// Time series.
	{id: "ts-best-month", category: "time series", question: "Which month had the highest revenue, and how much?", files: []string{"sales.csv"},
		python: loadSales + "m = s.groupby(s.date.dt.strftime('%Y-%m')).revenue.sum()\nprint(f\"@month[{m.idxmax()}] @revenue[{m.max():.2f}]\")",
		expect: func(d *data) []eval.Expected {
			m, v := argmax(group(d.sales, func(s sale) string { return s.Date.Format("2006-01") }, revenue))
			return []eval.Expected{text("month", m), num("revenue", v, cent)}
		}},
	{id: "ts-q4-vs-q1", category: "time series", question: "By how many percent did Q4 revenue differ from Q1 revenue?", files: []string{"sales.csv"},
		python: loadSales + "q = s.groupby(s.date.dt.quarter).revenue.sum()\nprint(f\"@growth_pct[{(q[4] / q[1] - 1) * 100:.2f}]\")",
		expect: func(d *data) []eval.Expected {
			q := group(d.sales, func(s sale) string { return fmt.Sprint((int(s.Date.Month())-1)/3 + 1) }, revenue)
			return []eval.Expected{num("growth_pct", (q["4"]/q["1"]-1)*100, cent)}
		}},
	{id: "ts-sensor-warmest-day", category: "time series", question: "On which day was the daily mean temperature of sensor s1 highest, and what was it?", files: []string{"sensors.csv"},
		python: loadSensors + "d = x[x.sensor == 's1'].groupby(x.timestamp.dt.strftime('%Y-%m-%d')).temperature.mean()\nprint(f\"@day[{d.idxmax()}] @mean_temp[{d.max():.2f}]\")",
		expect: func(d *data) []eval.Expected {
			days := map[string][]float64{}
			for _, r := range d.readings {
				if r.Sensor == "s1" && !r.Missing {
					k := r.Time.Format("2006-01-02")
					days[k] = append(days[k], r.Temp)
				}
			}
			means := map[string]float64{}
			for k, v := range days {
				means[k] = mean(v)
			}
			day, v := argmax(means)
			return []eval.Expected{text("day", day), num("mean_temp", v, cent)}
		}},
	{id: "ts-rolling-mean", category: "time series", question: "What is the 7-day rolling mean of daily revenue on the last day of the year?", files: []string{"sales.csv"},
		python: loadSales + "daily = s.groupby('date').revenue.sum()\nprint(f\"@rolling_mean[{daily.rolling(7).mean().iloc[-1]:.2f}]\")",
		expect: func(d *data) []eval.Expected {
			last := time.Date(2024, 12, 31, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -6)
			return []eval.Expected{num("rolling_mean", sumRevenue(d.sales, func(s sale) bool { return !s.Date.Before(last) })/7, cent)}
		}},
	{id: "ts-sql-march-orders", category: "time series", question: "In the shop database, how many orders were placed in March 2024?", files: []string{"shop.db"},
		python: openDB + "(n,), = q(\"SELECT COUNT(*) FROM orders WHERE order_date LIKE '2024-03-%'\")\nprint(f\"@orders[{n}]\")",
		expect: func(d *data) []eval.Expected {
			n := 0
			for _, o := range d.orders {
				if o.Date.Month() == time.March {
					n++
				}
			}
			return []eval.Expected{count("orders", n)}
		}},

	// Joins.
	{id: "join-segment-revenue", category: "joins", question: "Which customer segment brought the most revenue, and how much?", files: []string{"sales.csv", "customers.csv"},
		python: loadSales + "c = pd.read_csv('input/customers.csv')\nm = s.merge(c, on='customer_id').groupby('segment').revenue.sum()\nprint(f\"@segment[{m.idxmax()}] @revenue[{m.max():.2f}]\")",
		expect: func(d *data) []eval.Expected {
			seg, v := argmax(group(d.sales, func(s sale) string { return s.Customer.Segment }, revenue))
			return []eval.Expected{text("segment", seg), num("revenue", v, cent)}
		}},
	{id: "join-target-attainment", category: "joins", question: "Which region reached the highest share of its 2024 target, and what share (percent)?", files: []string{"sales.csv", "targets.csv"},
		python: loadSales + "t = pd.read_csv('input/targets.csv').set_index('region').target_2024\na = s.groupby('region').revenue.sum() / t * 100\nprint(f\"@region[{a.idxmax()}] @attainment_pct[{a.max():.2f}]\")",
		expect: func(d *data) []eval.Expected {
			by := group(d.sales, func(s sale) string { return s.Region }, revenue)
			att := map[string]float64{}
			for r, v := range by {
				att[r] = v / d.targets[r] * 100
			}
			r, v := argmax(att)
			return []eval.Expected{text("region", r), num("attainment_pct", v, cent)}
		}},
	{id: "join-regions-below-target", category: "joins", question: "How many regions stayed below their 2024 target?", files: []string{"sales.csv", "targets.csv"},
		python: loadSales + "t = pd.read_csv('input/targets.csv').set_index('region').target_2024\nr = s.groupby('region').revenue.sum()\nprint(f\"@regions_below[{int((r < t.reindex(r.index)).sum())}]\")",
		expect: func(d *data) []eval.Expected {
			n := 0
			for r, v := range group(d.sales, func(s sale) string { return s.Region }, revenue) {
				if v < d.targets[r] {
					n++
				}
			}
			return []eval.Expected{count("regions_below", n)}
		}},
	{id: "join-top-customer", category: "joins", question: "What is the name of the customer with the highest revenue?", files: []string{"sales.csv", "customers.csv"},
		python: loadSales + "c = pd.read_csv('input/customers.csv')\nm = s.merge(c, on='customer_id').groupby('name').revenue.sum()\nprint(f\"@customer[{m.idxmax()}]\")",
		expect: func(d *data) []eval.Expected {
			n, _ := argmax(group(d.sales, func(s sale) string { return s.Customer.Name }, revenue))
			return []eval.Expected{text("customer", n)}
		}},
	{id: "join-sql-city", category: "joins", question: "In the shop database, which city's customers paid the most, and how much?", files: []string{"shop.db"},
		python: openDB + "(city, t), = q(\"SELECT c.city, SUM(o.amount) AS t FROM orders o JOIN customers c USING (customer_id) WHERE o.status = 'paid' GROUP BY c.city ORDER BY t DESC LIMIT 1\")\nprint(f\"@city[{city}] @amount[{t:.2f}]\")",
		expect: func(d *data) []eval.Expected {
			city := map[string]string{}
			for _, c := range d.customers {
				city[c.ID] = c.City
			}
			by := map[string]float64{}
			for _, o := range d.orders {
				if paid(o) {
					by[city[o.CustomerID]] += o.Amount
				}
			}
			c, v := argmax(by)
			return []eval.Expected{text("city", c), num("amount", v, cent)}
		}},

	// Filtering.
	{id: "filter-big-orders", category: "filtering", question: "How many orders had 18 units or more?", files: []string{"sales.csv"},
		python: loadSales + "print(f\"@orders[{int((s.units >= 18).sum())}]\")",
		expect: func(d *data) []eval.Expected {
			n := 0
			for _, s := range d.sales {
				if s.Units >= 18 {
					n++
				}
			}
			return []eval.Expected{count("orders", n)}
		}},
	{id: "filter-sensor-missing", category: "filtering", question: "How many temperature readings are missing, and from which sensor?", files: []string{"sensors.csv"},
		python: loadSensors + "m = x[x.temperature.isna()]\nprint(f\"@missing[{len(m)}] @sensor[{', '.join(sorted(m.sensor.unique()))}]\")",
		expect: func(d *data) []eval.Expected {
			n := 0
			for _, r := range d.readings {
				if r.Missing {
					n++
				}
			}
			return []eval.Expected{count("missing", n), text("sensor", "s1")}
		}},
	{id: "filter-sql-refunded", category: "filtering", question: "In the shop database, how many orders were refunded and for what amount?", files: []string{"shop.db"},
		python: openDB + "(n, t), = q(\"SELECT COUNT(*), SUM(amount) FROM orders WHERE status = 'refunded'\")\nprint(f\"@refunded[{n}] @refunded_amount[{t:.2f}]\")",
		expect: func(d *data) []eval.Expected {
			n, t := 0, 0.0
			for _, o := range d.orders {
				if !paid(o) {
					n++
					t += o.Amount
				}
			}
			return []eval.Expected{count("refunded", n), num("refunded_amount", t, cent)}
		}},
	{id: "filter-west-gadget-h2", category: "filtering", question: "What Gadget revenue did the West region make in the second half of 2024?", files: []string{"sales.csv"},
		python: loadSales + "f = s[(s.region == 'West') & (s['product'] == 'Gadget') & (s.date >= '2024-07-01')]\nprint(f\"@revenue[{f.revenue.sum():.2f}]\")",
		expect: func(d *data) []eval.Expected {
			return []eval.Expected{num("revenue", sumRevenue(d.sales, func(s sale) bool {
				return s.Region == "West" && s.Product == "Gadget" && s.Date.Month() >= time.July
			}), cent)}
		}},

	// Ranking.
	{id: "rank-top-product", category: "ranking", question: "Which product made the most revenue?", files: []string{"sales.csv"},
		python: loadSales + "print(f\"@product[{s.groupby('product').revenue.sum().idxmax()}]\")",
		expect: func(d *data) []eval.Expected {
			p, _ := argmax(group(d.sales, func(s sale) string { return s.Product }, revenue))
			return []eval.Expected{text("product", p)}
		}},
	{id: "rank-second-region-units", category: "ranking", question: "Which region ranks second by units sold?", files: []string{"sales.csv"},
		python: loadSales + "r = s.groupby('region').units.sum().sort_values(ascending=False)\nprint(f\"@region[{r.index[1]}]\")",
		expect: func(d *data) []eval.Expected {
			by := group(d.sales, func(s sale) string { return s.Region }, func(s sale) float64 { return float64(s.Units) })
			keys := slices.Clone(regions)
			sort.SliceStable(keys, func(i, j int) bool { return by[keys[i]] > by[keys[j]] })
			return []eval.Expected{text("region", keys[1])}
		}},
	{id: "rank-top3-share", category: "ranking", question: "What share of revenue (percent) came from the top 3 customers?", files: []string{"sales.csv"},
		python: loadSales + "c = s.groupby('customer_id').revenue.sum().sort_values(ascending=False)\nprint(f\"@share_pct[{c.head(3).sum() / c.sum() * 100:.2f}]\")",
		expect: func(d *data) []eval.Expected {
			by := group(d.sales, func(s sale) string { return s.CustomerID }, revenue)
			var vs []float64
			for _, v := range by {
				vs = append(vs, v)
			}
			slices.Sort(vs)
			slices.Reverse(vs)
			return []eval.Expected{num("share_pct", (vs[0]+vs[1]+vs[2])/sumRevenue(d.sales, nil)*100, cent)}
		}},
	{id: "rank-sql-most-orders", category: "ranking", question: "In the shop database, which customer placed the most orders, and how many?", files: []string{"shop.db"},
		python: openDB + "(c, n), = q(\"SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id ORDER BY n DESC, customer_id LIMIT 1\")\nprint(f\"@customer_id[{c}] @orders[{n}]\")",
		expect: func(d *data) []eval.Expected {
			by := map[string]float64{}
			for _, o := range d.orders {
				by[o.CustomerID]++
			}
			c, n := argmax(by)
			return []eval.Expected{text("customer_id", c), count("orders", int(n))}
		}},

	// Statistics.
	{id: "stat-median-revenue", category: "statistics", question: "What is the median order revenue?", files: []string{"sales.csv"},
		python: loadSales + "print(f\"@median[{s.revenue.median():.2f}]\")",
		expect: func(d *data) []eval.Expected {
			var xs []float64
			for _, s := range d.sales {
				xs = append(xs, s.Revenue)
			}
			return []eval.Expected{num("median", quantile(xs, 0.5), cent)}
		}},
	{id: "stat-std-units", category: "statistics", question: "What is the (sample) standard deviation of units per order?", files: []string{"sales.csv"},
		python: loadSales + "print(f\"@std[{s.units.std():.3f}]\")",
		expect: func(d *data) []eval.Expected {
			var xs []float64
			for _, s := range d.sales {
				xs = append(xs, float64(s.Units))
			}
			return []eval.Expected{num("std", stdSample(xs), milli)}
		}},
	{id: "stat-corr-units-revenue", category: "statistics", question: "What is the Pearson correlation between units and revenue?", files: []string{"sales.csv"},
		python: loadSales + "print(f\"@corr[{s.units.corr(s.revenue):.3f}]\")",
		expect: func(d *data) []eval.Expected {
			var xs, ys []float64
			for _, s := range d.sales {
				xs, ys = append(xs, float64(s.Units)), append(ys, s.Revenue)
			}
			return []eval.Expected{num("corr", corr(xs, ys), milli)}
		}},
	{id: "stat-sensor-p90", category: "statistics", question: "What is the 90th percentile of sensor s2's temperature?", files: []string{"sensors.csv"},
		python: loadSensors + "print(f\"@p90[{x[x.sensor == 's2'].temperature.quantile(0.9):.2f}]\")",
		expect: func(d *data) []eval.Expected {
			return []eval.Expected{num("p90", quantile(temps(d, "s2"), 0.9), cent)}
		}},
	{id: "stat-sensor-means", category: "statistics", question: "What are the mean temperatures of sensors s1 and s2 (ignoring missing readings)?", files: []string{"sensors.csv"},
		python: loadSensors + "m = x.groupby('sensor').temperature.mean()\nprint(f\"@s1_mean[{m['s1']:.2f}] @s2_mean[{m['s2']:.2f}]\")",
		expect: func(d *data) []eval.Expected {
			return []eval.Expected{num("s1_mean", mean(temps(d, "s1")), cent), num("s2_mean", mean(temps(d, "s2")), cent)}
		}},
	{id: "stat-wholesale-share", category: "statistics", question: "What percent of orders came from Wholesale customers?", files: []string{"sales.csv", "customers.csv"},
		python: loadSales + "c = pd.read_csv('input/customers.csv')\nm = s.merge(c, on='customer_id')\nprint(f\"@share_pct[{(m.segment == 'Wholesale').mean() * 100:.2f}]\")",
		expect: func(d *data) []eval.Expected {
			n := 0
			for _, s := range d.sales {
				if s.Customer.Segment == "Wholesale" {
					n++
				}
			}
			return []eval.Expected{num("share_pct", float64(n)/float64(len(d.sales))*100, cent)}
		}},

	// Charts: the file must exist, and the chart must show what it should.
	{id: "chart-region-bar", category: "charts", question: "Draw a bar chart of revenue per region (out/region_revenue.png). How many bars does it have, and which region has the tallest?", files: []string{"sales.csv"},
		python:    loadSales + "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nr = s.groupby('region').revenue.sum()\nfig, ax = plt.subplots()\nbars = ax.bar(r.index, r.values)\nfig.savefig('out/region_revenue.png')\nprint(f\"@bars[{len(bars)}] @tallest[{r.index[max(range(len(bars)), key=lambda i: bars[i].get_height())]}]\")",
		artifacts: []string{"out/region_revenue.png"},
		expect: func(d *data) []eval.Expected {
			r, _ := argmax(group(d.sales, func(s sale) string { return s.Region }, revenue))
			return []eval.Expected{count("bars", len(regions)), text("tallest", r)}
		}},
	{id: "chart-monthly-line", category: "charts", question: "Plot monthly revenue as a line chart (out/monthly_revenue.png). How many points does the line have, and what is its last value?", files: []string{"sales.csv"},
		python:    loadSales + "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nm = s.groupby(s.date.dt.strftime('%Y-%m')).revenue.sum()\nfig, ax = plt.subplots()\n(line,) = ax.plot(m.index, m.values)\nfig.savefig('out/monthly_revenue.png')\nys = line.get_ydata()\nprint(f\"@points[{len(ys)}] @last[{ys[-1]:.2f}]\")",
		artifacts: []string{"out/monthly_revenue.png"},
		expect: func(d *data) []eval.Expected {
			return []eval.Expected{count("points", 12), num("last", sumRevenue(d.sales, func(s sale) bool { return s.Date.Month() == time.December }), cent)}
		}},
	{id: "chart-sensor-hist", category: "charts", question: "Draw a histogram of sensor s2's temperatures with 10 bins (out/s2_hist.png). How many readings fall in the fullest bin?", files: []string{"sensors.csv"},
		python:    loadSensors + "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nn, edges, patches = ax.hist(x[x.sensor == 's2'].temperature, bins=10)\nfig.savefig('out/s2_hist.png')\nprint(f\"@bins[{len(patches)}] @fullest[{int(n.max())}]\")",
		artifacts: []string{"out/s2_hist.png"},
		expect: func(d *data) []eval.Expected {
			xs := temps(d, "s2")
			// As numpy.histogram bins: edges from linspace, last bin closed.
			lo, hi := slices.Min(xs), slices.Max(xs)
			step := (hi - lo) / 10
			edge := func(i int) float64 { return float64(i)*step + lo }
			counts := make([]int, 10)
			for _, x := range xs {
				i := min(int(math.Floor((x-lo)*10/(hi-lo))), 9)
				if x < edge(i) {
					i--
				}
				if i != 9 && x >= edge(i+1) {
					i++
				}
				counts[i]++
			}
			return []eval.Expected{count("bins", 10), count("fullest", slices.Max(counts))}
		}},
}
