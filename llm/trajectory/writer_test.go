package trajectory

import (
	"strings"
	"testing"
)

func TestWholeByDefault(t *testing.T) {
	var tr Writer
	long := strings.Repeat("데이터", 10_000)
	if got := tr.bound(long); got != long {
		t.Error("MaxContentChars 0 cut a text")
	}
	tr.cfg.MaxContentChars = len([]rune(long))
	if got := tr.bound(long); got != long {
		t.Error("a text exactly at the bound was cut")
	}
}

// The same schema compares equal however its keys and required fields are
// ordered (OpenAI clients send "required" sorted).
func TestToolSchemaComparesSorted(t *testing.T) {
	a := sortedJSON([]byte(`{"type":"object","required":["sql","limit"],"properties":{"sql":{"type":"string"},"limit":{"type":"integer"}}}`))
	b := sortedJSON([]byte(`{"properties":{"limit":{"type":"integer"},"sql":{"type":"string"}},"required":["limit","sql"],"type":"object"}`))
	if string(a) != string(b) {
		t.Errorf("%s != %s", a, b)
	}
}
