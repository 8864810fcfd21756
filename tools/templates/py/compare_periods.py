# Template "compare_periods": each period against the one before (month over
# month, quarter over quarter, week over week) or the same period a year
# before (year over year), with the latest comparison as the headline.
MODES = {
    "mom": ("M", 1, "month over month"),
    "qoq": ("Q", 1, "quarter over quarter"),
    "wow": ("W", 1, "week over week"),
    "dod": ("D", 1, "day over day"),
    "yoy": (None, None, "year over year"),
}
# MODES_ZH are the comparisons' names in Chinese.
MODES_ZH = {"mom": "月环比", "qoq": "季度环比", "wow": "周环比", "dod": "日环比", "yoy": "同比"}
YEAR_LAGS = {"D": 365, "W": 52, "M": 12, "Q": 4, "Y": 1}


def pandas_series(code):
    """The measure per period from the whole table, and its last time."""
    df = load()
    stage("find the time column")
    tcol = find_time(df)
    times = to_dates(df[tcol])
    if times.notna().sum() == 0:
        raise TemplateError("column %r holds no dates; name the time column explicitly (time=...)" % tcol)
    stage("find the measure")
    measure = find_measure(df)
    agg = aggregation(measure)
    data = pd.DataFrame({"t": times})
    m = None
    if measure is not None:
        data["v"] = to_number(df[measure])
        m = "v"
    data = data.dropna(subset=["t"])
    stage("group by %s" % PERIOD_NOUNS[code])
    data["p"] = data["t"].dt.to_period(code)
    periods = full_periods(data["p"])
    return tcol, measure, agg, periods, aggregate(data.groupby("p"), m, agg), data["t"]


def duckdb_series(pre, code):
    """The same, aggregated by the DuckDB engine out of core."""
    series = pre_series(pre["series"], code)
    periods = pd.period_range(series.index.min(), series.index.max(), freq=code)
    if pre.get("days"):
        return P["time"], P.get("measure") or None, P["aggregation"], periods, series, pre_days(pre)
    return P["time"], P.get("measure") or None, P["aggregation"], periods, series, pd.Timestamp(pre["last_t"])


def partial_periods(times, periods):
    """The periods the data covers only in part, each with why."""
    if isinstance(times, pd.Timestamp):
        # The DuckDB engine gives only the last time.
        first, last = None, (times if times < periods[-1].end_time.normalize() else None)
    else:
        first, last = partial_ends(times, periods)
    out = {}
    if first is not None:
        out[periods[0]] = tr("the data starts on %s", "数据从 %s 开始") % first.strftime("%Y-%m-%d")
    if last is not None:
        out[periods[-1]] = tr("the data ends on %s", "数据到 %s 为止") % last.strftime("%Y-%m-%d")
    return out


def main():
    mode = P.get("compare") or "mom"
    if mode not in MODES:
        raise TemplateError("unknown comparison %r; use one of %s" % (mode, ", ".join(MODES)))
    code, lag, title = MODES[mode]
    if mode == "yoy":
        code = PERIODS[P["period"]] if P.get("period") else "M"
        lag = YEAR_LAGS[code]
    pre = P.get("pre")
    tcol, measure, agg, periods, series, times = duckdb_series(pre, code) if pre else pandas_series(code)
    series = series.reindex(periods)
    if agg in ("sum", "count"):
        series = series.fillna(0.0)
    what = describe_agg(measure, agg)
    prev = series.shift(lag)
    prev_labels = [period_label(p - lag) for p in series.index]
    table = pd.DataFrame({
        PERIOD_NOUNS[code]: [period_label(p) for p in series.index],
        what: series.values,
        "compared_with": prev_labels,
        "previous": prev.values,
    })
    table["change"] = table[what] - table["previous"]
    table["change_pct"] = [
        (c / p) if (p is not None and not pd.isna(p) and p != 0) else np.nan
        for c, p in zip(table["change"], table["previous"])
    ]
    partial = partial_periods(times, periods)
    if partial:
        # A partial period is never compared as if it were whole.
        cut = set(period_label(p) for p in partial)
        touched = table.iloc[:, 0].isin(cut) | table["compared_with"].isin(cut)
        table.loc[touched, ["change", "change_pct"]] = np.nan
        table["partial"] = ["partial" if x in cut else "" for x in table.iloc[:, 0]]
        for p, why in partial.items():
            note(tr("the %s %s is partial (%s): it is not compared with whole %ss"
                    % (PERIOD_NOUNS[code], period_label(p), why, PERIOD_NOUNS[code]),
                    "%s %s 数据不完整（%s）：不与完整的%s比较" % (period_noun(code), period_label(p), why, period_noun(code))))
    comparable = table.dropna(subset=["previous"])
    whole = comparable.dropna(subset=["change"]) if partial else comparable
    if partial and not whole.empty:
        comparable = whole
    if comparable.empty:
        raise TemplateError(
            "the data covers %d %s(s) (%s to %s), too short for a %s comparison; use a shorter period or more data"
            % (len(series), PERIOD_NOUNS[code], table.iloc[0, 0], table.iloc[-1, 0], title))
    csv_path = save_csv(table, "table")
    latest = comparable.iloc[-1]

    stage("draw the chart")
    recent = comparable.tail(12)
    fig, ax = figure()
    x = np.arange(len(recent))
    ax.bar(x - 0.2, recent["previous"], width=0.4, label=tr("compared period", "对比期"), color="#a6a6a6")
    ax.bar(x + 0.2, recent[what], width=0.4, label=period_noun(code), color="#4f81bd")
    ax.set_xticks(x)
    ax.set_xticklabels(recent.iloc[:, 0], rotation=45, ha="right", fontsize=8)
    ax.set_title(tr("%s, %s" % (what, title), "%s，%s" % (what, MODES_ZH[mode])))
    ax.legend(fontsize=8)
    png = save_fig(fig, "chart")
    shown = comparable.copy()
    shown["change_pct"] = shown["change_pct"].map(pct)
    shown = headers(shown, PERIOD_NOUNS[code], "compared_with", "previous", "change", "change_pct", "partial")
    md = md_table(shown.tail(24), max_rows=24)
    section(tr("%s: %s" % (title.capitalize(), what), "%s：%s" % (MODES_ZH[mode], what)), md, [png, csv_path])

    rows = [{"period": r.iloc[0], "value": r[what], "previous_period": r["compared_with"], "previous": r["previous"],
             "change": r["change"], "change_pct": r["change_pct"]} for _, r in comparable.iterrows()]
    R["data"] = {"time": tcol, "measure": measure, "aggregation": agg, "compare": mode, "period": PERIOD_NOUNS[code],
                 "rows": rows, "latest": rows[-1], "partial": [period_label(p) for p in partial]}
    change = latest["change_pct"]
    delta = ("+" if latest["change"] >= 0 else "") + fmt(latest["change"])
    if ZH:
        R["answer"] = "%s：%s 为 %s，%s 为 %s（%s%s）。" % (
            what, latest.iloc[0], fmt(latest[what]), latest["compared_with"], fmt(latest["previous"]), delta,
            "" if pd.isna(change) else "，%+.1f%%" % (100 * change))
        for p, why in partial.items():
            R["answer"] += "%s %s 数据不完整（%s），未参与比较。" % (PERIOD_NOUNS_ZH[code], period_label(p), why)
    else:
        R["answer"] = "%s, %s: %s was %s against %s in %s (%s%s)." % (
            what.capitalize(), title, latest.iloc[0], fmt(latest[what]), fmt(latest["previous"]), latest["compared_with"],
            delta, "" if pd.isna(change) else ", %+.1f%%" % (100 * change))
        for p, why in partial.items():
            R["answer"] += " The %s %s is partial (%s) and is not compared." % (PERIOD_NOUNS[code], period_label(p), why)


run_template(main)
