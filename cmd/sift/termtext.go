package main

import (
	"fmt"

	"github.com/sift-agent/sift/internal/termsafe"
)

// shown is text Sift itself made for the terminal (a coloured mark, a
// block already made safe with termsafe.Text): the status printers show
// it as it is.
type shown string

// safeArgs returns args for a status line with every string, error and
// Stringer in it made safe (termsafe.Line): file names, cell output,
// model text, questions and summaries are untrusted, and each status
// printer (renderer.status, sessionChat.status) passes its arguments
// through here, so none reaches the terminal raw. shown values are kept.
func safeArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case shown:
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

// safeLinef formats a status line whose format is Sift's own and whose
// arguments are made safe (see safeArgs).
func safeLinef(format string, args ...any) string {
	return fmt.Sprintf(format, safeArgs(args)...)
}

// errorIndent begins each line of an error after its first: the lines
// read as the error's, and none can pass for a status line of Sift's own
// (a file name or column in the error may hold a newline).
const errorIndent = "   | "
