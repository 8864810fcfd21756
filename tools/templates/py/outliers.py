# Template "outliers": per numeric column, the rows outside the IQR fences
# (Q1 - k*IQR, Q3 + k*IQR) and the rows whose |z-score| exceeds a threshold.
# Row numbers are 0-based positions of data rows (the header is not a row).
MAX_COLUMNS = 20
MAX_LISTED = 200


def main():
    df = load()
    stage("choose the columns")
    if P.get("columns"):
        names = [col(df, c, "numeric column") for c in P["columns"]]
    elif P.get("measure"):
        names = [col(df, P["measure"], "measure")]
    else:
        names = numeric_columns(df)
        pick("columns: the numeric columns")
    if len(names) > MAX_COLUMNS:
        note("the first %d of %d numeric columns were checked" % (MAX_COLUMNS, len(names)))
        names = names[:MAX_COLUMNS]
    if not names:
        raise TemplateError("no numeric column found; name the columns to check explicitly (columns=[...])")
    k = float(P.get("iqr_k") or 1.5)
    zt = float(P.get("z_threshold") or 3.0)
    stage("find outliers")
    per, summary = {}, []
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
        summary.append({"column": c, "lower fence": lo, "upper fence": hi, "IQR outliers": int(iqr_mask.sum()),
                        "|z|>%g" % zt: int(z_mask.sum())})
    summary = pd.DataFrame(summary)
    files = [save_csv(summary, "summary")]
    rows = df[flagged].copy()
    rows.insert(0, "row", rows.index)
    files.append(save_csv(rows, "rows"))
    with_out = [c for c in names if per[c]["iqr_count"] or per[c]["z_count"]]
    if with_out:
        stage("draw the box plots")
        draw = with_out[:12]
        fig, axes = grid(len(draw), h=2.5)
        for ax, c in zip(axes, draw):
            ax.boxplot(to_number(df[c]).dropna(), vert=False, whis=k)
            ax.set_title(str(c)[:40], fontsize=9)
            ax.set_yticks([])
        files.insert(0, save_fig(fig, "boxplots"))
    md = "IQR fences at %g×IQR beyond the quartiles; z-scores beyond ±%g.\n\n" % (k, zt) + md_table(summary.round(4))
    section("Outliers by column", md, files)
    if len(rows):
        shown = rows.iloc[:, : min(rows.shape[1], 12)]
        section("Rows with outliers", "%s row%s flagged (row = 0-based data row):\n\n" % (
            fmt(len(rows)), "" if len(rows) == 1 else "s") + md_table(shown), [files[-1]])
    R["data"] = {"columns": per, "rows": [int(i) for i in rows.index][:MAX_LISTED], "row_count": int(len(rows)),
                 "iqr_k": k, "z_threshold": zt}
    if len(rows) == 0:
        R["answer"] = "No outliers in %s by either rule." % ", ".join(names[:5])
    else:
        worst = max(names, key=lambda c: per[c]["iqr_count"] + per[c]["z_count"])
        R["answer"] = "%s row%s hold outliers; most in %s (%d outside the IQR fences %s to %s, %d with |z| > %g)." % (
            fmt(len(rows)), "" if len(rows) == 1 else "s", worst, per[worst]["iqr_count"], fmt(per[worst]["lower"]),
            fmt(per[worst]["upper"]), per[worst]["z_count"], zt)


run_template(main)
