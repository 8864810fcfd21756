package templates

import (
	"fmt"
	"strings"
)

// funnel is py/funnel.py's main on the DuckDB path (duckdb_funnel.go).
func (n *native) funnel() error {
	stages, _ := n.pre["stages"].([]string)
	fcounts, _ := n.pre["counts"].([]float64)
	kind, _ := n.pre["kind"].(string)
	var how string
	switch {
	case kind == "wide":
		how = n.tr("rows with a value in each stage column", "各阶段列有值的行数")
		n.out.Picked = append(n.out.Picked, fmt.Sprintf(n.tr("stages: the columns %s, in the order given", "阶段：列 %s，按给出的顺序"), strings.Join(stages, ", ")))
	case strings.HasPrefix(kind, "measure:"):
		how = fmt.Sprintf(n.tr("sum of %s", "%s的总和"), strings.TrimPrefix(kind, "measure:"))
	case strings.HasPrefix(kind, "entity:"):
		how = fmt.Sprintf(n.tr("distinct %s", "不同 %s 的个数"), strings.TrimPrefix(kind, "entity:"))
	default:
		how = n.tr("rows", "行数")
	}
	if s, ok := n.pre["stage_picked"].(string); ok {
		n.out.Picked = append(n.out.Picked, fmt.Sprintf(n.tr("stage column: %s (its name)", "阶段列：%s（依据列名）"), s))
	}
	if n.pre["by_count"] == true {
		n.out.Picked = append(n.out.Picked, n.tr("stage order: by count, largest first (name the order with stages=[...] if it differs)",
			"阶段顺序：按数量从大到小（若顺序不同，请用 stages=[...] 指明）"))
	}
	if len(stages) == 0 || fcounts[0] == 0 {
		return templateError("the first stage has no entries, so no conversion can be computed")
	}
	// counts as funnel.py holds them: ints, or floats where a sum is not
	// whole; the table's column is floats when any is.
	counts := make([]any, len(fcounts))
	floats := false
	for i, c := range fcounts {
		counts[i] = wholeOrFloat(c)
		_, f := counts[i].(float64)
		floats = floats || f
	}
	step := make([]any, len(stages))
	overall := make([]float64, len(stages))
	for i, c := range fcounts {
		overall[i] = c / fcounts[0]
		if i > 0 && fcounts[i-1] != 0 {
			step[i] = c / fcounts[i-1]
		}
	}
	cols := []string{"stage", "count", "from_previous", "from_first", "drop_off"}
	rows := make([][]mdCell, len(stages))
	shown := make([][]mdCell, len(stages))
	for i, s := range stages {
		count := counts[i]
		if floats {
			count = fcounts[i]
		}
		var drop, prev mdCell
		if i > 0 {
			drop = fcounts[i-1] - fcounts[i]
			prev = step[i]
		}
		// A one-stage table's from_previous and drop_off are objects
		// (None); otherwise floats, NaN first.
		rows[i] = []mdCell{s, count, prev, overall[i], drop}
		p := ""
		if f, ok := prev.(float64); ok {
			p = pct(f)
		}
		shown[i] = []mdCell{s, count, p, pct(overall[i]), drop}
	}
	csvPath, err := n.saveCSV("table", cols, rows)
	if err != nil {
		return err
	}
	c := &chart{title: fmt.Sprintf(n.tr("Funnel (%s)", "漏斗（%s）"), how)}
	png, err := n.savePNG("chart", c, func() ([]byte, error) { return c.barChart(stages, fcounts) })
	if err != nil {
		return err
	}
	title := fmt.Sprintf(n.tr("Funnel: %d stages", "漏斗：%d 个阶段"), len(stages))
	md := fmt.Sprintf(n.tr("Counted as %s.\n\n", "按%s计数。\n\n"), how) + mdTable(n.lang, headers(n.lang, cols, cols...), shown, 50, 0)
	n.section(title, md, png, csvPath)
	stepData := make([]any, len(step))
	for i, s := range step {
		if f, ok := s.(float64); ok {
			stepData[i] = jnum(f)
		}
	}
	overallData := make([]any, len(overall))
	for i, o := range overall {
		overallData[i] = jnum(o)
	}
	n.out.Data = map[string]any{"stages": stages, "counts": counts, "step_rate": stepData, "overall_rate": overallData, "counted_as": how}
	worst := -1
	for i := 1; i < len(stages); i++ {
		v := 2.0
		if f, ok := step[i].(float64); ok {
			v = f
		}
		if worst < 0 || v < stepOr2(step[worst]) {
			worst = i
		}
	}
	last := len(stages) - 1
	if n.lang == LangChinese {
		rest := ""
		if worst > 0 {
			rest = fmt.Sprintf("；流失最大的是 %s → %s（转化 %s）", stages[worst-1], stages[worst], pctAny(step[worst]))
		}
		n.out.Answer = fmt.Sprintf("%s 中有 %s 到达最后一个阶段（%s）%s。", cellNumber(counts[0]), cellNumber(counts[last]), pct(overall[last]), rest)
		return nil
	}
	rest := ""
	if worst > 0 {
		rest = fmt.Sprintf("; the biggest drop is %s → %s (%s convert)", stages[worst-1], stages[worst], pctAny(step[worst]))
	}
	n.out.Answer = fmt.Sprintf("%s of %s reach the last stage (%s)%s.", cellNumber(counts[last]), cellNumber(counts[0]), pct(overall[last]), rest)
	return nil
}

func stepOr2(v any) float64 {
	if f, ok := v.(float64); ok {
		return f
	}
	return 2
}

// pctAny is pct of a rate that may be None.
func pctAny(v any) string {
	if f, ok := v.(float64); ok {
		return pct(f)
	}
	return ""
}

// cellNumber is fmt of an int or a float.
func cellNumber(v any) string {
	switch x := v.(type) {
	case int64:
		return fmtInt(x)
	case float64:
		return fmtFloat(x)
	}
	return fmt.Sprint(v)
}
