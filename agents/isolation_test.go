package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/operator"
)

// scanWritable is a cell that lists every directory it can write outside
// its own workspace and its private /tmp and /dev/shm (anything there
// would be shared with other sessions), and says where matplotlib keeps
// its configuration and caches.
const scanWritable = `import os, matplotlib
import pandas as pd
own = os.getcwd()
writable = []
for d, subdirs, files in os.walk("/"):
    if d in ("/proc", "/sys", "/dev", "/tmp") or d == own or d.startswith(own + "/"):
        subdirs[:] = []
        continue
    if os.access(d, os.W_OK):
        writable.append(d)
with open("out/scan.txt", "w") as f:
    f.write("writable outside: %r\n" % writable)
    f.write("configdir: %s\n" % matplotlib.get_configdir())
    f.write("cachedir: %s\n" % matplotlib.get_cachedir())
df = pd.read_csv("input/sales.csv")
print(df.groupby("region")["revenue"].sum().to_string())
`

func TestSessionsShareNoWritableDirectory(t *testing.T) {
	if _, err := operator.NewSandbox(operator.SandboxConfig{Mode: operator.SandboxBwrap}); err != nil {
		t.Skipf("skipping: the bubblewrap sandbox is unavailable here: %v", err)
	}
	script := scripted.New(
		call(toolCreatePlan, steps("Total revenue by region")),
		call("python", map[string]string{"code": scanWritable}),
		echoToolResult("Totals:\n"),
		call(toolSubmitResult, map[string]any{"answer": "North sells most: 150."}),
		text("# Revenue\n\nNorth sells most with 150 [step 1]."),
	)
	s := httpSift(t, script, func(c *Config) { c.Sandbox = operator.SandboxConfig{Mode: operator.SandboxBwrap} })
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	done := evs[len(evs)-1]
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	scan := readWS(t, done, "out/scan.txt")
	if !strings.Contains(scan, "writable outside: []") {
		t.Errorf("sandboxed code can write directories outside its session, which other sessions share:\n%s", scan)
	}
	root, err := filepath.EvalSymlinks(done.Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"configdir: ", "cachedir: "} {
		if !strings.Contains(scan, key+root+string(os.PathSeparator)) {
			t.Errorf("matplotlib's %s is not inside the session %s:\n%s", strings.TrimSuffix(key, ": "), root, scan)
		}
	}
}
