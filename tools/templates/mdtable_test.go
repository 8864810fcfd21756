package templates

import (
	"regexp"
	"strings"
	"testing"
)

// Each column of numbers in a report table shows one number of decimals:
// a monthly change of 0.5 beside one of 49.5 reads 0.50 and 49.50, not
// 0.5 and 49.50 (nor 0.02581 beside 1,234.50).
func TestReportTablesShowOneNumberOfDecimalsPerColumn(t *testing.T) {
	t.Parallel()
	csv := "month,amount\n2024-01-15,100\n2024-02-15,100.5\n2024-03-15,150\n2024-04-15,150.02581\n"
	op := workspace(t, map[string][]byte{"m.csv": []byte(csv)})
	res := runMatched(t, op, "input/m.csv", "Monthly amount trend")
	var md string
	for _, s := range res.Sections {
		md += s.Markdown + "\n"
	}
	rows := tableRows(md, "change")
	if len(rows) < 3 {
		t.Fatalf("no table with a change column in:\n%s", md)
	}
	col := -1
	for k, h := range rows[0] {
		if h == "change" {
			col = k
		}
	}
	decimals := map[int]bool{}
	for _, r := range rows[1:] {
		if col >= len(r) || r[col] == "" {
			continue
		}
		m := regexp.MustCompile(`\.(\d+)$`).FindStringSubmatch(r[col])
		n := 0
		if m != nil {
			n = len(m[1])
		}
		decimals[n] = true
	}
	if len(decimals) != 1 {
		t.Errorf("the change column mixes decimals %v:\n%s", decimals, md)
	}
}

// tableRows reads the first Markdown table whose header has col.
func tableRows(md, col string) [][]string {
	var rows [][]string
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			if len(rows) > 0 {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		if len(rows) == 0 && !strings.Contains(line, "| "+col+" |") {
			continue
		}
		if strings.Trim(line, "|-: ") == "" {
			continue
		}
		rows = append(rows, cells)
	}
	return rows
}
