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

func TestRunWritesEmails(t *testing.T) {
	exampletest.Offline(t)
	exampletest.Python(t)
	tests := []struct {
		name  string
		input string // file content under the name contacts.csv; "" runs on examples/data/people.csv
		want  [][]string
	}{
		{
			name: "example data",
			want: [][]string{
				{"email"},
				{"ada@example.org"},
				{"alan@example.org"},
				{"grace@example.org"},
				{"katherine@example.org"},
				{"linus@example.org"},
				{"margaret@example.org"},
				{"tim@example.org"},
				{"barbara@example.org"},
			},
		},
		{
			// Another file name, another column order, a capitalised and
			// padded header, a padded address and a missing one: the
			// script's Python must really read the file.
			name:  "other file",
			input: "id, Email ,name\n1,  zoe@example.net ,Zoe\n2,,Yann\n3,xi@example.net,Xi\n",
			want:  [][]string{{"email"}, {"zoe@example.net"}, {"xi@example.net"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"-sessions", t.TempDir()}
			if tt.input != "" {
				p := filepath.Join(t.TempDir(), "contacts.csv")
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
			if diff := cmp.Diff(tt.want, readCSV(t, filepath.Join(ws, "out", "emails.csv"))); diff != "" {
				t.Errorf("out/emails.csv (-want +got):\n%s", diff)
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
