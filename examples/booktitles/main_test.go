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

func TestRunCountsTitles(t *testing.T) {
	exampletest.Offline(t)
	exampletest.Python(t)
	tests := []struct {
		name  string
		input string // file content under the name log.txt; "" runs on examples/data/books.txt
		want  [][]string
	}{
		{
			// The true counts of examples/data/books.txt (三体 is mentioned
			// three times: months 1, 2 and 5); ties keep the order of first
			// mention.
			name: "example data",
			want: [][]string{
				{"title", "count"},
				{"红楼梦", "3"},
				{"三体", "3"},
				{"活着", "3"},
				{"黑暗森林", "2"},
				{"百年孤独", "2"},
				{"围城", "2"},
			},
		},
		{
			// Another file with other titles: the script's Python must
			// really parse the file.
			name:  "other file",
			input: "《甲》《乙》《甲》\n读了《丙》和《乙》，又读《甲》。\n",
			want:  [][]string{{"title", "count"}, {"甲", "3"}, {"乙", "2"}, {"丙", "1"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"-sessions", t.TempDir()}
			if tt.input != "" {
				p := filepath.Join(t.TempDir(), "log.txt")
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
			if diff := cmp.Diff(tt.want, readCSV(t, filepath.Join(ws, "out", "book_titles.csv"))); diff != "" {
				t.Errorf("out/book_titles.csv (-want +got):\n%s", diff)
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
