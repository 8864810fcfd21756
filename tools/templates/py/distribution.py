# Template "distribution": per numeric column, summary statistics, a
# histogram and a box plot; per text column, its most common values. The
# number of columns is bounded.
MAX_COLUMNS = 12


def pandas_columns():
    """The columns to draw and their statistics, from the whole table."""
    df = load()
    stage("choose the columns")
    if P.get("columns"):
        names = [col(df, c, "column") for c in P["columns"]]
    elif P.get("measure"):
        names = [col(df, P["measure"], "measure")]
    else:
        names = numeric_columns(df)
        pick(tr("columns: the numeric columns", "列：所有数值列"))
    if len(names) > MAX_COLUMNS:
        note(tr("the first %d of %d columns were drawn" % (MAX_COLUMNS, len(names)),
                "只绘制了 %d 列中的前 %d 列" % (len(names), MAX_COLUMNS)))
        names = names[:MAX_COLUMNS]
    if not names:
        raise TemplateError("no numeric column found; name the columns explicitly (columns=[...])")
    nums = [c for c in names if numeric_share(df[c]) >= 0.9 and df[c].notna().any()]
    texts = [c for c in names if c not in nums]
    stats = {}
    if nums:
        stage("summarise the numeric columns")
    for c in nums:
        v = to_number(df[c]).dropna()
        stats[c] = {"count": int(v.count()), "mean": v.mean(), "std": v.std(), "min": v.min(), "q1": v.quantile(0.25),
                    "median": v.median(), "q3": v.quantile(0.75), "max": v.max(), "skew": v.skew() if len(v) > 2 else None}

    def hist(ax, c):
        v = to_number(df[c]).dropna()
        ax.hist(v, bins=min(50, max(1, int(np.ceil(np.sqrt(len(v)))))), color="#4f81bd")

    def box(ax, c):
        ax.boxplot(to_number(df[c]).dropna(), vert=False)

    def values(c):
        return df[c].astype("string").fillna("(missing)").value_counts().head(20)

    return nums, texts, stats, hist, box, values


def duckdb_columns(pre):
    """The same, computed by the DuckDB engine out of core."""
    keys = ("count", "mean", "std", "min", "q1", "median", "q3", "max", "skew")
    stats = {c: {k: pre["stats"][c][k] for k in keys} for c in pre["nums"]}
    for s in stats.values():
        s["count"] = int(s["count"])

    def hist(ax, c):
        h = pre["hist"][c]
        ax.hist(h["edges"][:-1], bins=h["edges"], weights=h["counts"], color="#4f81bd")

    def box(ax, c):
        s, b = stats[c], pre["box"][c]
        ax.bxp([{"med": s["median"], "q1": s["q1"], "q3": s["q3"], "whislo": b["whislo"], "whishi": b["whishi"],
                 "fliers": b["fliers"]}], vert=False)

    def values(c):
        rows = pre["counts"][c]
        return pd.Series([n for _, n in rows], index=[v for v, _ in rows], dtype="int64")

    return pre["nums"], pre["texts"], stats, hist, box, values


def main():
    pre = P.get("pre")
    nums, texts, stats, hist, box, values = duckdb_columns(pre) if pre else pandas_columns()
    rows, files = [], []
    if nums:
        for c in nums:
            rows.append(dict(column=c, **stats[c]))
        table = pd.DataFrame(rows)
        files.append(save_csv(table, "summary"))
        stage("draw the histograms")
        fig, axes = grid(len(nums))
        for ax, c in zip(axes, nums):
            hist(ax, c)
            ax.set_title(str(c)[:40], fontsize=9)
        files.insert(0, save_fig(fig, "histograms"))
        stage("draw the box plots")
        fig, axes = grid(len(nums), h=2.5)
        for ax, c in zip(axes, nums):
            box(ax, c)
            ax.set_title(str(c)[:40], fontsize=9)
            ax.set_yticks([])
        files.insert(1, save_fig(fig, "boxplots"))
        section(tr("Distribution of %d numeric column%s" % (len(nums), "" if len(nums) == 1 else "s"), "%d 个数值列的分布" % len(nums)),
                md_table(headers(table.round(4), "column", "count", "mean", "std", "min", "q1", "median", "q3", "max", "skew"),
                         max_rows=MAX_COLUMNS), files)
    counts = {}
    if texts:
        stage("count the values of text columns")
        parts, cfiles = [], []
        for c in texts:
            vc = values(c)
            counts[c] = [{"value": str(k), "count": int(v)} for k, v in vc.items()]
            parts.append("**%s**\n\n" % c + md_table(headers(pd.DataFrame({"value": vc.index, "count": vc.values}), "value", "count")))
            fig, ax = figure(7, max(2.5, 0.3 * len(vc) + 1))
            ax.barh([str(x)[:30] for x in vc.index][::-1], list(vc.values)[::-1], color="#4f81bd")
            ax.set_title(str(c)[:40])
            cfiles.append(save_fig(fig, "values_%d" % (len(cfiles) + 1)))
        section(tr("Most common values", "最常见的值"), "\n\n".join(parts), cfiles)
    R["data"] = {"columns": stats, "values": counts}
    if nums:
        c = nums[0]
        s = stats[c]
        more = "" if len(nums) == 1 else tr("; %d more column%s in the table" % (len(nums) - 1, "" if len(nums) == 2 else "s"),
                                             "；表中还有 %d 列" % (len(nums) - 1))
        R["answer"] = tr("%s: median %s, middle half %s to %s, range %s to %s%s.",
                         "%s：中位数 %s，中间一半在 %s 到 %s 之间，范围 %s 到 %s%s。") % (
            c, fmt(s["median"]), fmt(s["q1"]), fmt(s["q3"]), fmt(s["min"]), fmt(s["max"]), more)
    else:
        c = texts[0]
        top = counts[c][0]
        R["answer"] = tr("%s: the most common value is %s (%s rows).", "%s：最常见的值是 %s（%s 行）。") % (
            c, top["value"], fmt(top["count"]))


run_template(main)
