# Template "topn": group by a category, aggregate a measure (or count rows),
# rank the groups and chart the top (or bottom) N.


def pandas_groups():
    """The aggregate per group from the whole table."""
    df = load()
    stage("find the columns")
    measure = find_measure(df) if P.get("measure") else None
    if measure is None and P.get("aggregation") not in (None, "", "count"):
        measure = find_measure(df, required=True)
    cat = find_category(df, exclude=(measure,))
    agg = aggregation(measure)
    stage("group by %s" % cat)
    data = pd.DataFrame({"c": df[cat].astype("string").fillna("(missing)")})
    m = None
    if measure is not None:
        data["v"] = to_number(df[measure])
        m = "v"
    return measure, cat, agg, aggregate(data.groupby("c"), m, agg)


def duckdb_groups(pre):
    """The same, aggregated by the DuckDB engine out of core."""
    rows = pre["groups"]
    values = pd.Series([np.nan if v is None else float(v) for _, v in rows], index=[c for c, _ in rows], dtype=float)
    values.index.name = "c"
    return P.get("measure") or None, P["category"], P["aggregation"], values


def main():
    pre = P.get("pre")
    measure, cat, agg, values = duckdb_groups(pre) if pre else pandas_groups()
    n = int(P.get("n") or 10)
    ascending = bool(P.get("ascending"))
    values, _ = drop_totals(values, cat)
    values = values.sort_values(ascending=ascending, kind="mergesort")
    what = describe_agg(measure, agg)
    total = values.sum() if agg in ("sum", "count") else None
    table = pd.DataFrame({"rank": range(1, len(values) + 1), cat: values.index, what: values.values})
    if total:
        table["share"] = table[what] / total
    csv_path = save_csv(table, "ranking")
    top = table.head(n)
    shown = top.copy()
    if "share" in shown:
        shown["share"] = shown["share"].map(pct)
    shown = headers(shown, "rank", "share")

    stage("draw the chart")
    fig, ax = figure(8, max(3, 0.35 * len(top) + 1.2))
    ax.barh([str(x)[:30] for x in top[cat]][::-1], list(top[what])[::-1], color="#4f81bd")
    word = "Bottom" if ascending else "Top"
    title = tr("%s %d %s by %s" % (word, len(top), plural(cat, len(top)), what),
               "%s%s的%d个%s" % (what, "最低" if ascending else "最高", len(top), cat))
    ax.set_title(title)
    ax.set_xlabel(what)
    png = save_fig(fig, "chart")
    md = md_table(shown, max_rows=max(n, 1))
    if len(values) > n:
        md += tr("\n\n%s of %s groups shown; the CSV ranks them all." % (fmt(len(top)), fmt(len(values))),
                 "\n\n显示 %s 组，共 %s 组；CSV 文件列出全部排名。" % (fmt(len(top)), fmt(len(values))))
    section(title, md, [png, csv_path])

    R["data"] = {
        "category": cat, "measure": measure, "aggregation": agg, "n": n, "ascending": ascending,
        "groups": len(values), "total": total, "left_out_totals": LEFT_OUT,
        "top": [{"name": str(r[cat]), "value": r[what], "share": (r["share"] if total else None)}
                for _, r in top.iterrows()],
    }
    items = tr(", ", "、").join("%s (%s%s)" % (r[cat], fmt(r[what]), (", " + pct(r["share"])) if total else "")
                               for _, r in top.head(3).iterrows())
    more = len(top) - 3
    if ZH:
        R["answer"] = "按%s的%s%s：%s%s。" % (cat, what, "倒数" if ascending else "排名", items,
                                          "；表中还有 %d 项" % more if more > 0 else "")
    else:
        R["answer"] = "%s %s by %s: %s%s." % (word, plural(cat, len(top)), what, items, "; %d more in the table" % more if more > 0 else "")


run_template(main)
