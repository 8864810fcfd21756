package agents

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/session"
)

// poolProbeCode writes where the cell ran and when its interpreter
// started (clock ticks since boot, the same in every pid namespace).
const poolProbeCode = "import os\n" +
	"start = open('/proc/self/stat').read().rsplit(')', 1)[1].split()[19]\n" +
	"open('out/probe.txt', 'w').write(os.getcwd() + '\\n' + start)\n" +
	"print('probed')"

// uptimeTicks is now in clock ticks since boot (USER_HZ, 100 on Linux).
func uptimeTicks(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		t.Skipf("no /proc/uptime: %v", err)
	}
	s, err := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	if err != nil {
		t.Fatal(err)
	}
	return int64(s * 100)
}

// TestKernelPoolGivesANewSessionAStartedKernel: with Config.KernelPool, a
// new session's first cell runs in a kernel that was started before the
// run began, in the slot its workspace now is (<root>/<id> links there);
// with a pool of 0 the session makes its own kernel in its own directory,
// as before.
func TestKernelPoolGivesANewSessionAStartedKernel(t *testing.T) {
	for _, size := range []int{1, 0} {
		t.Run("size="+strconv.Itoa(size), func(t *testing.T) {
			script := scripted.New(
				call(toolCreatePlan, steps("Probe the kernel")),
				call("python", map[string]string{"code": poolProbeCode}),
				echoToolResult("Done. Output:\n"),
				call(toolSubmitResult, map[string]any{"answer": "Probed.", "findings": []string{"probed"}}),
				text("# Probe\n\nProbed [step 1].\n"),
			)
			var root string
			s := httpSift(t, script, func(c *Config) {
				root = c.SessionsRoot
				pool, err := NewKernelPool(context.Background(), *c, size, nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { pool.Close() })
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				if err := pool.WaitReady(ctx, 1); err != nil {
					t.Fatal(err)
				}
				c.KernelPool = pool
			})
			before := uptimeTicks(t)
			evs := collect(t, s, Request{Mode: ModePlan, Question: "Probe the kernel"})
			if done := evs[len(evs)-1]; done.Err != nil {
				t.Fatalf("run failed: %v", done.Err)
			}
			id := kinds(evs, event.Session)[0].Text
			ws, err := session.Open(root, id)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(ws.Root, "out", "probe.txt"))
			if err != nil {
				t.Fatalf("the cell's file is not in the session's workspace: %v", err)
			}
			cwd, start, _ := strings.Cut(string(b), "\n")
			started, _ := strconv.ParseInt(start, 10, 64)
			if cwd != ws.Root {
				t.Errorf("the cell ran in %s; want the session's workspace %s", cwd, ws.Root)
			}
			info, err := os.Lstat(filepath.Join(root, id))
			if err != nil {
				t.Fatal(err)
			}
			linked := info.Mode()&os.ModeSymlink != 0
			switch {
			case size > 0 && (!linked || filepath.Dir(ws.Root) != filepath.Join(root, KernelPoolDir)):
				t.Errorf("workspace %s (link %v): want the pool's slot, linked from %s", ws.Root, linked, id)
			case size > 0 && started >= before:
				t.Errorf("the kernel started at tick %d, after the run began (%d): the pooled kernel was not used", started, before)
			case size == 0 && (linked || started < before):
				t.Errorf("without a pool: workspace linked %v, kernel started at %d (run began %d); want a kernel of its own", linked, started, before)
			}
		})
	}
}
