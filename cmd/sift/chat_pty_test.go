package main

import (
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// ptyWait bounds how long a pty test waits for one expected text.
const ptyWait = 90 * time.Second

// ansiEscape matches terminal control sequences, stripped before matching.
var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r`)

// ptySift is a sift process on a pseudo-terminal, and what it printed.
type ptySift struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  []byte
	more chan struct{} // signalled after each read
	done chan struct{} // closed when the output ends
	// seen is how much of the stripped output expect has matched past.
	seen int
}

func startPTY(t *testing.T, args ...string) *ptySift {
	t.Helper()
	cmd := siftProcess(t, args...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		t.Fatalf("start sift on a pty: %v", err)
	}
	p := &ptySift{t: t, cmd: cmd, tty: tty, more: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			p.mu.Lock()
			p.out = append(p.out, buf[:n]...)
			p.mu.Unlock()
			select {
			case p.more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		tty.Close()
	})
	return p
}

// text is everything printed so far, without terminal escapes.
func (p *ptySift) text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return ansiEscape.ReplaceAllString(string(p.out), "")
}

// expect waits until want is printed after what was matched before.
func (p *ptySift) expect(want string) {
	p.t.Helper()
	deadline := time.After(ptyWait)
	for {
		if i := strings.Index(p.text()[p.seen:], want); i >= 0 {
			p.seen += i + len(want)
			return
		}
		select {
		case <-p.more:
		case <-p.done:
			if strings.Contains(p.text()[p.seen:], want) {
				continue
			}
			p.t.Fatalf("sift ended before printing %q; it printed:\n%s", want, p.text())
		case <-deadline:
			p.t.Fatalf("no %q within %v; sift printed:\n%s", want, ptyWait, p.text())
		}
	}
}

// send types line and Enter.
func (p *ptySift) send(line string) {
	p.t.Helper()
	if _, err := p.tty.Write([]byte(line + "\r")); err != nil {
		p.t.Fatalf("type %q: %v", line, err)
	}
}

// wait waits for the process to end and returns its exit code.
func (p *ptySift) wait() int {
	p.t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	select {
	case err := <-exited:
		<-p.done
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			p.t.Fatal(err)
		}
		return 0
	case <-time.After(ptyWait):
		p.t.Fatalf("sift did not exit; it printed:\n%s", p.text())
		return -1
	}
}

// topRegion is the region with the most revenue in the example sales data.
func topRegion(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]float64{}
	best := ""
	for _, r := range rows[1:] {
		v, err := strconv.ParseFloat(r[5], 64)
		if err != nil {
			t.Fatal(err)
		}
		sums[r[1]] += v
		if best == "" || sums[r[1]] > sums[best] {
			best = r[1]
		}
	}
	for region, s := range sums {
		if s > sums[best] {
			best = region
		}
	}
	return best
}

func TestChatOnATerminal(t *testing.T) {
	isolateEnv(t)
	needsPythonAndSandbox(t)
	sales, err := filepath.Abs("../../examples/data/sales.csv")
	if err != nil {
		t.Fatal(err)
	}
	top := topRegion(t, sales)
	sessions := t.TempDir()
	first := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Find the top region"}]}}]},
 {"tool_calls":[{"name":"ask_user","arguments":{"question":"Which measure?","choices":["revenue","units"]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"import pandas as pd\ndf = pd.read_csv('input/sales.csv')\nby = df.groupby('region')['revenue'].sum()\nprint('TOP', by.idxmax())"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"Top region: {{line:TOP}}"}}]},
 {"content":"# Sales\n\nTop region: {{line:TOP}} [step 1]."}]}`)
	p := startPTY(t, "chat", "--mode", "plan", "--script", first, "--file", sales, "--sessions-dir", sessions)
	p.expect("/help lists the commands")
	p.expect("> ")
	p.send("which region sells most?")
	p.expect("1. Find the top region")
	p.expect("The plan above waits for your review.")
	p.expect("approve / edit / reject? ")
	p.send("approve")
	p.expect("Question: Which measure?")
	p.expect("1. revenue")
	p.expect("answer: ")
	p.send("1")
	p.expect("Result: Top region: " + top)
	p.expect("Done in")
	p.expect("> ")
	p.send("/report")
	p.expect("report.html")
	p.send("/quit")
	p.expect("Continue with: sift chat --session ")
	if code := p.wait(); code != exitOK {
		t.Fatalf("exit %d; sift printed:\n%s", code, p.text())
	}
	m := regexp.MustCompile(`sift chat --session (\S+)`).FindStringSubmatch(p.text())
	if m == nil {
		t.Fatalf("no session id in:\n%s", p.text())
	}
	id := m[1]

	// A second process continues the session: its Python state comes back.
	second := writeScript(t, `{"replies":[
 {"tool_calls":[{"name":"create_plan","arguments":{"steps":[{"index":1,"description":"Say the top region again"}]}}]},
 {"tool_calls":[{"name":"python","arguments":{"code":"print('AGAIN', by.idxmax())"}}]},
 {"content":"{{last_tool_result}}"},
 {"tool_calls":[{"name":"submit_result","arguments":{"answer":"Still {{line:AGAIN}}"}}]},
 {"content":"# Again\n\nStill {{line:AGAIN}} [step 2]."}]}`)
	p = startPTY(t, "chat", "--session", id, "--mode", "plan", "--script", second, "--sessions-dir", sessions)
	p.expect("Your next question is a follow-up in this session.")
	p.expect("> ")
	p.send("and again?")
	p.expect("☑ 1. Find the top region") // done steps are kept, ticked
	p.expect("approve / edit / reject? ")
	p.send("yes")
	p.expect("Result: Still " + top)
	p.expect("> ")
	// Ctrl-D at the prompt ends the chat.
	if _, err := p.tty.Write([]byte{4}); err != nil {
		t.Fatal(err)
	}
	p.expect("Continue with: sift chat --session " + id)
	if code := p.wait(); code != exitOK {
		t.Fatalf("exit %d; sift printed:\n%s", code, p.text())
	}
	report, err := os.ReadFile(filepath.Join(sessions, id, "report.md"))
	if err != nil || !strings.Contains(string(report), "Still "+top) {
		t.Errorf("the follow-up's report: %v\n%s", err, report)
	}
}

func TestChatCtrlCAtThePromptClearsTheLineThenLeaves(t *testing.T) {
	isolateEnv(t)
	script := writeScript(t, `{"replies":[{"content":"never asked"}]}`)
	data := filepath.Join(t.TempDir(), "n.csv")
	if err := os.WriteFile(data, []byte("n\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPTY(t, "chat", "--script", script, "--file", data, "--sessions-dir", t.TempDir())
	p.expect("/help lists the commands")
	p.expect("> ")
	if _, err := p.tty.Write([]byte("never sent\x03")); err != nil {
		t.Fatal(err)
	}
	p.expect("line cleared")
	p.send("/help") // the chat is still there, and the cleared text is gone
	p.expect("/load FILE")
	p.expect("> ")
	if _, err := p.tty.Write([]byte{3}); err != nil {
		t.Fatal(err)
	}
	p.expect("line cleared")
	if _, err := p.tty.Write([]byte{3}); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(); code != exitOK {
		t.Fatalf("exit %d; sift printed:\n%s", code, p.text())
	}
	if strings.Contains(p.text(), "Unknown command") || strings.Contains(p.text(), "never sent/help") {
		t.Errorf("the cleared text must not reach the chat:\n%s", p.text())
	}
}
