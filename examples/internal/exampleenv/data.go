package exampleenv

import (
	"errors"
	"fmt"
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

// SessionsRoot returns dir when it is set; otherwise it creates a new
// temporary directory named after the example, which is kept after the run
// so its workspaces can be inspected.
func SessionsRoot(dir, example string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	tmp, err := os.MkdirTemp("", "sift-example-"+example+"-")
	if err != nil {
		return "", fmt.Errorf("create a sessions directory (or pass -sessions DIR): %w", err)
	}
	return tmp, nil
}
