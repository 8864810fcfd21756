package preview

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/dustin/go-humanize/english"
)

// JSON shape bounds: nesting described, keys listed per object, items of an
// array whose keys are merged, and the stored shape's length.
const (
	jsonShapeDepth      = 3
	jsonShapeKeys       = 30
	jsonShapeMergeItems = 3
	jsonShapeMaxChars   = 2000
)

// previewJSON fills p with the shape of a JSON document, walked token by
// token so only JSONScanBytes of it are ever read. A document that does not
// parse is shown as text with a note; one holding several top-level values
// is previewed as JSON Lines.
func previewJSON(ctx context.Context, p *FilePreview, src *fileSample, opts Options) error {
	if _, err := src.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("rewind: %w", err)
	}
	r, err := NewDecodingReader(src.f, src.encoding)
	if err != nil {
		return err
	}
	w := newJSONShapeWalker(ctx, r, opts.JSONScanBytes)
	shape, err := w.value(0, nil)
	if errors.Is(err, errStopWalk) {
		err = nil
	}
	if err == nil && !w.stopped && w.dec.More() {
		p.Kind = KindJSONL
		p.Note = "more than one top-level JSON value: previewed as JSON Lines"
		return previewJSONL(ctx, p, src, opts)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		p.Note = fmt.Sprintf("not valid JSON (%v): the first lines are shown as text", err)
		return previewText(ctx, p, src, opts)
	}
	if w.stopped {
		p.Note = fmt.Sprintf("only the first %s were read to describe the shape; counts marked ~ are estimated", formatSize(opts.JSONScanBytes))
		if w.topArrayItems > 0 {
			// Scale by the decoded bytes the file holds, from the head's ratio.
			text, headRaw, _ := src.decodedHead()
			decodedSize := src.size
			if headRaw > 0 {
				decodedSize = src.size * int64(len(text)) / headRaw
			}
			est := estimateCount(decodedSize, opts.JSONScanBytes, w.topArrayItems)
			shape = strings.Replace(shape, "[≥"+humanize.Comma(int64(w.topArrayItems))+" items", "[~"+humanize.Comma(int64(est))+" items", 1)
		}
	}
	p.JSONShape = truncateRunes(shape, jsonShapeMaxChars)
	if !w.stopped && strings.HasPrefix(shape, "[") {
		// An array of records is a table, as pandas.read_json reads it.
		sheet, ok, err := jsonRecordsTable(ctx, p, src, opts)
		if err != nil {
			return err
		}
		if ok {
			p.Sheets = []SheetPreview{sheet}
		}
	}
	return nil
}

// jsonRecordsMax bounds the records of a top-level JSON array read into
// a table (the whole array was already walked within JSONScanBytes).
const jsonRecordsMax = 200_000

// jsonRecordsTable reads a top-level array of objects as a table: one
// column per key (in first-seen order), one row per object. ok is false
// when an item is not an object.
func jsonRecordsTable(ctx context.Context, p *FilePreview, src *fileSample, opts PreviewOptions) (SheetPreview, bool, error) {
	if _, err := src.f.Seek(0, io.SeekStart); err != nil {
		return SheetPreview{}, false, fmt.Errorf("rewind: %w", err)
	}
	r, err := NewDecodingReader(src.f, src.encoding)
	if err != nil {
		return SheetPreview{}, false, err
	}
	dec := json.NewDecoder(r)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return SheetPreview{}, false, nil
	}
	var (
		keys   []string
		keyPos = map[string]int{}
		rows   []map[string]string
	)
	for dec.More() {
		if err := ctx.Err(); err != nil {
			return SheetPreview{}, false, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return SheetPreview{}, false, nil
		}
		if len(rows) >= jsonRecordsMax {
			break
		}
		trimmed := strings.TrimSpace(string(raw))
		if !strings.HasPrefix(trimmed, "{") {
			return SheetPreview{}, false, nil
		}
		rec, order, err := flatRecord(trimmed)
		if err != nil {
			return SheetPreview{}, false, nil
		}
		for _, k := range order {
			if _, ok := keyPos[k]; !ok && len(keys) < maxTableColumns {
				keyPos[k] = len(keys)
				keys = append(keys, k)
			}
		}
		rows = append(rows, rec)
	}
	if len(rows) == 0 {
		return SheetPreview{}, false, nil
	}
	records := [][]string{keys}
	for _, rec := range rows {
		row := make([]string, len(keys))
		for k, v := range rec {
			if j, ok := keyPos[k]; ok {
				row[j] = v
			}
		}
		records = append(records, row)
	}
	sheet, _ := buildTableWithHeader(p.Name, records, opts)
	sheet.RowCount, sheet.RowCountExact = len(rows), len(rows) < jsonRecordsMax
	return sheet, true, nil
}

// jsonShapeWalker describes a JSON value's structure from a token stream,
// skipping whatever it does not describe. Its input is cut at a byte limit,
// which bounds both its time and the memory a skipped value can take.
type jsonShapeWalker struct {
	ctx   context.Context
	dec   *json.Decoder
	input *scanLimitReader
	// stopped is set once the walk needed input past the limit; the walk
	// then unwinds, marking counts as lower bounds.
	stopped bool
	// topArrayItems is the items counted of a top-level array.
	topArrayItems int
	steps         int
	raw           json.RawMessage // reused by skip
}

func newJSONShapeWalker(ctx context.Context, r io.Reader, limit int64) *jsonShapeWalker {
	in := &scanLimitReader{r: r, left: limit}
	w := &jsonShapeWalker{ctx: ctx, dec: json.NewDecoder(in), input: in}
	w.dec.UseNumber()
	return w
}

// scanLimitReader reads at most left bytes and records whether more were
// asked for.
type scanLimitReader struct {
	r    io.Reader
	left int64
	hit  bool
}

func (l *scanLimitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		l.hit = true
		return 0, io.EOF
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// errStopWalk unwinds a walk that hit its byte limit.
var errStopWalk = errors.New("json walk stopped at its byte limit")

// check turns a decoding error caused by the byte limit into errStopWalk,
// and reports cancellation every so often.
func (w *jsonShapeWalker) check(err error) error {
	if err != nil && w.input.hit {
		w.stopped = true
		return errStopWalk
	}
	if err != nil {
		return err
	}
	w.steps++
	if w.steps%1024 == 0 {
		return w.ctx.Err()
	}
	return nil
}

func (w *jsonShapeWalker) token() (json.Token, error) {
	tok, err := w.dec.Token()
	return tok, w.check(err)
}

// value describes the next value. For an object, keys in skip are not
// described (used to merge the keys of an array's items).
func (w *jsonShapeWalker) value(depth int, skip map[string]bool) (string, error) {
	tok, err := w.token()
	if err != nil {
		return "", err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			entries, _, err := w.object(depth, skip)
			return "{" + strings.Join(entries, ", ") + "}", err
		}
		return w.array(depth)
	case string:
		return "string", nil
	case json.Number:
		if strings.ContainsAny(string(t), ".eE") {
			return "float", nil
		}
		return "int", nil
	case bool:
		return "bool", nil
	case nil:
		return "null", nil
	}
	return "", fmt.Errorf("unexpected JSON token %v", tok)
}

// object describes an object whose '{' was read: "key: shape" entries for
// up to jsonShapeKeys keys not in skip, and all its keys.
func (w *jsonShapeWalker) object(depth int, skip map[string]bool) ([]string, []string, error) {
	var entries, keys []string
	extra := 0
	for w.dec.More() {
		tok, err := w.token()
		if err != nil {
			return w.stopEntries(entries, extra), keys, err
		}
		key, _ := tok.(string)
		keys = append(keys, key)
		switch {
		case skip[key]:
			err = w.skip()
		case len(entries) >= jsonShapeKeys:
			extra++
			err = w.skip()
		case depth >= jsonShapeDepth:
			err = w.skip()
			entries = append(entries, key+": …")
		default:
			var s string
			s, err = w.value(depth+1, nil)
			if s != "" {
				entries = append(entries, key+": "+s)
			}
		}
		if err != nil {
			return w.stopEntries(entries, extra), keys, err
		}
	}
	if _, err := w.token(); err != nil { // '}'
		return w.stopEntries(entries, extra), keys, err
	}
	if extra > 0 {
		entries = append(entries, fmt.Sprintf("… +%d more keys", extra))
	}
	return entries, keys, nil
}

func (w *jsonShapeWalker) stopEntries(entries []string, extra int) []string {
	if extra > 0 {
		entries = append(entries, fmt.Sprintf("… +%d more keys", extra))
	}
	if w.stopped {
		entries = append(entries, "…")
	}
	return entries
}

// array describes an array whose '[' was read: its length and its first
// item's shape, with the keys of the next few object items merged in.
func (w *jsonShapeWalker) array(depth int) (string, error) {
	var item string
	var seen map[string]bool
	count := 0
	var err error
	for w.dec.More() {
		switch {
		case count == 0 && depth < jsonShapeDepth:
			item, seen, err = w.firstItem(depth)
		case count < jsonShapeMergeItems && seen != nil:
			item, err = w.mergeItem(depth, item, seen)
		default:
			err = w.skip()
		}
		if err != nil {
			break
		}
		count++
		if depth == 0 {
			w.topArrayItems = count
		}
	}
	if err == nil {
		_, err = w.token() // ']'
	}
	if w.stopped {
		return fmt.Sprintf("[≥%s items: %s]", humanize.Comma(int64(count)), item), err
	}
	if count == 0 {
		return "[]", err
	}
	if item == "" {
		item = "…"
	}
	return fmt.Sprintf("[%s: %s]", english.Plural(count, "item", ""), item), err
}

// firstItem describes an array's first item; for an object it also returns
// its keys, so later items add only new ones.
func (w *jsonShapeWalker) firstItem(depth int) (string, map[string]bool, error) {
	tok, err := w.token()
	if err != nil {
		return "", nil, err
	}
	if d, ok := tok.(json.Delim); ok && d == '{' {
		entries, keys, err := w.object(depth+1, nil)
		seen := map[string]bool{}
		for _, k := range keys {
			seen[k] = true
		}
		return "{" + strings.Join(entries, ", ") + "}", seen, err
	}
	// Not an object: describe it from its first token.
	switch t := tok.(type) {
	case json.Delim:
		s, err := w.array(depth + 1)
		return s, nil, err
	case string:
		return "string", nil, nil
	case json.Number:
		if strings.ContainsAny(string(t), ".eE") {
			return "float", nil, nil
		}
		return "int", nil, nil
	case bool:
		return "bool", nil, nil
	}
	return "null", nil, nil
}

// mergeItem adds the keys of a later object item that the first lacked.
func (w *jsonShapeWalker) mergeItem(depth int, item string, seen map[string]bool) (string, error) {
	tok, err := w.token()
	if err != nil {
		return item, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		if ok {
			return item, w.skipRest(1)
		}
		return item, nil
	}
	entries, keys, err := w.object(depth+1, seen)
	for _, k := range keys {
		seen[k] = true
	}
	if len(entries) > 0 && strings.HasSuffix(item, "}") {
		item = strings.TrimSuffix(item, "}") + ", " + strings.Join(entries, ", ") + " (not in every item)}"
	}
	return item, err
}

// skip passes over the next value; decoding it whole is many times faster
// than stepping through its tokens, and the input limit bounds its size.
func (w *jsonShapeWalker) skip() error {
	return w.check(w.dec.Decode(&w.raw))
}

// skipRest passes over the rest of a value whose opening bracket(s) were
// read, depth levels deep.
func (w *jsonShapeWalker) skipRest(depth int) error {
	for depth > 0 {
		tok, err := w.token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}

// previewJSONL fills p from a JSON Lines file: its first records as a table
// (one column per top-level key, in first-seen order; nested values as
// compact JSON), the first record's shape, and the record count.
func previewJSONL(ctx context.Context, p *FilePreview, src *fileSample, opts Options) error {
	head, headRaw, err := src.decodedHead()
	if err != nil {
		return fmt.Errorf("decode the head as %s: %w", src.encoding, err)
	}
	var (
		keys    []string
		keyPos  = map[string]int{}
		rows    []map[string]string
		badLine int
		lineNo  int
	)
	for line := range strings.Lines(string(head)) {
		lineNo++
		if len(rows) >= opts.TypeSampleRows {
			break
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		rec, order, err := flatRecord(line)
		if err != nil {
			if badLine == 0 {
				badLine = lineNo
			}
			continue
		}
		for _, k := range order {
			if _, ok := keyPos[k]; !ok && len(keys) < maxTableColumns {
				keyPos[k] = len(keys)
				keys = append(keys, k)
			}
		}
		if len(rows) == 0 {
			w := newJSONShapeWalker(ctx, strings.NewReader(line), int64(len(line))+1)
			if shape, err := w.value(0, nil); err == nil {
				p.JSONShape = "first record: " + truncateRunes(shape, jsonShapeMaxChars)
			}
		}
		rows = append(rows, rec)
	}
	records := [][]string{keys}
	for _, rec := range rows {
		row := make([]string, len(keys))
		for k, v := range rec {
			if j, ok := keyPos[k]; ok {
				row[j] = v
			}
		}
		records = append(records, row)
	}
	sheet, _ := buildTableWithHeader(p.Name, records, opts)
	_, nonBlank, exact, err := countLines(ctx, src, head, headRaw, opts)
	if err != nil {
		return err
	}
	sheet.RowCount, sheet.RowCountExact = nonBlank, exact
	if !exact {
		sheet.Note = "record count estimated from the bytes per line at the head and tail of the file"
	}
	if badLine > 0 {
		p.Note = joinNotes(p.Note, fmt.Sprintf("line %d (and maybe others) is not valid JSON and was skipped", badLine))
	}
	p.Sheets = []SheetPreview{sheet}
	return nil
}

// flatRecord decodes one JSON Lines record into cell texts by top-level key,
// with the keys in their order. A record that is not an object becomes one
// cell under "value".
func flatRecord(line string) (map[string]string, []string, error) {
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		var raw json.RawMessage
		if err := json.Unmarshal([]byte(line), &raw); err != nil {
			return nil, nil, err
		}
		return map[string]string{"value": jsonCell(raw)}, []string{"value"}, nil
	}
	rec := map[string]string{}
	var order []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, err
		}
		if _, dup := rec[key]; !dup {
			order = append(order, key)
		}
		rec[key] = jsonCell(raw)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	return rec, order, nil
}

// jsonCell is a JSON value as a cell: strings unquoted, null blank, the rest
// as compact JSON.
func jsonCell(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case string(raw) == "null":
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String()
	}
	return string(raw)
}
