package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMountPlanCreatesTraversableParents(t *testing.T) {
	tests := []struct {
		name  string
		build func(m *mountPlan)
		want  string
	}{
		{
			name: "workspace inside the private /tmp",
			build: func(m *mountPlan) {
				m.special("--tmpfs", "/tmp", "1777", 0)
				m.bind("--bind", "/tmp/t1/ws", "/tmp/t1/ws")
				m.bind("--ro-bind", "/tmp/t1/ws/input", "/tmp/t1/ws/input")
			},
			want: "--perms 1777 --tmpfs /tmp --perms 0755 --dir /tmp/t1 --bind /tmp/t1/ws /tmp/t1/ws --ro-bind /tmp/t1/ws/input /tmp/t1/ws/input",
		},
		{
			name: "inside a host bind nothing is created",
			build: func(m *mountPlan) {
				m.bind("--ro-bind", "/usr", "/usr")
				m.bind("--ro-bind", "/usr/local/share/x", "/usr/local/share/x")
			},
			want: "--ro-bind /usr /usr --ro-bind /usr/local/share/x /usr/local/share/x",
		},
		{
			name: "shared ancestors are created once",
			build: func(m *mountPlan) {
				m.bind("--ro-bind", "/root/.pyenv/versions/3.12/bin", "/root/.pyenv/versions/3.12/bin")
				m.bind("--ro-bind", "/root/.pyenv/versions/3.12/lib", "/root/.pyenv/versions/3.12/lib")
				m.symlink("usr/bin", "/bin")
			},
			want: "--perms 0755 --dir /root --perms 0755 --dir /root/.pyenv --perms 0755 --dir /root/.pyenv/versions --perms 0755 --dir /root/.pyenv/versions/3.12" +
				" --ro-bind /root/.pyenv/versions/3.12/bin /root/.pyenv/versions/3.12/bin --ro-bind /root/.pyenv/versions/3.12/lib /root/.pyenv/versions/3.12/lib" +
				" --symlink usr/bin /bin",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMountPlan()
			tt.build(m)
			if diff := cmp.Diff(tt.want, strings.Join(m.args, " ")); diff != "" {
				t.Errorf("args (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSandboxEtcHasNoHostSecrets(t *testing.T) {
	m := newMountPlan()
	dir, err := sandboxEtcDir()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.etc(dir); err != nil {
		t.Fatal(err)
	}
	joined := " " + strings.Join(m.args, " ") + " "
	for _, bad := range []string{"/etc/shadow", "/etc/gshadow", "/etc/ssh", "/etc/sudoers", " /etc/passwd /etc/passwd ", " /etc /etc "} {
		if strings.Contains(joined, bad) {
			t.Errorf("the sandbox's /etc takes %q from the host: %s", bad, joined)
		}
	}
	for _, name := range synthesizedEtc {
		if want := " --ro-bind " + dir + "/" + name + " /etc/" + name + " "; !strings.Contains(joined, want) {
			t.Errorf("args lack the synthesized %s: %s", name, joined)
		}
	}
}

func TestWriteEtcFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "etc")
	files := sandboxEtcFiles(1000, 1000)
	if err := WriteFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	// A stale or planted entry is replaced, not followed.
	if err := os.Remove(filepath.Join(dir, "passwd")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "passwd")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hosts"), []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			t.Errorf("%s is %v; want a regular file", e.Name(), e.Type())
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		got[e.Name()] = string(data)
	}
	if diff := cmp.Diff(files, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if !strings.Contains(files["passwd"], "sift:x:1000:1000:") || !strings.Contains(files["group"], "sift:x:1000:") {
		t.Errorf("passwd/group lack the running user:\n%s%s", files["passwd"], files["group"])
	}
}

func TestSandboxEtcDirSurvivesItsCacheBeingRemoved(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir, err := sandboxEtcDir()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	// HOME or the cache can change under a running Sift: the files must
	// be there again on the next start.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir, err = sandboxEtcDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range synthesizedEtc {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
