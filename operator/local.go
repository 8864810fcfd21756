package operator

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/operator/internal/sandbox"
)

// Defaults of LocalConfig.
const (
	// DefaultTimeout bounds one Python run when neither LocalConfig.Timeout
	// nor RunOptions.Timeout says otherwise.
	DefaultTimeout = 120 * time.Second
	// DefaultMaxOutputBytes caps the stdout and the stderr kept from a run,
	// each.
	DefaultMaxOutputBytes = 64 << 10
)

// CellsDir is where Local keeps each cell's code and result, inside work/.
const CellsDir = WorkDir + "/.cells"

// defaultPath is the PATH given to code when the parent process has none.
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

// ErrClosed: the operator was closed and runs no more code.
var ErrClosed = errors.New("operator is closed")

//go:embed runner.py
var runnerPy string

//go:embed render.py
var renderPy string

//go:embed filter.py
var filterPy string

// runnerScript is what process mode runs: the disk filter (see filter.py),
// the shared value rendering, then the runner.
var runnerScript = filterPy + "\n" + renderPy + "\n" + runnerPy

// LocalConfig configures a Local operator.
type LocalConfig struct {
	// Root is the workspace directory, holding input/, work/ and out/.
	// Required; it is made absolute and its symlinks resolved, and work/ and
	// out/ are created when missing.
	Root string
	// Python is the resolved interpreter (see FindPython). Optional: without
	// it the file operations work and RunPython fails with ErrNoPython.
	Python string
	// Timeout bounds each Python run unless RunOptions.Timeout is set.
	// Optional; default DefaultTimeout (120s).
	Timeout time.Duration
	// MaxOutputBytes caps the stdout and the stderr kept from one run, each;
	// the head and the tail are kept, with a marker saying how much was cut.
	// Optional; default DefaultMaxOutputBytes (64 KiB).
	MaxOutputBytes int
	// ExtraEnv holds KEY=value entries added to the otherwise scrubbed
	// environment the code runs in. Optional.
	ExtraEnv []string
	// Sandbox starts each run's interpreter (see NewSandbox). Optional;
	// default NoSandbox(): path checks in the file operations are then the
	// only confinement.
	Sandbox Sandbox
	// Limits bound each run's interpreter; the sandbox combines them with
	// its own configured limits, taking the stricter of each. Optional;
	// default none beyond the sandbox's.
	Limits Limits
}

// Local is an Operator that works directly on the local file system and runs
// each piece of Python code in a fresh interpreter process, in its own
// process group, with a scrubbed environment, started through the configured
// Sandbox. With NoSandbox (the default) its confinement is path checking
// only: use that where bubblewrap is unavailable and the person allowed it.
// Safe for concurrent use; Python runs are serialised.
type Local struct {
	root   string
	cfg    LocalConfig
	runSem chan struct{} // one run at a time: file-change snapshots must not overlap

	mu       sync.Mutex
	closed   bool
	nextCell int
	running  map[int]struct{} // process group ids of live runs
	// disk releases the session's disk (see sandbox.HoldDisk), held from
	// the first run until Close and the end of every run; diskNote says,
	// once, why the budget is only counted.
	disk     func()
	diskNote string
}

var _ Operator = (*Local)(nil)

// NewLocal returns a Local operator for the workspace at cfg.Root, filling
// defaults and creating work/ and out/ when missing.
func NewLocal(cfg LocalConfig) (*Local, error) {
	if cfg.Root == "" {
		return nil, errors.New("new local operator: LocalConfig.Root is required: give the session workspace directory")
	}
	abs, err := filepath.Abs(cfg.Root)
	if err != nil {
		return nil, fmt.Errorf("new local operator: %w", err)
	}
	root, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("new local operator: workspace root: %w; create the directory first", err)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("new local operator: workspace root %s is not a directory", root)
	}
	if err := mkdirsIn(root, WorkDir, OutDir); err != nil {
		return nil, fmt.Errorf("new local operator: create work/ and out/: %w", err)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxOutputBytes <= 0 {
		cfg.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if cfg.Sandbox == nil {
		cfg.Sandbox = NoSandbox()
	}
	cfg.Root = root
	l := &Local{
		root:     root,
		cfg:      cfg,
		runSem:   make(chan struct{}, 1),
		running:  map[int]struct{}{},
		nextCell: lastCellNumber(root) + 1,
	}
	return l, nil
}

// Root is the workspace's absolute, symlink-free path.
func (l *Local) Root() string { return l.root }

// MemoryLimit is the address-space cap each Python run gets: the stricter
// of the operator's Limits and its sandbox's own; 0 means none. The
// built-in analyses read it to decide whether pandas can hold a file.
func (l *Local) MemoryLimit() int64 {
	lim := l.cfg.Limits
	lim = lim.Tighter(sandbox.ConfiguredLimits(l.cfg.Sandbox))
	return sandbox.MinLimit(lim.MemoryBytes, 0)
}

// Resolve maps a path to its real absolute location inside the workspace;
// see Confine. Only for handing a path to a library that opens by name:
// the host reads workspace files through Open.
func (l *Local) Resolve(path string) (string, error) { return Confine(l.root, path) }

// Open opens a workspace file or directory for reading by descriptor,
// never through a link, never a FIFO or device (see package confined).
func (l *Local) Open(path string) (*os.File, error) { return OpenIn(l.root, path) }

// Stat describes a workspace path without following it.
func (l *Local) Stat(path string) (FileInfo, error) {
	name, err := workspaceName(l.root, path)
	if err != nil {
		return FileInfo{}, err
	}
	r, err := confined.OpenRoot(l.root)
	if err != nil {
		return FileInfo{}, err
	}
	defer r.Close()
	fi, err := r.Stat(name)
	if err != nil {
		return FileInfo{}, fmt.Errorf("stat %q: %w", path, hostErr(err))
	}
	return fileInfo(name, fi), nil
}

// ReadFile reads at most limit bytes of a workspace file (limit <= 0: all of
// it); truncated reports whether there was more.
func (l *Local) ReadFile(ctx context.Context, path string, limit int64) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, fmt.Errorf("read %q: %w", path, err)
	}
	f, err := OpenIn(l.root, path)
	if err != nil {
		return nil, false, fmt.Errorf("read %q: %w", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, false, fmt.Errorf("read %q: it is a directory; list it with list_files", path)
	}
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, false, fmt.Errorf("read %q: %w", path, relError(l.root, err))
	}
	if limit > 0 && int64(len(data)) > limit {
		return data[:limit], true, nil
	}
	return data, false, nil
}

// WriteFile creates or replaces a workspace file, making parent
// directories; input/ is refused with ErrReadOnly.
func (l *Local) WriteFile(ctx context.Context, path string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("write %q: %w", path, err)
	}
	name, err := workspaceName(l.root, path)
	if err != nil {
		return err
	}
	r, err := confined.OpenRoot(l.root)
	if err != nil {
		return fmt.Errorf("write %q: %w", path, err)
	}
	defer r.Close()
	dir := filepath.ToSlash(filepath.Dir(name))
	if inInput(name) {
		// Say first when the path leads out through a link in input/.
		if d, err := r.OpenDir(dir); err != nil && errors.Is(err, confined.ErrEscape) {
			return fmt.Errorf("write %q: %w", path, hostErr(err))
		} else if err == nil {
			d.Close()
		}
		return fmt.Errorf("write %q: input/ holds the user's original files: %w; write to out/ (results) or work/ (scratch) instead",
			path, ErrReadOnly)
	}
	// A link where the file should go is refused, not replaced: the
	// model should know its path is not what it thinks.
	if fi, err := r.Stat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		_, err := r.Open(name)
		return fmt.Errorf("write %q: %w", path, hostErr(err))
	}
	if dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("write %q: %w", path, hostErr(err))
		}
	}
	// Written under a fresh name and renamed into place: a link or FIFO
	// planted at the destination is replaced, never written through.
	if err := r.WriteFile(name, data, 0o644); err != nil {
		return fmt.Errorf("write %q: %w", path, hostErr(err))
	}
	return nil
}

// List returns the entries under dir (all levels when recursive), with
// workspace-relative paths, sorted. Symlinks are listed, not followed.
func (l *Local) List(ctx context.Context, dir string, recursive bool) ([]FileInfo, error) {
	name, err := workspaceName(l.root, dir)
	if err != nil {
		return nil, err
	}
	r, err := confined.OpenRoot(l.root)
	if err != nil {
		return nil, fmt.Errorf("list %q: %w", dir, err)
	}
	defer r.Close()
	f, err := r.Open(name, readOpts(name)...)
	if err != nil {
		return nil, fmt.Errorf("list %q: %w", dir, hostErr(err))
	}
	fi, err := f.Stat()
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("list %q: %w", dir, err)
	}
	if !fi.IsDir() {
		return []FileInfo{fileInfo(name, fi)}, nil
	}
	var out []FileInfo
	err = r.Walk(name, func(rel string, d fs.DirEntry) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		out = append(out, fileInfo(rel, info))
		if !recursive && d.IsDir() {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list %q: %w", dir, hostErr(err))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// fileInfo builds a FileInfo for the workspace-relative slash path rel.
func fileInfo(rel string, fi fs.FileInfo) FileInfo {
	return FileInfo{
		Path:    rel,
		Size:    fi.Size(),
		IsDir:   fi.IsDir(),
		Mode:    fi.Mode(),
		ModTime: fi.ModTime(),
	}
}

// relError rewrites the absolute workspace paths in a *fs.PathError to
// workspace-relative ones, so messages shown to a model do not leak where
// the workspace lives; the error still unwraps to its cause.
func relError(root string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && filepath.IsAbs(pe.Path) && sandbox.Within(root, pe.Path) {
		return &fs.PathError{Op: pe.Op, Path: RelPath(root, pe.Path), Err: pe.Err}
	}
	return err
}

// Close kills every Python process still running and refuses further runs.
func (l *Local) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	for pgid := range l.running {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	l.releaseDiskLocked()
	return nil
}

// holdDisk puts the workspace's work/ and out/ on a file system of the
// disk budget's size, once, for as long as the operator is open (see
// sandbox.HoldDisk). Where that cannot be done the budget is counted only,
// and the next cell's result says so.
func (l *Local) holdDisk() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	if l.disk != nil {
		return nil
	}
	release, note, err := sandbox.HoldDisk(l.cfg.Sandbox, l.root, l.cfg.Limits)
	if err != nil {
		return fmt.Errorf("the session's disk: %w", err)
	}
	l.disk, l.diskNote = release, note
	return nil
}

// releaseDiskLocked lets the session's disk go once the operator is closed
// and no run is left; l.mu is held.
func (l *Local) releaseDiskLocked() {
	if l.closed && len(l.running) == 0 && l.disk != nil {
		l.disk()
		l.disk = func() {}
	}
}

// takeDiskNote returns, once, why the disk budget is only counted.
func (l *Local) takeDiskNote() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := l.diskNote
	l.diskNote = ""
	return n
}

// cellResult is what runner.py writes to a cell's result file.
type cellResult struct {
	Value   string   `json:"value"`
	Error   string   `json:"error"`
	Figures []string `json:"figures"`
}

// RunPython runs code in a fresh interpreter: the code is saved as
// work/.cells/cell-NNNN.py and run from the workspace root by the embedded
// runner (matplotlib backend Agg; a trailing expression's value rendered;
// open figures saved to out/figure-NNNN-N.png). The process and anything it
// started are killed when the run ends, times out or ctx is cancelled. A
// cancelled ctx returns the partial result together with ctx's error.
func (l *Local) RunPython(ctx context.Context, code string, opts RunOptions) (*RunResult, error) {
	if l.cfg.Python == "" {
		return nil, fmt.Errorf("run python: LocalConfig.Python is empty: %w; resolve an interpreter with FindPython", ErrNoPython)
	}
	select {
	case l.runSem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("run python: %w", ctx.Err())
	}
	defer func() { <-l.runSem }()

	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil, fmt.Errorf("run python: %w", ErrClosed)
	}
	cell := fmt.Sprintf("%04d", l.nextCell)
	l.nextCell++
	l.mu.Unlock()

	if err := l.holdDisk(); err != nil {
		return nil, fmt.Errorf("run python: %w", err)
	}
	if err := prepareDirsIn(l.root); err != nil {
		return nil, fmt.Errorf("run python: prepare the workspace: %w", err)
	}
	cellFile := CellsDir + "/cell-" + cell + ".py"
	if err := writeIn(l.root, cellFile, []byte(code)); err != nil && !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EDQUOT) {
		// A full disk still runs the cell (the code goes to the runner on
		// its stdin, the result comes back on a pipe; the file serves only
		// tracebacks), so the cell that deletes what filled it can run.
		return nil, fmt.Errorf("run python: save cell: %w", err)
	}

	timeout := l.cfg.Timeout
	if opts.Timeout > 0 {
		timeout = opts.Timeout
	}
	before := l.snapshot()
	res, err := l.runProcess(ctx, timeout, cellFile, code, cell)
	if res != nil {
		res.Files, res.FilesOmitted = boundFiles(changedFiles(before, l.snapshot()))
	}
	return res, err
}

// Directories inside work/ that the runtime owns; like .cells they are left
// out of the files a run reports.
const (
	homeDir = WorkDir + "/.home"
	tmpDir  = WorkDir + "/.tmp"
)

// runProcess starts the runner, waits for it within timeout and ctx, and
// collects what it reported. The runner reads the cell's code on its stdin
// and writes its result to fd 3, so that a cell runs, and its result comes
// back, on a session disk too full for any file.
func (l *Local) runProcess(ctx context.Context, timeout time.Duration, cellFile, code, cell string) (*RunResult, error) {
	stdout := newCappedBuffer(l.cfg.MaxOutputBytes)
	stderr := newCappedBuffer(l.cfg.MaxOutputBytes)
	// The child gets the write ends of real pipes, so Wait returns when the
	// interpreter exits even if a grandchild still holds them; the group kill
	// after it closes them for good.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("run python: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("run python: %w", err)
	}
	codeR, codeW, err := os.Pipe()
	if err != nil {
		closeFiles(outR, outW, errR, errW)
		return nil, fmt.Errorf("run python: %w", err)
	}
	resR, resW, err := os.Pipe()
	if err != nil {
		closeFiles(outR, outW, errR, errW, codeR, codeW)
		return nil, fmt.Errorf("run python: %w", err)
	}
	release, err := sandbox.Hold(l.cfg.Sandbox, l.root)
	if err != nil {
		closeFiles(outR, outW, errR, errW, codeR, codeW, resR, resW)
		return nil, fmt.Errorf("run python: %w", err)
	}
	defer release()
	// The sandbox runs the command in its own process group; killing that
	// group ends the interpreter and, in a bwrap sandbox, everything in it.
	fontEnv, fontDirs := fontCacheSpec(l.cfg.Sandbox, l.cfg.Python)
	cmd, cmdErr := l.cfg.Sandbox.Command(ProcSpec{
		Root:     l.root,
		Argv:     []string{l.cfg.Python, "-c", runnerScript, l.root, cellFile, cell},
		Env:      append(l.env(), fontEnv...),
		Limits:   l.cfg.Limits,
		ReadOnly: fontDirs,
	})
	if cmdErr != nil {
		closeFiles(outR, outW, errR, errW, codeR, codeW, resR, resW)
		return nil, fmt.Errorf("run python: %w", cmdErr)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = codeR, outW, errW
	cmd.ExtraFiles = []*os.File{resW} // fd 3: the result

	start := time.Now()
	startErr := cmd.Start()
	closeFiles(codeR, outW, errW, resW)
	if startErr != nil {
		closeFiles(outR, errR, codeW, resR)
		return nil, fmt.Errorf("run python: start %s: %w", l.cfg.Python, startErr)
	}
	pgid := cmd.Process.Pid
	l.mu.Lock()
	l.running[pgid] = struct{}{}
	closed := l.closed
	l.mu.Unlock()
	if closed { // Close ran between the check in RunPython and now
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}

	var copies sync.WaitGroup
	var result []byte
	copies.Add(3)
	go func() { defer copies.Done(); _, _ = io.Copy(stdout, outR); outR.Close() }()
	go func() { defer copies.Done(); _, _ = io.Copy(stderr, errR); errR.Close() }()
	go func() {
		defer copies.Done()
		result, _ = io.ReadAll(io.LimitReader(resR, maxKernelFrame+1))
		_, _ = io.Copy(io.Discard, resR) // the rest, so the runner never blocks on it
		resR.Close()
	}()
	go func() { _, _ = io.WriteString(codeW, code); codeW.Close() }()

	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	// The session's disk budget, watched while the code runs: no state
	// survives a process-mode run, so one that passes it is killed.
	budget, diskBefore, diskOver, stopWatch := sandbox.WatchDisk(l.cfg.Sandbox, l.root, l.cfg.Limits)
	defer stopWatch()
	var overUse *sandbox.DiskUsage

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var waitErr error
	var timedOut bool
	var cancelled error
	select {
	case waitErr = <-waited:
	case <-timer.C:
		timedOut = true
	case <-ctx.Done():
		cancelled = ctx.Err()
	case u := <-diskOver:
		overUse = &u
	}
	// Kill the whole group in every case, and whatever left it (a new
	// session, a double fork) through the control group: a run leaves
	// nothing behind.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	sandbox.EndGroup(cmd)
	if timedOut || cancelled != nil || overUse != nil {
		waitErr = <-waited
	}
	sandbox.Finished(cmd)
	killedForDisk := overUse != nil
	if budget != nil && overUse == nil {
		if u := budget.Measure(); budget.Grew(diskBefore, u) {
			overUse = &u
		}
	}
	full := budget != nil && !killedForDisk && sandbox.DiskFull(l.root)
	copies.Wait()
	l.mu.Lock()
	delete(l.running, pgid)
	l.releaseDiskLocked()
	l.mu.Unlock()

	res := &RunResult{
		Stdout:   stdout.String(),
		Stderr:   stderr.String(),
		Duration: time.Since(start),
	}
	var cr cellResult
	haveResult := len(result) <= maxKernelFrame && json.Unmarshal(result, &cr) == nil
	if haveResult {
		res.Value = capString(cr.Value, l.cfg.MaxOutputBytes)
		res.Error = capString(cr.Error, l.cfg.MaxOutputBytes)
		res.Figures = existingFiles(l.root, cr.Figures)
	}
	switch {
	case timedOut:
		res.TimedOut = true
		res.Error = fmt.Sprintf("timed out after %s: the process and its children were killed", timeout)
	case cancelled != nil:
		res.Error = "cancelled: the process and its children were killed"
		return res, fmt.Errorf("run python: %w", cancelled)
	case killedForDisk:
		res.Error = strings.Replace(budget.Message(*overUse, true), "so it was interrupted", "so it was killed", 1)
	case !haveResult:
		res.Error = fmt.Sprintf("the interpreter stopped before the cell finished (%v)", exitReason(waitErr))
	}
	if u := (sandbox.DiskUsage{}); full {
		if u = budget.Measure(); sandbox.QuotaStopped(l.root, diskBefore, u, res.Error, res.Stderr) {
			res.Error = joinLines(budget.FullMessage(u), res.Error)
		} else {
			res.Notice = joinNotices(res.Notice, "The session's disk is full: "+budget.UsageLine(u)+"; delete files in work/ or out/ before writing more.")
		}
	} else if overUse != nil && !killedForDisk {
		res.Error = joinLines(budget.Message(*overUse, false), res.Error)
	}
	res.Notice = joinNotices(res.Notice, l.takeDiskNote())
	return res, nil
}

// exitReason describes how a process ended, for a cell that left no result.
func exitReason(err error) string {
	if sig, ok := ExitSignal(err); ok {
		return "killed by signal " + sig.String()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return "exit status " + strconv.Itoa(ee.ExitCode())
	}
	if err != nil {
		return err.Error()
	}
	return "exit status 0"
}

// env is the scrubbed environment code runs in: nothing of the parent's but
// PATH, so API keys and tokens never reach generated code.
func (l *Local) env() []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = defaultPath
	}
	env := []string{
		"PATH=" + path,
		"LANG=C.UTF-8",
		"LC_ALL=C.UTF-8",
		"HOME=" + filepath.Join(l.root, homeDir),
		"TMPDIR=" + filepath.Join(l.root, tmpDir),
		"MPLBACKEND=Agg",
		"MPLCONFIGDIR=" + filepath.Join(l.root, mplConfigDir),
		"PYTHONIOENCODING=utf-8",
		"PYTHONDONTWRITEBYTECODE=1",
	}
	if f := sandbox.SeccompEnv(); f != "" {
		env = append(env, f)
	}
	return append(env, l.cfg.ExtraEnv...)
}

// fileStamp is what a snapshot remembers of one file.
type fileStamp struct {
	size    int64
	modTime time.Time
}

// snapshot records the files under out/ and work/, leaving out work/'s
// hidden runtime directories (.cells, .home, .tmp).
func (l *Local) snapshot() map[string]fileStamp {
	files := map[string]fileStamp{}
	r, err := confined.OpenRoot(l.root)
	if err != nil {
		return files
	}
	defer r.Close()
	for _, dir := range []string{OutDir, WorkDir} {
		walkFiles(r, dir, files)
	}
	return files
}

// changedFiles lists the paths that are new in after or differ from before,
// sorted.
func changedFiles(before, after map[string]fileStamp) []string {
	var out []string
	for p, a := range after {
		if b, ok := before[p]; !ok || b.size != a.size || !b.modTime.Equal(a.modTime) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// cellFileName matches the saved cells, for numbering a reopened workspace.
var cellFileName = regexp.MustCompile(`^cell-(\d+)\.py$`)

// lastCellNumber returns the highest cell number saved in root's
// work/.cells, 0 if none.
func lastCellNumber(root string) int {
	r, err := confined.OpenRoot(root)
	if err != nil {
		return 0
	}
	defer r.Close()
	entries, err := r.ReadDir(CellsDir)
	if err != nil {
		return 0
	}
	last := 0
	for _, e := range entries {
		if m := cellFileName.FindStringSubmatch(e.Name()); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > last {
				last = n
			}
		}
	}
	return last
}

// closeFiles closes each of files.
func closeFiles(files ...*os.File) {
	for _, f := range files {
		f.Close()
	}
}
