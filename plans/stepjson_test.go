package plans

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStepNotStartedHasNoStartedTime: a step that has not begun carries
// no "started" field (not the zero time) in events and plan state.
func TestStepNotStartedHasNoStartedTime(t *testing.T) {
	b, err := json.Marshal(StepState{Step: Step{Index: 1, Description: "a"}, Status: StatusTodo})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "started") {
		t.Errorf("a step not started must have no started field: %s", b)
	}
}
