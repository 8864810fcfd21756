package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sift-agent/sift/agents"
)

// TestCompareThroughTheAPI: a session compared with its refresh on a
// year more of data says which numbers of the report moved, and by how
// much, with both reports side by side; the usage sections are left out.
func TestCompareThroughTheAPI(t *testing.T) {
	script := refreshScript()
	ts := startServer(t, testConfig(t, script))
	rows := "2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n"
	id := ts.createSession([2]string{"s.csv", "date,region,revenue\n" + rows})
	ts.ask(id, map[string]any{"question": "Who sells most?", "mode": "plan", "parallel": 1})
	ts.openStream(id, "").rest(t)
	var acc accepted
	if code := ts.do("POST", "/v1/sessions/"+id+"/refresh", upload([2]string{"s.csv", "date,region,revenue\n" + rows + "2025-01-07,North,200\n2025-03-02,South,120\n"}), &acc); code != http.StatusAccepted {
		t.Fatalf("refresh: %d", code)
	}
	ts.openStream(acc.ID, "").rest(t)

	var c agents.Comparison
	if code := ts.do("GET", "/v1/sessions/"+id+"/compare?with="+acc.ID, nil, &c); code != http.StatusOK {
		t.Fatalf("compare: %d", code)
	}
	var moved []string
	for _, ch := range c.Changes {
		moved = append(moved, ch.Old+"→"+ch.New)
	}
	if strings.Join(moved, " ") != "150→350 70→190 4→6" {
		t.Errorf("moved = %v, want 150→350 70→190 4→6", moved)
	}
	if c.Left.Session != id || c.Right.Session != acc.ID || c.Right.Parent != id || c.Right.Origin != "refresh" ||
		!strings.Contains(c.Left.Report, "North sold 150") || !strings.Contains(c.Right.Report, "North sold 350") {
		t.Errorf("sides: %+v / %+v", c.Left, c.Right)
	}
	if strings.Contains(c.Right.Report, "## Usage") || strings.Contains(c.Right.Report, "What changed since") || strings.Contains(c.Left.Report, "## Usage") {
		t.Errorf("the run's own sections must be left out:\n%s", c.Right.Report)
	}
	if !strings.Contains(c.Markdown, "| 150 | 350 | +200 (+133.3%) |") {
		t.Errorf("markdown:\n%s", c.Markdown)
	}
	var refusal errorBody
	if code := ts.do("GET", "/v1/sessions/"+id+"/compare?with="+acc.ID+"&colour=red", nil, &refusal); code != http.StatusBadRequest || !strings.Contains(refusal.Error.Message, "with=SESSION_ID") {
		t.Errorf("unknown parameter: %d %+v", code, refusal)
	}
}
