package tree

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cloudwego/eino/adk"
)

// TestStepFailureSaysTheLimitInWords: a step that reaches its tool-call
// limit fails with a sentence, not the framework's "exceeds max iterations".
func TestStepFailureSaysTheLimitInWords(t *testing.T) {
	got := stepFailure(fmt.Errorf("[NodeRunError] %w", adk.ErrExceedMaxIterations))
	if strings.Contains(got, "exceeds max iterations") || !strings.Contains(got, "limit of tool calls for one step") {
		t.Errorf("stepFailure = %q", got)
	}
}
