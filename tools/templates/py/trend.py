# Template "trend": a measure summed (or averaged, or counted) per day, week,
# month, quarter or year, with a line chart; optionally one line per category.
MAX_LINES = 6


def pandas_series():
    """The measure per period (and per category) from the whole table."""
    df = load()
    stage("find the time column")
    tcol = find_time(df)
    times = to_dates(df[tcol])
    bad = int(times.isna().sum() - df[tcol].isna().sum())
    if times.notna().sum() == 0:
        raise TemplateError("column %r holds no dates; name the time column explicitly (time=...)" % tcol)
    stage("find the measure")
    measure = find_measure(df)
    agg = aggregation(measure)
    data = pd.DataFrame({"t": times})
    if measure is not None:
        data["v"] = to_number(df[measure])
    cat = None
    if P.get("category"):
        cat = col(df, P["category"], "category column")
        data["c"] = df[cat].astype("string").fillna("(missing)")
    data = data.dropna(subset=["t"])
    code = period_code(data["t"])
    stage("group by %s" % PERIOD_NOUNS[code])
    data["p"] = data["t"].dt.to_period(code)
    periods = full_periods(data["p"])
    m = "v" if measure is not None else None
    series = aggregate(data.groupby("p"), m, agg)
    totals, by_cat = None, None
    if cat is not None:
        totals = data.groupby("c")["v" if m else "t"].agg("sum" if m else "size").sort_values(ascending=False)
        top = list(totals.index[:MAX_LINES])
        sub = data[data["c"].isin(top)]
        by_cat = aggregate(sub.groupby(["p", "c"]), m, agg).unstack("c")
    return tcol, bad, measure, agg, cat, code, periods, series, totals, by_cat


def duckdb_series(pre):
    """The same, aggregated by the DuckDB engine out of core."""
    code = pre["code"]
    series = pre_series(pre["series"], code)
    periods = pd.period_range(series.index.min(), series.index.max(), freq=code)
    cat, totals, by_cat = P.get("category") or None, None, None
    if cat is not None:
        totals = pd.Series([float(v) for _, v in pre["totals"]], index=[c for c, _ in pre["totals"]], dtype=float)
        idx = pd.MultiIndex.from_tuples([(pd.Period(p, freq=code), c) for p, c, _ in pre["by_cat"]], names=["p", "c"])
        by_cat = pd.Series([np.nan if v is None else float(v) for _, _, v in pre["by_cat"]], index=idx).unstack("c")
    return P["time"], pre["bad"], P.get("measure") or None, P["aggregation"], cat, code, periods, series, totals, by_cat


def main():
    pre = P.get("pre")
    tcol, bad, measure, agg, cat, code, periods, series, totals, by_cat = (
        duckdb_series(pre) if pre else pandas_series())
    if bad > 0:
        note("%d rows whose %s is not a date were left out" % (bad, tcol))
    series = series.reindex(periods)
    if agg in ("sum", "count"):
        series = series.fillna(0.0)
    labels = [period_label(p) for p in series.index]
    what = describe_agg(measure, agg)

    table = pd.DataFrame({PERIOD_NOUNS[code]: labels, what: series.values})
    table["change"] = table[what].diff()
    table["change_pct"] = table[what].pct_change()
    csv_path = save_csv(table, "table")
    shown = table.copy()
    shown["change_pct"] = shown["change_pct"].map(pct)
    tail = shown.tail(36) if len(shown) > 36 else shown

    stage("draw the chart")
    fig, ax = figure()
    if cat is not None:
        top = list(totals.index[:MAX_LINES])
        by_cat = by_cat.reindex(periods)
        if agg in ("sum", "count"):
            by_cat = by_cat.fillna(0.0)
        for c in top:
            ax.plot(labels, by_cat[c].values, marker="o", markersize=3, label=str(c)[:30])
        ax.legend(fontsize=8)
        cat_table = by_cat.copy()
        cat_table.index = labels
        cat_table.index.name = PERIOD_NOUNS[code]
        cat_csv = save_csv(cat_table, "by_%s" % "category", index=True)
        if len(top) < len(totals):
            note("lines are drawn for the %d largest of %d %s values" % (len(top), len(totals), cat))
    else:
        ax.plot(labels, series.values, marker="o", markersize=3, color="#4f81bd")
    ax.set_title("%s %s%s" % (PERIOD_WORDS[code].capitalize(), what, " by %s" % cat if cat else ""))
    ax.set_ylabel(what)
    step = max(1, len(labels) // 12)
    ax.set_xticks(range(0, len(labels), step))
    ax.set_xticklabels(labels[::step], rotation=45, ha="right", fontsize=8)
    ax.grid(alpha=0.3)
    png = save_fig(fig, "chart")

    valid = series.dropna()
    peak_label = period_label(valid.idxmax()) if len(valid) else None
    low_label = period_label(valid.idxmin()) if len(valid) else None
    first, last = (valid.iloc[0], valid.iloc[-1]) if len(valid) else (None, None)
    change = None
    if len(valid) >= 2 and valid.iloc[-2] != 0:
        change = valid.iloc[-1] / valid.iloc[-2] - 1
    md = md_table(tail, max_rows=36)
    if len(shown) > 36:
        md = "(the last 36 of %d %ss)\n\n" % (len(shown), PERIOD_NOUNS[code]) + md
    files = [png, csv_path]
    if by_cat is not None:
        files.append(cat_csv)
    section("%s trend: %s" % (PERIOD_WORDS[code].capitalize(), what), md, files)

    R["data"] = {
        "time": tcol, "measure": measure, "aggregation": agg, "period": PERIOD_NOUNS[code],
        "labels": labels, "values": list(series.values),
        "peak": {"period": peak_label, "value": valid.max() if len(valid) else None},
        "low": {"period": low_label, "value": valid.min() if len(valid) else None},
        "first": first, "last": last, "last_change_pct": change, "category": cat,
    }
    if by_cat is not None:
        R["data"]["by_category"] = {str(c): list(by_cat[c].values) for c in by_cat.columns}
    if not len(valid):
        R["answer"] = "No %s values to chart." % what
        return
    R["answer"] = "%s %s from %s to %s: highest in %s (%s), lowest in %s (%s); the last %s, %s, was %s%s." % (
        PERIOD_WORDS[code].capitalize(), what, labels[0], labels[-1], peak_label, fmt(valid.max()), low_label,
        fmt(valid.min()), PERIOD_NOUNS[code], period_label(valid.index[-1]), fmt(last),
        "" if change is None else " (%+.1f%% on the %s before)" % (100 * change, PERIOD_NOUNS[code]))


run_template(main)
