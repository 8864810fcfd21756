package sqldb

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The sniff cache keeps what sniff_csv found in a file's content, on the
// host, by the content's SHA-256 (the one the workspace records as it
// copies an input in), so a run over a file an earlier run sniffed (the
// same file asked again, in another session) reads it at once. Its key
// also holds the DuckDB version, the sample and the delimiter asked for:
// another DuckDB sniffs again. What it holds is data, never SQL: every
// value is quoted again when the dialect is made (sniffFound.dialect).

// SniffCacheEnv names the sniff cache's directory; "off" turns it off.
// Unset, it is sniff/ in Sift's directory under the user's cache
// directory ($XDG_CACHE_HOME/sift/sniff or ~/.cache/sift/sniff).
const SniffCacheEnv = "SIFT_SNIFF_CACHE"

// maxSniffCache bounds the files the sniff cache keeps: a write beyond
// it removes the oldest.
const maxSniffCache = 512

// sniffCacheFormat is the version of what a cache file holds.
const sniffCacheFormat = 1

// sniffCacheDir is the sniff cache's directory, or "" when it is off.
func sniffCacheDir() string {
	if d := os.Getenv(SniffCacheEnv); d != "" {
		if d == "off" {
			return ""
		}
		return d
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "sift", "sniff")
}

// sniffCacheFile is the cache file of a file whose content has the
// SHA-256 sum, sniffed by DuckDB version with delimiter delim ("" when
// it detects one); "" when the cache is off or the sum is not one.
func sniffCacheFile(version, sum, delim string) string {
	dir := sniffCacheDir()
	if dir == "" || version == "" {
		return ""
	}
	if b, err := hex.DecodeString(sum); err != nil || len(b) != sha256.Size {
		return ""
	}
	key := sha256.Sum256(fmt.Appendf(nil, "%d\x00%s\x00%d\x00%s\x00%s", sniffCacheFormat, version, csvSampleRows, delim, strings.ToLower(sum)))
	return filepath.Join(dir, hex.EncodeToString(key[:])+".json")
}

// cachedSniff reads what the cache file holds, ok false when it holds
// nothing usable.
func cachedSniff(file string) (sniffFound, bool) {
	var f sniffFound
	if file == "" {
		return f, false
	}
	b, err := os.ReadFile(file)
	if err != nil || json.Unmarshal(b, &f) != nil {
		return f, false
	}
	if _, err := f.dialect(); err != nil {
		return f, false
	}
	return f, true
}

// keepSniff writes f to the cache file (whole, or not at all), and keeps
// the cache within maxSniffCache files. A cache that cannot be written
// costs only the next run's sniff, so its errors are dropped.
func keepSniff(file string, f sniffFound) {
	if file == "" {
		return
	}
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	b, err := json.Marshal(f)
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".sniff-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
		_ = os.Remove(tmp.Name())
		return
	}
	pruneSniffCache(dir, maxSniffCache)
}

// pruneSniffCache removes the oldest cache files of dir beyond keep.
func pruneSniffCache(dir string, keep int) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		name string
		mod  time.Time
	}
	var files []file
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if info, err := e.Info(); err == nil {
			files = append(files, file{e.Name(), info.ModTime()})
		}
	}
	if len(files) <= keep {
		return
	}
	slices.SortFunc(files, func(a, b file) int { return a.mod.Compare(b.mod) })
	for _, f := range files[:len(files)-keep] {
		if err := os.Remove(filepath.Join(dir, f.name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return
		}
	}
}
