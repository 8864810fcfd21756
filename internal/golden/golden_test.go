package golden

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cloudwego/eino/schema"
)

// fakeT records failures instead of failing the test that uses it.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Fatalf(string, ...any) { f.failed = true }
func (f *fakeT) Fatal(...any)          { f.failed = true }

// TestCheck: equal content passes, different content fails, a missing
// file fails, and UPDATE_GOLDEN writes the file.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.golden")
	if err := os.WriteFile(p, []byte("same"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, got string
		fail      bool
	}{{p, "same", false}, {p, "other", true}, {filepath.Join(dir, "missing.golden"), "x", true}} {
		f := &fakeT{TB: t}
		Check(f, c.path, c.got, "content")
		if f.failed != c.fail {
			t.Errorf("Check(%s, %q) failed = %v; want %v", filepath.Base(c.path), c.got, f.failed, c.fail)
		}
	}
	t.Setenv(UpdateEnv, "1")
	f := &fakeT{TB: t}
	Check(f, filepath.Join(dir, "new.golden"), "written", "content")
	if b, err := os.ReadFile(filepath.Join(dir, "new.golden")); f.failed || string(b) != "written" {
		t.Errorf("with %s set: failed %v, file %q %v", UpdateEnv, f.failed, b, err)
	}
}

func TestMessages(t *testing.T) {
	got := Messages([]*schema.Message{schema.SystemMessage("be brief"), schema.UserMessage("hi")})
	if want := "=== system ===\nbe brief\n=== user ===\nhi\n"; got != want {
		t.Errorf("Messages = %q; want %q", got, want)
	}
}
