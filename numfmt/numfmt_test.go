package numfmt

import (
	"os"
	"path/filepath"
	"testing"
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
