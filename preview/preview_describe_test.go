package preview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// ignoreStats leaves column statistics out of comparisons of whole sheets
// (TestColumnStats and the Describe tests check them).
var ignoreStats = cmpopts.IgnoreFields(SheetPreview{}, "Stats", "StatsRows")

func TestColumnStats(t *testing.T) {
	data := "id,when,city,amount,share,flag\n" +
		"7,2024-03-01,Lyon,\"1,200\",12.5%,yes\n" +
		"3,2023-12-31,Paris,-4,NA,no\n" +
		"9,2024-01-15,Lyon,,7%,yes\n" +
		"1,2024-02-29,Nice,80.25,,yes\n"
	p := mustPreview(t, writeFile(t, "s.csv", []byte(data)), Options{})
	s := p.Sheets[0]
	top := func(vc ...any) []ValueCount {
		var out []ValueCount
		for i := 0; i < len(vc); i += 2 {
			out = append(out, ValueCount{vc[i].(string), vc[i+1].(int)})
		}
		return out
	}
	want := []ColumnStats{
		{Min: "1", Max: "9", Distinct: 4, Top: top("1", 1, "3", 1, "7", 1, "9", 1)},
		{Min: "2023-12-31", Max: "2024-03-01", Distinct: 4, Top: top("2023-12-31", 1, "2024-01-15", 1, "2024-02-29", 1, "2024-03-01", 1)},
		{Distinct: 3, Top: top("Lyon", 2, "Nice", 1, "Paris", 1), Values: []string{"Lyon", "Nice", "Paris"}},
		{Missing: 1, Min: "-4", Max: "1,200", Decimals: 2, Distinct: 3, Top: top("-4", 1, "1,200", 1, "80.25", 1)},
		{Missing: 2, Min: "7%", Max: "12.5%", Decimals: 1, Distinct: 2, Top: top("12.5%", 1, "7%", 1)},
		{Distinct: 2, Top: top("yes", 3, "no", 1), Values: []string{"no", "yes"}},
	}
	if diff := cmp.Diff(want, s.Stats); diff != "" || s.StatsRows != 4 {
		t.Errorf("stats over %d rows (-want +got):\n%s", s.StatsRows, diff)
	}
}

// TestColumnStatsCoverTheWholeFile checks that a file larger than the
// sampled head has its statistics from every row (streamed), and one
// larger than StatsMaxBytes from the head's rows, saying so.
func TestColumnStatsCoverTheWholeFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("n,label\n")
	const rows = 200_000 // about 2.5 MiB: past the 1 MiB head
	for i := range rows {
		label := "common"
		if i == rows-1 {
			label = "last"
		}
		fmt.Fprintf(&b, "%d,%s\n", i, label)
	}
	path := writeFile(t, "big.csv", []byte(b.String()))
	s := mustPreview(t, path, Options{}).Sheets[0]
	if s.StatsRows != rows || s.Stats[0].Max != fmt.Sprint(rows-1) || s.Stats[1].Distinct != 2 {
		t.Errorf("stats over %d rows, max n %q, %d labels; want all %d rows, max %d, 2 labels", s.StatsRows, s.Stats[0].Max, s.Stats[1].Distinct, rows, rows-1)
	}
	small := mustPreview(t, path, Options{StatsMaxBytes: 1 << 20}).Sheets[0]
	if small.StatsRows >= rows || small.StatsRows < 10_000 {
		t.Errorf("with StatsMaxBytes 1 MiB the stats cover %d rows; want the head's (fewer than %d)", small.StatsRows, rows)
	}
	text := (&FilePreview{Name: "big.csv", Kind: KindCSV, Sheets: []SheetPreview{small}}).Describe(Options{})
	if !strings.Contains(text, fmt.Sprintf("column stats over the first %s rows", thousands(small.StatsRows))) {
		t.Errorf("the description must say the stats cover only the first rows:\n%s", text)
	}
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func TestDescribeSmallTable(t *testing.T) {
	data := "order_id,city,ratio,lat,note\n" +
		"A-1,Lyon,0.1234567,45.7640431,\n" +
		"A-2,Paris,0.5,48.8566141,late\n" +
		"A-3,Lyon,,43.2964820,\n"
	p := mustPreview(t, writeFile(t, "o.csv", []byte(data)), Options{})
	want := `## o.csv (csv; 112 B; encoding utf-8; delimiter comma ",")
table: 3 rows × 5 columns
- order_id (text, 3 distinct values): A-1=1, A-2=1, A-3=1
- city (text, 2 distinct values): Lyon=2, Paris=1
- ratio (float, 33% missing): 0.1234567 … 0.5
- lat (float): 43.2964820 … 48.8566141
- note (text, 67% missing, 1 distinct value): late=1
sample rows (long decimals rounded to 4 places):
order_id | city | ratio | lat | note
A-1 | Lyon | 0.1235 | 45.7640431 | 
A-2 | Paris | 0.5 | 48.8566141 | late
A-3 | Lyon |  | 43.2964820 | `
	if diff := cmp.Diff(want, p.Describe(Options{})); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestDescribeWideTableStaysBounded checks that a table of hundreds of
// columns is described one line per column (numbered runs folded), within
// MaxChars, naming the columns it has no room for.
func TestDescribeWideTableStaysBounded(t *testing.T) {
	p := mustPreview(t, wideCSV(t, 300, 30), Options{})
	text := p.Describe(Options{})
	if n := runeLen(text); n > 4000 {
		t.Errorf("description is %d chars, want ≤ 4000", n)
	}
	for _, want := range []string{"table: 30 rows × 300 columns", "- aa_field_0 (int", "… and "} {
		if !strings.Contains(text, want) {
			t.Errorf("description lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "sample rows") {
		t.Errorf("a wide table's description must not hold sample rows:\n%s", text)
	}
}
