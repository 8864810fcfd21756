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
