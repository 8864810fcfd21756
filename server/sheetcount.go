package server

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"
)

// countSheetRows counts the rows of one sheet of the workbook f as
// excelize's row reader yields them (a gap in the rows' numbers counts as
// empty rows), without decoding its XML: the sheet's part is scanned for
// its row tags, the fastest read that is still a count and not an
// estimate (a sheet's recorded dimension can be stale). Counting stops
// past limit rows; exact is then false.
func countSheetRows(ctx context.Context, f *os.File, sheet string, limit int) (rows int, exact bool, err error) {
	st, err := f.Stat()
	if err != nil {
		return 0, false, err
	}
	zr, err := zip.NewReader(f, st.Size())
	if err != nil {
		return 0, false, err
	}
	part, err := sheetPart(zr, sheet)
	if err != nil {
		return 0, false, err
	}
	zf, err := zr.Open(part)
	if err != nil {
		return 0, false, fmt.Errorf("sheet %q: %w", sheet, err)
	}
	defer zf.Close()
	return countRowTags(ctx, io.LimitReader(zf, maxWorkbookUnzipped), limit)
}

// countRowTags counts the <row> start tags of a worksheet's XML (with any
// namespace prefix), a row's r attribute setting the count as excelize's
// reader does; comments, CDATA and processing instructions are skipped.
func countRowTags(ctx context.Context, r io.Reader, limit int) (rows int, exact bool, err error) {
	br := bufio.NewReaderSize(r, 256<<10)
	for n := 0; ; n++ {
		if n%8192 == 0 && ctx.Err() != nil {
			return 0, false, ctx.Err()
		}
		if _, err := br.ReadSlice('<'); err != nil {
			if errors.Is(err, bufio.ErrBufferFull) {
				continue // a long text: still looking for its end
			}
			if errors.Is(err, io.EOF) {
				return rows, true, nil
			}
			return 0, false, err
		}
		// Only the tag's name is looked at, unless it is a row's.
		head, _ := br.Peek(16)
		switch {
		case bytes.HasPrefix(head, []byte("!--")):
			if skipPast(br, "-->") != nil {
				return rows, true, nil
			}
			continue
		case bytes.HasPrefix(head, []byte("![CDATA[")):
			if skipPast(br, "]]>") != nil {
				return rows, true, nil
			}
			continue
		}
		name := head
		if i := bytes.IndexAny(name, " \t\r\n/>"); i >= 0 {
			name = name[:i]
		}
		if i := bytes.IndexByte(name, ':'); i >= 0 {
			name = name[i+1:]
		}
		if string(name) != "row" {
			continue
		}
		tag, err := br.ReadSlice('>')
		if err != nil {
			return rows, true, nil
		}
		rows++
		attrs := bytes.TrimSuffix(bytes.TrimSuffix(tag, []byte(">")), []byte("/"))
		if i := bytes.IndexAny(attrs, " \t\r\n"); i >= 0 {
			attrs = attrs[i:]
		} else {
			attrs = nil
		}
		if v, ok := attrValue(attrs, "r"); ok {
			if r, err := strconv.Atoi(v); err == nil && r > 0 {
				rows = r
			}
		}
		if rows > limit {
			return rows, false, nil
		}
	}
}

// skipPast reads br up to and past end.
func skipPast(br *bufio.Reader, end string) error {
	last := end[len(end)-1]
	var tail []byte
	for {
		b, err := br.ReadByte()
		if err != nil {
			return err
		}
		tail = append(tail, b)
		if len(tail) > len(end) {
			tail = tail[1:]
		}
		if b == last && string(tail) == end {
			return nil
		}
	}
}

// attrValue is the value of the unprefixed attribute name in a tag's
// attribute text.
func attrValue(attrs []byte, name string) (string, bool) {
	for len(attrs) > 0 {
		attrs = bytes.TrimLeft(attrs, " \t\r\n")
		if len(attrs) == 0 {
			return "", false
		}
		eq := bytes.IndexByte(attrs, '=')
		if eq < 0 || eq+1 >= len(attrs) {
			return "", false
		}
		key := string(bytes.TrimSpace(attrs[:eq]))
		q := attrs[eq+1]
		rest := attrs[eq+2:]
		end := bytes.IndexByte(rest, q)
		if end < 0 {
			return "", false
		}
		if key == name {
			return string(rest[:end]), true
		}
		attrs = rest[end+1:]
	}
	return "", false
}

// sheetPart is the zip part of the workbook's sheet named sheet, read
// from the package's relationships as excelize reads them.
func sheetPart(zr *zip.Reader, sheet string) (string, error) {
	type rel struct {
		ID     string `xml:"Id,attr"`
		Type   string `xml:"Type,attr"`
		Target string `xml:"Target,attr"`
	}
	type rels struct {
		Rels []rel `xml:"Relationship"`
	}
	readXML := func(name string, v any) error {
		f, err := zr.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		return xml.NewDecoder(io.LimitReader(f, 16<<20)).Decode(v)
	}
	resolve := func(base, target string) string {
		if strings.HasPrefix(target, "/") {
			return strings.TrimPrefix(target, "/")
		}
		return path.Join(base, target)
	}
	book := "xl/workbook.xml"
	var root rels
	if readXML("_rels/.rels", &root) == nil {
		for _, r := range root.Rels {
			if strings.HasSuffix(r.Type, "/officeDocument") {
				book = resolve("", r.Target)
			}
		}
	}
	var wb struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
			ID   string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := readXML(book, &wb); err != nil {
		return "", fmt.Errorf("read %s: %w", book, err)
	}
	var bookRels rels
	if err := readXML(path.Join(path.Dir(book), "_rels", path.Base(book)+".rels"), &bookRels); err != nil {
		return "", fmt.Errorf("read the relationships of %s: %w", book, err)
	}
	for _, s := range wb.Sheets {
		if s.Name != sheet {
			continue
		}
		for _, r := range bookRels.Rels {
			if r.ID == s.ID {
				return resolve(path.Dir(book), r.Target), nil
			}
		}
	}
	return "", fmt.Errorf("no part holds sheet %q", sheet)
}
