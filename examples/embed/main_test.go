package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/examples/internal/exampleenv"
	"github.com/sift-agent/sift/examples/internal/exampletest"
	"github.com/sift-agent/sift/llm/scripted"
)

func TestRunBuildsResponseFromRunOutput(t *testing.T) {
	exampletest.Offline(t)
	exampletest.Python(t)
	var out bytes.Buffer
	resp, err := run(context.Background(), []string{"-sessions", t.TempDir()}, &out)
	if err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), exampleenv.ScriptedLabel) {
		t.Errorf("the output must say the scripted model is used:\n%s", out.String())
	}
	// The totals of examples/data/sales.csv per product.
	wantProducts := []ProductRevenue{
		{Product: "Gizmo", Units: 2319, Revenue: 104355, SharePct: 37},
		{Product: "Gadget", Units: 2701, Revenue: 81030, SharePct: 28.7},
		{Product: "Thingamajig", Units: 2096, Revenue: 46112, SharePct: 16.3},
		{Product: "Widget", Units: 2561, Revenue: 32012.5, SharePct: 11.3},
		{Product: "Doohickey", Units: 2343, Revenue: 18744, SharePct: 6.6},
	}
	if diff := cmp.Diff(wantProducts, resp.Products); diff != "" {
		t.Errorf("products (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantProducts[0], resp.TopProduct); diff != "" {
		t.Errorf("top product (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"out/revenue_by_product.csv", "out/revenue_by_product.png"}, resp.Artifacts); diff != "" {
		t.Errorf("artifacts (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(resp.Answer, "Gizmo brought in the most revenue") {
		t.Errorf("answer = %q, want the submitted answer naming Gizmo", resp.Answer)
	}
	// One model call per reply of the script: a step goes straight to the
	// code agent (no executor call), and no reply is left unplayed.
	var f scripted.File
	if err := json.Unmarshal(script, &f); err != nil {
		t.Fatal(err)
	}
	if resp.ModelCalls != len(f.Replies) || resp.ModelCalls != 8 {
		t.Errorf("model calls = %d, want 8, one per reply of the script (%d)", resp.ModelCalls, len(f.Replies))
	}
	if fi, err := os.Stat(resp.Report); err != nil || fi.Size() == 0 {
		t.Errorf("report %s must exist and not be empty: %v", resp.Report, err)
	}
	if !strings.Contains(out.String(), `"top_product"`) {
		t.Errorf("the response must be printed as JSON:\n%s", out.String())
	}
}

func TestReadProducts(t *testing.T) {
	tests := []struct {
		name    string
		csv     string
		want    []ProductRevenue
		wantErr error
	}{
		{
			name: "columns in another order, rows unsorted",
			csv:  "revenue,share_pct,product,units\n10,25.0,b,1\n30,75.0,a,3\n",
			want: []ProductRevenue{{Product: "a", Units: 3, Revenue: 30, SharePct: 75}, {Product: "b", Units: 1, Revenue: 10, SharePct: 25}},
		},
		{
			name: "share computed when missing, units optional",
			csv:  " Product , Revenue \nx,1\ny,2\n",
			want: []ProductRevenue{{Product: "y", Revenue: 2, SharePct: 66.7}, {Product: "x", Revenue: 1, SharePct: 33.3}},
		},
		{name: "no revenue column", csv: "product,units\na,1\n", wantErr: errBadResult},
		{name: "revenue not a number", csv: "product,revenue\na,lots\n", wantErr: errBadResult},
		{name: "header only", csv: "product,revenue\n", wantErr: errBadResult},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "r.csv")
			if err := os.WriteFile(p, []byte(tt.csv), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := readProducts(p)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunRejectsBadArguments(t *testing.T) {
	for _, args := range [][]string{{"extra"}, {"-no-such-flag"}} {
		if _, err := run(context.Background(), args, &bytes.Buffer{}); err == nil {
			t.Errorf("run(%q) succeeded, want an error", args)
		}
	}
}
