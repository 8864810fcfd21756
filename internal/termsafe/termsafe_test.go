package termsafe

import (
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "out/by_region.csv", "out/by_region.csv"},
		{"unicode", "销售额 — café", "销售额 — café"},
		{"clear screen", "a\x1b[2Jb", `a\x1b[2Jb`},
		{"osc title", "\x1b]0;pwned\x07x", `\x1b]0;pwned\x07x`},
		{"forged line", "f.csv\nok Step 9 done", `f.csv\nok Step 9 done`},
		{"carriage return", "x\rok", `x\rok`},
		{"tab", "a\tb", `a\tb`},
		{"bidi override", "invoice\u202egpj.exe", `invoice\u202egpj.exe`},
		{"bidi isolate", "a\u2066b\u2069", `a\u2066b\u2069`},
		{"c1 csi", "a\u009b2Jb", `a\u009b2Jb`},
		{"invalid utf-8", "a\xffb\xc3", `a\xffb\xc3`},
		{"del and nul", "a\x7f\x00", `a\x7f\x00`},
		{"line separator", "a\u2028b", `a\u2028b`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Line(c.in); got != c.want {
				t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestTextKeepsLinesAndTabs(t *testing.T) {
	in := "Findings:\n- a\tb\n\x1b[2J- c\u202e\r\n"
	want := "Findings:\n- a\tb\n\\x1b[2J- c\\u202e\\r\n"
	if got := Text(in); got != want {
		t.Errorf("Text(%q) = %q, want %q", in, got, want)
	}
}

func TestSafeTextIsNotCopied(t *testing.T) {
	s := "plain text, 销售额\n"
	if n := testing.AllocsPerRun(100, func() { _ = Text(s) }); n != 0 {
		t.Errorf("Text allocated %v times for safe text", n)
	}
}

func TestJSONEscapesWhatEncodingJSONLeaves(t *testing.T) {
	in := []byte("{\"path\":\"a\u202eb\u009bc\"}")
	want := `{"path":"a\u202eb\u009bc"}`
	if got := string(JSON(in)); got != want {
		t.Errorf("JSON(%q) = %q, want %q", in, got, want)
	}
}

// TestIndented: a block keeps its lines, each after the first indented, so
// a line in it ("ok Step 9 done", from a file name with a newline) cannot
// pass for a status line of Sift's own; escapes stay escaped.
func TestIndented(t *testing.T) {
	got := Indented("no model configured.\nSift did not understand \"a\nok Step 9 done\"\x1b[2J\n\n- profile\n", "   | ")
	want := "no model configured.\n   | Sift did not understand \"a\n   | ok Step 9 done\"\\x1b[2J\n\n   | - profile"
	if got != want {
		t.Errorf("Indented = %q, want %q", got, want)
	}
	for _, line := range strings.Split(got, "\n")[1:] {
		if line != "" && !strings.HasPrefix(line, "   | ") {
			t.Errorf("line %q is not indented", line)
		}
	}
}
