package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/session"
)

// A workspace Sift creates is its owner's alone (the sessions root and the
// workspace 0700), and still the sandboxed code, which runs under a uid
// of its own when Sift runs as root, reads input/ and writes work/ and
// out/ in it.
func TestSandboxWorksInAPrivateWorkspace(t *testing.T) {
	py := needPython(t)
	sb := needBwrap(t, Limits{})
	sessions := filepath.Join(t.TempDir(), "sessions")
	ws, err := session.Create(context.Background(), sessions, "20261201-120000-permsx")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{sessions, ws.Root} {
		if info, err := os.Stat(p); err != nil || info.Mode().Perm() != 0o700 {
			t.Fatalf("%s has mode %v, want 0700 (%v)", p, info.Mode().Perm(), err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws.Root, "input", "data.csv"), []byte("a\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ws.WriteFileAtomic("plan.md", []byte("# Plan\n")); err != nil {
		t.Fatal(err)
	}
	code := `import os
print(open("input/data.csv").read().split()[1])
open("out/x.csv", "w").write("a\n2\n")
open("work/y.txt", "w").write("y")
print(sorted(os.listdir(".")))
try:
    open("plan.md").read()
    print("read plan.md")
except OSError:
    print("plan.md refused")
`
	cmd, err := sb.Command(ProcSpec{Root: ws.Root, Argv: []string{py, "-c", code}, Env: []string{"PATH=/usr/bin:/bin", "HOME=/tmp"}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the sandboxed code failed in a 0700 workspace: %v\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), "1\n") || !strings.Contains(string(out), "'input'") {
		t.Errorf("the code must read input/ and list the workspace:\n%s", out)
	}
	if os.Geteuid() == 0 && !strings.Contains(string(out), "plan.md refused") {
		t.Errorf("under its own uid the code must not read the session's files (0600):\n%s", out)
	}
	for _, p := range []string{"out/x.csv", "work/y.txt"} {
		if _, err := os.Stat(filepath.Join(ws.Root, p)); err != nil {
			t.Errorf("the code's %s is missing: %v", p, err)
		}
	}
	if info, err := os.Stat(filepath.Join(ws.Root, "plan.md")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("plan.md has mode %v, want 0600 (%v)", info.Mode().Perm(), err)
	}
	if info, err := os.Stat(ws.Root); err != nil || info.Mode().Perm()&0o007 != 0 {
		t.Errorf("the workspace must stay closed to other users: mode %v (%v)", info.Mode().Perm(), err)
	}
}
