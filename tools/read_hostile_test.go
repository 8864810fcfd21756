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
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			_ = unix.Renameat2(unix.AT_FDCWD, filepath.Join(out, "d"), unix.AT_FDCWD, filepath.Join(out, "alt"), unix.RENAME_EXCHANGE)
		}
	}()
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
	close(stop)
	wg.Wait()
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
