package trajectory

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// A line cut short by a crash ends a strict read (a replay must not go on
// without it) but is skipped and counted by a lenient one (a session's
// usage sums what is there).
func TestScanSkipsDamagedLines(t *testing.T) {
	var buf bytes.Buffer
	tr := NewWriter(&buf, Config{})
	tr.Write(Record{Agent: "planner", Turn: 1, Request: []Message{{Role: "user", Content: "q"}}, Usage: &Usage{PromptTokens: 10}})
	buf.WriteString(`{"time":"2026-01-02T03:04:05Z","agent":"executor","request":[{"role":"us` + "\n\n")
	tr.Write(Record{Agent: "report", Turn: 2, Usage: &Usage{PromptTokens: 5}})

	var agents []string
	damaged, err := Scan(bytes.NewReader(buf.Bytes()), true, func(rec Record) { agents = append(agents, rec.Agent) })
	if err != nil || damaged != 1 || !slices.Equal(agents, []string{"planner", "report"}) {
		t.Errorf("lenient: records %v, damaged %d, err %v; want [planner report], 1, nil", agents, damaged, err)
	}
	if _, err := Read(bytes.NewReader(buf.Bytes())); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("strict: err = %v, want one naming line 2", err)
	}
}

func TestReadRejectsOtherLines(t *testing.T) {
	_, err := Read(strings.NewReader("{\"request\":[]}\n{\"hello\":1}\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("err = %v, want one naming line 2", err)
	}
}
