package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestSummary: from a recorded `go test -json` run (one passing test, two
// skipped for one cause with different errors appended, a test with
// subtests, a failing test), the summary prints the failing test's whole
// output and the package's FAIL line, groups the two skips under one
// cause with the command that installs what they need, and closes with
// the counts of top-level tests.
func TestSummary(t *testing.T) {
	f, err := os.Open("testdata/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	tl := summarise(f, &out)
	report(tl, &out)
	got := out.String()
	for _, want := range []string{
		"a_test.go:7: the detail", "--- FAIL: TestBad", "FAIL\texample.com/ts",
		"Skipped 2 tests", "     2  redis-server not found (install redis-server; CI does)\n", depsCommand,
		"\n2 passed, 1 failed, 2 skipped\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "TestOK") {
		t.Errorf("a passing test's output is printed:\n%s", got)
	}
	if tl.failed != 1 || tl.failedPackages != 0 {
		t.Errorf("failed = %d, failed packages = %d; want 1 and 0", tl.failed, tl.failedPackages)
	}
}
