# Template "correlation": the correlation matrix of numeric columns (Pearson
# or Spearman), a heatmap, and the strongest pairs; a scatter plot when two
# columns are named.
MAX_COLUMNS = 30


def main():
    df = load()
    stage("choose the numeric columns")
    if P.get("columns"):
        names = [col(df, c, "numeric column") for c in P["columns"]]
    else:
        names = numeric_columns(df)
        if len(names) > MAX_COLUMNS:
            note(tr("the first %d of %d numeric columns were used", "只用了 %d 个数值列中的前 %d 个")
                 % ((MAX_COLUMNS, len(names)) if not ZH else (len(names), MAX_COLUMNS)))
            names = names[:MAX_COLUMNS]
        pick(tr("columns: every numeric column (%d)", "列：所有数值列（%d 个）") % len(names))
    values = pd.DataFrame({c: to_number(df[c]) for c in names})
    values = values.loc[:, values.nunique(dropna=True) > 1]
    if values.shape[1] < 2:
        raise TemplateError(
            "a correlation needs at least two numeric columns that vary; found %s. Name them explicitly (columns=[...])"
            % (", ".join(values.columns) or "none"))
    method = P.get("method") or "pearson"
    if method not in ("pearson", "spearman", "kendall"):
        raise TemplateError("unknown method %r; use pearson, spearman or kendall" % method)
    stage("compute the %s correlation" % method)
    corr = values.corr(method=method)
    cols = list(corr.columns)
    pairs = []
    for i in range(len(cols)):
        for j in range(i + 1, len(cols)):
            r = corr.iloc[i, j]
            if pd.isna(r):
                continue
            n = int(values[[cols[i], cols[j]]].dropna().shape[0])
            pairs.append({"a": cols[i], "b": cols[j], "r": float(r), "n": n})
    pairs.sort(key=lambda p: -abs(p["r"]))
    matrix_csv = save_csv(corr.round(6), "matrix", index=True)

    stage("draw the heatmap")
    k = len(cols)
    fig, ax = figure(max(5, 0.5 * k + 2), max(4, 0.5 * k + 1.5))
    im = ax.imshow(corr.values, cmap="RdBu_r", vmin=-1, vmax=1)
    ax.set_xticks(range(k))
    ax.set_yticks(range(k))
    ax.set_xticklabels([str(c)[:20] for c in cols], rotation=45, ha="right", fontsize=8)
    ax.set_yticklabels([str(c)[:20] for c in cols], fontsize=8)
    if k <= 12:
        for i in range(k):
            for j in range(k):
                v = corr.values[i, j]
                if not pd.isna(v):
                    ax.text(j, i, "%.2f" % v, ha="center", va="center", fontsize=7)
    fig.colorbar(im, ax=ax, shrink=0.8)
    ax.set_title(tr("%s correlation" % method.capitalize(), "%s 相关系数" % method.capitalize()))
    files = [save_fig(fig, "heatmap"), matrix_csv]
    if k == 2:
        stage("draw the scatter plot")
        fig, ax = figure(6, 4.5)
        ax.scatter(values[cols[0]], values[cols[1]], s=8, alpha=0.6)
        ax.set_xlabel(cols[0])
        ax.set_ylabel(cols[1])
        files.insert(1, save_fig(fig, "scatter"))
    pair_table = pd.DataFrame(pairs[:10]).rename(columns={"a": "column A", "b": "column B", "n": "rows"})
    md = tr("Strongest pairs (%s):\n\n", "相关性最强的列对（%s）：\n\n") % method + md_table(
        headers(pair_table.round(4), "column A", "column B", "rows"), max_rows=10)
    if k <= 8:
        md += tr("\n\nMatrix:\n\n", "\n\n相关矩阵：\n\n") + md_table(corr.round(3).rename_axis("列" if ZH else None), max_rows=8, index=True)
    section(tr("Correlation of %d numeric columns" % k, "%d 个数值列的相关性" % k), md, files)

    R["data"] = {"method": method, "columns": cols, "matrix": [list(r) for r in corr.values], "pairs": pairs[:50]}
    if pairs:
        p = pairs[0]
        strong = abs(p["r"]) >= 0.7
        moderate = abs(p["r"]) >= 0.4
        strength = tr("strong", "强") if strong else tr("moderate", "中等") if moderate else tr("weak", "弱")
        sign = tr("positive", "正相关") if p["r"] > 0 else tr("negative", "负相关")
        R["answer"] = tr("The strongest correlation is between %s and %s: r = %.2f (%s, %s).",
                         "相关性最强的是 %s 与 %s：r = %.2f（%s，%s）。") % (p["a"], p["b"], p["r"], strength, sign)
    else:
        R["answer"] = tr("No correlation could be computed (too few rows with values in both columns).",
                         "无法计算相关性（两列都有值的行太少）。")


run_template(main)
