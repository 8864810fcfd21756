"""Rebuilds testdata/tables/ from their public sources (see testdata/tables/SOURCES.md).

Usage: /usr/bin/python3 tables.py VEGA_DATA_DIR
VEGA_DATA_DIR is the data/ folder of the npm package vega-datasets 3.2.1
(npm pack vega-datasets@3.2.1, then untar). The statsmodels tables come from
Debian's python3-statsmodels. Every reshaping is deterministic.
"""
import json
import os
import shutil
import sys

import pandas as pd
import statsmodels.api as sm

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "testdata", "tables")


def copy(vega, name, dest=None):
    shutil.copyfile(os.path.join(vega, name), os.path.join(OUT, dest or name))


def main(vega):
    os.makedirs(OUT, exist_ok=True)
    for name in ["seattle-weather.csv", "cars.json", "stocks.csv", "disasters.csv", "iowa-electricity.csv",
                 "gapminder.json", "unemployment-across-industries.json", "penguins.json",
                 "co2-concentration.csv"]:
        copy(vega, name)

    # birdstrikes: every second row (rows 0, 2, 4, ...), so it stays under 1 MB.
    birds = pd.read_csv(os.path.join(vega, "birdstrikes.csv"))
    birds.iloc[::2].to_csv(os.path.join(OUT, "birdstrikes.csv"), index=False)

    # cars.xlsx: cars.json split by Origin into one sheet per origin (USA, Europe, Japan), same columns,
    # Origin itself dropped (the sheet is the origin) and Year reduced to the model year as an integer.
    cars = pd.read_json(os.path.join(vega, "cars.json"))
    cars["Year"] = pd.to_datetime(cars["Year"]).dt.year
    with pd.ExcelWriter(os.path.join(OUT, "cars.xlsx"), engine="openpyxl") as w:
        for origin in ["USA", "Europe", "Japan"]:
            cars[cars["Origin"] == origin].drop(columns=["Origin"]).to_excel(w, sheet_name=origin, index=False)

    # macro_cn.csv: statsmodels macrodata with its headers translated to Chinese, encoded in GB18030.
    macro = sm.datasets.macrodata.load_pandas().data
    macro["year"] = macro["year"].astype(int)
    macro["quarter"] = macro["quarter"].astype(int)
    macro = macro.rename(columns={
        "year": "年份", "quarter": "季度", "realgdp": "实际GDP", "realcons": "实际消费", "realinv": "实际投资",
        "realgovt": "实际政府支出", "realdpi": "实际可支配收入", "cpi": "消费价格指数", "m1": "货币供应量M1",
        "tbilrate": "国债利率", "unemp": "失业率", "pop": "人口", "infl": "通胀率", "realint": "实际利率"})
    macro.to_csv(os.path.join(OUT, "macro_cn.csv"), index=False, encoding="gb18030")

    # grunfeld.csv: statsmodels grunfeld, year as an integer.
    grun = sm.datasets.grunfeld.load_pandas().data
    grun["year"] = grun["year"].astype(int)
    grun[["firm", "year", "invest", "value", "capital"]].to_csv(os.path.join(OUT, "grunfeld.csv"), index=False)

    # statecrime.tsv: statsmodels statecrime, the state index as a column, tab-separated.
    crime = sm.datasets.statecrime.load_pandas().data.reset_index()
    crime.to_csv(os.path.join(OUT, "statecrime.tsv"), index=False, sep="\t")

    # The fresh set's tables (testdata/fresh.jsonl): flights-2k.json and us-employment.csv as they are;
    # population.json with its headers translated to Chinese (year, age, sex, people) and sex written as
    # 男 (1) and 女 (2), as the data package documents the codes.
    for name in ["flights-2k.json", "us-employment.csv"]:
        copy(vega, name)
    pop = pd.read_json(os.path.join(vega, "population.json"))
    pop["sex"] = pop["sex"].map({1: "男", 2: "女"})
    pop = pop.rename(columns={"year": "年份", "age": "年龄组", "sex": "性别", "people": "人数"})
    pop.to_csv(os.path.join(OUT, "population_cn.csv"), index=False, encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
