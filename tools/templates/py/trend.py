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
    totals, by_cat = None, None
    if cat is not None:
        totals = data.groupby("c")["v" if m else "t"].agg("sum" if m else "size").sort_values(ascending=False)
        # A total row ("All natural disasters") would be a line of its own
        # and count everything twice in the overall series.
        totals, dropped = drop_totals(totals, cat, "the lines and the overall series")
        data = data[~data["c"].isin(dropped)]
        top = list(totals.index[:MAX_LINES])
        sub = data[data["c"].isin(top)]
        by_cat = aggregate(sub.groupby(["p", "c"]), m, agg).unstack("c")
    series = aggregate(data.groupby("p"), m, agg)
    return tcol, bad, measure, agg, cat, code, periods, series, totals, by_cat, data["t"]


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
    if totals is not None:
        totals, dropped = drop_totals(totals, cat, "the lines")
        by_cat = by_cat.drop(columns=[c for c in dropped if c in by_cat.columns])
    return P["time"], pre["bad"], P.get("measure") or None, P["aggregation"], cat, code, periods, series, totals, by_cat, pre_days(pre)


def change_text(v, noun):
    if v is None:
        return ""
    return tr(" (%+.1f%% on the %s before)" % (100 * v, noun), "（较上一%s %+.1f%%）" % (noun, 100 * v))


def zh_answer(code, what, cat, per_cat, whole, labels, peak_label, low_label, last, change, partial, agg):
    """The answer in Chinese, with the numbers of the English one."""
    noun = PERIOD_NOUNS_ZH[code]
    partial_text = "".join("%s %s 的数据不完整（%s），不参与比较。" % (noun, period_label(p), why) for p, why in partial.items())
    last_word = "最后一个完整" if partial else "最后一"
    if cat is not None and per_cat:
        parts = ["%s %s → %s%s" % (c, fmt(v["first"]), fmt(v["last"]),
                                   "" if v["change_pct"] is None else "（%+.1f%%）" % (100 * v["change_pct"]))
                 for c, v in per_cat.items()]
        text = "按%s的%s%s，%s 至 %s：%s。" % (cat, PERIOD_WORDS[code], what, period_label(whole.index[0]),
                                          period_label(whole.index[-1]), "；".join(parts))
        if agg in ("sum", "count"):
            text += "全部%s合计：最高在 %s（%s）；%s%s %s 为 %s%s。" % (
                cat, peak_label, fmt(whole.max()), last_word, noun, period_label(whole.index[-1]), fmt(last),
                change_text(change, noun))
        return text + partial_text
    return "%s%s，%s 至 %s：最高在 %s（%s），最低在 %s（%s）；%s%s %s 为 %s%s。%s" % (
        PERIOD_WORDS[code], what, labels[0], labels[-1], peak_label, fmt(whole.max()), low_label,
        fmt(whole.min()), last_word, noun, period_label(whole.index[-1]), fmt(last), change_text(change, noun),
        partial_text)


def main():
    pre = P.get("pre")
    tcol, bad, measure, agg, cat, code, periods, series, totals, by_cat, times = (
        duckdb_series(pre) if pre else pandas_series())
    if bad > 0:
        note(tr("%d rows whose %s is not a date were left out", "%d 行的 %s 不是日期，未计入") % (bad, tcol))
    series = series.reindex(periods)
    if agg in ("sum", "count"):
        series = series.fillna(0.0)
    labels = [period_label(p) for p in series.index]
    what = describe_agg(measure, agg)
    noun = PERIOD_NOUNS[code]

    # A period the data covers only in part is not a whole period: it is
    # flagged and never compared as if it were.
    first_cut, last_cut = partial_ends(times, periods) if times is not None else (None, None)
    partial = {}
    if first_cut is not None:
        partial[periods[0]] = tr("the data starts on %s", "数据从 %s 开始") % first_cut.strftime("%Y-%m-%d")
    if last_cut is not None:
        partial[periods[-1]] = tr("the data ends on %s", "数据到 %s 为止") % last_cut.strftime("%Y-%m-%d")
    for p, why in partial.items():
        note(tr("the %s %s is partial (%s): it is marked in the table and not compared with whole %ss"
                % (noun, period_label(p), why, noun),
                "%s %s 数据不完整（%s）：已在表中标出，不与完整的%s比较" % (period_noun(code), period_label(p), why, period_noun(code))))
    is_partial = pd.Series([p in partial for p in series.index], index=series.index)

    table = pd.DataFrame({noun: labels, what: series.values})
    table["change"] = table[what].diff()
    table["change_pct"] = table[what].pct_change()
    if partial:
        touched = (is_partial | is_partial.shift(1, fill_value=False)).values
        table.loc[touched, ["change", "change_pct"]] = np.nan
        table["partial"] = [tr("partial", "不完整") if x else "" for x in is_partial.values]
    csv_path = save_csv(table, "table")
    shown = table.copy()
    shown["change_pct"] = shown["change_pct"].map(pct)
    shown = headers(shown, noun, "change", "change_pct", "partial")
    tail = shown.tail(36) if len(shown) > 36 else shown

    stage("draw the chart")
    fig, ax = figure()
    cat_md, cat_csv, top = None, None, []
    if cat is not None:
        top = [c for c in totals.index[:MAX_LINES] if c in by_cat.columns]
        by_cat = by_cat.reindex(periods)
        if agg in ("sum", "count"):
            by_cat = by_cat.fillna(0.0)
        for c in top:
            ax.plot(labels, by_cat[c].values, marker="o", markersize=3, label=str(c)[:30])
        ax.legend(fontsize=8)
        cat_table = by_cat[top].copy()
        cat_table.index = labels
        cat_table.index.name = noun
        if partial:
            cat_table["partial"] = [tr("partial", "不完整") if x else "" for x in is_partial.values]
        cat_csv = save_csv(cat_table, "by_%s" % "category", index=True)
        cat_md = md_table(headers(cat_table.tail(36).reset_index(), noun, "partial"), max_rows=36)
        if len(top) < len(totals):
            note(tr("lines are drawn for the %d largest of %d %s values" % (len(top), len(totals), cat),
                    "只画出了 %d 个%s值中最大的 %d 个" % (len(totals), cat, len(top))))
    else:
        ax.plot(labels, series.values, marker="o", markersize=3, color="#4f81bd")
    for p in partial:
        i = list(series.index).index(p)
        ax.axvspan(i - 0.5, i + 0.5, color="#d9d9d9", alpha=0.6, lw=0)
    ax.set_title(tr("%s %s%s" % (PERIOD_WORDS[code].capitalize(), what, " by %s" % cat if cat else ""),
                    "%s%s%s" % ("按%s的" % cat if cat else "", PERIOD_WORDS[code], what)))
    ax.set_ylabel(what)
    step = max(1, len(labels) // 12)
    ax.set_xticks(range(0, len(labels), step))
    ax.set_xticklabels(labels[::step], rotation=45, ha="right", fontsize=8)
    ax.grid(alpha=0.3)
    png = save_fig(fig, "chart")

    valid = series.dropna()
    whole = valid[~valid.index.isin(list(partial))]
    if len(whole) == 0:
        whole = valid
    peak_label = period_label(whole.idxmax()) if len(whole) else None
    low_label = period_label(whole.idxmin()) if len(whole) else None
    first, last = (whole.iloc[0], whole.iloc[-1]) if len(whole) else (None, None)
    change = None
    position = {p: i for i, p in enumerate(series.index)}
    if len(whole) >= 2 and whole.iloc[-2] != 0 and position[whole.index[-1]] - position[whole.index[-2]] == 1:
        change = whole.iloc[-1] / whole.iloc[-2] - 1
    md = md_table(tail, max_rows=36)
    if len(shown) > 36:
        md = tr("(the last 36 of %d %ss)\n\n" % (len(shown), noun), "（%d 个%s中的最后 36 个）\n\n" % (len(shown), period_noun(code))) + md
    per_cat = {}
    if cat is not None:
        # "by X" answers per X: each line's own series leads.
        for c in top:
            sc = by_cat[c].dropna()
            sc = sc[~sc.index.isin(list(partial))] if len(sc[~sc.index.isin(list(partial))]) else sc
            if not len(sc):
                continue
            ch = None if sc.iloc[0] == 0 or len(sc) < 2 else sc.iloc[-1] / sc.iloc[0] - 1
            per_cat[str(c)] = {"first": sc.iloc[0], "first_period": period_label(sc.index[0]), "last": sc.iloc[-1],
                               "last_period": period_label(sc.index[-1]), "change_pct": ch,
                               "peak_period": period_label(sc.idxmax()), "peak": sc.max()}
        section(tr("%s %s by %s" % (PERIOD_WORDS[code].capitalize(), what, cat),
                   "按%s的%s%s" % (cat, PERIOD_WORDS[code], what)), cat_md, [png, cat_csv])
        together = tr("all %s values together" % cat, "全部%s合计" % cat)
        section(tr("%s trend: %s, %s" % (PERIOD_WORDS[code].capitalize(), what, together),
                   "%s趋势：%s，%s" % (PERIOD_WORDS[code], what, together)), md, [csv_path])
    else:
        section(tr("%s trend: %s" % (PERIOD_WORDS[code].capitalize(), what),
                   "%s趋势：%s" % (PERIOD_WORDS[code], what)), md, [png, csv_path])

    R["data"] = {
        "time": tcol, "measure": measure, "aggregation": agg, "period": noun,
        "labels": labels, "values": list(series.values),
        "peak": {"period": peak_label, "value": whole.max() if len(whole) else None},
        "low": {"period": low_label, "value": whole.min() if len(whole) else None},
        "first": first, "last": last, "last_change_pct": change, "category": cat,
        "partial": [period_label(p) for p in partial],
        "left_out_totals": LEFT_OUT,
    }
    if by_cat is not None:
        R["data"]["by_category"] = {str(c): list(by_cat[c].values) for c in by_cat.columns}
        R["data"]["per_category"] = per_cat
    if not len(valid):
        R["answer"] = tr("No %s values to chart." % what, "没有可绘制的%s数值。" % what)
        return
    if ZH:
        R["answer"] = zh_answer(code, what, cat, per_cat, whole, labels, peak_label, low_label, last, change, partial, agg)
        return
    partial_text = "".join(" The %s %s is partial (%s) and is not compared." % (noun, period_label(p), why)
                           for p, why in partial.items())
    last_word = "last whole" if partial else "last"
    if cat is not None and per_cat:
        parts = ["%s %s → %s%s" % (c, fmt(v["first"]), fmt(v["last"]),
                                   "" if v["change_pct"] is None else " (%+.1f%%)" % (100 * v["change_pct"]))
                 for c, v in per_cat.items()]
        R["answer"] = "%s %s by %s, %s to %s: %s." % (
            PERIOD_WORDS[code].capitalize(), what, cat, period_label(whole.index[0]), period_label(whole.index[-1]),
            "; ".join(parts))
        if agg in ("sum", "count"):
            R["answer"] += " All %s together: highest in %s (%s); the %s %s, %s, was %s%s." % (
                cat, peak_label, fmt(whole.max()), last_word, noun, period_label(whole.index[-1]), fmt(last),
                change_text(change, noun))
        R["answer"] += partial_text
        return
    R["answer"] = "%s %s from %s to %s: highest in %s (%s), lowest in %s (%s); the %s %s, %s, was %s%s.%s" % (
        PERIOD_WORDS[code].capitalize(), what, labels[0], labels[-1], peak_label, fmt(whole.max()), low_label,
        fmt(whole.min()), last_word, noun, period_label(whole.index[-1]), fmt(last), change_text(change, noun),
        partial_text)


run_template(main)
