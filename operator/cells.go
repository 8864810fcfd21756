package operator

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/internal/call"
	"github.com/sift-agent/sift/internal/stepshare"
)

// CellsLogFile is the file in the workspace root where every Python cell is
// recorded, one JSON line (a CellRecord) each: the provenance a report cites
// and what a restarted kernel replays.
const CellsLogFile = "cells.jsonl"

// cellStdoutHead is how much of a cell's stdout its record keeps.
const cellStdoutHead = 2000

// CellRecord is one line of cells.jsonl: what one cell ran and what came of
// it.
type CellRecord struct {
	// Cell is the cell's number (its code is work/.cells/cell-NNNN.py). A
	// replayed cell keeps the number of the cell it repeats.
	Cell int `json:"cell"`
	// Generation numbers the kernel the cell ran in: 1 for a session's
	// first kernel, one more after each restart; 0 in process mode, where
	// no state carries over.
	Generation int `json:"generation"`
	// Replayed marks a cell re-run to rebuild a restarted kernel's state.
	Replayed bool `json:"replayed,omitempty"`
	// Branch is the plan step whose branch kernel ran the cell (see
	// Kernel.Branch), 0 for the session's main kernel.
	Branch int    `json:"branch,omitempty"`
	Code   string `json:"code"`
	OK     bool   `json:"ok"`
	// Error is the one line that says what went wrong: the exception line
	// of a traceback ("KeyError: 'x'") or the reason the cell was stopped.
	Error string `json:"error,omitempty"`
	// Stdout is the head of what the cell printed.
	Stdout  string   `json:"stdout,omitempty"`
	Figures []string `json:"figures,omitempty"`
	Files   []string `json:"files,omitempty"`
	// FilesOmitted is how many more files the cell wrote than Files lists
	// (at most MaxCellFiles are).
	FilesOmitted int       `json:"files_omitted,omitempty"`
	Duration     float64   `json:"duration_s"`
	Time         time.Time `json:"time"`
	// Step is the plan step the cell ran for (RunOptions.Step), 0 when
	// none was given.
	Step int `json:"step,omitempty"`
	// Limited marks a record written after its step had used its share of
	// cells.jsonl (see cellLog): it keeps the code and the result, not what
	// the cell printed or the files it wrote (FilesOmitted counts them).
	Limited bool `json:"limited,omitempty"`
}

// step is the plan step rec counts against: its Step, or the branch's.
func (rec CellRecord) step() int {
	if rec.Step != 0 {
		return rec.Step
	}
	return rec.Branch
}

// short is rec as written once its step's share is used up: what a replay
// needs (the code, whether it worked) and the error line, shortened.
func (rec CellRecord) short() CellRecord {
	rec.Stdout, rec.Figures = "", nil
	rec.FilesOmitted += len(rec.Files)
	rec.Files = nil
	rec.Error = headString(rec.Error, cellErrorShort)
	rec.Limited = true
	return rec
}

// cellErrorShort is how much of its error line a limited record keeps.
const cellErrorShort = 1000

// MaxCellFiles bounds the files one run reports (RunResult.Files) and
// records in cells.jsonl: a cell that writes 300,000 files lists the first
// of them, sorted (out/ before work/), and counts the rest.
const MaxCellFiles = 200

// boundFiles keeps the first MaxCellFiles of files (sorted) and says how
// many it left out.
func boundFiles(files []string) ([]string, int) {
	if len(files) <= MaxCellFiles {
		return files, 0
	}
	return files[:MaxCellFiles:MaxCellFiles], len(files) - MaxCellFiles
}

// newCellRecord summarises a run as its cells.jsonl line.
func newCellRecord(cell, generation int, code string, res *RunResult, at time.Time) CellRecord {
	return CellRecord{
		Cell:         cell,
		Generation:   generation,
		Code:         code,
		OK:           res.OK(),
		Error:        errorLine(res.Error),
		Stdout:       headString(res.Stdout, cellStdoutHead),
		Figures:      res.Figures,
		Files:        res.Files,
		FilesOmitted: res.FilesOmitted,
		Duration:     res.Duration.Seconds(),
		Time:         at.UTC(),
	}
}

// exceptionLine matches the last line of a traceback, "SomeError: message".
var exceptionLine = regexp.MustCompile(`^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Warning)\b`)

// errorLine returns the line of an error text that names what went wrong:
// a traceback's exception line, otherwise its first non-empty line.
func errorLine(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if strings.HasPrefix(lines[0], "Traceback") || strings.HasPrefix(strings.TrimSpace(lines[0]), "File ") {
		for i := len(lines) - 1; i >= 0; i-- {
			if l := strings.TrimSpace(lines[i]); exceptionLine.MatchString(l) {
				return l
			}
		}
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// headString returns at most limit bytes from the start of s, cut at a rune
// boundary.
func headString(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	s = s[:limit]
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if r != utf8.RuneError || size != 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}

// cellLog is a workspace's cells.jsonl as this process appends to it:
// each plan step may add at most its share (stepshare.Default, as to the
// event log), counted from the lines already there when it is opened, so
// a share used before a crash still counts after the resume. Past it, a
// step's cells are recorded short (CellRecord.short): a step that prints
// a lot, or writes many files with long names, grows the log with its
// code, not with its output.
type cellLog struct {
	root  string
	mu    sync.Mutex
	share stepshare.Counter
}

// openCellLog returns root's cell log, its shares counted from records
// (what ReadCells returned).
func openCellLog(root string, records []CellRecord) *cellLog {
	c := &cellLog{root: root, share: stepshare.Counter{Max: stepshare.Default}}
	for _, rec := range records {
		if line, err := json.Marshal(rec); err == nil {
			c.share.Restore(rec.step(), int64(len(line)+1), rec.Limited)
		}
	}
	return c
}

// append adds rec as one line to cells.jsonl, short once its step's share
// is used up; notice says so for the cell that used it up.
func (c *cellLog) append(rec CellRecord) (notice string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	line, err := json.Marshal(rec)
	if err != nil {
		return "", fmt.Errorf("record cell %d: %w", rec.Cell, err)
	}
	ok, reached := c.share.Take(rec.step(), int64(len(line)+1))
	if !ok {
		if line, err = json.Marshal(rec.short()); err != nil {
			return "", fmt.Errorf("record cell %d: %w", rec.Cell, err)
		}
	}
	if reached {
		notice = fmt.Sprintf("Step %d has written %s to %s, its share: from here on its cells are recorded with their code and result only, "+
			"not what they printed or the files they wrote.", rec.step(), stepshare.Size(c.share.Max), CellsLogFile)
	}
	return notice, appendCellLine(c.root, rec.Cell, line)
}

// appendCellRecord adds rec as one line to root's cells.jsonl, with no
// share to keep to.
func appendCellRecord(root string, rec CellRecord) error {
	line, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("record cell %d: %w", rec.Cell, err)
	}
	return appendCellLine(root, rec.Cell, line)
}

// appendCellLine appends the record line of cell to root's cells.jsonl.
func appendCellLine(root string, cell int, line []byte) error {
	r, err := confined.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("record cell %d: %w", cell, err)
	}
	defer r.Close()
	f, err := r.Append(CellsLogFile, 0o600)
	if err != nil {
		return fmt.Errorf("record cell %d: %w", cell, err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("record cell %d: %w", cell, relError(root, err))
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("record cell %d: %w", cell, relError(root, err))
	}
	return nil
}

// ReadCells returns the records of the workspace's cells.jsonl in the order
// they were written; none when the file does not exist. A line that does
// not parse (a write cut short by a crash) is skipped.
func ReadCells(root string) ([]CellRecord, error) {
	f, err := confined.Open(root, CellsLogFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", CellsLogFile, err)
	}
	defer f.Close()
	var out []CellRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		var rec CellRecord
		if json.Unmarshal(sc.Bytes(), &rec) == nil {
			out = append(out, rec)
		}
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("read %s: %w", CellsLogFile, err)
	}
	return out, nil
}

// lastRecordedGeneration returns the highest kernel generation in records,
// 0 if none.
func lastRecordedGeneration(records []CellRecord) int {
	last := 0
	for _, r := range records {
		last = max(last, r.Generation)
	}
	return last
}

// lastRecordedCell returns the highest cell number in records, 0 if none.
func lastRecordedCell(records []CellRecord) int {
	last := 0
	for _, r := range records {
		last = max(last, r.Cell)
	}
	return last
}

// stepOf is the plan step a run is for: opts.Step, or else the step ctx
// carries (see RunOptions.Step).
func stepOf(ctx context.Context, opts RunOptions) int {
	if opts.Step != 0 {
		return opts.Step
	}
	step, _ := call.Step(ctx)
	return step
}
