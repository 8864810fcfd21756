package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sift-agent/sift/numfmt"
	"github.com/xuri/excelize/v2"
)

// The bounds of a table page: what one answer of the tables endpoint can
// hold, whatever the file holds.
const (
	// tablePageSize is the rows of a page when page_size is not given.
	tablePageSize = 50
	// maxTablePageSize is the largest page_size taken.
	maxTablePageSize = 200
	// maxTableColumns is the columns a page shows; column_count says how
	// many the table has.
	maxTableColumns = 100
	// maxCellRunes is the characters of a cell shown; a longer one is cut
	// and ends with "…" (cut_cells counts them).
	maxCellRunes = 500
	// maxTableScanRows bounds the rows counted past the page: a longer
	// table says row_count_exact false.
	maxTableScanRows = 2_000_000
	// maxWorkbookBytes is the largest workbook read (excelize holds the
	// file in memory); maxWorkbookUnzipped bounds what it may unzip.
	maxWorkbookBytes    = 64 << 20
	maxWorkbookUnzipped = 512 << 20
)

// fileTable is one page of a table file (CSV, TSV or a workbook's sheet),
// as the tables endpoint answers it: every value as the text the file
// holds (a workbook's formulas are not evaluated; a cell shows the value
// the workbook saved).
type fileTable struct {
	Path string `json:"path"`
	// Sheets are a workbook's sheets, in order; Sheet the one shown.
	Sheets []string `json:"sheets,omitempty"`
	Sheet  string   `json:"sheet,omitempty"`
	// Columns is the header (the first row), at most maxTableColumns of
	// ColumnCount.
	Columns     []string `json:"columns"`
	ColumnCount int      `json:"column_count"`
	// Rows are the page's rows, each as long as Columns.
	Rows     [][]string `json:"rows"`
	Page     int        `json:"page"`
	PageSize int        `json:"page_size"`
	// RowCount is the rows under the header; RowCountExact is false when
	// counting stopped at maxTableScanRows.
	RowCount      int  `json:"row_count"`
	RowCountExact bool `json:"row_count_exact"`
	PageCount     int  `json:"page_count"`
	CutCells      int  `json:"cut_cells"`
	// Formats, as long as Columns, say how a column's numbers read where
	// a built-in recorded it (numfmt): a share 0.3697 is a percent with
	// one decimal, "37.0%", as the report shows it; null for a column
	// shown as the file holds it. Rows keep the file's full values.
	Formats []*numfmt.Format `json:"formats,omitempty"`

	// stopAt, when not 0, is the row reading stops after: the count is
	// known already.
	stopAt int
}

// done says whether the rows read so far are all that is needed.
func (t *fileTable) done() bool { return t.stopAt > 0 && t.RowCount >= t.stopAt }

// tableCounts remembers how many rows and columns each table file read
// has, by the file's identity (its path, size and modification time), so
// that a page after the first stops reading at its last row instead of
// counting the whole file again.
type tableCounts struct {
	mu sync.Mutex
	m  map[tableKey]tableCount
}

type tableKey struct {
	root, rel, sheet string
	size, modified   int64
}

type tableCount struct {
	rows, columns int
	exact         bool
}

// maxTableCounts bounds the counts kept; when full they are all dropped.
const maxTableCounts = 1024

func (c *tableCounts) get(k tableKey) (tableCount, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.m[k]
	return n, ok
}

func (c *tableCounts) put(k tableKey, n tableCount) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxTableCounts {
		c.m = map[tableKey]tableCount{}
	}
	c.m[k] = n
}

// errNotTable is wrapped when a file cannot be read as a table.
var errNotTable = errors.New("cannot be shown as a table")

// handleTable answers GET /v1/sessions/{id}/tables/{path...}: a page of a
// CSV, TSV or workbook file, as JSON, with the checks of the files
// endpoint (the same paths, opened the same way).
func (s *Server) handleTable(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	page, err := intParam(q.Get("page"), 1, 1, 1<<30)
	if err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, "page: "+err.Error())
		return
	}
	size, err := intParam(q.Get("page_size"), tablePageSize, 1, maxTablePageSize)
	if err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, "page_size: "+err.Error())
		return
	}
	f, rel, ok := s.openRequestedFile(w, r)
	if !ok {
		return
	}
	defer f.Close()
	t := &fileTable{Path: rel, Page: page, PageSize: size, RowCountExact: true}
	st, err := f.Stat()
	if err != nil {
		requestError(w, err)
		return
	}
	key := tableKey{root: s.workspacePath(r.PathValue("id")), rel: rel, sheet: q.Get("sheet"), size: st.Size(), modified: st.ModTime().UnixNano()}
	counted, known := s.tableCounts.get(key)
	if known {
		// The count is known: read up to the page's last row only.
		t.stopAt = page * size
	}
	switch ext := strings.ToLower(path.Ext(rel)); ext {
	case ".csv", ".tsv":
		sep := ','
		if ext == ".tsv" {
			sep = '\t'
		}
		err = readDelimitedPage(r.Context(), f, sep, t)
	case ".xlsx", ".xlsm":
		err = readSheetPage(r.Context(), f, q.Get("sheet"), t)
	default:
		writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("%s is not a table file; this endpoint reads .csv, .tsv and .xlsx files (download others from /files/)", rel))
		return
	}
	var missing *missingSheetError
	switch {
	case errors.As(err, &missing):
		writeError(w, http.StatusNotFound, codeNotFound, err.Error())
		return
	case errors.Is(err, errNotTable):
		writeError(w, http.StatusUnprocessableEntity, codeBadFile, fmt.Sprintf("%s %v; download it to open it elsewhere", rel, err))
		return
	case err != nil:
		requestError(w, err)
		return
	}
	if known {
		t.RowCount, t.RowCountExact, t.ColumnCount = counted.rows, counted.exact, max(t.ColumnCount, counted.columns)
	} else {
		s.tableCounts.put(key, tableCount{rows: t.RowCount, columns: t.ColumnCount, exact: t.RowCountExact})
	}
	t.PageCount = max(1, (t.RowCount+size-1)/size)
	if page > t.PageCount {
		writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("page %d is past the last page of %s (%d, of %d rows)", page, rel, t.PageCount, t.RowCount))
		return
	}
	if t.Rows == nil {
		t.Rows = [][]string{}
	}
	if t.Sheet == "" {
		t.withFormats(key.root)
	}
	if t.Columns == nil {
		t.Columns = []string{}
	}
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, t)
}

// withFormats puts the column formats recorded beside t's file on t.
// Formats that cannot be read leave the numbers as the file holds them.
func (t *fileTable) withFormats(root string) {
	fm, err := numfmt.Read(root, t.Path)
	if err != nil || len(fm) == 0 {
		return
	}
	t.Formats = make([]*numfmt.Format, len(t.Columns))
	any := false
	for i, c := range t.Columns {
		if f, ok := fm[c]; ok {
			t.Formats[i], any = &f, true
		}
	}
	if !any {
		t.Formats = nil
	}
}

// intParam reads an optional integer query parameter within [lo, hi].
func intParam(v string, def, lo, hi int) (int, error) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q is not a whole number from %d to %d", v, lo, hi)
	}
	return n, nil
}

// missingSheetError names a sheet the workbook does not have.
type missingSheetError struct {
	path, sheet string
	sheets      []string
}

func (e *missingSheetError) Error() string {
	return fmt.Sprintf("%s has no sheet %q; its sheets are %s", e.path, e.sheet, strings.Join(e.sheets, ", "))
}

// add puts one row of the file into t: the first is the header, the
// ones of t's page are kept (cut to bounds), the others only counted.
func (t *fileTable) add(row []string, first bool) {
	if first {
		t.ColumnCount = len(row)
		t.Columns = t.cut(row, len(row))
		return
	}
	t.ColumnCount = max(t.ColumnCount, len(row))
	t.RowCount++
	if t.RowCount > (t.Page-1)*t.PageSize && t.RowCount <= t.Page*t.PageSize {
		t.Rows = append(t.Rows, t.cut(row, len(t.Columns)))
	}
}

// cut is row as shown: width cells (padded or dropped), at most
// maxTableColumns, each valid UTF-8 and at most maxCellRunes long.
func (t *fileTable) cut(row []string, width int) []string {
	width = min(width, maxTableColumns)
	out := make([]string, width)
	for i := range out {
		if i >= len(row) {
			continue
		}
		c := strings.ToValidUTF8(row[i], "\uFFFD")
		if utf8.RuneCountInString(c) > maxCellRunes {
			c = string([]rune(c)[:maxCellRunes-1]) + "…"
			t.CutCells++
		}
		out[i] = c
	}
	return out
}

// readDelimitedPage reads t's page of a CSV or TSV file and counts its
// rows (up to maxTableScanRows).
func readDelimitedPage(ctx context.Context, f *os.File, sep rune, t *fileTable) error {
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(8 << 10)
	if bytes.IndexByte(head, 0) >= 0 {
		return fmt.Errorf("%w: it holds binary data (NUL bytes), not text", errNotTable)
	}
	if bytes.HasPrefix(head, []byte("\xEF\xBB\xBF")) {
		_, _ = br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.Comma = sep
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	cr.ReuseRecord = true
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if n > maxTableScanRows {
			t.RowCountExact = false
			return nil
		}
		row, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %v", errNotTable, err)
		}
		t.add(row, n == 0)
		if t.done() {
			return nil
		}
	}
}

// readSheetPage reads t's page of one sheet of a workbook (the first when
// sheet is empty), streaming its rows; no formula is evaluated.
func readSheetPage(ctx context.Context, f *os.File, sheet string, t *fileTable) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() > maxWorkbookBytes {
		return fmt.Errorf("%w in the page: it is %s, more than the %s a workbook may be to be shown", errNotTable, humanBytes(st.Size()), humanBytes(maxWorkbookBytes))
	}
	wb, err := excelize.OpenReader(f, excelize.Options{
		UnzipSizeLimit:    maxWorkbookUnzipped,
		UnzipXMLSizeLimit: excelize.StreamChunkSize,
	})
	if err != nil {
		return fmt.Errorf("%w: it is not a workbook that can be read (%v)", errNotTable, err)
	}
	defer wb.Close()
	t.Sheets = wb.GetSheetList()
	if len(t.Sheets) == 0 {
		return fmt.Errorf("%w: the workbook has no sheets", errNotTable)
	}
	if sheet == "" {
		sheet = t.Sheets[0]
	} else if idx, _ := wb.GetSheetIndex(sheet); idx < 0 {
		return &missingSheetError{path: t.Path, sheet: sheet, sheets: t.Sheets}
	}
	t.Sheet = sheet
	rows, err := wb.Rows(sheet)
	if err != nil {
		return fmt.Errorf("%w: sheet %q cannot be read (%v)", errNotTable, sheet, err)
	}
	defer rows.Close()
	// Rows are decoded up to the page's last one only; the rest are then
	// counted by scanning the sheet's XML for its rows, when the count is
	// not known already (see countSheetRows): the first page of a long
	// sheet costs its own rows and one scan, not a decode of every row.
	counting := t.stopAt == 0
	if counting {
		t.stopAt = t.Page * t.PageSize
	}
	for n := 0; rows.Next(); n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if n > maxTableScanRows {
			t.RowCountExact = false
			return nil
		}
		inPage := n == 0 || (n > (t.Page-1)*t.PageSize && n <= t.Page*t.PageSize)
		if !inPage {
			// Counted, not read: the cells of rows off the page are
			// never parsed.
			t.RowCount++
			if t.done() {
				return nil
			}
			continue
		}
		row, err := rows.Columns()
		if err != nil {
			return fmt.Errorf("%w: sheet %q, row %d cannot be read (%v)", errNotTable, sheet, n+1, err)
		}
		t.add(row, n == 0)
		if t.done() {
			break
		}
	}
	if err := rows.Error(); err != nil {
		return fmt.Errorf("%w: sheet %q cannot be read (%v)", errNotTable, sheet, err)
	}
	if !counting || !t.done() {
		// The count is known, or the sheet ended within the page.
		return nil
	}
	t.stopAt = 0
	total, exact, err := countSheetRows(ctx, f, sheet, maxTableScanRows+1)
	if err != nil {
		return fmt.Errorf("%w: the rows of sheet %q cannot be counted (%v)", errNotTable, sheet, err)
	}
	t.RowCount, t.RowCountExact = max(t.RowCount, total-1), exact
	return nil
}
