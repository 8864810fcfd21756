package numfmt

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestCell(t *testing.T) {
	for _, c := range []struct {
		f    Format
		in   string
		want string
	}{
		{Format{Percent, 1}, "0.36972083605694883", "37.0%"},
		{Format{Percent, 1}, "-0.0932", "-9.3%"},
		{Format{Percent, 1}, "", ""},
		{Format{Percent, 1}, "n/a", "n/a"},
		{Format{Integer, 0}, "104355.0", "104,355"},
		{Format{Decimal, 2}, "-1234567.891", "-1,234,567.89"},
	} {
		if got := c.f.Cell(c.in); got != c.want {
			t.Errorf("%+v.Cell(%q) = %q, want %q", c.f, c.in, got, c.want)
		}
	}
}

func TestSidecarRoundTrip(t *testing.T) {
	root := t.TempDir()
	if f, err := Read(root, "out/x.csv"); err != nil || f != nil {
		t.Fatalf("no sidecar: %v, %v; want none and no error", f, err)
	}
	b, err := Encode(Formats{"share": {Percent, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if SidecarPath("out/x.csv") != "out/.x.csv.formats.json" {
		t.Fatalf("sidecar %s", SidecarPath("out/x.csv"))
	}
	os.MkdirAll(filepath.Join(root, "out"), 0o755)
	os.WriteFile(filepath.Join(root, "out", ".x.csv.formats.json"), b, 0o644)
	f, err := Read(root, "out/x.csv")
	if err != nil || f["share"] != (Format{Percent, 1}) {
		t.Fatalf("read back %v, %v", f, err)
	}
	if _, err := Encode(Formats{"x": {"money", 0}}); err == nil {
		t.Fatal("an unknown kind was encoded")
	}
}

// TestSidecarReadIsConfined: out/ is written by generated code, so a
// formats file that is a link out of the session, a FIFO or a huge file
// is refused, never followed, waited on or read whole.
func TestSidecarReadIsConfined(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	good, err := Encode(Formats{"share": {Percent, 1}})
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "host.json")
	if err := os.WriteFile(outside, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(out, ".link.csv.formats.json")); err != nil {
		t.Fatal(err)
	}
	if f, err := Read(root, "out/link.csv"); err == nil || f != nil {
		t.Errorf("a formats file linked out of the session was followed: %v, %v", f, err)
	}
	if err := syscall.Mkfifo(filepath.Join(out, ".fifo.csv.formats.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Read(root, "out/fifo.csv"); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a FIFO was read as a formats file")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO as a formats file waits for a writer")
	}
	big := append([]byte(`{"columns": {}, "pad": "`), make([]byte, maxSidecar)...)
	if err := os.WriteFile(filepath.Join(out, ".big.csv.formats.json"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(root, "out/big.csv"); err == nil {
		t.Error("a formats file over the bound was read")
	}
}
