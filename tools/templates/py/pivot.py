# Template "pivot": a cross-tabulation of two categories (or a category and a
# period of the time column), aggregating a measure or counting rows, with
# totals and a heatmap. Large tables keep the biggest rows and columns.
MAX_ROWS = 30
MAX_COLS = 20


def pandas_table():
    """The cross-tabulation and its totals from the whole table."""
    df = load()
    stage("find the columns")
    measure = find_measure(df) if P.get("measure") else None
    agg = aggregation(measure)
    rows_col = find_category(df, "category", exclude=(measure,))
    data = pd.DataFrame({"r": df[rows_col].astype("string").fillna("(missing)")})
    is_time = False
    if P.get("category2"):
        cols_col = col(df, P["category2"], "column category")
        data["c"] = df[cols_col].astype("string").fillna("(missing)")
        cols_name = cols_col
    elif P.get("time") or P.get("period"):
        tcol = find_time(df)
        code = period_code(to_dates(df[tcol]).dropna(), default=None)
        data["c"] = to_dates(df[tcol]).dt.to_period(code).map(lambda p: period_label(p) if not pd.isna(p) else None)
        data = data.dropna(subset=["c"])
        cols_name = tr("%s (%s)", "%s（%s）") % (tcol, period_noun(code))
        is_time = True
    else:
        cols_col = find_category(df, "category2", exclude=(measure, rows_col))
        data["c"] = df[cols_col].astype("string").fillna("(missing)")
        cols_name = cols_col
    m = None
    if measure is not None:
        data["v"] = to_number(df[measure])
        m = "v"
    stage("cross-tabulate %s by %s" % (rows_col, cols_name))
    table = aggregate(data.groupby(["r", "c"]), m, agg).unstack("c")
    if agg in ("sum", "count"):
        table = table.fillna(0.0)
    if agg in ("sum", "count"):
        row_tot = table.sum(axis=1)
        col_tot = table.sum(axis=0)
    else:
        row_tot = aggregate(data.groupby("r"), m, agg)
        col_tot = aggregate(data.groupby("c"), m, agg)
    grand = float(aggregate(data.assign(all=1).groupby("all"), m, agg).iloc[0])
    return measure, agg, rows_col, cols_name, is_time, table, row_tot, col_tot, grand


def duckdb_table(pre):
    """The same, aggregated by the DuckDB engine out of core."""
    code = pre.get("code")
    label = (lambda c: period_label(pd.Period(c, freq=code))) if code else (lambda c: c)

    def series(rows, key=lambda k: k):
        return pd.Series([np.nan if r[-1] is None else float(r[-1]) for r in rows],
                         index=[key(r[0]) for r in rows], dtype=float)

    cells = pre["cells"]
    idx = pd.MultiIndex.from_tuples([(r, label(c)) for r, c, _ in cells], names=["r", "c"])
    table = pd.Series([np.nan if v is None else float(v) for _, _, v in cells], index=idx).unstack("c")
    agg = P["aggregation"]
    if agg in ("sum", "count"):
        table = table.fillna(0.0)
        row_tot, col_tot = table.sum(axis=1), table.sum(axis=0)
        grand = float(table.values.sum())
    else:
        row_tot, col_tot = series(pre["row_totals"]), series(pre["column_totals"], label)
        grand = float(series(pre["grand"]).iloc[0])
    if code:
        cols_name = tr("%s (%s)", "%s（%s）") % (P["time"], period_noun(code))
    else:
        cols_name = P["category2"]
    return P.get("measure") or None, agg, P["category"], cols_name, bool(code), table, row_tot, col_tot, grand


def main():
    pre = P.get("pre")
    measure, agg, rows_col, cols_name, is_time, table, row_tot, col_tot, grand = (
        duckdb_table(pre) if pre else pandas_table())
    if agg in ("sum", "count"):
        # A total row of the data would count everything twice.
        row_tot, dropped = drop_totals(row_tot, rows_col, "the table and its totals")
        if dropped:
            table = table.drop(index=dropped)
            col_tot = table.sum(axis=0)
            grand = float(table.values.sum())
    table = table.loc[row_tot.sort_values(ascending=False, kind="mergesort").index]
    if not is_time:
        table = table[col_tot.sort_values(ascending=False, kind="mergesort").index]
    table.index.name = rows_col
    table.columns.name = None
    full = table.copy()
    full["Total"] = row_tot.reindex(full.index)
    full.loc["Total"] = list(col_tot.reindex(table.columns)) + [grand]
    csv_path = save_csv(full, "table", index=True)
    shown = table.iloc[:MAX_ROWS, :MAX_COLS].copy()
    shown["Total"] = row_tot.reindex(shown.index)
    what = describe_agg(measure, agg)

    stage("draw the heatmap")
    hm = table.iloc[:MAX_ROWS, :MAX_COLS]
    fig, ax = figure(max(5, 0.6 * hm.shape[1] + 3), max(3, 0.35 * hm.shape[0] + 1.5))
    im = ax.imshow(hm.values.astype(float), cmap="Blues", aspect="auto")
    ax.set_xticks(range(hm.shape[1]))
    ax.set_xticklabels([str(c)[:16] for c in hm.columns], rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(hm.shape[0]))
    ax.set_yticklabels([str(r)[:24] for r in hm.index], fontsize=8)
    fig.colorbar(im, ax=ax, shrink=0.8)
    ax.set_title(tr("%s by %s and %s" % (what, rows_col, cols_name), "按%s和%s的%s" % (rows_col, cols_name, what)))
    png = save_fig(fig, "heatmap")
    md = md_table(headers(shown, "Total"), max_rows=MAX_ROWS, index=True)
    if table.shape[1] > MAX_COLS or table.shape[0] > MAX_ROWS:
        md += tr("\n\n(%d of %d rows and %d of %d columns shown; the CSV has the full table)",
                 "\n\n（显示 %d 行（共 %d 行）、%d 列（共 %d 列）；CSV 文件包含完整的表）") % (
            min(MAX_ROWS, table.shape[0]), table.shape[0], min(MAX_COLS, table.shape[1]), table.shape[1])
    section(tr("%s by %s and %s" % (what.capitalize(), rows_col, cols_name), "按%s和%s的%s" % (rows_col, cols_name, what)), md, [png, csv_path])
    R["data"] = {
        "rows_column": rows_col, "columns_column": cols_name, "measure": measure, "aggregation": agg,
        "rows": [str(r) for r in table.index], "columns": [str(c) for c in table.columns],
        "values": [list(r) for r in table.values], "row_totals": {str(k): v for k, v in row_tot.items()},
        "column_totals": {str(k): v for k, v in col_tot.items()}, "grand_total": grand,
        "left_out_totals": LEFT_OUT,
    }
    best = table.stack()
    best = best.dropna()
    cell = best.idxmax() if len(best) else None
    if ZH:
        R["answer"] = "按%s（%d）和%s（%d）的%s%s；合计 %s。" % (
            rows_col, table.shape[0], cols_name, table.shape[1], what,
            "：最大的单元格是 %s / %s（%s）" % (cell[0], cell[1], fmt(best.max())) if cell is not None else "",
            fmt(grand))
    else:
        R["answer"] = "%s by %s (%d) and %s (%d)%s; overall %s." % (
            what.capitalize(), rows_col, table.shape[0], cols_name, table.shape[1],
            ": the largest cell is %s / %s (%s)" % (cell[0], cell[1], fmt(best.max())) if cell is not None else "",
            fmt(grand))


run_template(main)
