package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/examples/internal/exampletest"
)

func TestRunUsesTheServicesToolAndGlossary(t *testing.T) {
	exampletest.Offline(t)
	exampletest.Python(t)
	var out bytes.Buffer
	res, err := run(context.Background(), []string{"-sessions", t.TempDir()}, &out)
	if err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	if res.FXCalls != 1 {
		t.Errorf("fx_rate calls = %d, want 1: the executor must call the service's tool", res.FXCalls)
	}
	// 282253.50 USD of revenue over 504 order lines in 2024, at 0.92 EUR.
	if !strings.Contains(res.Answer, "560.03 USD = 515.22 EUR") {
		t.Errorf("answer = %q, want the AOV computed by the cell, in USD and EUR", res.Answer)
	}
	if strings.Contains(res.Report, "⚠") {
		t.Errorf("every number of the report comes from a tool or cell, none may be marked:\n%s", res.Report)
	}
	traj, err := os.ReadFile(filepath.Join(res.Workspace, "trajectory.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// Every model call (7) carries the glossary and the instruction.
	for _, w := range []string{"AOV: average order value", "never guess an exchange rate"} {
		if n := strings.Count(string(traj), w); n < 7 {
			t.Errorf("%q reached %d model calls, want all 7", w, n)
		}
	}
}
