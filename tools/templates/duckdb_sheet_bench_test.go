package templates

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// BenchmarkWorkbookTopN runs top-N on a generated sheet of 50,000 rows
// (a date, a region, an amount, a count) through the DuckDB engine (the
// sheet read with excelize, copied as CSV) and through pandas
// (read_excel in the kernel):
//
//	go test ./tools/templates/ -run '^$' -bench WorkbookTopN -benchtime 3x
func BenchmarkWorkbookTopN(b *testing.B) {
	f := excelize.NewFile()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		b.Fatal(err)
	}
	dateStyle, err := f.NewStyle(&excelize.Style{NumFmt: 14})
	if err != nil {
		b.Fatal(err)
	}
	if err := sw.SetRow("A1", []any{"date", "region", "amount", "units"}); err != nil {
		b.Fatal(err)
	}
	regions := []string{"East", "West", "North", "South", "Central"}
	start := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 50000; i++ {
		row := []any{excelize.Cell{StyleID: dateStyle, Value: start.AddDate(0, 0, i%700)}, regions[i%5], float64(i%997) + 0.25, i % 13}
		if err := sw.SetRow(fmt.Sprintf("A%d", i+2), row); err != nil {
			b.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		b.Fatal(err)
	}
	op := workspace(b, map[string][]byte{"big.xlsx": buf.Bytes()})
	m := Match{Template: TopN, Params: Params{Category: "region", Measure: "amount"}}
	for _, e := range []Engine{EngineDuckDB, EnginePandas} {
		b.Run(string(e), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := RunWith(context.Background(), op, "input/big.xlsx", m, RunOptions{Engine: e}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
