package operator

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The host side of the hostile suite: code in the sandbox plants links,
// FIFOs and swapped directories where Sift's own (often root) process
// writes cell files and reads captured output. Canaries are root-only
// files outside the workspace; Sift must never write them, read them back
// as output, or hang.

// hostCanary makes a root-only directory outside the workspace holding a
// root-only secret file; it returns both.
func hostCanary(t *testing.T) (dir, secret string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "root-only")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	secret = filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secret, []byte("CANARY-ROOT-ONLY-4471"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, secret
}

// nextCellFile is Python that computes the path of the next cell's file
// (the running cell's own is its __file__).
const nextCellFile = `import os, re
_n = int(re.search(r"cell-(\d+)\.py$", __file__).group(1))
nxt = "work/.cells/cell-%04d" % (_n + 1)
mine = "work/.cells/cell-%04d" % _n
`

// assertNoCanary fails when the secret shows in a result or cells.jsonl,
// or the canary directory holds anything but the secret, or the secret
// changed.
func assertNoCanary(t *testing.T, k *Kernel, dir, secret string, results ...*RunResult) {
	t.Helper()
	for _, res := range results {
		if res == nil {
			continue
		}
		for _, s := range []string{res.Stdout, res.Stderr, res.Value, res.Error} {
			if strings.Contains(s, "CANARY") {
				t.Errorf("cell %d's result carries the host secret: %q", res.Cell, s)
			}
		}
	}
	if b, _ := os.ReadFile(filepath.Join(k.Root(), CellsLogFile)); strings.Contains(string(b), "CANARY") {
		t.Errorf("cells.jsonl carries the host secret")
	}
	if b, _ := os.ReadFile(secret); string(b) != "CANARY-ROOT-ONLY-4471" {
		t.Errorf("the host secret was overwritten: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("files appeared in the root-only directory: %v", names)
	}
}

func TestHostileHostSide(t *testing.T) {
	cases := []struct {
		name  string
		plant func(dir, secret string) string // the first cell: plants something
		dies  bool                            // the first cell kills its kernel
	}{
		{"next_cell_file_is_a_link", func(_, secret string) string {
			return nextCellFile + fmt.Sprintf("os.symlink(%s, nxt + '.py')\n", pyQuote(secret))
		}, false},
		{"cells_dir_swapped_for_a_link", func(dir, _ string) string {
			return fmt.Sprintf("import os\nos.rename('work/.cells', 'work/cells-old')\nos.symlink(%s, 'work/.cells')\n", pyQuote(dir))
		}, false},
		{"capture_file_is_a_link", func(_, secret string) string {
			return nextCellFile + fmt.Sprintf("print('before')\nos.unlink(mine + '.stdout.txt')\nos.symlink(%s, mine + '.stdout.txt')\n", pyQuote(secret))
		}, false},
		// With no reply, the host reads the capture file itself.
		{"capture_file_is_a_link_and_the_kernel_dies", func(_, secret string) string {
			return nextCellFile + fmt.Sprintf("print('before')\nos.unlink(mine + '.stdout.txt')\nos.symlink(%s, mine + '.stdout.txt')\nimport signal\nos.kill(os.getpid(), signal.SIGKILL)\n", pyQuote(secret))
		}, true},
		{"capture_file_is_a_fifo_and_the_kernel_dies", func(_, _ string) string {
			return nextCellFile + "os.unlink(mine + '.stdout.txt')\nos.mkfifo(mine + '.stdout.txt')\nimport signal\nos.kill(os.getpid(), signal.SIGKILL)\n"
		}, true},
		{"next_cell_file_is_a_fifo", func(_, _ string) string {
			return nextCellFile + "os.mkfifo(nxt + '.py')\n"
		}, false},
		{"capture_file_is_a_fifo", func(_, _ string) string {
			return nextCellFile + "os.unlink(mine + '.stdout.txt')\nos.mkfifo(mine + '.stdout.txt')\nos.mkfifo(nxt + '.stdout.txt')\n"
		}, false},
		{"capture_file_is_a_hard_link", func(_, _ string) string {
			return nextCellFile + "open('work/other.txt', 'w').write('OTHER-FILE')\nos.unlink(mine + '.stdout.txt')\nos.link('work/other.txt', mine + '.stdout.txt')\n"
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := newBwrapKernel(t, nil)
			dir, secret := hostCanary(t)
			ctx := context.Background()
			first, err := k.Run(ctx, tc.plant(dir, secret), RunOptions{})
			if err != nil {
				t.Fatalf("the planting cell could not run: %v", err)
			}
			if tc.dies != strings.Contains(first.Error, "the kernel died") {
				t.Fatalf("the planting cell ended with %q", first.Error)
			}
			// The next cells must run, in full, with nothing of the host.
			second, err := k.Run(ctx, "y = 41 + 1\nprint('second', y)\ny", RunOptions{})
			if err != nil {
				t.Fatalf("the next cell could not run: %v", err)
			}
			if second.Value != "42" || !strings.Contains(second.Stdout, "second 42") {
				t.Errorf("the next cell = %+v, want value 42 and its output", second)
			}
			third, _ := k.Run(ctx, "print('third')", RunOptions{})
			assertNoCanary(t, k, dir, secret, first, second, third)
			if strings.Contains(first.Stdout, "OTHER-FILE") {
				t.Errorf("a hard-linked capture file was read as output: %q", first.Stdout)
			}
		})
	}
}
