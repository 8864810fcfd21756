// Package numfmt is the one decision on how a column of numbers reads:
// a built-in analysis records, beside each CSV it writes, the format of
// its columns (a share as a percent with one decimal, a count as a whole
// number), and every place that shows the table — the report, the
// step's table in the CLI, the web app's tables (through the tables
// endpoint's formats) — formats a cell with Cell. The CSV itself keeps
// the full precision.
package numfmt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/sift-agent/sift/confined"
)

// maxSidecar bounds a formats file (a few dozen bytes a column).
const maxSidecar = 1 << 20

// The kinds of format.
const (
	// Percent is a fraction shown times 100 with a "%": 0.2977 → "29.8%".
	Percent = "percent"
	// Integer is a whole number with thousands separators.
	Integer = "integer"
	// Decimal is a number with thousands separators and Decimals decimals.
	Decimal = "decimal"
)

// Format is how one column's numbers read.
type Format struct {
	Kind     string `json:"kind"`
	Decimals int    `json:"decimals"`
}

// Formats are a table's column formats, by column name.
type Formats map[string]Format

// SidecarPath is where the formats of the table at p (slash-separated,
// workspace-relative, e.g. "out/topn_ranking.csv") are recorded: a dot
// file beside it, which is no deliverable (the files routes refuse dot
// files) and leaves the CSV as it was written.
func SidecarPath(p string) string {
	dir, base := path.Split(p)
	return dir + "." + base + ".formats.json"
}

// Encode is the sidecar's content.
func Encode(f Formats) ([]byte, error) {
	for col, c := range f {
		if err := c.valid(); err != nil {
			return nil, fmt.Errorf("format of column %q: %w", col, err)
		}
	}
	return json.MarshalIndent(struct {
		Columns Formats `json:"columns"`
	}{f}, "", "  ")
}

// Read returns the formats recorded beside the table at rel under root;
// none (and no error) when nothing was recorded.
//
// The file is under the session's out/, which generated code can write:
// it is read through the confined opener (no link out of root, no FIFO,
// at most maxSidecar bytes).
func Read(root, rel string) (Formats, error) {
	b, truncated, err := confined.ReadFile(root, SidecarPath(rel), maxSidecar)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if truncated {
		return nil, fmt.Errorf("%s: larger than %d bytes", SidecarPath(rel), maxSidecar)
	}
	var doc struct {
		Columns Formats `json:"columns"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", SidecarPath(rel), err)
	}
	for col, c := range doc.Columns {
		if err := c.valid(); err != nil {
			return nil, fmt.Errorf("%s: column %q: %w", SidecarPath(rel), col, err)
		}
	}
	return doc.Columns, nil
}

func (f Format) valid() error {
	switch f.Kind {
	case Percent, Integer, Decimal:
	default:
		return fmt.Errorf("kind %q is none of %s, %s, %s", f.Kind, Percent, Integer, Decimal)
	}
	if f.Decimals < 0 || f.Decimals > 12 {
		return fmt.Errorf("decimals %d is not from 0 to 12", f.Decimals)
	}
	return nil
}

// Cell formats one cell as the file holds it; a cell that is no number
// (empty, text) comes back as it is.
func (f Format) Cell(s string) string {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return s
	}
	switch f.Kind {
	case Percent:
		return strconv.FormatFloat(100*v, 'f', f.Decimals, 64) + "%"
	case Integer:
		return grouped(v, 0)
	case Decimal:
		return grouped(v, f.Decimals)
	}
	return s
}

// Row formats a row under header cols with f; columns without a format
// keep their text.
func (f Formats) Row(cols, row []string) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = c
		if i < len(cols) {
			if fm, ok := f[cols[i]]; ok {
				out[i] = fm.Cell(c)
			}
		}
	}
	return out
}

// grouped writes v with d decimals and thousands separators.
func grouped(v float64, d int) string {
	s := strconv.FormatFloat(v, 'f', d, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, ok := strings.Cut(s, ".")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if ok {
		b.WriteString("." + frac)
	}
	return b.String()
}
