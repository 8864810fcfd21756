package templates

import (
	"fmt"
	"strings"
	"testing"
)

// profileCSV has ints, floats with missing values, an empty column, a
// Chinese text column, numbers written as text, dates and duplicate rows.
func profileCSV() []byte {
	var b strings.Builder
	b.WriteString("id,score,empty,城市,amount,day,note\n")
	for i := 0; i < 64; i++ {
		score := fmt.Sprintf("%.3f", float64(i*7%19)/3)
		if i%4 == 0 {
			score = ""
		}
		note := ""
		if i%9 == 0 {
			note = "=check"
		}
		fmt.Fprintf(&b, "%d,%s,,%s,\"$%d,%03d\",2024-01-%02d,%s\n", i%40, score, []string{"上海", "北京", "深圳", "上海", "广州"}[i%5], 1+i%3, i*17%1000, 1+i%28, note)
	}
	b.WriteString("1,2.333,,北京,\"$2,017\",2024-01-02,\n")
	b.WriteString("1,2.333,,北京,\"$2,017\",2024-01-02,\n")
	return []byte(b.String())
}

// TestProfileRenderedInGoSameAsPython: profile rendered in Go gives what
// its Python cell gave from the same aggregates: ints, floats, missing
// values, an empty column, Chinese text, numbers as text, duplicates, a
// single row, a table with no text column.
func TestProfileRenderedInGoSameAsPython(t *testing.T) {
	pythonOrSkip(t)
	checkSameRendering(t, []renderShape{
		{"sales", "sales.csv", salesCSV(t), Match{Template: Profile}, ""},
		{"shapes", "p.csv", profileCSV(), Match{Template: Profile}, ""},
		{"shapes Chinese", "p.csv", profileCSV(), Match{Template: Profile}, LangChinese},
		{"single row", "one.csv", []byte("a,b,城市\n1,2.5,上海\n"), Match{Template: Profile}, ""},
		{"numbers only", "n.csv", []byte("a,b\n1,2.5\n3,\n5,7.25\n"), Match{Template: Profile}, LangChinese},
	})
}

// TestProfileNeedsNoPython: profile runs with no Python.
func TestProfileNeedsNoPython(t *testing.T) {
	checkNeedsNoPython(t, map[string][]byte{"p.csv": profileCSV()}, "p.csv", Match{Template: Profile})
}
