// Command testsummary runs `go test -json` with the arguments it is given
// and prints what a person needs from it: each package's result line, as
// go test prints them, the whole output of every test that failed, and at
// the end every group of skipped tests with what they need and the one
// command that installs it, then a closing line "N passed, N failed, N
// skipped". It exits with go test's status. `make test` runs the suite
// through it, so that a fresh machine that lacks a browser, Redis or a
// database says so instead of passing quietly with those tests skipped.
//
//	go run ./internal/testsummary -count=1 ./...
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// depsCommand installs what the skipped tests need: what CI installs.
const depsCommand = "bash .ci/deps (it uses sudo when not root)"

// testEvent is one line of `go test -json` (cmd/test2json).
type testEvent struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// tally is what the run came to.
type tally struct {
	passed, failed, skipped int
	// skips maps a skip's reason to the tests skipped for it.
	skips map[string][]string
	// failedPackages are packages that failed without a failing test (a
	// build error, a panic outside a test, a timeout).
	failedPackages int
	// withFailedTests are the packages that had a failing test.
	withFailedTests map[string]bool
}

func main() {
	cmd := exec.Command("go", append([]string{"test", "-json"}, os.Args[1:]...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary: start go test:", err)
		os.Exit(2)
	}
	t := summarise(out, os.Stdout)
	runErr := cmd.Wait()
	report(t, os.Stdout)
	var ee *exec.ExitError
	switch {
	case errors.As(runErr, &ee):
		os.Exit(ee.ExitCode())
	case runErr != nil:
		fmt.Fprintln(os.Stderr, "testsummary:", runErr)
		os.Exit(2)
	case t.failed > 0 || t.failedPackages > 0:
		os.Exit(1)
	}
}

// summarise reads go test's JSON events from r and writes the package
// lines and failed tests' output to w, as they come.
func summarise(r io.Reader, w io.Writer) tally {
	t := tally{skips: map[string][]string{}, withFailedTests: map[string]bool{}}
	// output holds each running test's lines (and each package's own,
	// under the empty test name) until it ends.
	output := map[string][]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e testEvent
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintln(w, string(line))
			continue
		}
		key := e.Package + "\x00" + e.Test
		switch e.Action {
		case "output", "build-output":
			output[key] = append(output[key], e.Output)
		case "pass", "fail", "skip":
			if e.Test == "" {
				// The package's own result: go test's "ok", "FAIL" or
				// "? … [no test files]" line is the last of its output.
				lines := output[key]
				if e.Action == "fail" && !t.withFailedTests[e.Package] {
					t.failedPackages++
					for _, l := range lines {
						fmt.Fprint(w, l)
					}
				} else if len(lines) > 0 {
					fmt.Fprint(w, resultLine(lines))
				}
				delete(output, key)
				continue
			}
			sub := strings.Contains(e.Test, "/")
			switch e.Action {
			case "pass":
				if !sub {
					t.passed++
				}
			case "fail":
				if !sub {
					t.failed++
				}
				for _, l := range output[key] {
					fmt.Fprint(w, l)
				}
				t.withFailedTests[e.Package] = true
			case "skip":
				if !sub {
					t.skipped++
					reason := skipReason(output[key])
					t.skips[reason] = append(t.skips[reason], e.Package+" "+e.Test)
				}
			}
			delete(output, key)
		case "build-fail":
			t.failedPackages++
			for _, l := range output[key] {
				fmt.Fprint(w, l)
			}
			delete(output, key)
		}
	}
	return t
}

// resultLine is the package's "ok …" or "FAIL …" line among its output.
func resultLine(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if strings.HasPrefix(l, "ok ") || strings.HasPrefix(l, "FAIL") || strings.HasPrefix(l, "?") || strings.HasPrefix(l, "ok\t") {
			return l
		}
	}
	return lines[len(lines)-1]
}

// skipReason is the message a test skipped with: the text after the
// "file_test.go:NN: " prefix of its last "--- SKIP" block, first line,
// without the error a helper appended after the last colon when that is
// long (so tests skipped for one cause group together).
func skipReason(lines []string) string {
	var msg string
	for i, l := range lines {
		if strings.Contains(l, "--- SKIP") {
			for _, m := range lines[i+1:] {
				m = strings.TrimSpace(m)
				if m == "" {
					continue
				}
				msg = m
				break
			}
		}
	}
	if msg == "" {
		for _, l := range lines {
			if strings.Contains(l, "_test.go:") {
				msg = strings.TrimSpace(l)
			}
		}
	}
	if _, rest, ok := strings.Cut(msg, ".go:"); ok {
		if _, after, ok := strings.Cut(rest, ": "); ok {
			msg = after
		}
	}
	msg = strings.TrimPrefix(msg, "skipping: ")
	if i := strings.Index(msg, "): "); i > 0 {
		msg = msg[:i+1]
	}
	if len(msg) > 160 {
		msg = msg[:157] + "..."
	}
	if msg == "" {
		msg = "(no reason given)"
	}
	return msg
}

// report prints the skipped groups and the closing line.
func report(t tally, w io.Writer) {
	if len(t.skips) > 0 {
		type group struct {
			reason string
			tests  []string
		}
		var gs []group
		for r, ts := range t.skips {
			gs = append(gs, group{r, ts})
		}
		sort.Slice(gs, func(i, j int) bool {
			if len(gs[i].tests) != len(gs[j].tests) {
				return len(gs[i].tests) > len(gs[j].tests)
			}
			return gs[i].reason < gs[j].reason
		})
		fmt.Fprintf(w, "\nSkipped %d tests, by what they need:\n", t.skipped)
		for _, g := range gs {
			example := g.tests[0]
			more := ""
			if len(g.tests) > 1 {
				more = fmt.Sprintf(" and %d more", len(g.tests)-1)
			}
			fmt.Fprintf(w, "  %4d  %s\n        (%s%s)\n", len(g.tests), g.reason, example, more)
		}
		fmt.Fprintf(w, "To run them too, install what CI installs (Debian: Python's pandas, bubblewrap, Redis, Postgres, MariaDB, Chromium, the npm clients): %s\n", depsCommand)
	}
	if t.failedPackages > 0 {
		fmt.Fprintf(w, "\n%d package(s) failed to build or run outside their tests (see above)\n", t.failedPackages)
	}
	fmt.Fprintf(w, "\n%d passed, %d failed, %d skipped\n", t.passed, t.failed, t.skipped)
}
