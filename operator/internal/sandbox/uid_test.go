package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func TestUIDPool(t *testing.T) {
	dir := t.TempDir()
	p := &uidPool{rng: UIDRange{First: 1879100000, Count: 4}, lockDir: dir, leases: map[string]*uidLease{}}
	uidA, releaseA, err := p.hold("/s/a", false)
	if err != nil {
		t.Fatal(err)
	}
	uidA2, releaseA2, err := p.hold("/s/a", false)
	if err != nil || uidA2 != uidA {
		t.Fatalf("a second hold of one workspace = %d, %v; want its uid %d", uidA2, err, uidA)
	}
	uidB, releaseB, err := p.hold("/s/b", false)
	if err != nil || uidB == uidA {
		t.Fatalf("workspace b = %d, %v; want a uid other than a's %d", uidB, err, uidA)
	}
	// Another Sift process holds a third uid for workspace c: this one
	// shares it for c, and never gives it to d.
	var uidC int
	for u := 1879100000; u < 1879100004; u++ {
		if u != uidA && u != uidB {
			uidC = u
			break
		}
	}
	other, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(uidC)), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := unix.Flock(int(other.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	other.WriteString("/s/c")
	if err := os.WriteFile(uidByRootPath(dir, "/s/c"), []byte(strconv.Itoa(uidC)), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, release, err := p.hold("/s/c", false); err != nil || got != uidC {
		t.Errorf("workspace c, held by another process as %d = %d, %v", uidC, got, err)
	} else {
		release()
	}
	uidD, releaseD, err := p.hold("/s/d", false)
	if err != nil || uidD == uidA || uidD == uidB || uidD == uidC {
		t.Fatalf("workspace d = %d, %v; want the last free uid", uidD, err)
	}
	if _, _, err := p.hold("/s/e", false); err == nil || !strings.Contains(err.Error(), SandboxUIDsEnv) {
		t.Errorf("a fifth workspace in a range of four = %v; want every uid in use, naming %s", err, SandboxUIDsEnv)
	}
	// a stays held until both holds are released; then e may take it.
	releaseA()
	if _, _, err := p.hold("/s/e", false); err == nil {
		t.Error("a's uid was given away while a still held it")
	}
	releaseA2()
	releaseA2() // a second call is harmless
	uidE, releaseE, err := p.hold("/s/e", false)
	if err != nil || uidE != uidA {
		t.Errorf("after a let go, e = %d, %v; want a's former uid %d", uidE, err, uidA)
	}
	releaseB()
	releaseD()
	releaseE()
}

func TestUIDPoolSkipsAUIDWithLiveProcesses(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: starting a process as another uid needs root")
	}
	const uid = 1879100100
	cmd := exec.Command("/bin/sleep", "600")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	p := &uidPool{rng: UIDRange{First: uid, Count: 2}, lockDir: t.TempDir(), leases: map[string]*uidLease{}}
	for _, root := range []string{"/s/a", "/s/b", "/s/c", "/s/d"} {
		got, release, err := p.hold(root, false)
		if err != nil {
			t.Fatal(err)
		}
		if got == uid {
			t.Fatalf("uid %d, which a live process runs as, was given to %s", uid, root)
		}
		release()
	}
}
