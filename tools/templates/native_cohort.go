package templates

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// cohortShown bounds the cohorts and offsets the heatmap and the Markdown
// table show (cohort.py's MAX_COHORTS and MAX_OFFSETS).
const cohortShown = 24

// cohort is py/cohort.py's main on the DuckDB path (duckdb_cohort.go).
func (n *native) cohort() error {
	code, _ := n.pre["code"].(string)
	ent, _ := n.pre["entity"].(string)
	tcol, _ := n.pre["time"].(string)
	if n.pre["entity_picked"] == true {
		n.out.Picked = append(n.out.Picked, fmt.Sprintf(n.tr("entity: %s (an id-like column name)", "个体：%s（列名像是编号）"), ent))
	}
	if n.pre["period_picked"] == true {
		n.out.Picked = append(n.out.Picked, n.tr("period: month (the usual cohort period)", "周期：月（同期群的常用周期）"))
	}
	// The counts per cohort and offset, in order of both.
	var cohorts, ks []int64
	var labels []string
	counts := map[[2]int64]float64{}
	seenK := map[int64]bool{}
	var last int64
	for _, r := range n.preRows("counts") {
		co, k := toInt(r[0]), toInt(r[1])
		counts[[2]int64{co, k}] = toFloat(r[2])
		last = toInt(r[4])
		if k == 0 {
			start, _ := time.Parse("2006-01-02", fmt.Sprint(r[3]))
			cohorts, labels = append(cohorts, co), append(labels, periodLabel(start, code))
		}
		seenK[k] = true
	}
	for k := range seenK {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	// unstack holds floats where any cohort misses an offset; ints else.
	gap := len(counts) < len(cohorts)*len(ks)
	sizes := make([]float64, len(cohorts))
	ret := make([][]float64, len(cohorts))
	for i, co := range cohorts {
		sizes[i] = counts[[2]int64{co, 0}]
		ret[i] = make([]float64, len(ks))
		for j, k := range ks {
			c, ok := counts[[2]int64{co, k}]
			switch {
			case co+k > last:
				ret[i][j] = math.NaN()
			case !ok:
				ret[i][j] = 0
			default:
				ret[i][j] = c / sizes[i]
			}
		}
	}
	avg := make([]float64, len(ks))
	for j := range ks {
		var weighted []float64
		total := 0.0
		for i := range cohorts {
			if !math.IsNaN(ret[i][j]) {
				weighted = append(weighted, ret[i][j]*sizes[i])
				total += sizes[i]
			}
		}
		avg[j] = math.NaN()
		if len(weighted) > 0 {
			avg[j] = pairwiseSum(weighted) / total
		}
	}
	cols := []string{"cohort", "size"}
	for _, k := range ks {
		cols = append(cols, strconv.FormatInt(k, 10))
	}
	size := func(i int) mdCell {
		if gap {
			return sizes[i]
		}
		return int64(sizes[i])
	}
	rows := make([][]mdCell, len(cohorts))
	for i := range cohorts {
		rows[i] = []mdCell{labels[i], size(i)}
		for _, v := range ret[i] {
			rows[i] = append(rows[i], v)
		}
	}
	csvPath, err := n.saveCSV("retention", cols, rows)
	if err != nil {
		return err
	}
	from := max(0, len(cohorts)-cohortShown)
	nk := min(len(ks), cohortShown)
	c := &chart{title: fmt.Sprintf(n.tr("Retention of %s by cohort", "各同期群的 %s 留存"), ent)}
	png, err := n.savePNG("heatmap", c, func() ([]byte, error) {
		var vs [][]float64
		for i := from; i < len(cohorts); i++ {
			vs = append(vs, ret[i][:nk])
		}
		return c.heatmap(labels[from:], cols[2:2+nk], vs)
	})
	if err != nil {
		return err
	}
	var shown [][]mdCell
	for i := from; i < len(cohorts); i++ {
		r := []mdCell{labels[i], size(i)}
		for _, v := range ret[i][:nk] {
			r = append(r, pct(v))
		}
		shown = append(shown, r)
	}
	md := mdTable(n.lang, headers(n.lang, cols[:2+nk], "cohort", "size"), shown, cohortShown, 0)
	var avgs []string
	for j := range ks[:min(13, len(ks))] {
		if n.lang == LangChinese {
			avgs = append(avgs, fmt.Sprintf("第 %d %s：%s", ks[j], periodNounsZH[code], pct(avg[j])))
		} else {
			avgs = append(avgs, fmt.Sprintf("%s %d: %s", periodNouns[code], ks[j], pct(avg[j])))
		}
	}
	md += n.tr("\n\nAverage retention (weighted by cohort size): ", "\n\n平均留存（按同期群人数加权）：") + strings.Join(avgs, n.tr(", ", "、"))
	n.section(fmt.Sprintf(n.tr("Cohort retention (%s)", "同期群留存（%s）"), tr(n.lang, periodWordsEN[code], periodWordsZH[code])), md, png, csvPath)
	sizeData := make([]any, len(sizes))
	sum := int64(0)
	for i, s := range sizes {
		sizeData[i] = int64(s)
		sum += int64(s)
	}
	retData := make([]any, len(ret))
	for i, r := range ret {
		row := make([]any, len(r))
		for j, v := range r {
			row[j] = jnum(v)
		}
		retData[i] = row
	}
	avgData := make([]any, len(avg))
	for j, a := range avg {
		avgData[j] = jnum(a)
	}
	n.out.Data = map[string]any{"entity": ent, "time": tcol, "period": periodNouns[code], "cohorts": labels,
		"sizes": sizeData, "retention": retData, "average": avgData}
	one := ""
	if n.lang == LangChinese {
		if len(avg) > 1 && !math.IsNaN(avg[1]) {
			one = fmt.Sprintf("；平均 %s 在一%s后再次活跃", pct(avg[1]), periodNounsZH[code])
		}
		n.out.Answer = fmt.Sprintf("按首次出现的%s分为 %d 个 %s 同期群（共 %s 个）%s。", periodNounsZH[code], len(labels), ent, fmtInt(sum), one)
		return nil
	}
	if len(avg) > 1 && !math.IsNaN(avg[1]) {
		one = fmt.Sprintf("; on average %s are active again one %s later", pct(avg[1]), periodNouns[code])
	}
	n.out.Answer = fmt.Sprintf("%d cohorts of %s by first %s (%s %s in all)%s.", len(labels), ent, periodNouns[code], fmtInt(sum), ent, one)
	return nil
}
