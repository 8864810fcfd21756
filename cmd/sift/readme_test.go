package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sift-agent/sift/operator"
)

// readmeOffline marks a README transcript that runs offline (no model, no
// key) and must reproduce as printed; TestReadmeTranscripts runs it.
const readmeOffline = "<!-- readme-test: offline -->"

// readmeNotOffline matches the marks of shell examples that cannot run
// offline: needs-model (a real model or key), or not-run with the reason
// (a server, the whole test suite, files the reader has).
var readmeNotOffline = regexp.MustCompile(`^<!-- readme-test: (needs-model|not-run: \S.*) -->$`)

// readmeUnmarked returns the lines of the README's shell examples (sh
// blocks, and blocks that start with a "$ " command) that carry no
// readme-test mark, so no example escapes the test unnoticed.
func readmeUnmarked(readme string) []int {
	lines := strings.Split(readme, "\n")
	var out []int
	inBlock := false
	for i, l := range lines {
		if !strings.HasPrefix(l, "```") {
			continue
		}
		if inBlock {
			inBlock = false
			continue
		}
		inBlock = true
		lang := strings.TrimPrefix(l, "```")
		shell := lang == "sh" || lang == "bash" || lang == "shell"
		if !shell && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "$ ") {
			shell = true
		}
		if !shell {
			continue
		}
		mark := ""
		if i > 0 {
			mark = strings.TrimSpace(lines[i-1])
		}
		if mark != readmeOffline && !readmeNotOffline.MatchString(mark) {
			out = append(out, i+1)
		}
	}
	return out
}

// readmePages are the README and the docs/ pages it links to, whose
// examples the README tests run: paths from the repository root.
func readmePages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages := []string{"README.md"}
	for _, d := range docs {
		pages = append(pages, filepath.ToSlash(filepath.Join("docs", filepath.Base(d))))
	}
	return pages
}

// readPage reads a page of readmePages.
func readPage(t *testing.T, page string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(page)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadmeExamplesMarked(t *testing.T) {
	for _, page := range readmePages(t) {
		for _, n := range readmeUnmarked(readPage(t, page)) {
			t.Errorf("%s line %d: a shell example with no mark: put %s before it (and make it reproduce as printed), or <!-- readme-test: needs-model --> or <!-- readme-test: not-run: REASON --> when it cannot run offline", page, n, readmeOffline)
		}
	}
}

func TestReadmeUnmarked(t *testing.T) {
	readme := "```sh\nsift x\n```\n<!-- readme-test: needs-model -->\n```sh\nsift y\n```\n```text\n$ sift z\n```\n```text\nplain\n```\n" +
		"<!-- readme-test: not-run: a server -->\n```sh\nsift serve\n```\n<!-- readme-test: not-run: -->\n```bash\nsift w\n```\n"
	if got, want := readmeUnmarked(readme), []int{1, 8, 19}; !reflect.DeepEqual(got, want) {
		t.Errorf("unmarked lines %v, want %v", got, want)
	}
}

// readmeTranscript is one marked block: commands and the output each
// printed.
type readmeTranscript struct {
	line  int
	steps []readmeStep
}

type readmeStep struct {
	command string
	exit    int
	output  []string
}

var readmeExitCode = regexp.MustCompile(`\s+\(exit code (\d+)\)$`)

// readmeTranscripts extracts the marked blocks of a page.
func readmeTranscripts(t *testing.T, readme string) []readmeTranscript {
	t.Helper()
	lines := strings.Split(readme, "\n")
	var out []readmeTranscript
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != readmeOffline {
			continue
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			t.Fatalf("line %d: %s must come right before a code block", i+1, readmeOffline)
		}
		tr := readmeTranscript{line: i + 1}
		for j := i + 2; j < len(lines) && !strings.HasPrefix(lines[j], "```"); j++ {
			l := lines[j]
			switch {
			case strings.HasPrefix(l, "$ "):
				tr.steps = append(tr.steps, readmeStep{command: strings.TrimPrefix(l, "$ ")})
			case len(tr.steps) == 0:
				t.Fatalf("line %d: a transcript starts with a $ command", j+1)
			default:
				st := &tr.steps[len(tr.steps)-1]
				if m := readmeExitCode.FindStringSubmatch(l); m != nil {
					st.exit, _ = strconv.Atoi(m[1])
					l = l[:len(l)-len(m[0])]
				}
				st.output = append(st.output, l)
			}
		}
		// A blank line separates a command's output from the next
		// command; blank lines inside an output are part of it.
		for k := range tr.steps {
			o := tr.steps[k].output
			for len(o) > 0 && o[len(o)-1] == "" {
				o = o[:len(o)-1]
			}
			tr.steps[k].output = o
		}
		out = append(out, tr)
	}
	return out
}

var (
	readmeSessionID = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	readmeDuration  = regexp.MustCompile(`\b\d+(\.\d+)?m?s\b`)
	readmeTokens    = regexp.MustCompile(`\b\d+ prompt \+ \d+ completion tokens`)
)

// readmeNormal makes a line comparable between runs: session ids and
// durations vary, and so do a scripted model's token counts, which are
// estimated from prompts that hold today's date.
func readmeNormal(l string) string {
	l = readmeSessionID.ReplaceAllString(l, "ID")
	l = readmeTokens.ReplaceAllString(l, "N prompt + N completion tokens")
	return readmeDuration.ReplaceAllString(l, "Ns")
}

// readmeChatPrompts are the prompts of `sift chat`: in a transcript, what
// follows one on its line is what the person typed.
var readmeChatPrompts = []string{"approve / edit / reject? ", "answer: ", "> "}

// expected returns what a step's command reads on stdin and the lines it
// prints. A chat transcript shows the person's input after each prompt, as
// a terminal echoes it; piped, that input is not echoed, so the prompt runs
// into the next line printed.
func (st readmeStep) expected() (stdin string, lines []string) {
	if !strings.HasPrefix(st.command, "sift chat") {
		return "", st.output
	}
	var in, out strings.Builder
	for i, l := range st.output {
		typed := false
		for _, p := range readmeChatPrompts {
			if strings.HasPrefix(l, p) && len(l) > len(p) {
				in.WriteString(l[len(p):] + "\n")
				out.WriteString(p)
				typed = true
				break
			}
		}
		if !typed {
			out.WriteString(l)
			if i < len(st.output)-1 {
				out.WriteString("\n")
			}
		}
	}
	return in.String(), strings.Split(out.String(), "\n")
}

// TestReadmeTranscripts runs every transcript of the README and the docs/
// pages marked to run offline against the sift binary, from the
// repository root with no model configured, and compares its output line
// by line (ids and durations aside) and its exit codes.
func TestReadmeTranscripts(t *testing.T) {
	isolateEnv(t)
	if _, err := operator.FindPython(context.Background(), ""); err != nil {
		t.Skipf("needs Python with pandas (CI installs it): %v", err)
	}
	type pageTranscript struct {
		page string
		readmeTranscript
	}
	var trs []pageTranscript
	for _, page := range readmePages(t) {
		for _, tr := range readmeTranscripts(t, readPage(t, page)) {
			trs = append(trs, pageTranscript{page, tr})
		}
	}
	if len(trs) == 0 || trs[0].page != "README.md" {
		t.Fatalf("no README block is marked %s", readmeOffline)
	}
	for _, tr := range trs {
		t.Run(tr.page+" line "+strconv.Itoa(tr.line), func(t *testing.T) {
			home := t.TempDir()
			var id string
			for _, st := range tr.steps {
				args := strings.Fields(st.command)
				if args[0] != "sift" {
					t.Fatalf("%q: only sift commands run here", st.command)
				}
				args = splitQuoted(t, strings.Join(args[1:], " "))
				for i, a := range args {
					if readmeSessionID.MatchString(a) && id != "" {
						args[i] = id
					}
				}
				stdin, want := st.expected()
				cmd := siftProcess(t, args...)
				cmd.Dir = filepath.Join("..", "..")
				cmd.Stdin = strings.NewReader(stdin)
				cmd.Env = append(cmd.Env, "SIFT_HOME="+home, "HOME="+home)
				got, err := cmd.CombinedOutput()
				code := 0
				var exit *exec.ExitError
				if errors.As(err, &exit) {
					code = exit.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				if m := readmeSessionID.Find(got); m != nil {
					id = string(m)
				}
				text := strings.ReplaceAll(string(got), filepath.Join(home, "sessions"), "~/.local/state/sift/sessions")
				gotLines := strings.Split(strings.TrimRight(text, "\n"), "\n")
				if code != st.exit {
					t.Errorf("%s: exit %d, the README says %d\n%s", st.command, code, st.exit, text)
				}
				if len(gotLines) != len(want) {
					t.Errorf("%s: %d lines, the README shows %d:\n%s", st.command, len(gotLines), len(want), text)
					continue
				}
				for i := range gotLines {
					if readmeNormal(gotLines[i]) != readmeNormal(want[i]) {
						t.Errorf("%s, line %d:\n got    %q\n README %q", st.command, i+1, gotLines[i], want[i])
					}
				}
			}
		})
	}
}

// splitQuoted splits a command line at spaces outside double quotes.
func splitQuoted(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	var cur strings.Builder
	quoted, started := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, started = !quoted, true
		case r == ' ' && !quoted:
			if started {
				out = append(out, cur.String())
				cur.Reset()
				started = false
			}
		default:
			cur.WriteRune(r)
			started = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quotes in %q", s)
	}
	if started {
		out = append(out, cur.String())
	}
	return out
}
