// Package termui is what every command of sift writes through: the
// command's streams (IO) and status text made safe for a terminal
// (Linef, SafeArgs, Shown, OneLine). The commands (cmd/sift) and the
// interactive chat (cmd/sift/internal/chat) share it; it imports neither.
package termui

import (
	"fmt"
	"io"
	"strings"

	"github.com/sift-agent/sift/internal/termsafe"
)

// IO are the command's streams: data to Out, progress and status to
// ErrOut. Tests use buffers and set the terminal flag themselves.
type IO struct {
	In       io.Reader
	Out      io.Writer
	ErrOut   io.Writer
	Terminal bool // ErrOut is a terminal: use colour and symbols
}

// Shown is text Sift itself made for the terminal (a coloured mark, a
// block already made safe with termsafe.Text): the status printers show
// it as it is.
type Shown string

// SafeArgs returns args for a status line with every string, error and
// Stringer in it made safe (termsafe.Line): file names, cell output,
// model text, questions and summaries are untrusted, and each status
// printer (the run's renderer, the chat's status lines) passes its
// arguments through here, so none reaches the terminal raw. Shown values
// are kept.
func SafeArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case Shown:
			out[i] = string(v)
		case string:
			out[i] = termsafe.Line(v)
		case error:
			out[i] = termsafe.Line(v.Error())
		case fmt.Stringer:
			out[i] = termsafe.Line(v.String())
		default:
			out[i] = a
		}
	}
	return out
}

// Linef formats a status line whose format is Sift's own and whose
// arguments are made safe (see SafeArgs).
func Linef(format string, args ...any) string {
	return fmt.Sprintf(format, SafeArgs(args)...)
}

// OneLine is s on one line (every run of white space one space), cut to
// limit runes with an ellipsis.
func OneLine(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > limit {
		return string(r[:limit-1]) + "…"
	}
	return s
}
