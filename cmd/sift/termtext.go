package main

import "github.com/sift-agent/sift/cmd/sift/internal/termui"

// shown is text Sift itself made for the terminal (termui.Shown).
type shown = termui.Shown

// safeLinef formats a status line whose format is Sift's own and whose
// arguments are made safe (termui.Linef).
func safeLinef(format string, args ...any) string {
	return termui.Linef(format, args...)
}

// oneLine is s on one line, cut to limit runes (termui.OneLine).
func oneLine(s string, limit int) string { return termui.OneLine(s, limit) }

// errorIndent begins each line of an error after its first: the lines
// read as the error's, and none can pass for a status line of Sift's own
// (a file name or column in the error may hold a newline).
const errorIndent = "   | "
