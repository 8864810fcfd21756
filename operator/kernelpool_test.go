package operator

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// newTestPool returns a pool of size kernels (no preload, to stay quick)
// whose slots live in a fresh directory, closed when the test ends.
func newTestPool(t *testing.T, size int, mod func(*KernelConfig)) *KernelPool {
	t.Helper()
	py := needPython(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg := KernelConfig{Python: py, Preload: []string{}}
	if mod != nil {
		mod(&cfg)
	}
	p, err := NewKernelPool(KernelPoolConfig{Dir: filepath.Join(dir, "pool"), Size: size, Kernel: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// waitReady waits until n kernels are ready in p.
func waitReady(t *testing.T, p *KernelPool, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := p.WaitReady(ctx, n); err != nil {
		t.Fatal(err)
	}
}

// mustTake takes a kernel from p, which must have one ready.
func mustTake(t *testing.T, p *KernelPool) *KernelOperator {
	t.Helper()
	op, ok := p.Take()
	if !ok {
		t.Fatal("Take found no kernel ready in a full pool")
	}
	t.Cleanup(func() { op.Close() })
	return op
}

// opRun runs code in op's kernel and fails the test unless it ran.
func opRun(t *testing.T, op *KernelOperator, code string) *RunResult {
	t.Helper()
	return mustRun(t, op.Kernel(), code)
}

func TestKernelPoolHandsEachKernelOutOnce(t *testing.T) {
	p := newTestPool(t, 2, nil)
	waitReady(t, p, 2)
	a, b := mustTake(t, p), mustTake(t, p)
	if a == b || a.Root() == b.Root() {
		t.Fatalf("two takes gave the same kernel or slot: %s and %s", a.Root(), b.Root())
	}
	pidA, pidB := opRun(t, a, "import os\nos.getpid()").Value, opRun(t, b, "import os\nos.getpid()").Value
	if pidA == pidB {
		t.Fatalf("two sessions share the interpreter %s", pidA)
	}
	opRun(t, a, "secret = 42")
	if v := opRun(t, b, "'secret' in globals()").Value; v != "False" {
		t.Errorf("the other session's kernel sees its variable: %s", v)
	}
	// A closed kernel never comes back: the refilled pool holds new ones.
	a.Close()
	waitReady(t, p, 2)
	for range 2 {
		c := mustTake(t, p)
		if c == a || c == b || c.Root() == a.Root() || c.Root() == b.Root() {
			t.Fatalf("the pool handed out a used kernel again (%s)", c.Root())
		}
		if v := opRun(t, c, "'secret' in globals()").Value; v != "False" {
			t.Errorf("a refilled kernel holds a used kernel's state: %s", v)
		}
	}
}

func TestKernelPoolKernelWorksInItsOwnWorkspace(t *testing.T) {
	p := newTestPool(t, 2, nil)
	waitReady(t, p, 2)
	a, b := mustTake(t, p), mustTake(t, p)
	if filepath.Dir(a.Root()) != p.Dir() {
		t.Errorf("slot %s is not in the pool's directory %s", a.Root(), p.Dir())
	}
	if cwd := opRun(t, a, "import os\nos.getcwd()").Value; cwd != "'"+a.Root()+"'" {
		t.Errorf("pooled kernel's cwd = %s; want its workspace %s", cwd, a.Root())
	}
	// An input the session adds after the kernel started is there for it.
	if err := os.WriteFile(filepath.Join(a.Root(), InputDir, "data.csv"), []byte("x\n1\n2\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	res := opRun(t, a, "open('input/data.csv').read().count('\\n')")
	if res.Value != "3" {
		t.Errorf("input added after the start: %q; want 3 lines", res.Value)
	}
	opRun(t, a, "open('out/a.txt', 'w').write('a')")
	if _, err := os.Stat(filepath.Join(a.Root(), OutDir, "a.txt")); err != nil {
		t.Errorf("out/a.txt is not in the session's workspace: %v", err)
	}
	if _, err := os.Stat(filepath.Join(b.Root(), OutDir, "a.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("one session's file is in the other's workspace: %v", err)
	}
	if v := opRun(t, b, "import os\nos.path.exists('out/a.txt')").Value; v != "False" {
		t.Errorf("the other session sees out/a.txt: %s", v)
	}
	// The cells are the session's: numbered from 1 in its own cells.jsonl.
	recs, err := ReadCells(a.Root())
	if err != nil || len(recs) == 0 || recs[0].Cell != 1 {
		t.Errorf("cells of the taken kernel = %+v, %v; want its own log from cell 1", recs, err)
	}
}

func TestKernelPoolDiscardsAKilledKernel(t *testing.T) {
	p := newTestPool(t, 1, nil)
	waitReady(t, p, 1)
	p.mu.Lock()
	pk := p.ready[0]
	p.mu.Unlock()
	pid := pk.op.Kernel().proc.cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-pk.exited
	// Whether the watcher or Take sees it first, it is never handed out.
	if op, ok := p.Take(); ok {
		defer op.Close()
		if op == pk.op || op.Root() == pk.op.Root() {
			t.Fatal("Take handed out a kernel that died in the pool")
		}
	}
	waitReady(t, p, 1)
	op := mustTake(t, p)
	if op == pk.op || op.Root() == pk.op.Root() {
		t.Fatal("the pool was refilled with the dead kernel")
	}
	opRun(t, op, "1")
	p.subs.Wait() // the discard of the dead one has finished
	if _, err := os.Stat(pk.op.Root()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dead kernel's slot %s is still there: %v", pk.op.Root(), err)
	}
}

func TestKernelPoolCloseLeavesNoProcess(t *testing.T) {
	for _, full := range []bool{true, false} {
		t.Run("full="+strconv.FormatBool(full), func(t *testing.T) {
			p := newTestPool(t, 2, nil)
			if full {
				waitReady(t, p, 2)
			} // else: Close while a kernel is starting
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			if kids := childPIDs(t); len(kids) > 0 {
				t.Errorf("processes left after Close: %v", kids)
			}
			entries, _ := os.ReadDir(p.Dir())
			if len(entries) > 0 {
				t.Errorf("slots left after Close: %v", entries)
			}
			if _, ok := p.Take(); ok {
				t.Error("Take handed out a kernel after Close")
			}
			if err := p.WaitReady(context.Background(), 1); !errors.Is(err, ErrClosed) {
				t.Errorf("WaitReady after Close = %v; want ErrClosed", err)
			}
		})
	}
}

func TestKernelPoolTakenKernelOutlivesThePool(t *testing.T) {
	p := newTestPool(t, 1, nil)
	waitReady(t, p, 1)
	op := mustTake(t, p)
	opRun(t, op, "x = 1")
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if v := opRun(t, op, "x").Value; v != "1" {
		t.Errorf("the taken kernel after the pool closed: x = %q; want 1", v)
	}
	op.Close()
	if kids := childPIDs(t); len(kids) > 0 {
		t.Errorf("processes left: %v", kids)
	}
}

func TestKernelPoolSizeZeroIsOff(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pool")
	p, err := NewKernelPool(KernelPoolConfig{Dir: dir, Size: 0})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Take(); ok {
		t.Error("a pool of size 0 handed out a kernel")
	}
	if err := p.WaitReady(context.Background(), 1); err != nil {
		t.Errorf("WaitReady on a pool of size 0 = %v", err)
	}
	if err := p.Close(); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a pool of size 0 made its directory: %v", err)
	}
	var none *KernelPool
	if _, ok := none.Take(); ok || none.Size() != 0 || none.Close() != nil {
		t.Error("a nil pool is not an empty one")
	}
	if _, err := NewKernelPool(KernelPoolConfig{Dir: dir, Size: -1}); err == nil {
		t.Error("a negative size was accepted")
	}
	if _, err := NewKernelPool(KernelPoolConfig{Size: 1, Kernel: KernelConfig{Python: "/usr/bin/python3"}}); err == nil {
		t.Error("a pool without a directory was accepted")
	}
}

func TestKernelPoolInBwrapIsLikeAFreshKernel(t *testing.T) {
	limits := Limits{MemoryBytes: 1 << 30, Processes: 64}
	sb := needBwrap(t, Limits{})
	p := newTestPool(t, 2, func(c *KernelConfig) { c.Sandbox, c.Limits = sb, limits })
	waitReady(t, p, 2)
	a, b := mustTake(t, p), mustTake(t, p)
	probe := "import os, resource\n" +
		"(os.getcwd(), os.getuid(), resource.getrlimit(resource.RLIMIT_AS)[0], resource.getrlimit(resource.RLIMIT_NPROC)[0])"
	va, vb := opRun(t, a, probe).Value, opRun(t, b, probe).Value
	for _, c := range []struct {
		op *KernelOperator
		v  string
	}{{a, va}, {b, vb}} {
		if !strings.Contains(c.v, "'"+c.op.Root()+"'") || !strings.Contains(c.v, strconv.Itoa(1<<30)) || !strings.HasSuffix(c.v, " 64)") {
			t.Errorf("pooled kernel in %s: %s; want its workspace as cwd and the session's limits", c.op.Root(), c.v)
		}
	}
	if os.Getuid() == 0 {
		uid := func(v string) string { return strings.Split(v, ", ")[1] }
		if uid(va) == uid(vb) {
			t.Errorf("two pooled kernels run as the same uid: %s and %s", va, vb)
		}
	}
	// Neither sees the other's workspace.
	opRun(t, a, "open('out/mine.txt', 'w').write('a')")
	res := run(t, b.Kernel(), "import os\nos.listdir("+strconv.Quote(a.Root())+")", RunOptions{})
	if res.OK() && strings.Contains(res.Value, "out") {
		t.Errorf("one pooled kernel lists the other's workspace: %s", res.Value)
	}
	p.Close()
	a.Close()
	b.Close()
	if kids := childPIDs(t); len(kids) > 0 {
		t.Errorf("processes left: %v", kids)
	}
}

// poolBenchCell is a session's typical first cell: it uses pandas.
const poolBenchCell = "import pandas as pd\npd.DataFrame({'a': [1, 2, 3]}).shape"

// BenchmarkKernelPoolFirstCell measures, side by side in one run, a
// session's first-cell latency with a fresh kernel (made and started for
// the session: the interpreter, the sandbox and the preloaded pandas,
// numpy and pyplot) and with a pooled one (taken from a full pool, which
// a server refills between sessions), through bubblewrap when it works
// here (as `sift serve` runs), with the default preload.
//
//	go test ./operator -run '^$' -bench KernelPoolFirstCell -benchtime 5x
func BenchmarkKernelPoolFirstCell(b *testing.B) {
	py := needPython(b)
	sb, err := NewSandbox(SandboxConfig{Mode: SandboxBwrap})
	if err != nil {
		b.Logf("bubblewrap is not usable here (%v): measuring unsandboxed kernels", err)
		sb = NoSandbox()
	}
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	cfg := KernelConfig{Python: py, Sandbox: sb}
	ctx := context.Background()
	n := 0
	fresh := func() time.Duration {
		n++
		root := filepath.Join(dir, "fresh-"+strconv.Itoa(n))
		for _, d := range []string{InputDir, WorkDir, OutDir} {
			if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		start := time.Now()
		c := cfg
		c.Root = root
		op, err := NewKernelOperator(c)
		if err != nil {
			b.Fatal(err)
		}
		defer op.Close()
		if res, err := op.RunPython(ctx, poolBenchCell, RunOptions{}); err != nil || !res.OK() {
			b.Fatalf("fresh first cell: %v %+v", err, res)
		}
		return time.Since(start)
	}
	fresh() // the machine's matplotlib font list is built once, not timed
	pool, err := NewKernelPool(KernelPoolConfig{Dir: filepath.Join(dir, "pool"), Size: 1, Kernel: cfg})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	pooled := func() time.Duration {
		if err := pool.WaitReady(ctx, 1); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		op, ok := pool.Take()
		if !ok {
			b.Fatal("no kernel ready in a full pool")
		}
		defer op.Close()
		if res, err := op.RunPython(ctx, poolBenchCell, RunOptions{}); err != nil || !res.OK() {
			b.Fatalf("pooled first cell: %v %+v", err, res)
		}
		return time.Since(start)
	}
	var freshSum, pooledSum time.Duration
	b.ResetTimer()
	for range b.N {
		// The pool's refill after the last take must not share the CPU
		// with the fresh kernel's start.
		if err := pool.WaitReady(ctx, 1); err != nil {
			b.Fatal(err)
		}
		freshSum += fresh()
		pooledSum += pooled()
	}
	b.StopTimer()
	per := func(d time.Duration) float64 { return d.Seconds() / float64(b.N) }
	b.ReportMetric(per(freshSum), "fresh-first-cell-s")
	b.ReportMetric(per(pooledSum), "pooled-first-cell-s")
	b.ReportMetric(float64(freshSum)/float64(max(pooledSum, 1)), "speedup")
	b.ReportMetric(0, "ns/op")
	b.Logf("sandbox %s; first cell %q", sb.Name(), poolBenchCell)
}
