package chat

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlainLines(t *testing.T) {
	var out bytes.Buffer
	l := newPlainLines(strings.NewReader("one\r\ntwo"), &out)
	var got []string
	for {
		line, err := l.readLine("> ")
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, line)
	}
	if diff := cmp.Diff([]string{"one", "two"}, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if out.String() != "> > > " {
		t.Errorf("each read shows the prompt: %q", out.String())
	}
}

func TestTTYInputWatchesCtrlCAndKeepsTypeahead(t *testing.T) {
	pr, pw := io.Pipe()
	in := newTTYInput(pr)
	presses := make(chan struct{}, 4)
	stop := in.watch(func() { presses <- struct{}{} })
	if _, err := pw.Write([]byte("ab\x03cd\x03")); err != nil {
		t.Fatal(err)
	}
	<-presses
	<-presses
	stop()
	if _, err := pw.Write([]byte("ef")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	var got []byte
	for len(got) < 6 {
		n, err := in.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, buf[:n]...)
	}
	if string(got) != "abcdef" {
		t.Errorf("the line editor must get the typed-ahead keys without Ctrl-C: %q", got)
	}
	pw.Close()
	if _, err := in.Read(buf); !errors.Is(err, io.EOF) {
		t.Errorf("a closed terminal must read as EOF: %v", err)
	}
}

func TestCRLFWriter(t *testing.T) {
	var b bytes.Buffer
	n, err := crlfWriter{&b}.Write([]byte("a\nb\n"))
	if err != nil || n != 4 || b.String() != "a\r\nb\r\n" {
		t.Errorf("got %d %v %q", n, err, b.String())
	}
}

func TestTTYLinesCtrlCClearsTheLineThenLeaves(t *testing.T) {
	pr, pw := io.Pipe()
	var out bytes.Buffer
	l := newTTYLines(newTTYInput(pr), &out)
	type read struct {
		line string
		err  error
	}
	reads := make(chan read)
	next := func() read {
		go func() {
			line, err := l.readLine("> ")
			reads <- read{line, err}
		}()
		return <-reads
	}
	go func() {
		// A line, then Ctrl-C on a half-typed line: it is dropped and the
		// prompt asks again; up-arrow recalls the line before, not it.
		_, _ = pw.Write([]byte("first\r"))
		_, _ = pw.Write([]byte("half typed\x03"))
		_, _ = pw.Write([]byte("second\r"))
		_, _ = pw.Write([]byte("\x1b[A\r"))
		// Ctrl-C on an empty line warns; the next one leaves.
		_, _ = pw.Write([]byte("\x03"))
		_, _ = pw.Write([]byte("\x03"))
	}()
	for _, want := range []read{{"first", nil}, {"second", nil}, {"second", nil}, {"", io.EOF}} {
		if got := next(); got.line != want.line || !errors.Is(got.err, want.err) {
			t.Fatalf("read %q, %v; want %q, %v\nscreen: %q", got.line, got.err, want.line, want.err, out.String())
		}
	}
	if n := strings.Count(out.String(), ctrlCHint); n != 2 {
		t.Errorf("each clearing Ctrl-C must say how to leave (%d times):\n%q", n, out.String())
	}
	pw.Close()
}
