package templates

import (
	"context"
	"fmt"
	"math"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sift-agent/sift/tools/sqldb"
)

// The outliers' DuckDB engine. Its rows are numbered as pandas numbers a
// CSV's data rows: from 0, the header line not counted, blank lines
// skipped, a quoted field's line breaks inside its row. DuckDB's read_csv
// has no row number of its own (1.5 offers file_row_number for Parquet
// only), so the engine numbers the rows of an ordered scan with
// row_number() OVER (), which DuckDB computes in a streaming pass in the
// file's order (preserve_insertion_order stays on for this template).
// Where DuckDB would read the file otherwise than pandas (no header line
// detected, lines skipped before it), the engine refuses rather than give
// other row numbers (a one-column file with blank lines too: DuckDB reads
// them as missing values); lines DuckDB cannot read (too many or too few
// fields) fail the query, where pandas would fail or pad them.

// duckOutliersReads reports whether the outliers' DuckDB engine reads
// path as text whose rows it numbers as pandas does: CSV and TSV (a
// sheet's CSV copy too). JSON and Parquet are read through their typed
// view, in the file's order.
func duckOutliersReads(p string) bool { return isDelimited(p) }

// rawView reads the file at abs as the typed view does, every field as
// its text, so that the rows of outliers show what the file holds; it
// refuses files whose rows DuckDB would number otherwise than pandas.
func (d *duckTable) rawView(ctx context.Context, abs, delimiter string) (string, error) {
	reader := sqldb.FileReader(abs)
	sniff, err := d.query(ctx, "SELECT HasHeader, SkipRows, Comment, Delimiter FROM "+strings.Replace(reader, "read_csv(", "sniff_csv(", 1))
	if err != nil {
		return "", err
	}
	if delimiter == "" {
		delimiter = ","
		if !strings.EqualFold(path.Ext(abs), ".csv") {
			delimiter = "\t"
		}
	}
	const fix = "; row numbers would not match pandas', so outliers does not run through DuckDB on it: give the file one header line first, or raise the sandbox's memory limit (SIFT_SANDBOX_MEMORY) for pandas"
	switch s := sniff[0]; {
	case s[0] != true:
		return "", templateError("DuckDB reads no header line in this file" + fix)
	case toInt(s[1]) > 0:
		return "", templateError(fmt.Sprintf("DuckDB skips %d line(s) before the header of this file%s", toInt(s[1]), fix))
	case s[2] != nil && fmt.Sprint(s[2]) != "" && fmt.Sprint(s[2]) != "(empty)": // sniff_csv's word for none
		return "", templateError("DuckDB reads comment lines in this file" + fix)
	case fmt.Sprint(s[3]) != delimiter:
		return "", templateError(fmt.Sprintf("DuckDB reads this file's fields as separated by %q, not %q%s", s[3], delimiter, fix))
	}
	if len(d.cols) == 1 && d.cols[0].nonNull < d.rows {
		// pandas skips a blank line; DuckDB reads it as a missing value.
		return "", templateError("this one-column file has blank lines or empty values, which DuckDB counts as rows and pandas does not" + fix)
	}
	raw := "(SELECT * FROM " + strings.TrimSuffix(reader, ")") + ", all_varchar = true))"
	cols, err := d.query(ctx, "DESCRIBE SELECT * FROM "+raw)
	if err != nil {
		return "", err
	}
	if len(cols) != len(d.cols) {
		return "", fmt.Errorf("DuckDB reads %d columns as text and %d typed", len(cols), len(d.cols))
	}
	for i, c := range cols {
		if strings.TrimSpace(fmt.Sprint(c[0])) != d.cols[i].name {
			return "", fmt.Errorf("DuckDB names column %d %q as text and %q typed", i+1, c[0], d.cols[i].name)
		}
	}
	return raw, nil
}

// outlierColumn is one checked column's numbers, as outliers.py reports
// them.
type outlierColumn struct {
	Q1       any     `json:"q1"`
	Q3       any     `json:"q3"`
	Lower    any     `json:"lower"`
	Upper    any     `json:"upper"`
	Mean     any     `json:"mean"`
	Std      any     `json:"std"`
	IQRRows  []int64 `json:"iqr_rows"`
	ZRows    []int64 `json:"z_rows"`
	IQRCount int64   `json:"iqr_count"`
	ZCount   int64   `json:"z_count"`
	// whislo and whishi are the box plot's whiskers; fliers the values
	// past them (a bounded number).
	Box map[string]any `json:"box,omitempty"`
}

// outliers computes outliers.py's fences, z-scores and flagged rows. The
// flagged rows, every field as the file holds it and numbered as pandas
// numbers them, go to a CSV under work/ that the cell reads in chunks.
// abs is the file DuckDB reads (the input, or its copy: duckInput).
func (d *duckTable) outliers(ctx context.Context, root, abs string, p Params) error {
	const maxColumns, maxListed = 20, 200 // outliers.py's bounds
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	// A CSV file (or a sheet's CSV copy) is read as its text; JSON and
	// Parquet through their typed view.
	raw := d.view
	if duckOutliersReads(abs) {
		if raw, err = d.rawView(ctx, abs, p.Delimiter); err != nil {
			return err
		}
	}
	dtypes, err := d.outlierDtypes(ctx, abs)
	if err != nil {
		return err
	}
	if ext := strings.ToLower(path.Ext(abs)); ext == ".json" || ext == ".jsonl" || ext == ".ndjson" {
		raw = d.jsonTextView(abs, dtypes)
	}
	shares, err := d.numberShares(ctx)
	if err != nil {
		return err
	}
	cols, err := d.chosenColumns(p, shares, "numeric column", maxColumns, "the first %d of %d numeric columns were checked")
	if err != nil {
		return err
	}
	if len(cols) == 0 {
		return templateError("no numeric column found; name the columns to check explicitly (columns=[...])")
	}
	d.view = raw
	k, zt := p.IQRK, p.ZThreshold
	if k == 0 {
		k = 1.5
	}
	if zt == 0 {
		zt = 3
	}
	per := make([]*outlierColumn, len(cols))
	var masks []string // per column, its IQR and its z rule as SQL
	for i, c := range cols {
		v := number(c)
		res, err := d.query(ctx, fmt.Sprintf("SELECT count(*), count(%[1]s), min(%[1]s), max(%[1]s) FROM %[2]s", v, d.view))
		if err != nil {
			return err
		}
		r := res[0]
		if toInt(r[0]) != d.rows {
			return fmt.Errorf("DuckDB reads %d rows as text and %d typed", toInt(r[0]), d.rows)
		}
		n, vmin, vmax := toInt(r[1]), toFloat(r[2]), toFloat(r[3])
		mean, std, err := d.meanStd(ctx, v, n, vmin, vmax)
		if err != nil {
			return err
		}
		qs, err := d.quantiles(ctx, v, n, vmin, vmax, []float64{0.25, 0.5, 0.75})
		if err != nil {
			return err
		}
		q1, q3 := qs[0], qs[2]
		iqr := q3 - q1
		lo, hi := q1-k*iqr, q3+k*iqr
		oc := &outlierColumn{Q1: jsonFloat(q1), Q3: jsonFloat(q3), Lower: jsonFloat(lo), Upper: jsonFloat(hi),
			Mean: jsonFloat(mean), Std: jsonFloat(std), IQRRows: []int64{}, ZRows: []int64{}}
		per[i] = oc
		iqrRule, zRule := "false", "false"
		if !math.IsNaN(lo) && !math.IsNaN(hi) {
			iqrRule = fmt.Sprintf("coalesce(%[1]s < %[2]s OR %[1]s > %[3]s, false)", v, double(lo), double(hi))
		}
		if std > 0 && !math.IsInf(std, 0) { // pandas: z = 0 where std is 0 or missing
			zRule = fmt.Sprintf("coalesce(abs((%s - %s) / %s) > %s, false)", v, double(mean), double(std), double(zt))
		}
		masks = append(masks, iqrRule, zRule)
		if n > 0 {
			if oc.Box, err = d.box(ctx, v, q1, q3, k, maxListed); err != nil {
				return err
			}
			oc.Box["med"], oc.Box["q1"], oc.Box["q3"] = jsonFloat(qs[1]), oc.Q1, oc.Q3
		}
	}
	f, rowsFile, err := createWorkFile(real, "work/outlier-rows.csv")
	if err != nil {
		return err
	}
	d.temp = append(d.temp, rowsFile)
	header := []string{"row"}
	for _, c := range d.cols {
		header = append(header, c.name)
	}
	rw := newRowsWriter(f, header, dtypes)
	var flagged int64
	rows := []int64{}
	var sel, either []string
	for i, m := range masks {
		sel = append(sel, fmt.Sprintf("%s AS __m%d", m, i))
		either = append(either, fmt.Sprintf("__m%d", i))
	}
	var all []string
	for i, c := range d.cols {
		if dtypes[i] == "str" {
			all = append(all, "CAST("+c.ident()+" AS VARCHAR)")
		} else {
			all = append(all, c.ident())
		}
	}
	q := "SELECT * FROM (SELECT row_number() OVER () - 1 AS __row, " + strings.Join(sel, ", ") + ", " + strings.Join(all, ", ") +
		" FROM " + d.view + ") WHERE " + strings.Join(either, " OR ") + " ORDER BY __row"
	d.sql = append(d.sql, q)
	err = d.src.Each(ctx, q, func(vals []any) error {
		row := toInt(vals[0])
		for i, oc := range per {
			if vals[1+2*i] == true {
				oc.IQRCount++
				if len(oc.IQRRows) < maxListed {
					oc.IQRRows = append(oc.IQRRows, row)
				}
			}
			if vals[2+2*i] == true {
				oc.ZCount++
				if len(oc.ZRows) < maxListed {
					oc.ZRows = append(oc.ZRows, row)
				}
			}
		}
		flagged++
		if len(rows) < maxListed {
			rows = append(rows, row)
		}
		return rw.add(row, vals[1+len(masks):])
	})
	if err == nil {
		err = rw.close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	names, columns := []string{}, map[string]*outlierColumn{}
	for i, c := range cols {
		names = append(names, c.name)
		columns[c.name] = per[i]
	}
	d.pre["names"], d.pre["columns"], d.pre["iqr_k"], d.pre["z_threshold"] = names, columns, k, zt
	d.pre["table_columns"], d.pre["dtypes"] = header[1:], dtypes
	d.pre["rows"], d.pre["row_count"], d.pre["rows_file"] = rows, flagged, rowsFile
	d.pre["md_rows"], d.pre["rows_neutralised"] = rw.head, rw.neutral
	return nil
}

// pandasDtype is the dtype pandas gives column c of a CSV with rows rows
// when it reads the whole file: int64 for whole numbers without gaps,
// float64 for other numbers, bool for true/false without gaps, else text.
func pandasDtype(c duckColumn, rows int64) string {
	switch {
	case strings.Contains(c.typ, "INT") && c.nonNull == rows:
		return "int64"
	case c.numeric():
		return "float64"
	case c.typ == "BOOLEAN" && c.nonNull == rows:
		return "bool"
	}
	return "str"
}

// double is f as a SQL DOUBLE, exactly (a decimal literal such as 0.1
// would be a DECIMAL).
func double(f float64) string {
	return "CAST('" + strconv.FormatFloat(f, 'g', -1, 64) + "' AS DOUBLE)"
}
