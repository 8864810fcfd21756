package chat

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"golang.org/x/term"

	"github.com/sift-agent/sift/cmd/sift/internal/termui"
)

// lineReader reads what the person types in a chat, one line at a time.
type lineReader interface {
	// readLine shows prompt and returns the next line without its line
	// ending; io.EOF when the input ended (or Ctrl-D on an empty line).
	readLine(prompt string) (string, error)
}

// plainLines reads lines from a pipe or file; the prompt goes to out.
// There Ctrl-C is a signal, not a key: interrupt makes the prompt waiting
// (or the next one) end the input, as Ctrl-C twice at a terminal's empty
// prompt does; a pipe has no line to clear first.
type plainLines struct {
	in  *bufio.Scanner
	out io.Writer

	start sync.Once
	// lines carries the lines read, by a goroutine, so that a prompt can
	// wait for a line and for Ctrl-C at once; it is closed at the end of
	// the input, whose error is then err.
	lines chan string
	err   error
	ctrlC chan struct{}
}

func newPlainLines(in io.Reader, out io.Writer) *plainLines {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	return &plainLines{in: sc, out: out, lines: make(chan string), ctrlC: make(chan struct{}, 1)}
}

func (l *plainLines) readLine(prompt string) (string, error) {
	l.start.Do(func() {
		go func() {
			for l.in.Scan() {
				l.lines <- l.in.Text()
			}
			l.err = l.in.Err()
			close(l.lines)
		}()
	})
	fmt.Fprint(l.out, prompt)
	select {
	case line, ok := <-l.lines:
		if !ok {
			if l.err != nil {
				return "", l.err
			}
			return "", io.EOF
		}
		return line, nil
	case <-l.ctrlC:
		fmt.Fprintln(l.out, "^C")
		return "", io.EOF
	}
}

// interrupt takes a Ctrl-C (SIGINT) that came while no run was going.
func (l *plainLines) interrupt() {
	select {
	case l.ctrlC <- struct{}{}:
	default:
	}
}

// chatConsole is where a chat reads and writes: a terminal with line
// editing and history, or plain streams.
type chatConsole struct {
	lines lineReader
	// io is what the chat writes through: on a terminal in raw mode, its
	// writers turn "\n" into "\r\n".
	io *termui.IO
	// watch, set on a terminal, calls onCtrlC for each Ctrl-C typed until
	// the returned stop is called; other keys typed meanwhile are kept for
	// the next prompt. Nil for plain streams, where Ctrl-C is a signal.
	watch func(onCtrlC func()) (stop func())
	// close puts the terminal back as it was.
	close func()
}

// openConsole returns a terminal console when stdin and stdout are both
// terminals, and plain line reading otherwise.
func openConsole(streams *termui.IO) (*chatConsole, error) {
	in, inOK := streams.In.(*os.File)
	out, outOK := streams.Out.(*os.File)
	if !inOK || !outOK || !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return &chatConsole{lines: newPlainLines(streams.In, streams.Out), io: streams, close: func() {}}, nil
	}
	old, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return nil, fmt.Errorf("put the terminal in raw mode for line editing: %w; pipe the input instead (sift chat < questions.txt)", err)
	}
	tin := newTTYInput(in)
	wrapped := &termui.IO{In: streams.In, Out: crlfWriter{streams.Out}, ErrOut: crlfWriter{streams.ErrOut}, Terminal: streams.Terminal}
	lines := newTTYLines(tin, streams.Out)
	if w, h, err := term.GetSize(int(out.Fd())); err == nil {
		_ = lines.t.SetSize(w, h)
	}
	return &chatConsole{
		lines: lines,
		io:    wrapped,
		watch: tin.watch,
		close: func() { _ = term.Restore(int(in.Fd()), old) },
	}, nil
}

// ttyLines reads lines through x/term's line editor, with its history
// (up and down arrows). Ctrl-C at a prompt clears the line; a second one
// on an empty line leaves, as the end of the input does.
type ttyLines struct {
	t  *term.Terminal
	in *ttyInput
}

// ctrlCHint is shown when Ctrl-C clears a line at a prompt.
const ctrlCHint = "^C (line cleared; Ctrl-C again on an empty line, " + chatQuit + " or Ctrl-D leaves)"

func newTTYLines(in *ttyInput, out io.Writer) *ttyLines {
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{in, out}, "> ")
	t.History = &ctrlCHistory{History: t.History, in: in}
	return &ttyLines{t: t, in: in}
}

func (l *ttyLines) readLine(prompt string) (string, error) {
	armed := false // a Ctrl-C came since the last line
	for {
		l.t.SetPrompt(prompt)
		line, err := l.t.ReadLine()
		if errors.Is(err, term.ErrPasteIndicator) {
			err = nil
		}
		if err != nil || !l.in.takeCtrlC() {
			return line, err
		}
		if armed && strings.TrimSpace(line) == "" {
			return "", io.EOF
		}
		armed = true
		fmt.Fprint(l.t, ctrlCHint+"\r\n")
	}
}

// ctrlCHistory keeps a line that Ctrl-C cleared out of the history.
type ctrlCHistory struct {
	term.History
	in *ttyInput
}

func (h *ctrlCHistory) Add(entry string) {
	h.in.mu.Lock()
	cleared := h.in.ctrlC
	h.in.mu.Unlock()
	if !cleared {
		h.History.Add(entry)
	}
}

// keyCtrlC is the byte a terminal in raw mode sends for Ctrl-C.
const keyCtrlC = 3

// ttyInput reads the terminal in one goroutine, so that while a turn runs
// the chat can see Ctrl-C (raw mode sends it as a byte, not a signal)
// while the line editor keeps whatever else was typed ahead.
type ttyInput struct {
	chunks chan []byte
	mu     sync.Mutex
	// pending holds bytes typed during a turn, and those the line editor
	// has not read yet.
	pending []byte
	// ctrlC is set when Read gave the line editor an Enter for a Ctrl-C
	// typed at a prompt, until takeCtrlC.
	ctrlC bool
	// err is the read error that ended chunks.
	err error
}

func newTTYInput(r io.Reader) *ttyInput {
	in := &ttyInput{chunks: make(chan []byte)}
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				in.chunks <- bytes.Clone(buf[:n])
			}
			if err != nil {
				in.mu.Lock()
				in.err = err
				in.mu.Unlock()
				close(in.chunks)
				return
			}
		}
	}()
	return in
}

// Read serves the line editor: bytes typed during the last turn first,
// then what the terminal sends. A Ctrl-C is read as an Enter of its own,
// with ctrlC set, so that the line typed so far ends there and the prompt
// can drop it (x/term would return io.EOF for it, as for Ctrl-D).
func (in *ttyInput) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	in.mu.Lock()
	if len(in.pending) == 0 {
		in.mu.Unlock()
		chunk, ok := <-in.chunks
		in.mu.Lock()
		if !ok {
			defer in.mu.Unlock()
			return 0, in.err
		}
		in.pending = append(in.pending, chunk...)
	}
	defer in.mu.Unlock()
	if in.pending[0] == keyCtrlC {
		in.pending = in.pending[1:]
		in.ctrlC = true
		p[0] = '\r'
		return 1, nil
	}
	end := len(in.pending)
	if i := bytes.IndexByte(in.pending, keyCtrlC); i >= 0 {
		end = i
	}
	n := copy(p, in.pending[:end])
	in.pending = in.pending[n:]
	return n, nil
}

// takeCtrlC says whether the line just read was ended by a Ctrl-C, and
// clears that.
func (in *ttyInput) takeCtrlC() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	c := in.ctrlC
	in.ctrlC = false
	return c
}

// watch calls onCtrlC for every Ctrl-C typed until stop is called, and
// keeps every other byte for the next prompt. stop returns once the
// watcher has stopped reading.
func (in *ttyInput) watch(onCtrlC func()) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-quit:
				return
			case chunk, ok := <-in.chunks:
				if !ok {
					return
				}
				for _, b := range chunk {
					if b == keyCtrlC {
						onCtrlC()
						continue
					}
					in.mu.Lock()
					in.pending = append(in.pending, b)
					in.mu.Unlock()
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(quit) })
		<-done
	}
}

// crlfWriter turns "\n" into "\r\n": a terminal in raw mode does not.
type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(p []byte) (int, error) {
	if _, err := c.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}
