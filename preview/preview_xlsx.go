package preview

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/xuri/excelize/v2"
)

// maxMergeScanCells is the largest declared sheet size (rows × columns) for
// which merged ranges are read: excelize parses the whole sheet to list
// them, so bigger sheets skip it to keep a preview cheap.
const maxMergeScanCells = 200_000

// maxMergedShown bounds the merged ranges kept per sheet.
const maxMergedShown = 50

// maxTitleRows bounds the leading title rows skipped before a header.
const maxTitleRows = 3

// previewWorkbook fills p with every sheet of an xlsx/xlsm workbook. Rows
// are streamed with excelize's row iterator and only the sampled ones are
// kept; worksheets larger than 16 MiB unzipped are spooled to a temporary
// file by excelize rather than held in memory.
func previewWorkbook(ctx context.Context, p *FilePreview, file *os.File, opts Options) error {
	f, err := excelize.OpenReader(file, excelize.Options{
		UnzipSizeLimit:    opts.MaxUnzipBytes,
		UnzipXMLSizeLimit: min(excelize.StreamChunkSize, opts.MaxUnzipBytes),
	})
	if err != nil {
		return fmt.Errorf("preview %s: %w: %w", p.Path, ErrWorkbookUnreadable, err)
	}
	defer f.Close()
	for i, name := range f.GetSheetList() {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("preview %s: %w", p.Path, err)
		}
		if i >= opts.MaxSheets {
			sheet := SheetPreview{Name: name, Note: fmt.Sprintf("not previewed: only the first %d sheets are", opts.MaxSheets)}
			if last, _, ok := declaredRange(f, name); ok {
				sheet.RowCount = max(last-1, 0)
				sheet.Note += "; row count from the sheet's declared used range"
			}
			p.Sheets = append(p.Sheets, sheet)
			continue
		}
		sheet, err := previewSheet(ctx, f, name, opts)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("preview %s: %w", p.Path, ctx.Err())
			}
			sheet = SheetPreview{Name: name, Note: fmt.Sprintf("could not be read: %v", err)}
		}
		p.Sheets = append(p.Sheets, sheet)
	}
	if len(p.Sheets) == 0 {
		p.Note = "the workbook has no sheets"
	}
	return nil
}

// previewSheet streams one sheet's leading rows and counts the rest as
// cheaply as the sheet allows: by iterating to the end when the sheet is
// small, else from its declared used range, else by stepping over at most
// MaxScanRows more rows without reading their cells.
func previewSheet(ctx context.Context, f *excelize.File, name string, opts Options) (SheetPreview, error) {
	rows, err := f.Rows(name)
	if err != nil {
		return SheetPreview{}, fmt.Errorf("open rows: %w", err)
	}
	defer rows.Close()

	need := 1 + maxTitleRows + opts.TypeSampleRows
	var records [][]string
	firstRow, rowNum, lastNonEmpty := 0, 0, 0
	for len(records) < need && rows.Next() {
		rowNum++
		if rowNum%1024 == 0 && ctx.Err() != nil {
			return SheetPreview{}, ctx.Err()
		}
		cols, err := rows.Columns()
		if err != nil {
			return SheetPreview{}, fmt.Errorf("read row %d: %w", rowNum, err)
		}
		empty := nonBlankCells(cols) == 0
		if empty && len(records) == 0 {
			continue // blank rows above the table
		}
		if len(records) == 0 {
			firstRow = rowNum
		}
		if !empty {
			lastNonEmpty = rowNum
		}
		records = append(records, cols)
	}
	more := len(records) >= need && rows.Next()
	if err := rows.Error(); err != nil {
		return SheetPreview{}, fmt.Errorf("read rows: %w", err)
	}
	if len(records) == 0 {
		return SheetPreview{Name: name, RowCountExact: true, Note: "the sheet is empty"}, nil
	}
	if !more {
		records = records[:lastNonEmpty-firstRow+1]
	}

	titles, skipped, records := splitTitleRows(records)
	headerRowNum := firstRow + skipped // 1-based row number of the header
	sheet, headerRows := buildTable(name, records, opts)
	headerRowNum += headerRows - 1
	if len(titles) > 0 {
		sheet.Note = joinNotes(fmt.Sprintf("title rows above the header: %s (pandas: skiprows=%d)", strings.Join(titles, " / "), headerRowNum-1), sheet.Note)
	}

	lastRow, cells, declared := declaredRange(f, name)
	switch {
	case !more:
		sheet.RowCount = lastNonEmpty - headerRowNum
		sheet.RowCountExact = true
	case declared && lastRow > rowNum:
		sheet.RowCount = lastRow - headerRowNum
		sheet.Note = joinNotes(sheet.Note, "row count from the sheet's declared used range (may include blank formatted rows)")
	default:
		rowNum++ // the row Next found above
		exhausted := true
		for scanned := 0; rows.Next(); scanned++ {
			if scanned >= opts.MaxScanRows {
				exhausted = false
				break
			}
			rowNum++
			if rowNum%1024 == 0 && ctx.Err() != nil {
				return SheetPreview{}, ctx.Err()
			}
		}
		sheet.RowCount = rowNum - headerRowNum
		sheet.RowCountExact = exhausted
		if exhausted {
			sheet.Note = joinNotes(sheet.Note, "row count may include blank rows at the end")
		} else {
			sheet.Note = joinNotes(sheet.Note, fmt.Sprintf("at least %d rows: counting stopped after %d", sheet.RowCount, rowNum))
		}
	}
	sheet.RowCount = max(sheet.RowCount, 0)

	if !more || (declared && cells <= maxMergeScanCells) {
		merged, err := f.GetMergeCells(name, true)
		if err != nil {
			sheet.Note = joinNotes(sheet.Note, fmt.Sprintf("merged ranges could not be read: %v", err))
		}
		for i, m := range merged {
			if i == maxMergedShown {
				sheet.Note = joinNotes(sheet.Note, fmt.Sprintf("%d merged ranges, first %d listed", len(merged), maxMergedShown))
				break
			}
			sheet.Merged = append(sheet.Merged, m.GetStartAxis()+":"+m.GetEndAxis())
		}
	} else {
		sheet.Note = joinNotes(sheet.Note, "merged ranges not read: the sheet is too large to scan cheaply")
	}
	return sheet, nil
}

// splitTitleRows takes off leading rows that hold a single value (a report
// title, often merged across the table) when a wider row follows. It returns
// their texts, how many rows were taken off (blank ones after the titles
// included) and the remaining records.
func splitTitleRows(records [][]string) ([]string, int, [][]string) {
	var titles []string
	skipped := 0
	for len(titles) < maxTitleRows && len(records) > 1 {
		n := nonBlankCells(records[0])
		if n > 1 {
			break
		}
		wider := false
		for _, r := range records[1:min(len(records), 6)] {
			if nonBlankCells(r) >= 2 {
				wider = true
				break
			}
		}
		if !wider {
			break
		}
		for _, c := range records[0] {
			if c = strings.TrimSpace(c); c != "" {
				titles = append(titles, truncateRunes(c, 80))
			}
		}
		records = records[1:]
		skipped++
	}
	// Blank rows between the titles and the header are not data either.
	for len(titles) > 0 && len(records) > 1 && nonBlankCells(records[0]) == 0 {
		records = records[1:]
		skipped++
	}
	return titles, skipped, records
}

// declaredRange reads a sheet's <dimension> (its used range, which Excel
// and openpyxl keep) without parsing its cells: the last row number and the
// cell count it declares.
func declaredRange(f *excelize.File, sheet string) (lastRow, cells int, ok bool) {
	ref, err := f.GetSheetDimension(sheet)
	if err != nil || ref == "" {
		return 0, 0, false
	}
	from, to, found := strings.Cut(ref, ":")
	if !found {
		// A lone cell is what writers such as excelize leave in place of a
		// real range; it says nothing about the rows.
		return 0, 0, false
	}
	c1, r1, err1 := excelize.CellNameToCoordinates(from)
	c2, r2, err2 := excelize.CellNameToCoordinates(to)
	if err1 != nil || err2 != nil || r2 < r1 || c2 < c1 {
		return 0, 0, false
	}
	return r2, (r2 - r1 + 1) * (c2 - c1 + 1), true
}

// nonBlankCells counts cells with non-space text.
func nonBlankCells(row []string) int {
	n := 0
	for _, c := range row {
		if strings.TrimSpace(c) != "" {
			n++
		}
	}
	return n
}
