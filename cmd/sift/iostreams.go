package main

import (
	"io"
	"os"
)

// ioStreams are the command's streams: data to Out, progress and status to
// ErrOut. Tests use buffers and set the terminal flag themselves.
type ioStreams struct {
	In       io.Reader
	Out      io.Writer
	ErrOut   io.Writer
	Terminal bool // ErrOut is a terminal: use colour and symbols
}

func newIO() *ioStreams {
	return &ioStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, Terminal: isTerminal(os.Stderr)}
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
