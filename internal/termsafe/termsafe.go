// Package termsafe makes untrusted text safe to write to a terminal: file
// names, cell output, model text, questions and summaries come from a
// session's data, its code or a model, and written raw they could clear
// the screen, set the window title, reorder a line (bidi overrides) or
// forge a line of Sift's own ("ok Step 9 done"). Line and Text show every
// such character escaped instead, as Go writes it in a string literal.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Line returns s for one line of a terminal: control characters (C0, DEL,
// C1, among them ESC, CR and newline), bidi controls, line and paragraph
// separators and invalid UTF-8 bytes are shown escaped (\x1b, \n, \u202e,
// \xff). Printable text, tabs aside, is unchanged.
func Line(s string) string { return escape(s, false) }

// Text is Line for a block of several lines: newlines and tabs are kept,
// everything else Line escapes is escaped.
func Text(s string) string { return escape(s, true) }

// Indented is Text for a block that follows a line's own start ("!! Error:
// "): every line after the first begins with prefix, so no line of the
// block can pass for one of Sift's own status lines, which start at the
// margin. Empty lines stay empty.
func Indented(s, prefix string) string {
	lines := strings.Split(Text(strings.TrimRight(s, "\n")), "\n")
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = prefix + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// escape shows the unsafe characters of s escaped; block keeps newlines
// and tabs.
func escape(s string, block bool) string {
	if safe(s, block) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case block && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// safe says whether s needs no escaping: the common case, checked without
// allocating.
func safe(s string, block bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return safeUnicode(s[i:], block)
		}
		if c < 0x20 || c == 0x7f {
			if block && (c == '\n' || c == '\t') {
				continue
			}
			return false
		}
	}
	return true
}

// safeUnicode says whether s, from its first non-ASCII byte on, is valid
// UTF-8 without control or bidi characters (block: newlines and tabs
// allowed).
func safeUnicode(s string, block bool) bool {
	for _, r := range s {
		if block && (r == '\n' || r == '\t') {
			continue
		}
		if r == utf8.RuneError || r < 0x20 || r == 0x7f || unsafeRune(r) {
			return false
		}
	}
	return true
}

// unsafeRune says whether r, above ASCII, changes what a terminal shows
// around it: C1 controls (U+0080–U+009F, among them CSI), bidi marks,
// embeddings, overrides and isolates, and the line and paragraph
// separators.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// JSON returns the encoded JSON b with the characters Line escapes that
// encoding/json leaves as they are (bidi controls, C1 controls) written
// as \u escapes instead: the same JSON value, safe on a terminal.
func JSON(b []byte) []byte {
	clean := true
	for _, r := range string(b) {
		if unsafeRune(r) {
			clean = false
			break
		}
	}
	if clean {
		return b
	}
	var out []byte
	for _, r := range string(b) {
		if unsafeRune(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
			continue
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}
