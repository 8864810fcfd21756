# Template "outliers": per numeric column, the rows outside the IQR fences
# (Q1 - k*IQR, Q3 + k*IQR) and the rows whose |z-score| exceeds a threshold.
# Row numbers are 0-based positions of data rows (the header is not a row,
# blank lines are skipped), as pandas numbers them; the DuckDB engine numbers
# them the same way, and is rendered in Go.
MAX_COLUMNS = 20
MAX_LISTED = 200


def pandas_outliers():
    """The columns checked, their numbers and the flagged rows, from the whole table."""
    df = load()
    stage("choose the columns")
    if P.get("columns"):
        names = [col(df, c, "numeric column") for c in P["columns"]]
    elif P.get("measure"):
        names = [col(df, P["measure"], "measure")]
    else:
        names = numeric_columns(df)
        pick(tr("columns: the numeric columns", "列：所有数值列"))
    if len(names) > MAX_COLUMNS:
        note(tr("the first %d of %d numeric columns were checked" % (MAX_COLUMNS, len(names)),
                "只检查了 %d 个数值列中的前 %d 个" % (len(names), MAX_COLUMNS)))
        names = names[:MAX_COLUMNS]
    if not names:
        raise TemplateError("no numeric column found; name the columns to check explicitly (columns=[...])")
    k = float(P.get("iqr_k") or 1.5)
    zt = float(P.get("z_threshold") or 3.0)
    stage("find outliers")
    per = {}
    flagged = pd.Series(False, index=df.index)
    for c in names:
        v = to_number(df[c])
        q1, q3 = v.quantile(0.25), v.quantile(0.75)
        iqr = q3 - q1
        lo, hi = q1 - k * iqr, q3 + k * iqr
        iqr_mask = (v < lo) | (v > hi)
        std = v.std()
        z = (v - v.mean()) / std if std and not pd.isna(std) and std > 0 else pd.Series(0.0, index=v.index)
        z_mask = z.abs() > zt
        flagged |= iqr_mask.fillna(False) | z_mask.fillna(False)
        per[c] = {
            "q1": q1, "q3": q3, "lower": lo, "upper": hi, "mean": v.mean(), "std": std,
            "iqr_rows": [int(i) for i in v.index[iqr_mask.fillna(False)]][:MAX_LISTED],
            "z_rows": [int(i) for i in v.index[z_mask.fillna(False)]][:MAX_LISTED],
            "iqr_count": int(iqr_mask.sum()), "z_count": int(z_mask.sum()),
        }
    rows = df[flagged].copy()
    rows.insert(0, "row", rows.index)
    path = save_csv(rows, "rows")

    def box(ax, c):
        ax.boxplot(to_number(df[c]).dropna(), vert=False, whis=k)

    return names, per, k, zt, rows, len(rows), [int(i) for i in rows.index][:MAX_LISTED], path, box


def main():
    # The DuckDB engine's outliers are rendered in Go (native_outliers.go).
    names, per, k, zt, rows, row_count, listed, rows_file, box = pandas_outliers()
    summary = pd.DataFrame([{"column": c, "lower fence": per[c]["lower"], "upper fence": per[c]["upper"],
                             "IQR outliers": per[c]["iqr_count"], "|z|>%g" % zt: per[c]["z_count"]} for c in names])
    files = [save_csv(summary, "summary"), rows_file]
    with_out = [c for c in names if per[c]["iqr_count"] or per[c]["z_count"]]
    if with_out:
        stage("draw the box plots")
        draw = with_out[:12]
        fig, axes = grid(len(draw), h=2.5)
        for ax, c in zip(axes, draw):
            box(ax, c)
            ax.set_title(str(c)[:40], fontsize=9)
            ax.set_yticks([])
        files.insert(0, save_fig(fig, "boxplots"))
    md = tr("IQR fences at %g×IQR beyond the quartiles; z-scores beyond ±%g.\n\n",
            "IQR 界限为四分位数向外 %g×IQR；z 分数超出 ±%g。\n\n") % (k, zt) + md_table(
        headers(summary.round(4), "column", "lower fence", "upper fence", "IQR outliers"))
    section(tr("Outliers by column", "各列的异常值"), md, files)
    if row_count:
        shown = rows.iloc[:, : min(rows.shape[1], 12)]
        flagged = tr("%s flagged (row = 0-based data row):\n\n" % plural_count(row_count, "row"),
                     "标记了 %s 行（行号从 0 开始，按数据行计）：\n\n" % fmt(row_count))
        section(tr("Rows with outliers", "含异常值的行"), flagged + md_table(headers(shown, "row"), total=row_count), [files[-1]])
    R["data"] = {"columns": per, "rows": listed, "row_count": row_count, "iqr_k": k, "z_threshold": zt}
    if row_count == 0:
        R["answer"] = tr("No outliers in %s by either rule.", "按两种规则，%s 中都没有异常值。") % ", ".join(names[:5])
    else:
        worst = max(names, key=lambda c: per[c]["iqr_count"] + per[c]["z_count"])
        args = (per[worst]["iqr_count"], fmt(per[worst]["lower"]), fmt(per[worst]["upper"]), per[worst]["z_count"], zt)
        if ZH:
            R["answer"] = "%s 行含异常值；最多的在 %s（%d 个在 IQR 界限 %s 到 %s 之外，%d 个 |z| > %g）。" % (
                (fmt(row_count), worst) + args)
        else:
            R["answer"] = "%s hold%s outliers; most in %s (%d outside the IQR fences %s to %s, %d with |z| > %g)." % (
                (fmt(row_count) + (" row" if row_count == 1 else " rows"), "s" if row_count == 1 else "", worst) + args)


run_template(main)
