package templates

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/tools"
)

// Errors callers branch on.
var (
	// ErrTemplateFailed is wrapped by *CellError: a template's Python cell
	// raised, timed out, or printed no result.
	ErrTemplateFailed = errors.New("template failed")
	// ErrNoTemplate: Run was given a Match with no template (nothing
	// matched).
	ErrNoTemplate = errors.New("no template chosen")
)

// resultMarker starts the line on which a template prints its result.
const resultMarker = "SIFT_RESULT "

// Section is one part of a template's report: a title, Markdown (with a
// small table) and the files it refers to.
type Section struct {
	Title    string `json:"title"`
	Markdown string `json:"markdown"`
	// Files are workspace-relative paths under out/: CSV tables and PNG
	// charts.
	Files []string `json:"files,omitempty"`
}

// Result is what a template run produced.
type Result struct {
	// Template is the template's name; File the workspace-relative input.
	Template string `json:"template"`
	File     string `json:"file"`
	// Params are the parameters the cell was given.
	Params Params `json:"params"`
	// Answer is one or two sentences with the headline numbers.
	Answer string `json:"answer"`
	// Lang is the language its words are in (RunOptions.Lang).
	Lang string `json:"lang,omitempty"`
	// Sections are the report parts, in order.
	Sections []Section `json:"sections"`
	// Files are every file the sections refer to, in order, without repeats.
	Files []string `json:"files,omitempty"`
	// Picked say what the template chose itself where a parameter was left
	// empty ("time column: order_date (detected: ...)").
	Picked []string `json:"picked,omitempty"`
	// Notes say what a reader should know (rows left out, a period that may
	// be incomplete, columns beyond the bound).
	Notes []string `json:"notes,omitempty"`
	// Data holds the template's exact numbers as JSON; its shape is the
	// template's own (see the py/ file's R["data"]).
	Data json.RawMessage `json:"data,omitempty"`
	// Duration is the cell's wall time (with the DuckDB engine, its
	// queries' too).
	Duration time.Duration `json:"duration"`
	// Engine is what computed the numbers: DuckDB, in Sift's process, for
	// every template that has a DuckDB engine and a file it reads; pandas
	// for the others.
	Engine Engine `json:"engine"`
	// SQL are the DuckDB queries that computed the numbers, in order (the
	// built-in's provenance, where a pandas run has its cell in
	// cells.jsonl); the file is the view named in their FROM.
	SQL []string `json:"sql,omitempty"`
	// Reading is what the request was understood to ask (nil when the
	// template was run with explicit parameters); Answer's first line is
	// its Text.
	Reading *Reading `json:"reading,omitempty"`
	// Table is the analysis's main answer table, exact numbers in result
	// order, computed from the Reading with DuckDB; nil when the analysis
	// has no such table or was run without a reading.
	Table *Table `json:"table,omitempty"`
}

// RunOptions are per-call options of RunWith.
type RunOptions struct {
	// Engine forces an engine. Optional; default EngineAuto: DuckDB for
	// every template that has a DuckDB engine (see EngineFor).
	Engine Engine
	// Lang is the language of the result's words (its answer, section
	// titles and notes): LangChinese, or "" for English (see LangOf).
	// Column names and numbers are the data's.
	Lang string
}

// DecodeData unmarshals Result.Data into v.
func (r *Result) DecodeData(v any) error {
	if err := json.Unmarshal(r.Data, v); err != nil {
		return fmt.Errorf("template %s: decode result data: %w", r.Template, err)
	}
	return nil
}

// Markdown renders the answer and every section, with links to their files
// (images inline), for a report or a tool reply.
func (r *Result) Markdown() string {
	var b strings.Builder
	if r.Answer != "" {
		b.WriteString(r.Answer + "\n\n")
	}
	for _, s := range r.Sections {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", s.Title, strings.TrimSpace(s.Markdown))
		for _, f := range s.Files {
			if strings.HasSuffix(f, ".png") {
				fmt.Fprintf(&b, "![%s](%s)\n\n", path.Base(f), f)
			} else {
				fmt.Fprintf(&b, "[%s](%s)\n\n", path.Base(f), f)
			}
		}
	}
	for _, n := range r.Notes {
		b.WriteString(textIn(r.Lang, "Note: %s", n) + "\n\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// CellError reports a template cell that failed. It unwraps to
// ErrTemplateFailed, and its Hint says what to do.
type CellError struct {
	// Template is the template's name; Cell the embedded file that ran.
	Template string
	Cell     string
	// Message is the Python error in one line, e.g. "no date or time column
	// found ...".
	Message string
	// Traceback is the full Python error as the operator reported it.
	Traceback string
	// TimedOut reports that the cell was stopped for taking too long.
	TimedOut bool
}

// Error names the template, the cell and the Python error, and what to do.
func (e *CellError) Error() string {
	return fmt.Sprintf("template %s: cell %s failed: %s; to fix: %s", e.Template, e.Cell, e.Message, e.Hint())
}

// Unwrap returns ErrTemplateFailed.
func (e *CellError) Unwrap() error { return ErrTemplateFailed }

// Hint says how to get the template to run.
func (e *CellError) Hint() string {
	if e.TimedOut {
		return "the file is too large for this template within the time limit; ask for fewer columns, or let an agent work on a sample"
	}
	low := strings.ToLower(e.Message)
	switch {
	case strings.Contains(low, "no column '"), strings.Contains(low, "keyerror"):
		return "name the column exactly as the file spells it (see the list of columns in the message)"
	case strings.Contains(low, "unicodedecodeerror"), strings.Contains(low, "codec"):
		return "give the file's encoding explicitly (encoding=gb18030, utf-8-sig, cp1252)"
	case strings.Contains(low, "memoryerror"), strings.Contains(low, "out of memory"), strings.Contains(low, "cannot allocate memory"), strings.Contains(low+strings.ToLower(e.Traceback), "kernel died"), strings.Contains(low, "interpreter stopped"):
		return "the file is too large for pandas under the sandbox's memory limit (SIFT_SANDBOX_MEMORY, default 4 GiB; pandas needs several times a file's size): raise the limit, or aggregate in SQL first and analyse the smaller result; naming columns does not help"
	}
	if b := builtinNamed(e.Template); b != nil && b.hint != "" {
		return b.hint
	}
	return "name the columns explicitly (columns=[...]) or check that the file is a table"
}

// exceptionLine matches the last line of a Python traceback.
// A template's own exceptions are local to the function wrapping it
// ("_sift_template.<locals>.TemplateError").
var exceptionLine = regexp.MustCompile(`^(?:[A-Za-z_][\w.<>]*\.)?([A-Za-z_]\w*(?:Error|Exception))(?::\s*(.*))?$`)

// pythonMessage is the one-line summary of a Python error: the
// TemplateError's message alone, or "Exception: message".
func pythonMessage(tb string) string {
	lines := strings.Split(strings.TrimRight(tb, "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		m := exceptionLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if m[1] == "TemplateError" {
			return m[2]
		}
		return l
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return "the cell failed without a message"
}

// cellInput is what a cell reads: the parameters plus where to read and
// write.
type cellInput struct {
	Params
	File string `json:"file"`
	Stem string `json:"stem"`
	// Lang is RunOptions.Lang.
	Lang string `json:"lang,omitempty"`
	// Pre holds the DuckDB engine's aggregates; the cell draws from them
	// instead of loading the file.
	Pre map[string]any `json:"pre,omitempty"`
}

// pyResult is the JSON a cell prints after resultMarker.
type pyResult struct {
	Sections []Section      `json:"sections"`
	Answer   string         `json:"answer"`
	Data     map[string]any `json:"data"`
	Picked   []string       `json:"picked"`
	Notes    []string       `json:"notes"`
}

// Run executes the matched template on file (workspace-relative, e.g.
// "input/sales.csv") through op, the way agent code runs (same cells log,
// same limits), and returns its sections, files, exact numbers and a short
// answer. Reading parameters left empty (encoding, delimiter, sheet) come
// from a preview of the file; column parameters left empty are worked out
// by the template and reported in Result.Picked. Outputs go to out/ named
// after the template (trend_chart.png, trend_table.csv; trend-2_... when
// those exist). A failing cell is a *CellError naming the template, the cell
// and the Python error, with what to do.
//
// A template with a DuckDB engine runs through DuckDB at every size (see
// EngineFor), with the same outputs as its pandas cell.
func Run(ctx context.Context, op operator.Operator, file string, m Match) (*Result, error) {
	return RunWith(ctx, op, file, m, RunOptions{})
}

// RunWith is Run with per-call options.
func RunWith(ctx context.Context, op operator.Operator, file string, m Match, opts RunOptions) (*Result, error) {
	if op == nil {
		return nil, errors.New("run template: operator is nil")
	}
	if m.Template == "" {
		return nil, fmt.Errorf("run template: %w: match the request first, or name a template (one of %s)", ErrNoTemplate, strings.Join(Names(), ", "))
	}
	t, err := Lookup(m.Template)
	if err != nil {
		return nil, fmt.Errorf("run template: %w", err)
	}
	if err := m.Params.Validate(); err != nil {
		return nil, fmt.Errorf("run template %s: %w", t.Name, err)
	}
	abs, err := op.Resolve(file)
	if err != nil {
		return nil, fmt.Errorf("run template %s: %w", t.Name, err)
	}
	rel := operator.RelPath(op.Root(), abs)
	params := m.Params
	// A Parquet file has no encoding or sheet to find, and a workbook no
	// encoding (its preview finds none): it is read again only for a
	// sheet the match did not name.
	workbook := isWorkbook(rel)
	if !strings.EqualFold(path.Ext(rel), ".parquet") && ((!workbook && params.Encoding == "") || (workbook && params.Sheet == "")) {
		fp, err := previewConfined(ctx, op, abs, preview.Options{MaxRows: 1, TypeSampleRows: 1, ExactCountLimit: 1})
		if err != nil {
			return nil, fmt.Errorf("run template %s: %w", t.Name, err)
		}
		if fp.Kind == preview.KindEmpty || fp.Kind == preview.KindBinary {
			return nil, fmt.Errorf("run template %s: %s is not a table (%s); give a csv, tsv, json, jsonl, xlsx or parquet file", t.Name, rel, fp.Note)
		}
		var sheet *preview.SheetPreview
		for i := range fp.Sheets {
			if len(fp.Sheets[i].Columns) > 0 {
				sheet = &fp.Sheets[i]
				break
			}
		}
		params = fileParams(params, fp, sheet)
	}
	engine := opts.Engine
	if engine == EngineAuto {
		engine = EngineFor(t.Name, rel, params.Encoding)
	}
	if engine == EngineDuckDB && !duckReads(t.Name, rel, params.Encoding) {
		return nil, fmt.Errorf("run template %s: the DuckDB engine does not run it on %s: it computes %s on CSV/TSV, JSON/JSONL and Parquet files (in UTF-8, UTF-16, GB18030, GBK, Big5, Shift-JIS, EUC-JP, EUC-KR, or a single-byte codepage such as cp1252, Latin-1 to Latin-10, KOI8 or mac-roman) and xlsx sheets", t.Name, rel, strings.Join(duckNames(), ", "))
	}
	if m.Reading.Analysis != "" && m.Reading.duckOnly() {
		// The pandas cells cannot compute this reading: the reading
		// engine answers it alone.
		r, err := runReading(ctx, op, t, rel, m, opts.Lang)
		if err != nil {
			return nil, err
		}
		return withReading(r, m, opts.Lang), nil
	}
	var reading *Reading
	if m.Reading.Analysis != "" {
		reading = &m.Reading
	}
	r, err := runEngine(ctx, op, t, rel, params, engine, opts.Lang, reading)
	if err != nil && opts.Engine == EngineAuto && engine == EngineDuckDB && duckCannotRead(err) {
		// A file DuckDB cannot read at all (even with its line ends made
		// LF), dates in no layout it reads, or a file the outliers' rows
		// would show otherwise than pandas: pandas may still read it.
		r, err = runEngine(ctx, op, t, rel, params, EnginePandas, opts.Lang, reading)
	}
	if err != nil {
		return nil, err
	}
	recordFormats(ctx, op, r)
	r.Params.Reasons = append(append([]string(nil), m.Params.Reasons...), r.Picked...)
	return withReading(r, m, opts.Lang), nil
}

// duckCannotRead reports whether the DuckDB engine failed because DuckDB
// could not read the file at all, or the dates of its time column, or
// refused a file pandas would read otherwise (notAsPandas).
func duckCannotRead(err error) bool {
	var ce *CellError
	return errors.As(err, &ce) && ce.Cell == duckCell && (strings.Contains(ce.Message, duckUnreadFile) || strings.Contains(ce.Message, duckUnreadDates) || strings.HasPrefix(ce.Message, notAsPandas))
}

// withReading puts the match's reading on the result and its Text as the
// answer's first line.
func withReading(r *Result, m Match, lang string) *Result {
	if m.Reading.Analysis == "" {
		return r
	}
	rd := m.Reading
	r.Reading = &rd
	if line := rd.Text(lang); line != "" {
		r.Answer = strings.TrimSpace(line + "\n" + r.Answer)
	}
	return r
}

// duckNames lists the templates with a DuckDB engine.
func duckNames() []string {
	var out []string
	for _, n := range Names() {
		if HasDuckDBEngine(n) {
			out = append(out, n)
		}
	}
	return out
}

// runEngine runs template t on the input at rel with one engine, and with
// a reading computes its answer table (Result.Table): the DuckDB engine
// from the table it has open, so the file is read once.
func runEngine(ctx context.Context, op operator.Operator, t Template, rel string, params Params, engine Engine, lang string, reading *Reading) (*Result, error) {
	start := time.Now()
	in := cellInput{Params: params, File: rel, Lang: lang}
	var duck *duckTable
	if engine == EngineDuckDB {
		var err error
		if duck, in.Params, err = runDuckDB(ctx, op.Root(), rel, t, params, lang, reading); err != nil {
			return nil, err
		}
		in.Pre = duck.pre
		defer duck.close()
	}
	stem, err := outputStem(ctx, op, t.Name)
	if err != nil {
		return nil, fmt.Errorf("run template %s: %w", t.Name, err)
	}
	in.Stem = stem
	var out *pyResult
	var data json.RawMessage
	var dur time.Duration
	native := duck != nil && nativeRenderer(t.Name) != nil
	// Rendered in Go from what the engine computed, the answer draws its
	// chart while DuckDB computes the reading's table (the engine left
	// no files for a cell to read).
	var tab *Table
	var tabErr error
	var tabDone chan struct{}
	if native && reading != nil && len(duck.temp) == 0 {
		tabDone = make(chan struct{})
		defer func() { <-tabDone }() // before duck.close
		go func() {
			defer close(tabDone)
			tab, tabErr = readingTableOnFn(ctx, duck.src, duck.view, *reading)
		}()
	}
	if native {
		// Rendered in Go: no Python cell, no kernel.
		if out, data, err = renderNativeFn(ctx, op, t, duck, in.Params, stem, lang); err != nil {
			return nil, err
		}
	} else if out, data, dur, err = runCell(ctx, op, t, in); err != nil {
		return nil, err
	}
	if duck != nil {
		out.Picked = append(duck.picked, out.Picked...)
		out.Notes = append(duck.notes, out.Notes...)
		dur = time.Since(start)
	}
	r := &Result{Template: t.Name, File: rel, Params: in.Params, Answer: out.Answer, Sections: out.Sections,
		Picked: out.Picked, Notes: out.Notes, Data: data, Duration: dur, Engine: engine, Lang: lang}
	if reading != nil {
		// The cell has answered; a table DuckDB cannot compute (a file in
		// a legacy encoding) leaves Table empty rather than the answer.
		switch {
		case tabDone != nil:
			<-tabDone
			err = tabErr
		case duck != nil:
			duck.removeTemp()
			tab, err = readingTableOnFn(ctx, duck.src, duck.view, *reading)
		default:
			tab, err = ReadingTable(ctx, op.Root(), rel, *reading)
		}
		if err == nil {
			r.Table = tab
		} else {
			r.Notes = append(r.Notes, textIn(lang, "the answer table was not computed: %s", err.Error()))
		}
	}
	if duck != nil {
		r.SQL = duck.sql
	}
	seen := map[string]bool{}
	for _, s := range r.Sections {
		for _, f := range s.Files {
			if !seen[f] {
				seen[f] = true
				r.Files = append(r.Files, f)
			}
		}
	}
	return r, nil
}

// previewConfined is tools.PreviewConfined; tests count its calls.
var previewConfined = tools.PreviewConfined

// renderNativeFn and readingTableOnFn are renderNative and
// readingTableOn; tests watch them run together.
var (
	renderNativeFn   = renderNative
	readingTableOnFn = readingTableOn
)

// runCell runs template t's Python cell on in and reads back its result.
func runCell(ctx context.Context, op operator.Operator, t Template, in cellInput) (*pyResult, json.RawMessage, time.Duration, error) {
	code, err := cellCode(t, in)
	if err != nil {
		return nil, nil, 0, err
	}
	res, err := op.RunPython(ctx, code, operator.RunOptions{})
	if err != nil {
		return nil, nil, 0, fmt.Errorf("run template %s: run cell %s: %w", t.Name, t.cell, err)
	}
	if !res.OK() {
		return nil, nil, 0, &CellError{Template: t.Name, Cell: t.cell, Message: pythonMessage(res.Error), Traceback: res.Error, TimedOut: res.TimedOut}
	}
	out, data, err := parseResult(res.Stdout)
	if err != nil {
		return nil, nil, 0, &CellError{Template: t.Name, Cell: t.cell, Message: err.Error(), Traceback: res.Stderr}
	}
	return out, data, res.Duration, nil
}

// cellCode is the Python a template runs: the parameters as base64 JSON
// (data, never code), then the prelude and the template indented into one
// function that is called and deleted, so a stateful kernel keeps none of
// its names.
func cellCode(t Template, in cellInput) (string, error) {
	src, err := cellSource(t)
	if err != nil {
		return "", err
	}
	js, err := json.Marshal(in)
	if err != nil {
		return "", fmt.Errorf("template %s: encode parameters: %w", t.Name, err)
	}
	var b strings.Builder
	b.WriteString("# Sift template " + t.Name + " (" + t.cell + "); its parameters are base64-encoded JSON.\n")
	b.WriteString("_PARAMS_B64 = \"" + base64.StdEncoding.EncodeToString(js) + "\"\n\n\n")
	b.WriteString("def _sift_template(_PARAMS_B64):\n")
	for _, line := range strings.Split(strings.TrimRight(src, "\n"), "\n") {
		if strings.TrimSpace(line) != "" {
			b.WriteString("    " + line)
		}
		b.WriteByte('\n')
	}
	b.WriteString("\n\ntry:\n    _sift_template(_PARAMS_B64)\nfinally:\n    del _sift_template, _PARAMS_B64\n")
	return b.String(), nil
}

// parseResult finds the last result line in a cell's stdout.
func parseResult(stdout string) (*pyResult, json.RawMessage, error) {
	lines := strings.Split(stdout, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimRight(lines[i], "\r")
		if !strings.HasPrefix(l, resultMarker) {
			continue
		}
		payload := []byte(strings.TrimPrefix(l, resultMarker))
		var out pyResult
		if err := json.Unmarshal(payload, &out); err != nil {
			return nil, nil, fmt.Errorf("its result line is not valid JSON (%v); the output may have been cut", err)
		}
		var raw struct {
			Data json.RawMessage `json:"data"`
		}
		_ = json.Unmarshal(payload, &raw)
		return &out, raw.Data, nil
	}
	return nil, nil, errors.New("it printed no " + strings.TrimSpace(resultMarker) + " line")
}

// outputStem picks the prefix of a run's output files: the template's name,
// or name-2, name-3, ... when out/ already holds files of an earlier run.
func outputStem(ctx context.Context, op operator.Operator, name string) (string, error) {
	entries, err := op.List(ctx, operator.OutDir, false)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("list %s/: %w", operator.OutDir, err)
	}
	taken := map[string]bool{}
	for _, e := range entries {
		base := path.Base(e.Path)
		for j := 0; j < len(base); j++ {
			if base[j] == '_' {
				taken[base[:j]] = true
			}
		}
	}
	stem := name
	for i := 2; taken[stem]; i++ {
		stem = fmt.Sprintf("%s-%d", name, i)
	}
	return stem, nil
}

func isWorkbook(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext == ".xlsx" || ext == ".xlsm"
}
