package preview

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPreviewJSONShape(t *testing.T) {
	manyKeys := make([]string, 40)
	for i := range manyKeys {
		manyKeys[i] = fmt.Sprintf(`"k%02d": %d`, i, i)
	}
	tests := []struct {
		name, data, want string
	}{
		{
			"object with nested values",
			`{"name": "sift", "version": 2, "ratio": 0.5, "ok": true, "none": null, "tags": ["a", "b"], "owner": {"id": 1, "email": "x@y"}}`,
			`{name: string, version: int, ratio: float, ok: bool, none: null, tags: [2 items: string], owner: {id: int, email: string}}`,
		},
		{
			"array of records with keys merged from later items",
			`[{"id": 1, "city": "Oslo"}, {"id": 2, "city": "Rome", "zip": "00100"}, {"id": 3}, {"id": 4, "late": true}]`,
			`[4 items: {id: int, city: string, zip: string (not in every item)}]`,
		},
		{"empty array", `[]`, `[]`},
		{"scalar", `42`, `int`},
		{"deep nesting stops", `{"a": {"b": {"c": {"d": {"e": 1}}}}}`, `{a: {b: {c: {d: …}}}}`},
		{"many keys are cut", "{" + strings.Join(manyKeys, ", ") + "}", ""},
		{"array of arrays", `[[1, 2], [3]]`, `[2 items: [2 items: int]]`},
		{"one item", `[{"a": 1}]`, `[1 item: {a: int}]`},
		{"utf-8 bom", "\uFEFF" + `{"a": 1}`, `{a: int}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPreview(t, writeFile(t, "doc.json", []byte(tt.data)), Options{})
			if p.Kind != KindJSON || p.Note != "" {
				t.Fatalf("kind %q note %q, want json and no note", p.Kind, p.Note)
			}
			if tt.name == "many keys are cut" {
				if !strings.HasSuffix(p.JSONShape, "k29: int, … +10 more keys}") {
					t.Errorf("shape %q does not end by counting the keys left out", p.JSONShape)
				}
				return
			}
			if p.JSONShape != tt.want {
				t.Errorf("shape\n got %s\nwant %s", p.JSONShape, tt.want)
			}
		})
	}
}

func TestPreviewJSONUTF16(t *testing.T) {
	p := mustPreview(t, writeFile(t, "w.json", encodeText(t, `{"城市": "北京"}`, EncodingUTF16LE, true)), Options{})
	if p.JSONShape != "{城市: string}" || p.Encoding != EncodingUTF16LE {
		t.Errorf("shape %q encoding %q", p.JSONShape, p.Encoding)
	}
}

func TestPreviewJSONLargeArrayIsEstimated(t *testing.T) {
	const items = 100000 // about 3 MiB, more than the default scan limit
	path := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("[")
	for i := range items {
		if i > 0 {
			w.WriteString(",")
		}
		fmt.Fprintf(w, `{"id":%d,"name":"item %06d"}`, i, i)
	}
	w.WriteString("]")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	p := mustPreview(t, path, Options{})
	if !strings.HasPrefix(p.JSONShape, "[~") || !strings.HasSuffix(p.JSONShape, "items: {id: int, name: string}]") {
		t.Errorf("shape %q: want an estimated item count and the item keys", p.JSONShape)
	}
	var est int
	fmt.Sscanf(strings.ReplaceAll(p.JSONShape, ",", ""), "[~%d", &est)
	if est < items*95/100 || est > items*105/100 {
		t.Errorf("estimated %d items, want about %d", est, items)
	}
	if !strings.Contains(p.Note, "estimated") {
		t.Errorf("note %q does not say counts are estimated", p.Note)
	}
	full := mustPreview(t, path, Options{JSONScanBytes: 4 << 20})
	if full.JSONShape != "[100,000 items: {id: int, name: string}]" {
		t.Errorf("within the scan limit: shape %q", full.JSONShape)
	}
}

func TestPreviewJSONInvalidFallsBackToText(t *testing.T) {
	p := mustPreview(t, writeFile(t, "bad.json", []byte("{\"a\": 1,,}\nsecond line\n")), Options{})
	if p.Kind != KindJSON || !strings.Contains(p.Note, "not valid JSON") {
		t.Errorf("kind %q note %q: want json with a not-valid note", p.Kind, p.Note)
	}
	if diff := cmp.Diff([]string{`{"a": 1,,}`, "second line"}, p.Lines); diff != "" {
		t.Errorf("lines (-want +got)\n%s", diff)
	}
}

func TestPreviewJSONL(t *testing.T) {
	data := `{"id": 1, "user": {"name": "a"}, "score": 1.5, "when": "2024-01-31"}
{"id": 2, "user": {"name": "b"}, "score": 2, "when": "2024-02-01", "extra": null}

not json
{"id": 3, "score": null, "when": "2024-02-02", "extra": "x"}
`
	for _, file := range []string{"events.jsonl", "events.json"} {
		t.Run(file, func(t *testing.T) {
			p := mustPreview(t, writeFile(t, file, []byte(data)), Options{})
			// A .json file holding one record per line is previewed as
			// JSON Lines too.
			if p.Kind != KindJSONL {
				t.Errorf("kind %q, want jsonl", p.Kind)
			}
			want := SheetPreview{
				Name:          file,
				Columns:       []Column{{"id", ColumnInt}, {"user", ColumnText}, {"score", ColumnFloat}, {"when", ColumnDate}, {"extra", ColumnText}},
				Rows:          [][]string{{"1", `{"name":"a"}`, "1.5", "2024-01-31", ""}, {"2", `{"name":"b"}`, "2", "2024-02-01", ""}, {"3", "", "", "2024-02-02", "x"}},
				RowCount:      4, // non-blank lines, the invalid one included
				RowCountExact: true,
			}
			if diff := cmp.Diff([]SheetPreview{want}, p.Sheets, ignoreStats); diff != "" {
				t.Errorf("sheet (-want +got)\n%s", diff)
			}
			if p.JSONShape != "first record: {id: int, user: {name: string}, score: float, when: string}" {
				t.Errorf("shape %q", p.JSONShape)
			}
			if !strings.Contains(p.Note, "line 4") {
				t.Errorf("note %q does not name the invalid line", p.Note)
			}
		})
	}
}

func TestPreviewJSONSeveralValuesIsJSONL(t *testing.T) {
	p := mustPreview(t, writeFile(t, "two.json", []byte("{\"a\": 1}\n{\"a\": 2}\n")), Options{})
	if p.Kind != KindJSONL || len(p.Sheets) != 1 || p.Sheets[0].RowCount != 2 || !strings.Contains(p.Note, "JSON Lines") {
		t.Errorf("kind %q sheets %+v note %q: want jsonl with 2 records", p.Kind, p.Sheets, p.Note)
	}
}

// A top-level array of records is a table: one column per key, typed, with
// statistics, so the built-ins (and pandas.read_json) read it as one.
func TestPreviewJSONArrayOfRecordsIsATable(t *testing.T) {
	doc := `[{"Name":"a","Horsepower":130,"Origin":"USA","Year":"1970-01-01"},
{"Name":"b","Horsepower":95.5,"Origin":"Japan","Year":"1971-01-01"},
{"Name":"c","Horsepower":null,"Origin":"USA","Year":"1972-01-01","Extra":true}]`
	p := mustPreview(t, writeFile(t, "cars.json", []byte(doc)), PreviewOptions{})
	if len(p.Sheets) != 1 {
		t.Fatalf("sheets %+v, want one table", p.Sheets)
	}
	s := p.Sheets[0]
	var got []string
	for _, c := range s.Columns {
		got = append(got, c.Name+":"+c.Type)
	}
	if want := "Name:text Horsepower:float Origin:text Year:date Extra:bool"; strings.Join(got, " ") != want {
		t.Errorf("columns %q, want %q", strings.Join(got, " "), want)
	}
	if s.RowCount != 3 || !s.RowCountExact || len(s.Stats) != 5 {
		t.Errorf("rows %d exact %v stats %d, want 3 exact with 5 column stats", s.RowCount, s.RowCountExact, len(s.Stats))
	}
	if p.JSONShape == "" {
		t.Error("the shape is no longer described")
	}
	// An array of numbers is not a table.
	if p := mustPreview(t, writeFile(t, "n.json", []byte(`[1, 2, 3]`)), PreviewOptions{}); len(p.Sheets) != 0 {
		t.Errorf("an array of numbers became a table: %+v", p.Sheets)
	}
}
