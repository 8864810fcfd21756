package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/examples/internal/exampleenv"
	"github.com/sift-agent/sift/examples/internal/exampletest"
)

func TestRunNormalisesQuiz(t *testing.T) {
	exampletest.Offline(t)
	exampletest.Python(t)
	tests := []struct {
		name  string
		input string // file content under the name quiz.txt; "" runs on examples/data/exam.txt
		want  [][]string
	}{
		{
			name: "example data",
			want: [][]string{
				{"number", "question", "option_a", "option_b", "option_c", "option_d", "answer"},
				{"1", "What is the mean of 2, 4 and 9?", "4", "5", "6", "9", "B"},
				{"2", "Which measure is robust to outliers?", "mean", "median", "range", "variance", "B"},
				{"3", "The standard deviation of a constant series is", "0", "1", "undefined", "the constant", "A"},
				{"4", "A sample's size is 25 and its variance is 16. What is the standard error of the mean?", "0.8", "3.2", "4", "0.64", "A"},
			},
		},
		{
			// Another quiz mixing the formats differently: the script's
			// Python must really parse the file.
			name:  "other file",
			input: "Q1) Two plus two?\n(a) 3 (b) 4 (c) 5 (d) 22\nAnswer - b\n\n2. Capital of France?\nA. Rome\nB. Madrid\nC. Paris\nD. Berlin\nanswer: C\n",
			want: [][]string{
				{"number", "question", "option_a", "option_b", "option_c", "option_d", "answer"},
				{"1", "Two plus two?", "3", "4", "5", "22", "B"},
				{"2", "Capital of France?", "Rome", "Madrid", "Paris", "Berlin", "C"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"-sessions", t.TempDir()}
			if tt.input != "" {
				p := filepath.Join(t.TempDir(), "quiz.txt")
				if err := os.WriteFile(p, []byte(tt.input), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, "-input", p)
			}
			var out bytes.Buffer
			ws, err := run(context.Background(), args, &out)
			if err != nil {
				t.Fatalf("run: %v\noutput:\n%s", err, out.String())
			}
			if !strings.Contains(out.String(), exampleenv.ScriptedLabel) {
				t.Errorf("the output must say the scripted model is used:\n%s", out.String())
			}
			if diff := cmp.Diff(tt.want, readCSV(t, filepath.Join(ws, "out", "questions.csv"))); diff != "" {
				t.Errorf("out/questions.csv (-want +got):\n%s", diff)
			}
			if fi, err := os.Stat(filepath.Join(ws, "report.md")); err != nil || fi.Size() == 0 {
				t.Errorf("report.md must exist and not be empty: %v", err)
			}
		})
	}
}

func TestRunRejectsBadArguments(t *testing.T) {
	exampletest.Offline(t)
	missing := filepath.Join(t.TempDir(), "missing.txt")
	for _, args := range [][]string{{"extra"}, {"-no-such-flag"}, {"-sessions", t.TempDir(), "-input", missing}} {
		if _, err := run(context.Background(), args, &bytes.Buffer{}); err == nil {
			t.Errorf("run(%q) succeeded, want an error", args)
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
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
