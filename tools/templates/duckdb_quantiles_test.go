package templates

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sift-agent/sift/tools/sqldb"
)

// TestDuckDBQuartilesOfManyDistinctValuesStayOutOfCore: the quartiles of a
// column with millions of distinct values come out exact under a memory
// limit far below what holding every value (with its count) would take,
// so the profile's and the distribution's quartiles of a big file fit.
func TestDuckDBQuartilesOfManyDistinctValuesStayOutOfCore(t *testing.T) {
	if testing.Short() {
		t.Skip("writes an 80 MB file")
	}
	const n = 8_000_000 // distinct values: 128 MB as (value, count) pairs
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "input"), 0o755)
	f, err := os.Create(filepath.Join(root, "input", "many.csv"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("v\n")
	for i := int64(0); i < n; i++ { // a permutation of 0 .. n-1, in halves
		w.WriteString(strconv.FormatInt((i*7919)%n, 10) + ".5\n")
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	t.Setenv(sqldb.FilesMemoryEnv, "128MB")
	t.Setenv(sqldb.FilesThreadsEnv, "1")
	d, _, err := runDuckDB(context.Background(), root, "input/many.csv", mustLookup(t, Distribution), Params{Columns: []string{"v"}}, "", nil)
	if err != nil {
		t.Fatalf("distribution of %d distinct values at 128 MB: %v", n, err)
	}
	s := d.pre["stats"].(map[string]any)["v"].(map[string]any)
	// The value at rank k is k + 0.5; pandas interpolates between ranks.
	want := func(q float64) float64 { return q*float64(n-1) + 0.5 }
	for key, q := range map[string]float64{"q1": 0.25, "median": 0.5, "q3": 0.75} {
		if got := s[key].(float64); got != want(q) {
			t.Errorf("%s = %v, want %v", key, got, want(q))
		}
	}
	if fmt.Sprint(s["count"]) != strconv.Itoa(n) {
		t.Errorf("count = %v, want %d", s["count"], n)
	}
}

func mustLookup(t *testing.T, name string) Template {
	t.Helper()
	tp, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// TestDuckDBQuartilesSplitCrowdedBuckets: values crowded into one bucket
// (a far outlier stretches the range) are split again until few enough to
// read, ties included, and the quartiles are pandas' exactly.
func TestDuckDBQuartilesSplitCrowdedBuckets(t *testing.T) {
	defer func(n int64) { quantileFetch = n }(quantileFetch)
	quantileFetch = 16
	var vals []float64
	var b strings.Builder
	b.WriteString("v\n")
	for i := 0; i < 997; i++ {
		x := float64(i*37%1000) * 1e-6
		if i%5 == 0 {
			x = 0.25 // ties
		}
		vals = append(vals, x)
	}
	vals = append(vals, 1e9, -3, 0.000123)
	for _, x := range vals {
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64) + "\n")
	}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "input"), 0o755)
	if err := os.WriteFile(filepath.Join(root, "input", "crowd.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	d, _, err := runDuckDB(context.Background(), root, "input/crowd.csv", mustLookup(t, Distribution), Params{Columns: []string{"v"}}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	sort.Float64s(vals)
	s := d.pre["stats"].(map[string]any)["v"].(map[string]any)
	for key, q := range map[string]float64{"q1": 0.25, "median": 0.5, "q3": 0.75} {
		pos := q * float64(len(vals)-1)
		want := lerp(vals[int(math.Floor(pos))], vals[int(math.Ceil(pos))], pos-math.Floor(pos))
		if got := s[key].(float64); got != want {
			t.Errorf("%s = %v, want %v", key, got, want)
		}
	}
}
