package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/examples/internal/exampleenv"
	"github.com/sift-agent/sift/examples/internal/exampletest"
)

// TestRunUnderTheServicesOwnRunner: Sift's agent runs as the first agent
// of the service's SequentialAgent under the service's Runner, and the
// service's own agent after it replies with Sift's answer, computed from
// the data.
func TestRunUnderTheServicesOwnRunner(t *testing.T) {
	exampletest.Offline(t)
	exampletest.Python(t)
	sessions := t.TempDir()
	var out bytes.Buffer
	reply, err := run(context.Background(), []string{"-sessions", sessions}, &out)
	if err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), exampleenv.ScriptedLabel) {
		t.Errorf("the output must say the scripted model is used:\n%s", out.String())
	}
	// Gizmo's 2024 revenue in examples/data/sales.csv.
	if want := "Our analysts found: Gizmo brought in 104355.00 in 2024"; reply != want {
		t.Errorf("reply = %q, want %q", reply, want)
	}
	for _, w := range []string{"step 1 done: Gizmo", "service reply: Our analysts found: Gizmo"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out.String())
		}
	}
	entries, err := os.ReadDir(sessions)
	if err != nil || len(entries) != 1 {
		t.Fatalf("want one session, got %v %v", entries, err)
	}
	csv, err := os.ReadFile(filepath.Join(sessions, entries[0].Name(), "out", "revenue_by_product.csv"))
	if err != nil || !strings.HasPrefix(string(csv), "product,revenue\nGizmo,104355") {
		t.Errorf("out/revenue_by_product.csv: %v\n%s", err, csv)
	}
}

func TestRunRejectsArguments(t *testing.T) {
	if _, err := run(context.Background(), []string{"extra"}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "unexpected arguments") {
		t.Fatalf("want an error for extra arguments, got %v", err)
	}
}
