package sqldb

import (
	"fmt"
	"os"
	"strings"
)

// DefaultFilesTempBytes bounds what DuckDB may spill to disk for the files
// source (max_temp_directory_size): 4 GiB. FilesTempEnv sets it.
const (
	DefaultFilesTempBytes = 4 << 30
	FilesTempEnv          = "SIFT_FILES_SQL_TEMP"
)

// newScratch makes the directory DuckDB spills to for one files source: a
// fresh one, mode 0700, under parent (the host's temp directory when
// empty), never under the workspace. DuckDB runs in Sift's own process,
// with the host's rights; a spill directory the sandbox can write (it was
// work/.duckdb-tmp) could be swapped for a link, and the host would create
// its files wherever the link points, outside the session's disk budget.
// The source removes it when it closes.
func newScratch(parent string) (string, error) {
	if parent == "" {
		parent = os.TempDir()
	}
	dir, err := os.MkdirTemp(parent, "sift-duckdb-")
	if err != nil {
		return "", fmt.Errorf("make DuckDB's spill directory under %s: %w; set TMPDIR to a writable directory", parent, err)
	}
	return dir, nil
}

// filesTempBytes reads SIFT_FILES_SQL_TEMP (a size such as 8GiB).
func filesTempBytes(getenv func(string) string) (int64, error) {
	v := strings.TrimSpace(getenv(FilesTempEnv))
	if v == "" {
		return 0, nil
	}
	n, err := parseBytes(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: %w", FilesTempEnv, v, err)
	}
	return n, nil
}
