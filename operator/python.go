package operator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/sift-agent/sift/operator/internal/probecache"
)

// RequiredPythonPackages are the packages an interpreter must import to be
// used for analysis code.
var RequiredPythonPackages = []string{"pandas", "numpy", "matplotlib", "openpyxl"}

// PythonEnv is the environment variable naming the interpreter to use when
// none is configured.
const PythonEnv = "SIFT_PYTHON"

// systemPython is the interpreter tried after the configured one and
// $SIFT_PYTHON; a variable so tests can pretend it is absent.
var systemPython = "/usr/bin/python3"

// pathPythonNames are looked up on PATH after systemPython.
var pathPythonNames = []string{"python3", "python"}

// probeTimeout bounds one interpreter probe; importing pandas and matplotlib
// takes about a second on a warm disk.
const probeTimeout = 60 * time.Second

// probeScript imports each required package and prints one JSON line with
// the ones that failed.
const probeScript = `import importlib, json, sys
missing = []
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except Exception:
        missing.append(name)
print(json.dumps({"missing": missing, "version": sys.version.split()[0]}))
`

// PythonCandidate is one interpreter FindPython tried and why it was not
// used.
type PythonCandidate struct {
	// Source says where the candidate came from: "configured", "$SIFT_PYTHON",
	// "system" or "PATH".
	Source string
	// Name is the path or command name as given.
	Name string
	// Path is the executable found for Name; empty when none was found.
	Path string
	// Missing lists the required packages it could not import.
	Missing []string
	// Problem says why it could not be probed (not found, failed to run).
	Problem string
}

// String describes the candidate and what was wrong with it.
func (c PythonCandidate) String() string {
	label := fmt.Sprintf("%s (%s)", c.Name, c.Source)
	if c.Path != "" && c.Path != c.Name {
		label += " at " + c.Path
	}
	switch {
	case c.Problem != "":
		return label + ": " + c.Problem
	case len(c.Missing) > 0:
		return label + ": cannot import " + strings.Join(c.Missing, ", ")
	default:
		return label + ": usable"
	}
}

// NoPythonError reports that no candidate interpreter had the required
// packages. It unwraps to ErrNoPython.
type NoPythonError struct {
	// Tried lists every candidate in the order it was tried.
	Tried []PythonCandidate
}

// Error names each candidate with what it lacked and says how to fix it.
func (e *NoPythonError) Error() string {
	var b strings.Builder
	b.WriteString(ErrNoPython.Error())
	b.WriteString(": need one that imports ")
	b.WriteString(strings.Join(RequiredPythonPackages, ", "))
	b.WriteString("; tried:")
	for _, c := range e.Tried {
		b.WriteString("\n  - ")
		b.WriteString(c.String())
	}
	b.WriteString("\nTo fix: on Debian/Ubuntu run `apt-get install python3-pandas python3-matplotlib python3-openpyxl`;" +
		" or run `python3 -m pip install pandas matplotlib openpyxl`;" +
		" or point --python or " + PythonEnv + " at an interpreter that has them.")
	return b.String()
}

// Unwrap returns ErrNoPython.
func (e *NoPythonError) Unwrap() error { return ErrNoPython }

// FindPython returns the path of the first interpreter that imports pandas,
// numpy, matplotlib and openpyxl, trying in order: preferred (a configured
// path or command; skipped when empty), $SIFT_PYTHON, /usr/bin/python3, then
// python3 and python on PATH. When none does, the error is a
// *NoPythonError (wrapping ErrNoPython) naming each candidate and what it
// lacked. Probes are cached per executable (keyed by path and modification
// time), since one costs about a second; one that found every package is
// also cached on disk (see ProbeCachePath) for later runs.
func FindPython(ctx context.Context, preferred string) (string, error) {
	var tried []PythonCandidate
	seen := map[string]bool{}
	for _, c := range pythonCandidates(preferred) {
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("find python: %w", err)
		}
		path, err := lookPython(c.Name)
		if err != nil {
			c.Problem = "not found"
			if !errors.Is(err, exec.ErrNotFound) && !errors.Is(err, os.ErrNotExist) {
				c.Problem = err.Error()
			}
			tried = append(tried, c)
			continue
		}
		c.Path = path
		if seen[path] {
			continue
		}
		seen[path] = true
		missing, err := probeCache.probe(ctx, path)
		if err != nil {
			if ctx.Err() != nil {
				return "", fmt.Errorf("find python: %w", ctx.Err())
			}
			c.Problem = err.Error()
			tried = append(tried, c)
			continue
		}
		if len(missing) == 0 {
			return path, nil
		}
		c.Missing = missing
		tried = append(tried, c)
	}
	return "", &NoPythonError{Tried: tried}
}

// pythonCandidates lists the interpreters FindPython tries, in order.
func pythonCandidates(preferred string) []PythonCandidate {
	var cs []PythonCandidate
	if preferred != "" {
		cs = append(cs, PythonCandidate{Source: "configured", Name: preferred})
	}
	if env := os.Getenv(PythonEnv); env != "" {
		cs = append(cs, PythonCandidate{Source: "$" + PythonEnv, Name: env})
	}
	if systemPython != "" {
		cs = append(cs, PythonCandidate{Source: "system", Name: systemPython})
	}
	for _, n := range pathPythonNames {
		cs = append(cs, PythonCandidate{Source: "PATH", Name: n})
	}
	return cs
}

// lookPython finds the executable for a path or a command name on PATH.
func lookPython(name string) (string, error) {
	if strings.ContainsRune(name, os.PathSeparator) {
		fi, err := os.Stat(name)
		if err != nil {
			return "", err
		}
		if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
			return "", fmt.Errorf("%s is not an executable file", name)
		}
		return name, nil
	}
	return exec.LookPath(name)
}

// probeCache remembers which packages each interpreter lacks.
var probeCache = &pythonProbes{results: map[probeKey][]string{}}

// probeKey identifies one interpreter binary as it was when probed, so a
// replaced or upgraded interpreter is probed again.
type probeKey struct {
	path    string
	modTime time.Time
	size    int64
}

// pythonProbes caches probe results; safe for concurrent use.
type pythonProbes struct {
	mu      sync.Mutex
	results map[probeKey][]string
}

// probe returns the required packages the interpreter at path cannot import.
func (p *pythonProbes) probe(ctx context.Context, path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	key := probeKey{path: path, modTime: fi.ModTime(), size: fi.Size()}
	p.mu.Lock()
	missing, ok := p.results[key]
	p.mu.Unlock()
	if ok {
		return missing, nil
	}
	// An interpreter that had every package when an earlier run probed
	// it, unchanged since, is believed without a second probe; the
	// kernel's start checks it again, and clears the cache when it fails.
	diskKey := probecache.Key("python", probeSources(), probecache.FileIdentity(path), strings.Join(RequiredPythonPackages, ","))
	if _, ok := probecache.Lookup(diskKey); ok {
		missing = []string{}
	} else if missing, err = runProbe(ctx, path); err != nil {
		return nil, err
	} else if len(missing) == 0 {
		probecache.Remember(diskKey, probecache.Entry{Kind: "python"})
	}
	p.mu.Lock()
	p.results[key] = missing
	p.mu.Unlock()
	return missing, nil
}

// runProbe runs the probe script under the interpreter at path.
func runProbe(ctx context.Context, path string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	args := append([]string{"-c", probeScript}, RequiredPythonPackages...)
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C.UTF-8", "MPLBACKEND=Agg", "PYTHONDONTWRITEBYTECODE=1", "HOME=" + os.TempDir()}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var reply struct {
		Missing []string `json:"missing"`
	}
	line := lastLine(stdout.String())
	if runErr != nil || json.Unmarshal([]byte(line), &reply) != nil {
		detail := lastLine(stderr.String())
		if detail == "" {
			detail = line
		}
		if runErr != nil {
			return nil, fmt.Errorf("probe failed (%v): %s", runErr, detail)
		}
		return nil, fmt.Errorf("probe printed no result: %q", detail)
	}
	if reply.Missing == nil {
		reply.Missing = []string{}
	}
	return reply.Missing, nil
}

// lastLine returns the last non-empty line of s, trimmed.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// probeSources hashes the Python sources Sift runs in the sandbox: a
// cached probe answer holds for them only.
var probeSources = sync.OnceValue(func() string {
	src := sha256.Sum256([]byte(kernelBootstrap + "\x00" + kernelScript + "\x00" + runnerScript + "\x00" + probeScript))
	return "src=" + hex.EncodeToString(src[:])
})
