# Template "cohort": entities grouped by the period of their first activity;
# the share of each cohort active again 0, 1, 2, ... periods later, as a
# retention matrix, a heatmap and the average curve.
MAX_COHORTS = 24
MAX_OFFSETS = 24


def find_entity(df, exclude):
    if P.get("entity"):
        return col(df, P["entity"], "entity (id) column")
    for c in df.columns:
        if c not in exclude and _hinted(c, ID_HINTS) and df[c].nunique() > 1:
            pick(tr("entity: %s (an id-like column name)", "个体：%s（列名像是编号）") % c)
            return c
    raise TemplateError("no id column found for the cohorts; name the entity column explicitly (entity=...)")


def main():
    df = load()
    stage("find the columns")
    tcol = find_time(df)
    ent = find_entity(df, exclude=(tcol,))
    times = to_dates(df[tcol])
    code = PERIODS[P["period"]] if P.get("period") else "M"
    if not P.get("period"):
        pick(tr("period: month (the usual cohort period)", "周期：月（同期群的常用周期）"))
    data = pd.DataFrame({"e": df[ent], "t": times}).dropna()
    if data.empty:
        raise TemplateError("no rows have both %s and a date in %s" % (ent, tcol))
    stage("assign cohorts")
    data["p"] = data["t"].dt.to_period(code)
    data["po"] = pd.PeriodIndex(data["p"]).asi8
    first = data.groupby("e")["po"].min()
    data["co"] = data["e"].map(first)
    data["k"] = data["po"] - data["co"]
    last_o = int(data["po"].max())
    counts = data.groupby(["co", "k"])["e"].nunique().unstack("k").sort_index()
    sizes = counts[0]
    ret = counts.div(sizes, axis=0)
    # A cohort cannot have been observed beyond the last period in the data.
    for co in ret.index:
        for k in ret.columns:
            if co + k > last_o:
                ret.loc[co, k] = np.nan
            elif pd.isna(ret.loc[co, k]):
                ret.loc[co, k] = 0.0
    freq = data["p"].iloc[0].freq
    labels = [period_label(pd.Period(ordinal=int(o), freq=freq)) for o in ret.index]
    ret.index = labels
    ret.columns = [int(k) for k in ret.columns]
    avg = []
    for k in ret.columns:
        ok = ret[k].notna()
        avg.append(float((ret.loc[ok, k] * sizes.values[ok.values]).sum() / sizes.values[ok.values].sum()) if ok.any() else None)
    table = ret.copy()
    table.insert(0, "size", sizes.values)
    table.index.name = "cohort"
    csv_path = save_csv(table, "retention", index=True)

    stage("draw the heatmap")
    hm = ret.iloc[-MAX_COHORTS:, :MAX_OFFSETS]
    fig, ax = figure(max(6, 0.45 * hm.shape[1] + 3), max(3, 0.35 * hm.shape[0] + 1.5))
    im = ax.imshow(hm.values.astype(float), cmap="YlGn", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(hm.shape[1]))
    ax.set_xticklabels([str(c) for c in hm.columns], fontsize=8)
    ax.set_yticks(range(hm.shape[0]))
    ax.set_yticklabels(list(hm.index), fontsize=8)
    if hm.shape[0] <= 15 and hm.shape[1] <= 15:
        for i in range(hm.shape[0]):
            for j in range(hm.shape[1]):
                v = hm.values[i, j]
                if not pd.isna(v):
                    ax.text(j, i, "%.0f%%" % (100 * v), ha="center", va="center", fontsize=7)
    ax.set_xlabel(tr("%ss since first activity" % PERIOD_NOUNS[code], "距首次活跃的%s数" % period_noun(code)))
    ax.set_ylabel(tr("cohort (first %s)" % PERIOD_NOUNS[code], "同期群（首次活跃的%s）" % period_noun(code)))
    ax.set_title(tr("Retention of %s by cohort" % ent, "各同期群的 %s 留存" % ent))
    fig.colorbar(im, ax=ax, shrink=0.8)
    png = save_fig(fig, "heatmap")
    shown = table.iloc[-MAX_COHORTS:, : MAX_OFFSETS + 1].copy()
    for c in shown.columns[1:]:
        shown[c] = shown[c].map(pct)
    md = md_table(headers(shown.reset_index(), "cohort", "size"), max_rows=MAX_COHORTS)
    md += tr("\n\nAverage retention (weighted by cohort size): ", "\n\n平均留存（按同期群人数加权）：") + tr(", ", "、").join(
        tr("%s %d: %s" % (PERIOD_NOUNS[code], k, pct(a)), "第 %d %s：%s" % (k, period_noun(code), pct(a)))
        for k, a in list(zip(ret.columns, avg))[:13])
    section(tr("Cohort retention (%s)" % PERIOD_WORDS[code], "同期群留存（%s）" % PERIOD_WORDS[code]), md, [png, csv_path])
    R["data"] = {
        "entity": ent, "time": tcol, "period": PERIOD_NOUNS[code], "cohorts": labels,
        "sizes": [int(s) for s in sizes.values], "retention": [list(r) for r in ret.values], "average": avg,
    }
    one = avg[1] if len(avg) > 1 else None
    if ZH:
        R["answer"] = "按首次出现的%s分为 %d 个 %s 同期群（共 %s 个）%s。" % (
            PERIOD_NOUNS_ZH[code], len(labels), ent, fmt(int(sizes.sum())),
            "" if one is None else "；平均 %s 在一%s后再次活跃" % (pct(one), PERIOD_NOUNS_ZH[code]))
    else:
        R["answer"] = "%d cohorts of %s by first %s (%s %s in all)%s." % (
            len(labels), ent, PERIOD_NOUNS[code], fmt(int(sizes.sum())), ent,
            "" if one is None else "; on average %s are active again one %s later" % (pct(one), PERIOD_NOUNS[code]))


run_template(main)
