package templates

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// corrMixedCSV has numbers of every kind correlation.py reads: floats
// with gaps in different rows, whole numbers, numbers written as text
// ("1,234", "12%", "$5"), infinities, a constant column, an id column
// and text; ties for the ranks.
func corrMixedCSV() []byte {
	var b strings.Builder
	b.WriteString("user_id,price,units,amount,rate,flat,region,score\n")
	for i := 0; i < 120; i++ {
		price := fmt.Sprintf("%.3f", 10+float64(i%17)*1.37+float64(i)*0.011)
		if i%11 == 3 {
			price = ""
		}
		units := fmt.Sprint((i * 7) % 23)
		amount := fmt.Sprintf("\"%s\"", groupInt(fmt.Sprint(1000+(i*i)%3001)))
		if i%13 == 5 {
			amount = "n/a"
		}
		rate := fmt.Sprintf("%d%%", (i*3)%40)
		if i%9 == 0 {
			rate = ""
		}
		score := fmt.Sprintf("%.1f", 100-float64(i%10)*2.5+float64(i%3))
		if i == 50 {
			score = "inf"
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,7,%s,%s\n", i, price, units, amount, rate, []string{"east", "west", "north"}[i%3], score)
	}
	return []byte(b.String())
}

// corrWideCSV has cols numeric columns of 40 rows, some strongly related.
func corrWideCSV(cols int) []byte {
	var b strings.Builder
	for j := 0; j < cols; j++ {
		if j > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "m%02d", j)
	}
	b.WriteByte('\n')
	for i := 0; i < 40; i++ {
		for j := 0; j < cols; j++ {
			if j > 0 {
				b.WriteByte(',')
			}
			v := math.Sin(float64(i*(j+1))*0.37) * float64(10+j)
			if j%4 == 1 {
				v = float64(i)*0.5 - float64(j) + math.Cos(float64(i+j))
			}
			if (i+j)%19 == 0 {
				continue // a gap
			}
			fmt.Fprintf(&b, "%.4f", v)
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// corrChineseCSV has Chinese column names, a perfect negative pair, and
// a column whose name a spreadsheet would run as a formula (the CSV
// writes it with a leading ', with a note).
func corrChineseCSV() []byte {
	var b strings.Builder
	b.WriteString("日期,销售额,成本,折扣,-变化\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "2024-01-%02d,%d,%d,%.2f,%d\n", i+1, 100+i*3, 500-i*6, 0.05*float64(i%4), (i*i)%17-8)
	}
	return []byte(b.String())
}

// corrGB18030 is corrChineseCSV in GB18030, which DuckDB reads from a
// UTF-8 copy.
func corrGB18030(t *testing.T) []byte {
	t.Helper()
	b, err := simplifiedchinese.GB18030.NewEncoder().Bytes(corrChineseCSV())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// corrApartCSV has two columns that never have a value in the same row.
func corrApartCSV() []byte {
	var b strings.Builder
	b.WriteString("a,b,c\n")
	for i := 0; i < 12; i++ {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%d,,%d\n", i, i%3)
		} else {
			fmt.Fprintf(&b, ",%d,%d\n", i*2, i%4)
		}
	}
	return []byte(b.String())
}

// corrIntsCSV is whole numbers with many ties, one column with gaps
// (floats to pandas), and true/false with and without gaps.
func corrIntsCSV() []byte {
	var b strings.Builder
	b.WriteString("visits,orders,returns,promo,shipped,calls\n")
	for i := 0; i < 60; i++ {
		shipped, calls := fmt.Sprint(i%5 != 0), fmt.Sprint(i%7)
		if i%8 == 3 {
			shipped, calls = "", ""
		}
		fmt.Fprintf(&b, "%d,%d,%d,%t,%s,%s\n", i%6, (i%6)/2+i%2, 5-(i%4), i%3 == 0, shipped, calls)
	}
	return []byte(b.String())
}

// corrFewCSV has columns with one, two and three rows in common with a:
// too few for any r (min_periods is 1, but one row has no spread), and
// just enough.
func corrFewCSV() []byte {
	return []byte("a,one,two,three\n1,5,,\n2,,7,9\n3,,8,4\n4,,,6\n,6,1,\n,7,2,\n,8,,1\n")
}

// corrJSON is the first 40 rows of corrIntsCSV with a fraction column,
// as a JSON array of records (numbers pandas' read_json reads as DuckDB
// does: whole numbers and halves).
func corrJSON() []byte {
	var recs []string
	for i := 0; i < 40; i++ {
		recs = append(recs, fmt.Sprintf(`{"visits":%d,"orders":%d,"half":%g,"label":"r%d"}`, i%6, (i%6)/2+i%2, float64(i%9)/2, i))
	}
	return []byte("[" + strings.Join(recs, ",") + "]")
}

// corrWorkbook is a workbook whose first sheet is empty and whose second
// holds numbers, as a person types them.
func corrWorkbook(t *testing.T) []byte {
	t.Helper()
	f := excelize.NewFile()
	f.SetSheetName("Sheet1", "Notes")
	if _, err := f.NewSheet("Data"); err != nil {
		t.Fatal(err)
	}
	rows := [][]any{{"height", "weight", "age"}}
	for i := 0; i < 25; i++ {
		var w any = 50 + float64(i)*1.5 + float64(i%4)
		if i%7 == 2 {
			w = nil
		}
		rows = append(rows, []any{150 + i*2, w, 20 + (i*5)%31})
	}
	for i, r := range rows {
		if err := f.SetSheetRow("Data", fmt.Sprintf("A%d", i+1), &r); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestCorrelationRenderedInGoSameAsPandas: the correlation through
// DuckDB and rendered in Go gives what py/correlation.py gives with
// pandas, to the last digit of every r: each method over floats with
// gaps in different rows (Spearman ranks again), whole numbers with ties,
// numbers written as text, infinities, a constant column and an id left
// out, two columns (a scatter plot), more than 8 and more than 12
// columns, more than 30 (cut, with a note), columns with no row in
// common (no pair), Chinese names and reports, JSON and a workbook's
// sheet.
func TestCorrelationRenderedInGoSameAsPandas(t *testing.T) {
	mixed, ints := corrMixedCSV(), corrIntsCSV()
	m := func(p Params) Match { return Match{Template: Correlation, Params: p} }
	checkSameAsPandas(t, []renderShape{
		{"pearson, every numeric column", "mixed.csv", mixed, m(Params{}), ""},
		{"spearman", "mixed.csv", mixed, m(Params{Method: "spearman"}), ""},
		{"kendall Chinese", "mixed.csv", mixed, m(Params{Method: "kendall"}), LangChinese},
		{"two named columns, scatter", "mixed.csv", mixed, m(Params{Columns: []string{"Price", "rate"}}), ""},
		{"two named spearman, a constant one left out", "mixed.csv", mixed, m(Params{Columns: []string{"score", "flat", "amount"}, Method: "spearman"}), LangChinese},
		{"ints, ties", "ints.csv", ints, m(Params{}), ""},
		{"ints kendall", "ints.csv", ints, m(Params{Method: "kendall"}), ""},
		{"ints spearman", "ints.csv", ints, m(Params{Method: "spearman"}), LangChinese},
		{"true/false named", "ints.csv", ints, m(Params{Columns: []string{"promo", "shipped", "visits", "calls"}}), ""},
		{"true/false named kendall", "ints.csv", ints, m(Params{Columns: []string{"promo", "calls", "orders"}, Method: "kendall"}), ""},
		{"few rows in common", "few.csv", corrFewCSV(), m(Params{}), ""},
		{"few rows in common spearman", "few.csv", corrFewCSV(), m(Params{Method: "spearman"}), ""},
		{"few rows in common kendall", "few.csv", corrFewCSV(), m(Params{Method: "kendall"}), LangChinese},
		{"ten columns", "w10.csv", corrWideCSV(10), m(Params{Method: "spearman"}), ""},
		{"fourteen columns kendall", "w14.csv", corrWideCSV(14), m(Params{Method: "kendall"}), ""},
		{"more than 30", "w33.csv", corrWideCSV(33), m(Params{}), ""},
		{"more than 30 Chinese", "w33.csv", corrWideCSV(33), m(Params{}), LangChinese},
		{"no row in common", "apart.csv", corrApartCSV(), m(Params{Columns: []string{"a", "b"}}), ""},
		{"no row in common Chinese", "apart.csv", corrApartCSV(), m(Params{Columns: []string{"a", "b", "c"}, Method: "kendall"}), LangChinese},
		{"Chinese names", "zh.csv", corrChineseCSV(), m(Params{}), LangChinese},
		{"Chinese names spearman", "zh.csv", corrChineseCSV(), m(Params{Method: "spearman", Columns: []string{"销售额", "成本"}}), ""},
		{"tsv", "w.tsv", []byte(strings.ReplaceAll(string(corrWideCSV(6)), ",", "\t")), m(Params{Method: "spearman"}), ""},
		{"gb18030", "zh.csv", corrGB18030(t), m(Params{}), LangChinese},
		{"json", "r.json", corrJSON(), m(Params{}), ""},
		{"json kendall", "r.json", corrJSON(), m(Params{Method: "kendall"}), LangChinese},
		{"workbook", "book.xlsx", corrWorkbook(t), m(Params{}), ""},
		{"workbook spearman", "book.xlsx", corrWorkbook(t), m(Params{Method: "spearman", Columns: []string{"height", "weight"}}), LangChinese},
	})
}

// TestCorrelationParquetSameAsPandasOnCSV: a Parquet file, which pandas'
// cell does not read, gives through DuckDB what pandas gives on the same
// table as CSV.
func TestCorrelationParquetSameAsPandasOnCSV(t *testing.T) {
	data := corrWideCSV(6)
	op := workspace(t, map[string][]byte{"w.csv": data})
	csvPath := filepath.Join(op.Root(), "input", "w.csv")
	pq := filepath.Join(op.Root(), "input", "w.parquet")
	conn, err := duckdb.NewConnector("", nil)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	if _, err := db.Exec(fmt.Sprintf("COPY (SELECT * FROM read_csv('%s')) TO '%s' (FORMAT PARQUET)", csvPath, pq)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(pq); err != nil {
		t.Fatal(err)
	}
	for _, method := range Methods {
		t.Run(method, func(t *testing.T) {
			m := Match{Template: Correlation, Params: Params{Method: method}}
			// RunWith previews a file whose encoding it is not given, and
			// the preview refuses binary files: given one, it reads the
			// Parquet file through DuckDB.
			pm := m
			pm.Params.Encoding = "utf-8"
			goRes, err := RunWith(context.Background(), op, "input/w.parquet", pm, RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if goRes.Engine != EngineDuckDB {
				t.Fatalf("engine %s on Parquet, want duckdb", goRes.Engine)
			}
			pyRes, err := RunWith(context.Background(), op, "input/w.csv", m, RunOptions{Engine: EnginePandas})
			if err != nil {
				t.Fatal(err)
			}
			sameRendering(t, op, goRes, pyRes)
		})
	}
}

// TestCorrelationRefusesAsPandas: too few columns that vary is refused
// in the words of correlation.py.
func TestCorrelationRefusesAsPandas(t *testing.T) {
	op := workspace(t, map[string][]byte{"m.csv": corrMixedCSV()})
	for _, p := range []Params{{Columns: []string{"flat", "price"}}, {Columns: []string{"region", "flat"}}} {
		m := Match{Template: Correlation, Params: p}
		_, gerr := RunWith(context.Background(), op, "input/m.csv", m, RunOptions{Engine: EngineDuckDB})
		_, perr := RunWith(context.Background(), op, "input/m.csv", m, RunOptions{Engine: EnginePandas})
		var ge, pe *CellError
		if !errors.As(gerr, &ge) || !errors.As(perr, &pe) {
			t.Fatalf("%v: errors %v and %v, want cell errors", p.Columns, gerr, perr)
		}
		if ge.Message != pe.Message {
			t.Errorf("%v: go %q, pandas %q", p.Columns, ge.Message, pe.Message)
		}
	}
}

// TestCorrelationRanksInMemoryBounded: Spearman and Kendall, which hold
// every value, refuse a table past corrMaxHeld values and say what to
// do; Pearson, whose sums stream, runs on it.
func TestCorrelationRanksInMemoryBounded(t *testing.T) {
	defer func(n int64) { corrMaxHeld = n }(corrMaxHeld)
	corrMaxHeld = 500 // 120 rows of 6 numeric columns are 720 values
	op := pythonless(t, map[string][]byte{"m.csv": corrMixedCSV()})
	for _, method := range []string{"spearman", "kendall"} {
		_, err := Run(context.Background(), op, "input/m.csv", Match{Template: Correlation, Params: Params{Method: method}})
		var ce *CellError
		if !errors.As(err, &ce) || !strings.Contains(ce.Message, "120 rows of 6 columns are more than 500 values") || !strings.Contains(ce.Message, "method=pearson") {
			t.Errorf("%s: %v, want a refusal that says why and what to do", method, err)
		}
		if _, err := Run(context.Background(), op, "input/m.csv", Match{Template: Correlation, Params: Params{Method: method, Columns: []string{"price", "units", "rate", "score"}}}); err != nil {
			t.Errorf("%s of 4 columns (480 values): %v", method, err)
		}
	}
	if _, err := Run(context.Background(), op, "input/m.csv", Match{Template: Correlation}); err != nil {
		t.Errorf("pearson: %v", err)
	}
}

// TestCorrelationNeedsNoPython: the correlation runs with no Python.
func TestCorrelationNeedsNoPython(t *testing.T) {
	checkNeedsNoPython(t, map[string][]byte{"m.csv": corrMixedCSV()}, "m.csv",
		Match{Template: Correlation},
		Match{Template: Correlation, Params: Params{Columns: []string{"price", "units"}, Method: "kendall"}},
		Match{Template: Correlation, Params: Params{Method: "spearman"}})
}

// TestKendallTauCounts: the pair counts behind tau, against counting
// every pair of rows.
func TestKendallTauCounts(t *testing.T) {
	x := []float64{1, 2, 2, 3, 3, 3, 4, 5, 5, -0.0, 0}
	y := []float64{2, 1, 1, 3, 4, 3, 0, 5, 6, 9, 9}
	var con, dis, tx, ty float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			switch {
			case dx == 0 && dy == 0:
				tx++
				ty++
			case dx == 0:
				tx++
			case dy == 0:
				ty++
			case dx*dy > 0:
				con++
			default:
				dis++
			}
		}
	}
	n := float64(len(x) * (len(x) - 1) / 2)
	want := (con - dis) / math.Sqrt(n-tx) / math.Sqrt(n-ty)
	if got := kendallTau(x, y); math.Abs(got-want) > 1e-15 {
		t.Errorf("tau = %v, want %v", got, want)
	}
}
