package server

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// TestCountSheetRowsAsExcelizeReads: the row scan counts a sheet's rows
// as excelize's reader yields them, whatever the XML looks like: gaps in
// the rows' numbers, rows with no r, a namespace prefix, self-closing
// rows, and "<row" inside a comment, CDATA or another tag's name.
func TestCountSheetRowsAsExcelizeReads(t *testing.T) {
	for _, c := range []struct {
		name, sheetData string
	}{
		{"plain", `<row r="1"><c r="A1" t="inlineStr"><is><t>n</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row><row r="3"><c r="A3"><v>2</v></c></row>`},
		{"gap", `<row r="1"><c r="A1"><v>1</v></c></row><row r="5"><c r="A5"><v>5</v></c></row><row r="6"/>`},
		{"no r", `<row><c><v>1</v></c></row><row><c><v>2</v></c></row><row spans="1:1"><c><v>3</v></c></row>`},
		{"comment and cdata", `<row r="1"><c r="A1"><v>1</v></c></row><!-- <row r="9"> --><row r="2"><c r="A2" t="inlineStr"><is><t><![CDATA[<row r="50">]]></t></is></c></row>`},
		{"text", `<row r="1"><c r="A1" t="inlineStr"><is><t>&lt;row r="70"&gt;</t></is></c></row><row r="2"/>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "b.xlsx")
			writeRawWorkbook(t, p, `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`+c.sheetData+`</sheetData><rowBreaks count="1"><brk id="3"/></rowBreaks></worksheet>`)
			wb, err := excelize.OpenFile(p)
			if err != nil {
				t.Fatal(err)
			}
			defer wb.Close()
			rows, err := wb.Rows("Data")
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for rows.Next() {
				want++
			}
			rows.Close()
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, exact, err := countSheetRows(t.Context(), f, "Data", 1000)
			if err != nil || got != want || !exact {
				t.Errorf("countSheetRows = %d, %v, %v; excelize reads %d rows", got, exact, err, want)
			}
			if got, exact, _ := countSheetRows(t.Context(), f, "Data", 1); want > 1 && (exact || got <= 1) {
				t.Errorf("past the limit: %d rows, exact %v", got, exact)
			}
		})
	}
	// A prefixed worksheet (as some writers save it) is counted the same.
	p := filepath.Join(t.TempDir(), "x.xlsx")
	writeRawWorkbook(t, p, `<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData><x:row r="1"/><x:row r="2"/><x:row r="4"/></x:sheetData></x:worksheet>`)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, _, err := countSheetRows(t.Context(), f, "Data", 1000); got != 4 || err != nil {
		t.Errorf("prefixed rows = %d, %v, want 4", got, err)
	}
}

// writeRawWorkbook writes a workbook whose one sheet, Data, is the
// worksheet XML given, kept at a part name excelize would not choose.
func writeRawWorkbook(t *testing.T, p, worksheet string) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	parts := map[string]string{
		"[Content_Types].xml":    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/book/wb.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/book/sheets/data.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
		"_rels/.rels":            `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="book/wb.xml"/></Relationships>`,
		"book/wb.xml":            `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Other" sheetId="2" r:id="rId2"/><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"book/_rels/wb.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="sheets/data.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/book/sheets/other.xml"/></Relationships>`,
		"book/sheets/data.xml":   `<?xml version="1.0" encoding="UTF-8"?>` + worksheet,
		"book/sheets/other.xml":  `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"/></sheetData></worksheet>`,
	}
	for _, name := range []string{"[Content_Types].xml", "_rels/.rels", "book/wb.xml", "book/_rels/wb.xml.rels", "book/sheets/data.xml", "book/sheets/other.xml"} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := strings.NewReader(parts[name]).WriteTo(w); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}
