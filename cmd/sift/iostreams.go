package main

import (
	"os"

	"github.com/sift-agent/sift/cmd/sift/internal/termui"
)

// ioStreams are the command's streams (termui.IO): data to Out, progress
// and status to ErrOut.
type ioStreams = termui.IO

func newIO() *ioStreams {
	return &ioStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, Terminal: isTerminal(os.Stderr)}
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
