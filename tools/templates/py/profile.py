# Template "profile": shape, types, missing values, duplicates, summary
# statistics, top categories and distributions. Bounded for wide files: every
# column is counted, but tables and charts show at most a few dozen.
MAX_MD_COLUMNS = 30
MAX_STAT_COLUMNS = 50
MAX_CATEGORY_COLUMNS = 8
MAX_HIST = 12
TOP_VALUES = 5


# KINDS_ZH are kind_of's words in Chinese, for the report's table.
KINDS_ZH = {"empty": "空", "bool": "布尔", "datetime": "日期时间", "int": "整数", "float": "小数",
            "number as text": "文本形式的数字", "date": "日期", "text": "文本"}


def kind_of(s):
    if s.notna().sum() == 0:
        return "empty"
    if pd.api.types.is_bool_dtype(s):
        return "bool"
    if pd.api.types.is_datetime64_any_dtype(s):
        return "datetime"
    if pd.api.types.is_numeric_dtype(s):
        return "int" if pd.api.types.is_integer_dtype(s) or (s.dropna() % 1 == 0).all() else "float"
    if numeric_share(s) >= 0.9:
        return "number as text"
    if date_share(s) >= 0.8:
        return "date"
    return "text"


def pandas_facts():
    """The profile's counts from the whole table in pandas."""
    df = load()
    rows = len(df)
    stage("count missing values and types")
    missing = df.isna().sum()
    kinds = {c: kind_of(df[c]) for c in df.columns}
    uniques = df.nunique(dropna=True)
    stage("count duplicate rows")
    dups = int(df.duplicated().sum())
    stage("summarise numeric columns")
    nums = [c for c in df.columns if kinds[c] in ("int", "float", "number as text")]
    desc, hists = None, {}
    if nums:
        values = pd.DataFrame({c: to_number(df[c]) for c in nums[:MAX_STAT_COLUMNS]})
        desc = values.describe().T
        for c in nums[:MAX_HIST]:
            v = to_number(df[c]).dropna()
            counts, edges = np.histogram(v, bins=min(30, max(1, v.nunique())))
            hists[c] = (edges, counts)
    stage("list top categories")
    cats = [c for c in df.columns if kinds[c] in ("text", "bool") and uniques[c] >= 1][:MAX_CATEGORY_COLUMNS]
    tops = {c: df[c].value_counts(dropna=True).head(TOP_VALUES) for c in cats}
    return list(df.columns), rows, missing, kinds, uniques, dups, nums, desc, hists, tops


def duckdb_facts(pre):
    """The same counts, computed by the DuckDB engine out of core."""
    columns = pre["columns"]
    missing = pd.Series(pre["missing"]).reindex(columns)
    uniques = pd.Series(pre["uniques"]).reindex(columns)
    kinds = dict(zip(columns, pre["kinds"]))
    nums = [c for c in columns if kinds[c] in ("int", "float", "number as text")]
    desc, hists = None, {}
    if pre["numeric_order"]:
        stat_names = ["count", "mean", "std", "min", "25%", "50%", "75%", "max"]
        desc = pd.DataFrame([[pre["numeric"][c][k] for k in stat_names] for c in pre["numeric_order"]],
                            index=pre["numeric_order"], columns=stat_names, dtype=float)
        for c in pre["numeric_order"]:
            h = pre["numeric"][c].get("hist")
            if h:
                hists[c] = (np.array(h["edges"], dtype=float), np.array(h["counts"]))
    # A table with no text column has no top values (null, not []).
    top_values = pre.get("top_values") or {}
    tops = {c: pd.Series([n for _, n in top_values[c]], index=[v for v, _ in top_values[c]], dtype="int64")
            for c in pre.get("top_order") or []}
    return columns, pre["rows"], missing, kinds, uniques, pre["duplicates"], nums, desc, hists, tops


def main():
    pre = P.get("pre")
    columns, rows, missing, kinds, uniques, dups, nums, desc, hists, tops = (
        duckdb_facts(pre) if pre else pandas_facts())
    ncols = len(columns)
    stage("write the profile")
    cols = pd.DataFrame({
        "column": columns,
        "type": [kinds[c] for c in columns],
        "non_null": [int(rows - missing[c]) for c in columns],
        "missing": [int(missing[c]) for c in columns],
        "missing_pct": [float(missing[c]) / rows for c in columns],
        "unique": [int(uniques[c]) for c in columns],
    })
    cols_csv = save_csv(cols, "columns")
    shown = cols.head(MAX_MD_COLUMNS).copy()
    shown["missing_pct"] = shown["missing_pct"].map(pct)
    with_missing = cols[cols["missing"] > 0].sort_values("missing", ascending=False)
    empty = [c for c in columns if kinds[c] == "empty"]
    lines = [
        tr("- **%s rows × %s columns**", "- **%s 行 × %s 列**") % (fmt(rows), fmt(ncols)),
        tr("- Duplicate rows: %s", "- 重复行：%s") % fmt(dups),
        tr("- Columns with missing values: %s of %s", "- 有缺失值的列：%s / %s") % (fmt(len(with_missing)), fmt(ncols)),
    ]
    if empty:
        lines.append(tr("- Entirely empty columns: %s", "- 完全为空的列：%s") % ", ".join(empty[:20]) + (" …" if len(empty) > 20 else ""))
    if ZH:
        shown["type"] = shown["type"].map(lambda k: KINDS_ZH.get(k, k))
    shown = headers(shown, "column", "type", "non_null", "missing", "missing_pct", "unique")
    md = "\n".join(lines) + "\n\n" + md_table(shown, max_rows=MAX_MD_COLUMNS)
    if ncols > MAX_MD_COLUMNS:
        md += tr("\n\n(%d of %d columns shown; the CSV lists them all)", "\n\n（显示 %d 列，共 %d 列；CSV 文件列出全部）") % (MAX_MD_COLUMNS, ncols)
    files = [cols_csv]
    if len(with_missing):
        stage("chart missing values")
        top = with_missing.head(30)
        fig, ax = figure(8, max(2.5, 0.3 * len(top) + 1))
        ax.barh(top["column"].astype(str)[::-1], (100 * top["missing_pct"])[::-1], color="#c0504d")
        ax.set_xlabel(tr("% missing", "缺失比例（%）"))
        ax.set_title(tr("Missing values by column", "各列的缺失值"))
        files.append(save_fig(fig, "missing"))
    section(tr("Overview", "概览"), md, files)

    stats = {}
    if desc is not None:
        desc.index.name = "column"
        stats_csv = save_csv(desc, "numeric_summary", index=True)
        for c in desc.index:
            stats[c] = {k: desc.loc[c, k] for k in desc.columns}
        md = md_table(headers(desc.round(4).reset_index(), "column", "count", "mean", "std", "min", "max"), max_rows=MAX_MD_COLUMNS)
        if len(nums) > MAX_STAT_COLUMNS:
            md += tr("\n\n(statistics of the first %d of %d numeric columns)", "\n\n（只统计了 %d 个数值列中的前 %d 个）") % (MAX_STAT_COLUMNS, len(nums))
        section(tr("Summary statistics", "汇总统计"), md, [stats_csv])

    top_values = {}
    if tops:
        parts, rows_out = [], []
        for c, vc in tops.items():
            top_values[c] = [{"value": str(k), "count": int(v)} for k, v in vc.items()]
            for k, v in vc.items():
                rows_out.append({"column": c, "value": str(k), "count": int(v), "share": v / max(1, rows - missing[c])})
            parts.append(tr("**%s** (%s distinct): ", "**%s**（%s 个不同值）：") % (c, fmt(uniques[c])) +
                         tr(", ", "、").join("%s (%s)" % (str(k)[:40], fmt(v)) for k, v in vc.items()))
        top_csv = save_csv(pd.DataFrame(rows_out), "top_values")
        section(tr("Top categories", "最常见的类别"), "\n\n".join("- " + p for p in parts), [top_csv])

    if hists:
        stage("draw distributions")
        hist_cols = list(hists)
        n = len(hist_cols)
        fig, axes = grid(n)
        for ax, c in zip(axes, hist_cols):
            edges, counts = hists[c]
            ax.hist(edges[:-1], bins=edges, weights=counts, color="#4f81bd")
            ax.set_title(str(c)[:40], fontsize=9)
        path = save_fig(fig, "distributions")
        md = tr("Histograms of %s." % plural_count(n, "numeric column"), "%s 个数值列的直方图。" % n)
        if len(nums) > MAX_HIST:
            md += tr(" (the first %d of %d)", "（%d 个中的前 %d 个）") % ((MAX_HIST, len(nums)) if not ZH else (len(nums), MAX_HIST))
        section(tr("Distributions", "分布"), md, [path])

    R["data"] = {
        "rows": rows,
        "columns": ncols,
        "duplicates": dups,
        "missing": {c: int(missing[c]) for c in columns},
        "types": kinds,
        "empty_columns": empty,
        "numeric": stats,
        "top_values": top_values,
    }
    worst = ""
    if len(with_missing):
        w = with_missing.iloc[0]
        worst = "; most missing: %s (%s of %s)" % (w["column"], fmt(w["missing"]), fmt(rows))
    R["answer"] = "The table has %s rows and %s columns; %s column%s missing values%s; %s duplicate row%s." % (
        fmt(rows), fmt(ncols), fmt(len(with_missing)), " has" if len(with_missing) == 1 else "s have", worst,
        fmt(dups), "" if dups == 1 else "s")
    if ZH:
        worst = ""
        if len(with_missing):
            w = with_missing.iloc[0]
            worst = "；缺失最多的是 %s（%s / %s）" % (w["column"], fmt(w["missing"]), fmt(rows))
        R["answer"] = "这张表有 %s 行、%s 列；%s 列有缺失值%s；重复行 %s 行。" % (
            fmt(rows), fmt(ncols), fmt(len(with_missing)), worst, fmt(dups))


run_template(main)
