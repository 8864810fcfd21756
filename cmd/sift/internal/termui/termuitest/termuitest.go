// Package termuitest holds what the terminal-safety tests of cmd/sift and
// its chat share: untrusted strings that would take over a terminal, and
// the check that none reached it raw.
package termuitest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Hostile are untrusted strings (file names, cell output, model text,
// questions) that, printed raw, would take over the terminal.
var Hostile = map[string]string{
	"clear screen":  "x\x1b[2Jy",
	"osc title":     "x\x1b]0;pwned\x07y",
	"forged line":   "f.csv\nok Step 9 done: all good",
	"bidi override": "invoice\u202egpj.exe",
	"invalid utf-8": "bad\xff\xfeutf",
	"c1 csi":        "x\u009b2Jy",
	"carriage":      "x\rok Step 9 done",
}

// AssertSafe fails when out holds a control or escape sequence, a bidi
// override, invalid UTF-8, or a line forged by a newline or CR.
func AssertSafe(t *testing.T, where, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: invalid UTF-8 reached the terminal:\n%q", where, out)
	}
	for _, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == '\u202e' {
			t.Errorf("%s: %U reached the terminal raw:\n%q", where, r, out)
			break
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "ok Step 9 done") {
			t.Errorf("%s: a forged line reached the terminal:\n%s", where, out)
		}
	}
}

// Block is bad as a text of several lines may hold it: a newline there is
// a real line break, not a forged line (names never hold one).
func Block(bad string) string { return strings.ReplaceAll(bad, "\n", " ") }
