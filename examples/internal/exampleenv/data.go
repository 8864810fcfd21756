package exampleenv

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
)

// ErrNoData: an example data file was not found.
var ErrNoData = errors.New("example data file not found")

// DataFile returns the absolute path of a file in examples/data. It looks
// beside this package's source (which works wherever the repository is, for
// go run and go test alike), then relative to the working directory as the
// repository root or an example's own directory.
func DataFile(name string) (string, error) {
	var dirs []string
	if _, src, _, ok := runtime.Caller(0); ok {
		dirs = append(dirs, filepath.Join(filepath.Dir(src), "..", "..", "data"))
	}
	dirs = append(dirs, filepath.Join("examples", "data"), filepath.Join("..", "data"), "data")
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			abs, err := filepath.Abs(p)
			if err != nil {
				return "", fmt.Errorf("find example data %s: %w", name, err)
			}
			return abs, nil
		}
	}
	return "", fmt.Errorf("%w: %s (looked in %v); run the example from the repository root, e.g. go run ./examples/embed", ErrNoData, name, dirs)
}

// KeepEnv names the environment variable that, set to anything, keeps an
// example's temporary sessions directory after the run.
const KeepEnv = "SIFT_EXAMPLE_KEEP"

// SessionsRoot returns dir when it is set, with a cleanup that does nothing.
// Otherwise it creates a new temporary directory named after the example;
// its cleanup removes it (unless $SIFT_EXAMPLE_KEEP is set) and says on w
// what became of it, so runs leave nothing behind unasked.
func SessionsRoot(dir, example string) (root string, cleanup func(w io.Writer), err error) {
	if dir != "" {
		return dir, func(io.Writer) {}, nil
	}
	tmp, err := os.MkdirTemp("", "sift-example-"+example+"-")
	if err != nil {
		return "", nil, fmt.Errorf("create a sessions directory (or pass -sessions DIR): %w", err)
	}
	return tmp, func(w io.Writer) {
		if os.Getenv(KeepEnv) != "" {
			fmt.Fprintf(w, "\nKept the session files in %s (%s is set); remove it when done.\n", tmp, KeepEnv)
			return
		}
		if err := os.RemoveAll(tmp); err != nil {
			fmt.Fprintf(w, "\nCould not remove the temporary sessions directory %s: %v\n", tmp, err)
			return
		}
		fmt.Fprintf(w, "\nRemoved the temporary sessions directory %s; to keep the files, set %s=1 or pass -sessions DIR.\n", tmp, KeepEnv)
	}, nil
}
