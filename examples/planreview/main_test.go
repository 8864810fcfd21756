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

func TestServiceEditsThePlanThenTheRunFinishes(t *testing.T) {
	exampletest.Offline(t)
	exampletest.Python(t)
	var out bytes.Buffer
	ws, err := run(context.Background(), []string{"-sessions", t.TempDir()}, &out)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	got, err := os.ReadFile(filepath.Join(ws, "out", "revenue_by_region.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), "region,revenue\nNorth,76349.0\n") {
		t.Errorf("revenue_by_region.csv:\n%s", got)
	}
	plan, err := os.ReadFile(filepath.Join(ws, "plan.md"))
	if err != nil || !strings.Contains(string(plan), "per region and per product") {
		t.Errorf("the plan must hold the service's edit:\n%s", plan)
	}
	for _, w := range []string{"waiting after 1 model call for the person: Review the plan", "service: reviewing the plan"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out.String())
		}
	}
	// The edited step ran: the report has the per-product totals too.
	if report, err := os.ReadFile(filepath.Join(ws, "report.md")); err != nil || !strings.Contains(string(report), "Gizmo") {
		t.Errorf("report.md must hold the per-product breakdown the service asked for: %v\n%s", err, report)
	}
}
