package report

import (
	"context"
	"testing"

	"github.com/sift-agent/sift/operator"
)

// pythonOrSkip returns an interpreter with pandas and matplotlib, or skips.
func pythonOrSkip(t testing.TB) string {
	t.Helper()
	py, err := operator.FindPython(context.Background(), "")
	if err != nil {
		t.Skipf("needs Python with pandas and matplotlib (CI installs them): %v", err)
	}
	return py
}
