package refresh

import (
	"errors"
	"strings"
	"testing"
)

// TestParseModelMapping: the reply is read alone, in a fence, among
// words, and repaired when malformed; a reply with no object or with a
// number for a name is an error.
func TestParseModelMapping(t *testing.T) {
	for _, tc := range []struct{ reply, want, err string }{
		{reply: `{"region": "area", "revenue": "takings"}`, want: "region=area revenue=takings"},
		{reply: "Here it is:\n```json\n{\"columns\": {\"region\": \"area\", \"revenue\": null}}\n```", want: "region=area revenue="},
		{reply: `{'region': 'area', "revenue": "takings",}`, want: "region=area revenue=takings"},
		{reply: `{"region": "area", "revenue": "takings"`, want: "region=area revenue=takings"},
		{reply: "I cannot tell.", err: "no JSON object"},
		{reply: `{"region": 3}`, err: "not to a column's name"},
	} {
		got, err := ParseModelMapping(tc.reply)
		if tc.err != "" {
			if !errors.Is(err, ErrModelMapping) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err = %v, want one saying %q", tc.reply, err, tc.err)
			}
			continue
		}
		if err != nil || got["region"]+" "+got["revenue"] != strings.Join([]string{"area", strings.TrimPrefix(tc.want, "region=area revenue=")}, " ") {
			t.Errorf("%q: %v %v, want %s", tc.reply, got, err, tc.want)
		}
	}
}

// TestWithModel: the model's mapping fills the columns similarity was not
// sure of and keeps the sure ones; a mapping to a column that is not
// there, is taken, or is of another kind is refused.
func TestWithModel(t *testing.T) {
	old := []Column{{"date", "date"}, {"region", "text"}, {"revenue", "int"}}
	new := []Column{{"date", "date"}, {"area", "text"}, {"takings", "int"}}
	m := MapColumns("input/sales.csv", old, new)
	if !m.Unsure() || len(m.Missing) != 2 {
		t.Fatalf("similarity must not be sure of area and takings: %+v", m)
	}
	got, err := WithModel(m, old, map[string]string{"region": "area", "revenue": "takings", "date": "area"})
	if err != nil || got.Err() != nil || !got.NeedsApproval() || len(got.Pairs) != 3 {
		t.Fatalf("with the model: %+v %v", got, err)
	}
	if got.Pairs[0].New.Name != "date" || got.Pairs[0].By != "" {
		t.Errorf("the sure column must stay as similarity found it, whatever the model said: %+v", got.Pairs[0])
	}
	if s := got.String(); !strings.Contains(s, "revenue (int) → takings (int), as the model mapped it") {
		t.Errorf("mapping shown:\n%s", s)
	}
	if got, err := WithModel(m, old, map[string]string{"region": "area"}); err != nil || len(got.Missing) != 1 || got.Missing[0].Name != "revenue" {
		t.Errorf("a column the model leaves out stays missing: %+v %v", got, err)
	}
	for _, tc := range []struct {
		answer map[string]string
		want   string
	}{
		{map[string]string{"region": "area", "revenue": "amount"}, `maps column revenue of input/sales.csv to "amount", a column the new data does not have`},
		{map[string]string{"region": "area", "revenue": "area"}, "stands for another old column"},
		{map[string]string{"region": "takings", "revenue": "area"}, "a column of int, not text"},
	} {
		_, err := WithModel(m, old, tc.answer)
		var me *ModelMappingError
		if !errors.As(err, &me) || !errors.Is(err, ErrModelMapping) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "the new data has date (date), area (text), takings (int)") {
			t.Errorf("%v: err = %v, want a refusal saying %q", tc.answer, err, tc.want)
		}
	}
	if sure := MapColumns("t", old, []Column{{"date", "date"}, {"Region", "text"}, {"revenue_usd", "int"}}); sure.Unsure() {
		t.Errorf("revenue → revenue_usd is sure: %+v", sure)
	}
}
