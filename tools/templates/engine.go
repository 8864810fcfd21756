package templates

import (
	"os"
	"strings"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/tools/sqldb"
)

// Engine says what computes a template's numbers.
type Engine string

// The engines.
const (
	// EngineAuto lets Run choose: DuckDB when pandas could not hold the
	// file under the sandbox's memory limit, else pandas.
	EngineAuto Engine = ""
	// EnginePandas loads the whole file into the Python kernel.
	EnginePandas Engine = "pandas"
	// EngineDuckDB aggregates the file with DuckDB out of core, in Sift's
	// process, and hands only the aggregates to the Python cell, which
	// draws the same tables and charts.
	EngineDuckDB Engine = "duckdb"
)

// pandasBytesPerFileByte is how much memory pandas needs per byte of a
// text table it loads: parsed columns, object strings and the copies the
// templates make (to_number, to_dates) come to several times the file.
const pandasBytesPerFileByte = 6

// duckTemplates are the templates with a DuckDB engine.
var duckTemplates = map[string]bool{Profile: true, Trend: true, ComparePeriods: true, TopN: true, Pivot: true, Distribution: true, Outliers: true}

// HasDuckDBEngine reports whether the template can run through DuckDB.
func HasDuckDBEngine(template string) bool { return duckTemplates[template] }

// ChooseEngine picks the engine for running template on a file of size
// bytes at path when a Python run may use at most memLimit bytes (0: no
// limit): DuckDB when the template has a DuckDB engine, DuckDB reads the
// file (CSV/TSV, JSON/JSONL, Parquet in UTF-8; outliers CSV/TSV only, whose
// rows it numbers as pandas does) and pandas would need more
// than the limit; pandas otherwise.
func ChooseEngine(template, path string, size, memLimit int64, encoding string) Engine {
	if !duckReads(template, path, encoding) {
		return EnginePandas
	}
	if memLimit > 0 && size > memLimit/pandasBytesPerFileByte {
		return EngineDuckDB
	}
	return EnginePandas
}

// duckReads reports whether the DuckDB engine can run template on path.
func duckReads(template, path, encoding string) bool {
	if !duckTemplates[template] || sqldb.FileReader(path) == "" || (template == Outliers && !duckOutliersReads(path)) {
		return false
	}
	switch strings.ToLower(encoding) {
	case "", "utf-8", "utf-8-sig", "utf8", "ascii":
		return true
	}
	return false
}

// memoryLimit is what a Python run of op may use (0: no limit), from the
// operator when it says, else from SIFT_SANDBOX_MEMORY or the default.
func memoryLimit(op operator.Operator) int64 {
	if m, ok := op.(interface{ MemoryLimit() int64 }); ok {
		return m.MemoryLimit()
	}
	if v := strings.TrimSpace(os.Getenv(operator.SandboxMemoryEnv)); v != "" {
		if n, err := operator.ParseByteSize(v); err == nil {
			return max(n, 0)
		}
	}
	return operator.DefaultMemoryBytes
}

// ranOutOfMemory reports whether a pandas cell failed for lack of memory.
func ranOutOfMemory(err error) bool {
	ce, ok := err.(*CellError)
	if !ok || ce.TimedOut {
		return false
	}
	low := strings.ToLower(ce.Message + " " + ce.Traceback)
	return strings.Contains(low, "memoryerror") || strings.Contains(low, "unable to allocate") ||
		strings.Contains(low, "kernel died") || strings.Contains(low, "interpreter stopped")
}
