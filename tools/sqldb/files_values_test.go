package sqldb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilesReadAsTextPastTheSample: DuckDB types a CSV's columns from its
// first 20,480 rows; a number column with text further down fails the
// read with a *CSVValueError that names the line, column, type and value,
// and ReadAsText makes the view read that column in full, as text, with
// the other columns' types kept.
func TestFilesReadAsTextPastTheSample(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "input"), 0o755)
	var b strings.Builder
	b.WriteString("day,amount\n")
	for i := 0; i < 25_000; i++ {
		v := fmt.Sprint(i % 10)
		if i == 22_000 {
			v = "about 5"
		}
		fmt.Fprintf(&b, "2024-01-%02d,%s\n", i%28+1, v)
	}
	os.WriteFile(filepath.Join(root, "input", "late.csv"), []byte(b.String()), 0o644)
	ctx := context.Background()
	s, err := OpenFiles(ctx, root, []string{"input/late.csv"}, FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.Rows(ctx, "SELECT sum(amount) FROM late")
	ve, ok := AsCSVValueError(err)
	if !ok {
		t.Fatalf("sum over text past the sample: %v, want a CSV value error", err)
	}
	want := CSVValueError{Line: 22_002, Column: "amount", Type: "BIGINT", Value: "about 5"}
	if ve.Line != want.Line || ve.Column != want.Column || ve.Type != want.Type || ve.Value != want.Value || !errors.Is(ve, ve.Err) {
		t.Errorf("value error = %+v, want %+v", *ve, want)
	}
	if again, ok := AsCSVValueError(fmt.Errorf("wrapped: %w", ve)); !ok || again != ve {
		t.Errorf("AsCSVValueError of a wrapped one = %v, %v", again, ok)
	}
	if err := s.ReadAsText(ctx, "late", []string{"amount"}); err != nil {
		t.Fatal(err)
	}
	rows, err := s.Rows(ctx, "SELECT typeof(day), typeof(amount), count(amount), count(TRY_CAST(amount AS BIGINT)) FROM late GROUP BY ALL")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rows); got != "[[DATE VARCHAR 25000 24999]]" {
		t.Errorf("after ReadAsText: %s, want [[DATE VARCHAR 25000 24999]]", got)
	}
	if err := s.ReadAsText(ctx, "nosuch", []string{"amount"}); err == nil {
		t.Error("ReadAsText of a view that does not exist succeeded")
	}
	if _, ok := AsCSVValueError(errors.New("Conversion Error: Could not convert string 'x' to INT32")); ok {
		t.Error("a conversion error of no CSV line read as a CSV value error")
	}
}
