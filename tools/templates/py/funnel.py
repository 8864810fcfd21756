# Template "funnel": how many reach each stage of an ordered funnel, the
# conversion from each stage to the next and from the first, and the
# drop-off. Long data (one stage column, optionally an entity or a count
# column) or wide data (one column per stage) both work.


def truthy(s):
    if pd.api.types.is_bool_dtype(s):
        return s.fillna(False)
    num = to_number(s)
    if num.notna().sum() >= 0.9 * s.notna().sum() and s.notna().any():
        return num.fillna(0) != 0
    t = s.astype("string").str.strip().str.lower()
    return t.notna() & ~t.isin(["", "0", "false", "no", "n", "否", "none", "nan"])


def main():
    df = load()
    stage("find the stages")
    stages = [str(s) for s in (P.get("stages") or [])]
    wide = bool(stages) and all(s in df.columns for s in stages) and not P.get("stage")
    if wide:
        counts = [int(truthy(df[s]).sum()) for s in stages]
        how = tr("rows with a value in each stage column", "各阶段列有值的行数")
        pick(tr("stages: the columns %s, in the order given", "阶段：列 %s，按给出的顺序") % ", ".join(stages))
    else:
        if P.get("stage"):
            scol = col(df, P["stage"], "stage column")
        else:
            hints = ("stage", "step", "event", "status", "phase", "funnel", "阶段", "步骤", "事件", "环节", "状态")
            cands = [c for c in df.columns if _hinted(c, hints)]
            if not cands:
                raise TemplateError("no stage column found; name it explicitly (stage=...) and list the stages in order (stages=[...])")
            scol = cands[0]
            pick(tr("stage column: %s (its name)", "阶段列：%s（依据列名）") % scol)
        labels = df[scol].astype("string").str.strip()
        present = list(pd.unique(labels.dropna()))
        measure = col(df, P["measure"], "count column") if P.get("measure") else None
        ent = col(df, P["entity"], "entity column") if P.get("entity") else None
        stage("count each stage")
        if measure is not None:
            per = to_number(df[measure]).groupby(labels).sum()
            how = tr("sum of %s", "%s的总和") % measure
        elif ent is not None:
            per = df[ent].groupby(labels).nunique()
            how = tr("distinct %s", "不同 %s 的个数") % ent
        else:
            per = labels.value_counts()
            how = tr("rows", "行数")
        if stages:
            lower = {str(v).lower(): v for v in present}
            ordered = []
            for s in stages:
                if s in per.index:
                    ordered.append(s)
                elif s.lower() in lower:
                    ordered.append(lower[s.lower()])
                else:
                    raise TemplateError("stage %r does not occur in %s; its values are: %s" % (
                        s, scol, ", ".join(map(str, present[:40]))))
            stages = ordered
        else:
            stages = list(per.sort_values(ascending=False, kind="mergesort").index)
            pick(tr("stage order: by count, largest first (name the order with stages=[...] if it differs)",
                    "阶段顺序：按数量从大到小（若顺序不同，请用 stages=[...] 指明）"))
        counts = [float(per.get(s, 0)) for s in stages]
        counts = [int(c) if float(c).is_integer() else c for c in counts]
    if not stages or counts[0] == 0:
        raise TemplateError("the first stage has no entries, so no conversion can be computed")
    step = [None] + [(counts[i] / counts[i - 1]) if counts[i - 1] else None for i in range(1, len(counts))]
    overall = [c / counts[0] for c in counts]
    table = pd.DataFrame({"stage": stages, "count": counts, "from_previous": step, "from_first": overall,
                          "drop_off": [None] + [counts[i - 1] - counts[i] for i in range(1, len(counts))]})
    csv_path = save_csv(table, "table")
    stage("draw the chart")
    fig, ax = figure(8, max(3, 0.5 * len(stages) + 1))
    y = np.arange(len(stages))[::-1]
    ax.barh(y, counts, color="#4f81bd")
    ax.set_yticks(y)
    ax.set_yticklabels([str(s)[:30] for s in stages])
    for yi, c, o in zip(y, counts, overall):
        ax.text(c, yi, " %s (%s)" % (fmt(c), pct(o)), va="center", fontsize=8)
    ax.set_title(tr("Funnel (%s)", "漏斗（%s）") % how)
    png = save_fig(fig, "chart")
    shown = table.copy()
    for c in ("from_previous", "from_first"):
        shown[c] = shown[c].map(pct)
    section(tr("Funnel: %d stages" % len(stages), "漏斗：%d 个阶段" % len(stages)), tr("Counted as %s.\n\n", "按%s计数。\n\n") % how + md_table(
        headers(shown, "stage", "count", "from_previous", "from_first", "drop_off"), max_rows=50), [png, csv_path])
    R["data"] = {"stages": stages, "counts": counts, "step_rate": step, "overall_rate": overall, "counted_as": how}
    worst = None
    if len(stages) > 1:
        worst = min(range(1, len(stages)), key=lambda i: step[i] if step[i] is not None else 2)
    if ZH:
        R["answer"] = "%s 中有 %s 到达最后一个阶段（%s）%s。" % (
            fmt(counts[0]), fmt(counts[-1]), pct(overall[-1]),
            "" if worst is None else "；流失最大的是 %s → %s（转化 %s）" % (stages[worst - 1], stages[worst], pct(step[worst])))
    else:
        R["answer"] = "%s of %s reach the last stage (%s)%s." % (
            fmt(counts[-1]), fmt(counts[0]), pct(overall[-1]),
            "" if worst is None else "; the biggest drop is %s → %s (%s convert)" % (stages[worst - 1], stages[worst], pct(step[worst])))


run_template(main)
