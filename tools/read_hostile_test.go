package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReadFileSwapRace: code keeps swapping out/d between a directory and
// a link to a host directory while read_file is asked thousands of times
// for out/d/a.txt: the host file's bytes never come back.
func TestReadFileSwapRace(t *testing.T) {
	op, outside := newOp(t, "", nil)
	out := filepath.Join(op.Root(), "out")
	if err := os.MkdirAll(filepath.Join(out, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "d", "a.txt"), []byte("fine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "a.txt"), []byte("CANARY-HOST\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(out, "alt")); err != nil {
		t.Fatal(err)
	}
	stopSwapping := swapLoop(filepath.Join(out, "d"), filepath.Join(out, "alt"))
	leaked, read := 0, 0
	for range swapRounds {
		got, err := readFile(context.Background(), op, ReadFileArgs{Path: "out/d/a.txt"})
		if strings.Contains(got, "CANARY") || err != nil && strings.Contains(err.Error(), "CANARY") {
			leaked++
		}
		if err == nil {
			read++
		}
	}
	stopSwapping()
	if leaked > 0 {
		t.Errorf("read_file returned the host file %d times of %d (%d reads succeeded)", leaked, swapRounds, read)
	}
}

// swapRounds is how often the swap race asks: the check-then-open code
// this replaced served the host file about once in 500.
const swapRounds = 3000

// TestReadFileRefusesFIFO: a FIFO planted where a file was is refused at
// once, naming it, rather than read (or waited on).
func TestReadFileRefusesFIFO(t *testing.T) {
	op, _ := newOp(t, "", nil)
	out := filepath.Join(op.Root(), "out")
	if err := syscall.Mkfifo(filepath.Join(out, "pipe.csv"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readFile(context.Background(), op, ReadFileArgs{Path: "out/pipe.csv"}); err == nil || !strings.Contains(err.Error(), "FIFO") {
		t.Errorf("read_file of a FIFO = %v, want a refusal naming the FIFO", err)
	}
}

// TestPreviewSwapRace: preview reads a session file from the descriptor
// the operator opened beneath the workspace, so code swapping out/d for a
// link to a host directory never gets the host file previewed (preview
// used to stat and open the path by name, following the link).
func TestPreviewSwapRace(t *testing.T) {
	op, outside := newOp(t, "", nil)
	out := filepath.Join(op.Root(), "out")
	if err := os.MkdirAll(filepath.Join(out, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "d", "a.csv"), []byte("x,y\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "a.csv"), []byte("secret,CANARY\nCANARY-HOST,1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A plain link first: refused, not followed.
	if err := os.Symlink(filepath.Join(outside, "a.csv"), filepath.Join(out, "link.csv")); err != nil {
		t.Fatal(err)
	}
	if got, err := previewFile(context.Background(), op, PreviewArgs{Path: "out/link.csv"}); err == nil || strings.Contains(got, "CANARY") {
		t.Fatalf("preview of a link to a host file = %q, %v; want a refusal", got, err)
	}
	if err := os.Symlink(outside, filepath.Join(out, "alt")); err != nil {
		t.Fatal(err)
	}
	stopSwapping := swapLoop(filepath.Join(out, "d"), filepath.Join(out, "alt"))
	leaked := 0
	for range swapRounds / 3 {
		got, err := previewFile(context.Background(), op, PreviewArgs{Path: "out/d/a.csv"})
		if strings.Contains(got, "CANARY") || err != nil && strings.Contains(err.Error(), "CANARY") {
			leaked++
		}
	}
	stopSwapping()
	if leaked > 0 {
		t.Errorf("preview showed the host file %d times of %d", leaked, swapRounds/3)
	}
}

// TestPreviewRefusesFIFO: a FIFO planted as a data file is refused at once.
func TestPreviewRefusesFIFO(t *testing.T) {
	op, _ := newOp(t, "", nil)
	if err := syscall.Mkfifo(filepath.Join(op.Root(), "out", "pipe.csv"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := previewFile(context.Background(), op, PreviewArgs{Path: "out/pipe.csv"}); err == nil {
		t.Error("preview of a FIFO succeeded; want a refusal")
	}
}

// swapLoop keeps exchanging a and b (a directory and a link to a host
// directory), as hostile code would, until the returned stop is called.
func swapLoop(a, b string) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			_ = unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
		}
	}()
	return func() { close(done); wg.Wait() }
}
