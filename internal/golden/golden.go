// Package golden compares test output with golden files, the one place
// Sift's tests keep them: a golden file holds what a prompt or a rendered
// request must be, and UPDATE_GOLDEN=1 rewrites it after an intended
// change.
package golden

import (
	"os"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
)

// UpdateEnv names the variable that makes Check rewrite the files.
const UpdateEnv = "UPDATE_GOLDEN"

// Check compares got with the golden file at path, first rewriting the
// file when UPDATE_GOLDEN is set; what names the content in the failure.
func Check(t testing.TB, path, got, what string) {
	t.Helper()
	if os.Getenv(UpdateEnv) != "" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with %s=1 to create it)", err, UpdateEnv)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s changed (-want +got):\n%s", what, diff)
	}
}

// Messages is a request's messages as the golden files show them: each
// under a "=== role ===" line.
func Messages(msgs []*schema.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString("=== " + string(m.Role) + " ===\n" + m.Content + "\n")
	}
	return b.String()
}
