package scripted

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
)

func TestLoadFileFillsPlaceholders(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.json")
	src := `{"name":"t","replies":[
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"{{line:ANSWER:}}","files":["out/a.csv"]}}]},
 {"content":"Got: {{last_tool_result}} | {{section:Data}} | {{line:NOPE}}"}
]}`
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	m := s.Model()
	in := []*schema.Message{
		schema.UserMessage("## Question\nq\n## Data\nrows: 3\n"),
		schema.ToolMessage("printed\nANSWER: North wins", "call_1"),
	}
	msg, err := m.Generate(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if got := msg.ToolCalls[0].Function.Arguments; !strings.Contains(got, `"answer":"North wins"`) {
		t.Errorf("arguments = %s", got)
	}
	msg, err = m.Generate(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Got: printed\nANSWER: North wins | rows: 3 | (none)"; msg.Content != want {
		t.Errorf("content = %q, want %q", msg.Content, want)
	}
}

func TestLoadFileRejectsBadScripts(t *testing.T) {
	for name, src := range map[string]string{
		"not json":      `{"replies": [`,
		"no replies":    `{"replies": []}`,
		"empty reply":   `{"replies": [{}]}`,
		"unknown field": `{"replies": [{"contnet": "x"}]}`,
		"nameless tool": `{"replies": [{"tool_calls": [{"arguments": {}}]}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.json")
			if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := LoadFile(p); err == nil {
				t.Error("want an error")
			}
		})
	}
	if _, err := LoadFile(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("a missing file must be an error")
	}
}

// TestScriptSchema: the schema refuses what the format does not allow
// (LoadFile says so), and every script the repository ships — examples,
// test data — fits it, so the documented format is the one in use.
func TestScriptSchema(t *testing.T) {
	for name, src := range map[string]string{
		"a success status":  `{"replies": [{"status": 200}]}`,
		"a newer version":   `{"version": 2, "replies": [{"content": "x"}]}`,
		"empty tool calls":  `{"replies": [{"content": "x", "tool_calls": []}]}`,
		"unknown top field": `{"replies": [{"content": "x"}], "reply": []}`,
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.json")
			if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadFile(p)
			if err == nil || !strings.Contains(err.Error(), "scripted-model.md") {
				t.Errorf("LoadFile = %v, want an error that points to the format's doc", err)
			}
		})
	}
	if _, err := LoadFile(writeTemp(t, `{"$schema": "../llm/scripted/script.schema.json", "version": 1, "replies": [{"content": "x"}]}`)); err != nil {
		t.Errorf("a versioned script with $schema: %v", err)
	}
	root := filepath.Join("..", "..")
	var n int
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".json") || !strings.Contains(d.Name(), "script") || d.Name() == "script.schema.json" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !strings.Contains(string(data), `"replies"`) {
			return nil
		}
		n++
		if err := validate(data); err != nil {
			t.Errorf("%s does not fit the script schema: %v", p, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 8 {
		t.Errorf("found %d script files in the repository, want the examples' at least", n)
	}
}

func writeTemp(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
