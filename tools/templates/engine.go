package templates

import (
	"github.com/sift-agent/sift/tools/sqldb"
)

// Engine says what computes a template's numbers.
type Engine string

// The engines.
const (
	// EngineAuto lets Run choose: DuckDB for every template that has a
	// DuckDB engine, on every file DuckDB reads, whatever its size; pandas
	// for the others.
	EngineAuto Engine = ""
	// EnginePandas loads the whole file into the Python kernel.
	EnginePandas Engine = "pandas"
	// EngineDuckDB aggregates the file with DuckDB, out of core, in Sift's
	// process. Profile, trend, compare_periods, top-N, pivot,
	// distribution, cohort, funnel, correlation and outliers are then
	// rendered in Go (no Python).
	EngineDuckDB Engine = "duckdb"
)

// HasDuckDBEngine reports whether the template can run through DuckDB.
func HasDuckDBEngine(template string) bool {
	b := builtinNamed(template)
	return b != nil && b.duck != nil
}

// EngineFor picks the engine for running template on the file at path in
// encoding: DuckDB when the template has a DuckDB engine and DuckDB reads
// the file (CSV/TSV, JSON/JSONL, Parquet, in UTF-8 or an encoding it
// transcodes such as GB18030, UTF-16, cp1252 or mac-roman: duckCodecs;
// an xlsx/xlsm sheet), at
// every size; pandas otherwise.
func EngineFor(template, path, encoding string) Engine {
	if duckReads(template, path, encoding) {
		return EngineDuckDB
	}
	return EnginePandas
}

// ChooseEngine is EngineFor; size and memLimit no longer matter.
//
// Deprecated: use EngineFor. One engine computes a template at every size.
func ChooseEngine(template, path string, size, memLimit int64, encoding string) Engine {
	return EngineFor(template, path, encoding)
}

// duckReads reports whether the DuckDB engine can run template on path:
// a file DuckDB reads, in UTF-8 or in an encoding the engine transcodes
// (duckCodecs), or a workbook's sheet, which it reads as CSV
// (duckInput).
func duckReads(template, path, encoding string) bool {
	b := builtinNamed(template)
	if b == nil || b.duck == nil {
		return false
	}
	if isWorkbook(path) {
		return true
	}
	if sqldb.FileReader(path) == "" || (b.duck.reads != nil && !b.duck.reads(path)) {
		return false
	}
	_, known := duckCodec(encoding)
	return utf8Codec(encoding) || known
}
