package agents

import (
	"os"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/report"
)

// Names the runner's tests script and check, defined where their code
// now lives (the agent tree, the report).
const (
	toolCreatePlan   = tree.ToolCreatePlan
	toolSubmitResult = tree.ToolSubmitResult
	unverifiedMark   = tree.UnverifiedMark
)

var (
	interruptOf  = tree.InterruptOf
	noResultNote = report.NoResultNote
)

// checkGolden compares got with the golden file, first rewriting the file
// when UPDATE_GOLDEN is set; what names the content in the failure.
func checkGolden(t *testing.T, golden, got, what string) {
	t.Helper()
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with UPDATE_GOLDEN=1 to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s changed (-want +got):\n%s", what, diff)
	}
}

// render is a request's messages as the golden files show them.
func render(msgs []*schema.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString("=== " + string(m.Role) + " ===\n" + m.Content + "\n")
	}
	return b.String()
}
