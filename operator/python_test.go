package operator

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// debianPython is the interpreter the Python tests use.
const debianPython = "/usr/bin/python3"

// needPython skips the test unless Debian's /usr/bin/python3 with pandas,
// numpy, matplotlib and openpyxl is present, and returns its path.
func needPython(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat(debianPython); err != nil {
		t.Skipf("skipping: %s is absent (install python3-pandas python3-matplotlib python3-openpyxl to run this test)", debianPython)
	}
	missing, err := probeCache.probe(context.Background(), debianPython)
	if err != nil || len(missing) > 0 {
		t.Skipf("skipping: %s cannot import %v (%v); install python3-pandas python3-matplotlib python3-openpyxl", debianPython, missing, err)
	}
	return debianPython
}

// withCandidates replaces the system interpreter and PATH names FindPython
// tries, for one test.
func withCandidates(t *testing.T, system string, names []string) {
	t.Helper()
	oldSystem, oldNames := systemPython, pathPythonNames
	systemPython, pathPythonNames = system, names
	t.Cleanup(func() { systemPython, pathPythonNames = oldSystem, oldNames })
}

// fakePython writes an executable python3 into a fresh directory: it runs
// the real interpreter without site-packages (so pandas and friends are
// missing) and appends a line to the returned counter file on each run.
func fakePython(t *testing.T, real string) (dir, counter string) {
	t.Helper()
	dir = t.TempDir()
	counter = filepath.Join(dir, "runs")
	script := "#!/bin/sh\necho run >> '" + counter + "'\nexec '" + real + "' -S \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "python3"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, counter
}

func TestFindPythonReportsEachCandidate(t *testing.T) {
	real := needPython(t)
	dir, counter := fakePython(t, real)
	withCandidates(t, "", []string{"python3", "python"})
	t.Setenv("PATH", dir)
	t.Setenv(PythonEnv, "")

	_, err := FindPython(context.Background(), "/nonexistent/bin/python3")
	var npe *NoPythonError
	if !errors.As(err, &npe) || !errors.Is(err, ErrNoPython) {
		t.Fatalf("FindPython error = %v; want a *NoPythonError wrapping ErrNoPython", err)
	}
	var got []string
	for _, c := range npe.Tried {
		got = append(got, c.String())
	}
	want := []string{
		"/nonexistent/bin/python3 (configured): not found",
		"python3 (PATH) at " + filepath.Join(dir, "python3") + ": cannot import pandas, numpy, matplotlib, openpyxl",
		"python (PATH): not found",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("candidates tried (-want +got):\n%s", diff)
	}
	msg := err.Error()
	for _, fix := range []string{
		"apt-get install python3-pandas python3-matplotlib python3-openpyxl",
		"python3 -m pip install pandas matplotlib openpyxl",
		"--python", "SIFT_PYTHON",
	} {
		if !strings.Contains(msg, fix) {
			t.Errorf("error message lacks %q:\n%s", fix, msg)
		}
	}

	// The probe is cached: asking again does not run the fake again.
	if _, err := FindPython(context.Background(), ""); !errors.Is(err, ErrNoPython) {
		t.Fatalf("second FindPython error = %v; want ErrNoPython", err)
	}
	runs, err := os.ReadFile(counter)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(runs), "run"); n != 1 {
		t.Errorf("fake interpreter probed %d times; want 1 (cached)", n)
	}
}

func TestFindPythonOrder(t *testing.T) {
	real := needPython(t)
	fakeDir, _ := fakePython(t, real)
	fake := filepath.Join(fakeDir, "python3")
	notExec := filepath.Join(t.TempDir(), "python3")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		preferred string
		env       string
		system    string
		want      string
	}{
		{name: "configured wins", preferred: real, env: fake, system: fake, want: real},
		{name: "env after unusable configured", preferred: fake, env: real, system: "", want: real},
		{name: "system after env", preferred: "", env: "/nonexistent/python", system: real, want: real},
		{name: "not executable skipped", preferred: notExec, env: "", system: real, want: real},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withCandidates(t, tt.system, nil)
			t.Setenv(PythonEnv, tt.env)
			got, err := FindPython(context.Background(), tt.preferred)
			if err != nil {
				t.Fatalf("FindPython: %v", err)
			}
			if got != tt.want {
				t.Errorf("FindPython = %q; want %q", got, tt.want)
			}
		})
	}
}

func TestFindPythonNotExecutableMessage(t *testing.T) {
	withCandidates(t, "", nil)
	t.Setenv(PythonEnv, "")
	dir := t.TempDir()
	_, err := FindPython(context.Background(), dir)
	if !errors.Is(err, ErrNoPython) || !strings.Contains(err.Error(), dir+" is not an executable file") {
		t.Fatalf("FindPython(dir) error = %v; want ErrNoPython saying it is not an executable file", err)
	}
}

func TestFindPythonCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := FindPython(ctx, ""); !errors.Is(err, context.Canceled) {
		t.Fatalf("FindPython(cancelled) error = %v; want context.Canceled", err)
	}
}
