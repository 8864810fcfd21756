package templates

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sift-agent/sift/preview"
)

func TestParamsOverride(t *testing.T) {
	inferred := Params{Time: "order_date", Measure: "amount", N: 10, Reasons: []string{"measure: amount (guessed)"}}
	got := inferred.Override(Params{Measure: "quantity", N: 3, Columns: []string{"a"}})
	want := Params{Time: "order_date", Measure: "quantity", N: 3, Columns: []string{"a"},
		Reasons: []string{"measure: amount (guessed)", "measure: quantity (given explicitly)", "columns: a (given explicitly)", "n: 3 (given explicitly)"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Override (-want +got):\n%s", diff)
	}
	if len(inferred.Reasons) != 1 {
		t.Errorf("Override changed its receiver's reasons: %v", inferred.Reasons)
	}
}

func TestParamsValidate(t *testing.T) {
	tests := []struct {
		p    Params
		want string
	}{
		{Params{}, ""},
		{Params{Period: "month", Aggregation: "mean", Compare: "yoy", Method: "spearman", N: 5}, ""},
		{Params{Period: "fortnight"}, "period"},
		{Params{Aggregation: "avg"}, "aggregation"},
		{Params{Compare: "mtd"}, "compare"},
		{Params{Method: "cosine"}, "method"},
		{Params{N: -1}, "n -1"},
	}
	for _, tt := range tests {
		err := tt.p.Validate()
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate(%+v) = %v, want an error about %q", tt.p, err, tt.want)
		}
	}
}

func TestPythonCodec(t *testing.T) {
	tests := []struct {
		enc  string
		bom  bool
		want string
	}{
		{preview.EncodingUTF8, false, "utf-8-sig"},
		{preview.EncodingUTF8BOM, true, "utf-8-sig"},
		{preview.EncodingGB18030, false, "gb18030"},
		{preview.EncodingUTF16LE, true, "utf-16"},
		{preview.EncodingUTF16BE, false, "utf-16-be"},
		{preview.EncodingWindows1252, false, "cp1252"},
		{"", false, ""},
	}
	for _, tt := range tests {
		if got := pythonCodec(tt.enc, tt.bom); got != tt.want {
			t.Errorf("pythonCodec(%q, %v) = %q, want %q", tt.enc, tt.bom, got, tt.want)
		}
	}
}

func TestFileParamsKeepsExplicitValues(t *testing.T) {
	fp := &preview.FilePreview{Kind: preview.KindXLSX, Sheets: []preview.SheetPreview{{Name: "Data"}}}
	got := fileParams(Params{Sheet: "Mine"}, fp, &fp.Sheets[0])
	if got.Sheet != "Mine" {
		t.Errorf("sheet %q, want the explicit Mine", got.Sheet)
	}
	got = fileParams(Params{}, fp, &fp.Sheets[0])
	if got.Sheet != "Data" || got.Delimiter != "" {
		t.Errorf("got %+v, want sheet Data and no delimiter", got)
	}
}
