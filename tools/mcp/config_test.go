package mcp_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/tools/mcp"
)

func TestParseServers(t *testing.T) {
	got, err := mcp.ParseServers([]byte(`{
		"web": {"url": "http://127.0.0.1:8080/mcp", "headers": {"Authorization": "Bearer ${T}"}, "allow": ["search"], "read_only": true, "timeout": "30s"},
		"files": {"command": "mcp-files", "args": ["--root", "/data"], "env": {"K": "v"}, "deny": ["rm"], "read_only": ["ls"], "agent": "code", "start_timeout": "5s"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []mcp.ServerConfig{
		{Name: "files", Command: "mcp-files", Args: []string{"--root", "/data"}, Env: map[string]string{"K": "v"}, Deny: []string{"rm"}, ReadOnlyTools: []string{"ls"}, Agent: "code", StartTimeout: 5 * time.Second},
		{Name: "web", URL: "http://127.0.0.1:8080/mcp", Headers: map[string]string{"Authorization": "Bearer ${T}"}, Allow: []string{"search"}, ReadOnly: true, CallTimeout: 30 * time.Second},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got\n%s", diff)
	}
	if got, err := mcp.ParseServers(nil); err != nil || got != nil {
		t.Errorf("no section is no servers: %v %v", got, err)
	}
}

func TestParseServersErrors(t *testing.T) {
	for _, tt := range []struct{ raw, want string }{
		{`[]`, "must be an object"},
		{`{"a": {}}`, `give "command"`},
		{`{"a": {"command": "x", "url": "http://h"}}`, "not both"},
		{`{"a": {"url": "ftp://h"}}`, "must start with http://"},
		{`{"a": {"url": "http://h", "env": {"A": "b"}}}`, "are for stdio servers"},
		{`{"a": {"command": "x", "headers": {"A": "b"}}}`, "are for HTTP servers"},
		{`{"a": {"command": "x", "agent": "planner"}}`, `agent "planner"`},
		{`{"a": {"command": "x", "read_only": "yes"}}`, "read_only is"},
		{`{"a": {"command": "x", "timeout": "soon"}}`, `timeout "soon"`},
		{`{"a": {"command": "x", "cmd": "y"}}`, "the keys are"},
		{`{"a b": {"command": "x"}}`, "server name"},
		{`{"a": {"command": "x", "deny": [""]}}`, "empty tool name"},
	} {
		_, err := mcp.ParseServers([]byte(tt.raw))
		if !errors.Is(err, mcp.ErrInvalidConfig) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want one saying %q", tt.raw, err, tt.want)
		}
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, body := range []string{
		`{"model": "m", "mcp_servers": {"a": {"command": "x"}}}`,
		`{"mcpServers": {"a": {"command": "x"}}}`,
	} {
		got, err := mcp.LoadFile(write("c.json", body))
		if err != nil || len(got) != 1 || got[0].Name != "a" {
			t.Errorf("%s: %v %v", body, got, err)
		}
	}
	if _, err := mcp.LoadFile(write("none.json", `{"model": "m"}`)); !errors.Is(err, mcp.ErrInvalidConfig) {
		t.Errorf("a file without servers: %v", err)
	}
}
