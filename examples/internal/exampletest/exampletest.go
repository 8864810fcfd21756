// Package exampletest holds what the examples' tests share: forcing the
// offline scripted model and finding a Python that can run the scripts.
package exampletest

import (
	"context"
	"testing"

	"github.com/sift-agent/sift/operator"
)

// modelEnv lists every environment variable llm.LoadConfig reads to find
// a model endpoint or a config file.
var modelEnv = []string{
	"SIFT_CONFIG",
	"OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL",
	"ARK_BASE_URL", "ARK_API_KEY", "ARK_MODEL",
	"SIFT_BASE_URL", "SIFT_API_KEY", "SIFT_MODEL",
	"SIFT_PLANNER_MODEL", "SIFT_EXECUTOR_MODEL", "SIFT_CODE_MODEL", "SIFT_REPORT_MODEL",
}

// Offline makes the test ignore the developer's model settings, so an
// example plays its script: every model variable is emptied and HOME and
// XDG_CONFIG_HOME point at an empty directory, so no config file is found.
// Like t.Setenv, it cannot be used in parallel tests.
func Offline(t testing.TB) {
	t.Helper()
	for _, k := range modelEnv {
		t.Setenv(k, "")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
}

// Python skips the test unless an interpreter with pandas, numpy,
// matplotlib and openpyxl is found the way Sift finds one.
func Python(t testing.TB) {
	t.Helper()
	if _, err := operator.FindPython(context.Background(), ""); err != nil {
		t.Skipf("skipping: the example runs Python and needs pandas, numpy, matplotlib and openpyxl (on Debian: apt-get install python3-pandas python3-matplotlib python3-openpyxl): %v", err)
	}
}
