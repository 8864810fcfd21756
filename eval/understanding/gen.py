"""Writes testdata/questions.jsonl and testdata/heldout.jsonl from questions_src.py, testdata/fresh.jsonl
from fresh_src.py, testdata/unseen.jsonl from unseen_src.py, testdata/blind.jsonl from blind_src.py and testdata/novel.jsonl from
novel_src.py, testdata/untried.jsonl from untried_src.py, testdata/probe.jsonl from probe_src.py, testdata/probe2.jsonl from
probe2_src.py, testdata/probe3.jsonl from probe3_src.py and testdata/probe4.jsonl from probe4_src.py.

Every expected answer table is computed here with pandas from the shipped tables (testdata/tables/), from the
question's hand-written reading; nothing comes from Sift. Run: /usr/bin/python3 gen.py [--check]
(--check exits 1 when the committed files differ from what this would write).
"""
import json
import math
import os
import sys

import numpy as np
import pandas as pd

sys.dont_write_bytecode = True
import blind_src  # noqa: E402
import fresh_src  # noqa: E402
import novel_src  # noqa: E402
import probe2_src  # noqa: E402
import probe3_src  # noqa: E402
import probe4_src  # noqa: E402
import probe_src  # noqa: E402
import questions_src  # noqa: E402
import unseen_src  # noqa: E402
import untried_src  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = os.path.join(HERE, "testdata", "tables")
DATE_FORMATS = {"stocks.csv": {"date": "%b %d %Y"}}
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_cache = {}


def load(table, sheet=None):
    key = (table, sheet)
    if key in _cache:
        return _cache[key].copy()
    path = os.path.join(TABLES, table)
    if table.endswith(".xlsx"):
        if sheet == "*":
            parts = pd.read_excel(path, sheet_name=None)
            df = pd.concat([d.assign(sheet=name) for name, d in parts.items()], ignore_index=True)
        else:
            df = pd.read_excel(path, sheet_name=sheet)
    elif table.endswith(".json"):
        with open(path, encoding="utf-8") as fh:
            df = pd.DataFrame(json.load(fh))
    elif table.endswith(".tsv"):
        df = pd.read_csv(path, sep="\t")
    elif table == "macro_cn.csv":
        df = pd.read_csv(path, encoding="gb18030")
    else:
        df = pd.read_csv(path)
    _cache[key] = df
    return df.copy()


def is_year_int(s):
    return pd.api.types.is_integer_dtype(s) and s.dropna().between(1000, 3000).all()


def dates(df, table, col):
    s = df[col]
    if is_year_int(s):
        return pd.to_datetime(s.astype(int).astype(str) + "-01-01")
    fmt = DATE_FORMATS.get(table, {}).get(col)
    if fmt:
        return pd.to_datetime(s, format=fmt)
    t = pd.to_datetime(s)
    return t.dt.tz_localize(None) if t.dt.tz is not None else t


def time_of(q):
    """The time column the reading names, or the one the table has (for questions that leave it unchecked)."""
    if q.get("t"):
        return q["t"]
    return {"unemployment-across-industries.json": "date"}.get(q["table"])


def apply_filters(df, q):
    for f in q.get("f") or []:
        if "@" in f:
            col, year = f.split("@")
            df = df[dates(df, q["table"], col).dt.year == int(year)]
        elif ">=" in f or "<=" in f:
            op = ">=" if ">=" in f else "<="
            col, v = f.split(op)
            s = df[col]
            if pd.api.types.is_numeric_dtype(s):
                v = float(v)
            else:
                s, v = dates(df, q["table"], col), pd.Timestamp(v)
            df = df[s >= v] if op == ">=" else df[s <= v]
        else:
            col, vals = f.split("=")
            vals = vals.split("|")
            df = df[df[col].astype(str).isin(vals)]
    return df


def measures(q):
    m = q.get("m")
    if m is None:
        return []
    if isinstance(m, str):
        m = [m]
    out = []
    for x in m:
        col, _, agg = x.rpartition(":") if ":" in x else (x, "", "")
        out.append({"column": col, "agg": agg})
    return out


def agg_of(g, col, agg):
    if col == "" or agg == "count" and col == "":
        return g.size()
    s = g[col]
    if agg == "value":
        # A column observed once per group: any aggregation is the value itself (fresh_src.py).
        if g.size().max() != 1:
            raise ValueError("%s:value: a group holds more than one row" % col)
        return s.mean()
    return {"mean": s.mean, "sum": s.sum, "median": s.median, "min": s.min, "max": s.max,
            "count": s.count, "count_distinct": s.nunique}[agg]()


def period_key(t, grain):
    if grain == "year":
        return t.dt.year.astype(str), t.dt.year
    if grain == "month":
        return t.dt.to_period("M").astype(str), t.dt.to_period("M")
    if grain == "quarter":
        return t.dt.to_period("Q").astype(str), t.dt.to_period("Q")
    if grain == "day":
        return t.dt.strftime("%Y-%m-%d"), t.dt.normalize()
    if grain == "week":
        p = t.dt.to_period("W")
        return p.map(lambda x: x.start_time.strftime("%Y-%m-%d")), p
    if grain == "month_of_year":
        return t.dt.month.astype(str), t.dt.month
    if grain == "quarter_of_year":
        return t.dt.quarter.astype(str), t.dt.quarter
    if grain == "weekday":
        return t.dt.day_name(), t.dt.dayofweek
    if grain == "hour_of_day":
        return t.dt.hour.astype(str), t.dt.hour
    raise ValueError("grain " + grain)


def num(v):
    v = float(v)
    if math.isnan(v):
        return None
    return v


def label(v):
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    return str(v)


def grouped(df, keys, ms):
    """One row per group: the keys as strings, then each measure's aggregate."""
    g = df.groupby(keys[0] if len(keys) == 1 else keys, sort=True)
    cols = [agg_of(g, m["column"], m["agg"]) for m in ms] if ms else [g.size()]
    # Numbered, not named: two aggregations of one column (min and max price) would share a name.
    return pd.concat(cols, axis=1, keys=range(len(cols)))


def answer(q):
    df = apply_filters(load(q["table"], q.get("sheet")), q)
    ms = measures(q)
    an = q["analysis"]
    by = q.get("by") or []
    name = [m["column"] or "count" for m in ms] or ["count"]
    if q.get("g") and an in ("trend", None, "pivot") or (an is None and q.get("g")):
        t = dates(df, q["table"], time_of(q))
        keylab, keysort = period_key(t, q["g"])
        df = df.assign(_k=keylab.values, _s=keysort.values)
        out = grouped(df, ["_s", "_k"] + by, ms)
        rows = [[str(i[1])] + [label(x) for x in i[2:]] + [num(v) for v in r] for i, r in zip(out.index, out.values)]
        return {"columns": [q["g"]] + by + name, "rows": rows}
    if an == "compare_periods":
        t = dates(df, q["table"], q["t"])
        keylab, _ = period_key(t, q["g"])
        df = df.assign(_k=keylab.values)
        out = grouped(df, ["_k"], ms)
        periods = q.get("p") or list(out.index)
        rows = [[p, num(out.loc[p].iloc[0])] for p in periods]
        return {"columns": ["period"] + name, "rows": rows}
    if an in ("topn", None):
        out = grouped(df, by, ms)
        out = out.sort_values(out.columns[0], ascending=q.get("o") == "asc", kind="mergesort")
        n = q.get("n") or 10
        out = out.head(n)
        keys = out.index if len(by) > 1 else [(i,) for i in out.index]
        rows = [[label(x) for x in k] + [num(v) for v in r] for k, r in zip(keys, out.values)]
        n_all = grouped(df, by, ms).iloc[:, 0].sort_values(ascending=q.get("o") == "asc", kind="mergesort")
        if len(n_all) > n and n_all.iloc[n - 1] == n_all.iloc[n]:
            raise ValueError("%s: a tie at rank %d makes the top %d ambiguous" % (q["question"], n, n))
        return {"columns": by + name, "rows": rows}
    if an == "pivot":
        out = grouped(df, by, ms)
        keys = out.index if len(by) > 1 else [(i,) for i in out.index]
        rows = [[label(x) for x in k] + [num(v) for v in r] for k, r in zip(keys, out.values)]
        return {"columns": by + name, "rows": rows}
    if an == "correlation":
        cols = [m["column"] for m in ms]
        c = df[cols].apply(pd.to_numeric, errors="coerce").corr(method=q.get("method") or "pearson")
        rows = [[a, b, num(c.loc[a, b])] for i, a in enumerate(cols) for b in cols[i + 1:]]
        return {"columns": ["column_a", "column_b", "r"], "rows": rows}
    if an == "distribution":
        rows = []
        for m in ms:
            s = pd.to_numeric(df[m["column"]], errors="coerce").dropna()
            rows.append([m["column"]] + [num(x) for x in [s.count(), s.mean(), s.std(), s.min(), s.quantile(.25),
                                                          s.median(), s.quantile(.75), s.max()]])
        return {"columns": ["column", "count", "mean", "std", "min", "q1", "median", "q3", "max"], "rows": rows}
    if an == "outliers":
        rows = []
        for m in ms:
            parts = df.groupby(by[0] if len(by) == 1 else by, sort=True) if by else [(m["column"], df)]
            for key, part in parts:
                s = pd.to_numeric(part[m["column"]], errors="coerce").dropna()
                q1, q3 = s.quantile(.25), s.quantile(.75)
                lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
                k = key if isinstance(key, tuple) else (key,)
                rows.append([label(x) for x in k] + [num(lo), num(hi), num(((s < lo) | (s > hi)).sum())])
        return {"columns": (by or ["column"]) + ["lower_fence", "upper_fence", "iqr_outliers"], "rows": rows}
    if an == "profile":
        rows = [[c, num(df[c].notna().sum()), num(df[c].isna().sum())] for c in df.columns]
        return {"columns": ["column", "non_null", "missing"], "rows": rows}
    raise ValueError("no answer for analysis %r" % an)


def reading(q):
    r = {}
    if q["analysis"]:
        r["analysis"] = q["analysis"]
    r["measures"] = [dict(m, agg="") if m["agg"] == "value" else m for m in measures(q)]
    r["group_by"] = q.get("by") or []
    if q.get("t"):
        r["time"] = q["t"]
    if q.get("g"):
        r["grain"] = q["g"]
    fs = []
    for f in q.get("f") or []:
        if "@" in f:
            col, year = f.split("@")
            fs.append({"column": col, "op": "year", "values": [year]})
        elif ">=" in f or "<=" in f:
            op = ">=" if ">=" in f else "<="
            col, v = f.split(op)
            fs.append({"column": col, "op": op, "values": [v]})
        else:
            col, vals = f.split("=")
            fs.append({"column": col, "op": "=", "values": vals.split("|")})
    r["filters"] = fs
    if q.get("n"):
        r["n"] = q["n"]
    if q.get("o"):
        r["order"] = q["o"]
    if q.get("p"):
        r["periods"] = q["p"]
    if q.get("sheet"):
        r["sheet"] = q["sheet"]
    if q.get("method"):
        r["method"] = q["method"]
    return r


def records(qs, prefix):
    out, counters = [], {}
    short = {"seattle-weather.csv": "weather", "cars.json": "cars", "cars.xlsx": "carsxlsx", "stocks.csv": "stocks",
             "disasters.csv": "disasters", "birdstrikes.csv": "birds", "macro_cn.csv": "macro",
             "grunfeld.csv": "grunfeld", "statecrime.tsv": "crime", "gapminder.json": "gapminder",
             "iowa-electricity.csv": "iowa", "unemployment-across-industries.json": "unemp",
             "penguins.json": "penguins", "co2-concentration.csv": "co2", "flights-2k.json": "flights",
             "us-employment.csv": "employ", "population_cn.csv": "popcn"}
    for q in qs:
        k = (short[q["table"]], q["lang"])
        counters[k] = counters.get(k, 0) + 1
        rec = {"id": "%s%s-%s-%03d" % (prefix, k[0], k[1], counters[k]), "lang": q["lang"], "table": q["table"],
               "question": q["question"], "answerable": q["answerable"]}
        if q["answerable"] is True:
            rec["reading"] = reading(q)
            if q.get("unchecked"):
                rec["unchecked"] = q["unchecked"]
            rec["answer"] = answer(q)
        else:
            rec["why"] = q["why"]
        out.append(json.dumps(rec, ensure_ascii=False, allow_nan=False))
    return "\n".join(out) + "\n"


def main():
    check = "--check" in sys.argv
    files = {"questions.jsonl": records(questions_src.Q, ""), "heldout.jsonl": records(questions_src.HELDOUT, "h-"),
             "fresh.jsonl": records(fresh_src.FRESH, "f-"), "unseen.jsonl": records(unseen_src.UNSEEN, "u-"),
             "blind.jsonl": records(blind_src.BLIND, "b-"), "novel.jsonl": records(novel_src.NOVEL, "n-"),
             "untried.jsonl": records(untried_src.UNTRIED, "t-"),
             "probe.jsonl": records(probe_src.PROBE, "p-"),
             "probe2.jsonl": records(probe2_src.PROBE2, "p2-"),
             "probe3.jsonl": records(probe3_src.PROBE3, "p3-"),
             "probe4.jsonl": records(probe4_src.PROBE4, "p4-")}
    stale = []
    for name, text in files.items():
        path = os.path.join(HERE, "testdata", name)
        if check:
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
            if old != text:
                stale.append(name)
        else:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
    if stale:
        print("stale: %s; run: /usr/bin/python3 eval/understanding/gen.py" % ", ".join(stale), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
