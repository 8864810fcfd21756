package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sift-agent/sift/tools/mcp"
	"github.com/sift-agent/sift/tools/mcp/mcptest"
)

// TestStderrLogNeverFollowsWhatCodePlanted plants, where a stdio server's
// stderr log goes (work/mcp-<name>.log), a link to a host file, a FIFO and
// a hard link to a host file: the server still starts, its stderr lands in
// a fresh log, and the host files are untouched (no hang on the FIFO).
func TestStderrLogNeverFollowsWhatCodePlanted(t *testing.T) {
	bin := mcptest.Binary(t)
	for _, plant := range []string{"symlink", "fifo", "hardlink"} {
		t.Run(plant, func(t *testing.T) {
			base := t.TempDir()
			host := filepath.Join(base, "host")
			logs := filepath.Join(base, "ws", "work")
			for _, d := range []string{host, logs} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			canary := filepath.Join(host, "crontab")
			if err := os.WriteFile(canary, []byte("CANARY\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			log := filepath.Join(logs, "mcp-notes.log")
			var err error
			switch plant {
			case "symlink":
				err = os.Symlink(canary, log)
			case "fifo":
				err = syscall.Mkfifo(log, 0o644)
			case "hardlink":
				err = os.Link(canary, log)
			}
			if err != nil {
				t.Fatal(err)
			}
			ts := mcp.Connect(context.Background(), []mcp.ServerConfig{{Name: "notes", Command: bin}}, mcp.Options{LogDir: logs})
			t.Cleanup(func() { _ = ts.Close() })
			if p := ts.Problems(); len(p) != 0 {
				t.Fatalf("problems: %v", p)
			}
			if b, _ := os.ReadFile(canary); string(b) != "CANARY\n" {
				t.Errorf("the host file was written through the planted %s: %q", plant, b)
			}
			fi, err := os.Lstat(log)
			if err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("the log is not a fresh regular file: %v %v", fi, err)
			}
			b, _ := os.ReadFile(log)
			if !strings.Contains(string(b), "testserver: started") || strings.Contains(string(b), "CANARY") {
				t.Errorf("log = %q", b)
			}
		})
	}
}
