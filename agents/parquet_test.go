package agents

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/preview"
)

// sameTable writes one table, made by DuckDB, as sales.csv and as
// sales.parquet in a directory of its own.
func sameTable(t *testing.T) (csvPath, parquetPath string) {
	t.Helper()
	dir := t.TempDir()
	csvPath, parquetPath = filepath.Join(dir, "sales.csv"), filepath.Join(dir, "sales.parquet")
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE s AS SELECT 'r' || (i % 4) AS region, DATE '2024-01-01' + INTERVAL (i) DAY AS day, (i * 7 % 100)::DOUBLE AS revenue FROM range(400) t(i)`,
		`COPY s TO '` + csvPath + `' (HEADER)`,
		`COPY s TO '` + parquetPath + `' (FORMAT parquet)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return csvPath, parquetPath
}

// TestBuiltinsOnParquet: without a model, the built-in analyses answer on
// a Parquet file as on the same table in CSV: the same step summaries and
// the same output tables. Before Parquet had a preview, the file was
// binary to the request's parse and each run was refused.
func TestBuiltinsOnParquet(t *testing.T) {
	py := pythonOrSkip(t)
	csvPath, parquetPath := sameTable(t)
	for _, c := range []struct{ question, table string }{
		{"top 3 regions by revenue", "out/topn_ranking.csv"},
		{"total revenue by region", "out/topn_ranking.csv"},
		{"monthly revenue trend", "out/trend_table.csv"},
		{"profile this data", "out/profile_columns.csv"},
	} {
		t.Run(c.question, func(t *testing.T) {
			answer := func(file string) (string, string) {
				evs := collect(t, offlineSift(t, py), Request{Question: c.question, Files: []string{file}})
				done := evs[len(evs)-1]
				if done.Err != nil {
					t.Fatalf("%s: %v", filepath.Base(file), done.Err)
				}
				var summaries []string
				for _, e := range kinds(evs, event.StepFinished) {
					summaries = append(summaries, strings.ReplaceAll(e.Step.Summary, filepath.Base(file), "FILE"))
				}
				return strings.Join(summaries, "\n"), readWS(t, done, c.table)
			}
			wantSummary, wantTable := answer(csvPath)
			gotSummary, gotTable := answer(parquetPath)
			if wantSummary == "" || gotSummary != wantSummary {
				t.Errorf("on Parquet:\n%s\nwant as on CSV:\n%s", gotSummary, wantSummary)
			}
			if gotTable != wantTable {
				t.Errorf("%s on Parquet:\n%s\nwant as on CSV:\n%s", c.table, gotTable, wantTable)
			}
		})
	}
}

// TestOfflineRefusalNamesNonTable: without a model, an input that is no
// table is named with why, and the refusal does not ask for an analysis
// the request already named.
func TestOfflineRefusalNamesNonTable(t *testing.T) {
	py := pythonOrSkip(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "x.bin")
	if err := os.WriteFile(bin, []byte("\x00\x01\x02\x03 not a table \xff\xfe"), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.parquet")
	if err := os.WriteFile(broken, []byte("PAR1 cut short"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		want []string
	}{
		{bin, []string{"input/x.bin: binary content, not a table Sift reads (CSV, TSV, JSON, JSONL, xlsx, Parquet)", "they need a table"}},
		{broken, []string{"input/broken.parquet could not be read", preview.ErrParquetUnreadable.Error(), "they need a table"}},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			evs := collect(t, offlineSift(t, py), Request{Question: "profile this data", Files: []string{c.file}})
			err := evs[len(evs)-1].Err
			if !errors.Is(err, ErrNoModel) {
				t.Fatalf("want ErrNoModel, got %v", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the refusal lacks %q:\n%v", w, err)
				}
			}
			if strings.Contains(err.Error(), "name one in your request") {
				t.Errorf("the request named an analysis; the refusal must not ask for one:\n%v", err)
			}
		})
	}
	// Beside a table, a binary input is still named, and the catalogue
	// shown.
	evs := collect(t, offlineSift(t, py), Request{Question: "Why did North grow?", Files: []string{bin, salesCSV(t)}})
	err := evs[len(evs)-1].Err
	if err == nil || !strings.Contains(err.Error(), "input/x.bin: binary content") || !strings.Contains(err.Error(), "name one in your request") {
		t.Errorf("want the binary input named and the catalogue: %v", err)
	}
}
