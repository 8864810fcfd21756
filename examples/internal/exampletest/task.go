package exampletest

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// RunFunc is a classic-task example's run function.
type RunFunc func(ctx context.Context, args []string, stdout io.Writer) (string, error)

// TaskCase is one run of a classic-task example: on its own data when
// Input is empty, otherwise on Input written to a file named InputName.
type TaskCase struct {
	Name, InputName, Input string
	// Want are the rows the artifact must hold, header first.
	Want [][]string
}

// CheckTask runs each case offline and checks that the output names the
// scripted model (label), that the artifact (workspace-relative) holds the
// wanted rows, and that report.md was written.
func CheckTask(t *testing.T, run RunFunc, artifact, label string, cases []TaskCase) {
	t.Helper()
	Offline(t)
	Python(t)
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			args := []string{"-sessions", t.TempDir()}
			if tt.Input != "" {
				p := filepath.Join(t.TempDir(), tt.InputName)
				if err := os.WriteFile(p, []byte(tt.Input), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, "-input", p)
			}
			var out bytes.Buffer
			ws, err := run(context.Background(), args, &out)
			if err != nil {
				t.Fatalf("run: %v\noutput:\n%s", err, out.String())
			}
			if !strings.Contains(out.String(), label) {
				t.Errorf("the output must say the scripted model is used:\n%s", out.String())
			}
			if diff := cmp.Diff(tt.Want, ReadCSV(t, filepath.Join(ws, filepath.FromSlash(artifact)))); diff != "" {
				t.Errorf("%s (-want +got):\n%s", artifact, diff)
			}
			if fi, err := os.Stat(filepath.Join(ws, "report.md")); err != nil || fi.Size() == 0 {
				t.Errorf("report.md must exist and not be empty: %v", err)
			}
		})
	}
}

// CheckBadArguments checks that run refuses an extra argument, an unknown
// flag and a missing input file.
func CheckBadArguments(t *testing.T, run RunFunc) {
	t.Helper()
	Offline(t)
	missing := filepath.Join(t.TempDir(), "missing.txt")
	for _, args := range [][]string{{"extra"}, {"-no-such-flag"}, {"-sessions", t.TempDir(), "-input", missing}} {
		if _, err := run(context.Background(), args, &bytes.Buffer{}); err == nil {
			t.Errorf("run(%q) succeeded, want an error", args)
		}
	}
}

// ReadCSV reads every row of a CSV file.
func ReadCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return rows
}
