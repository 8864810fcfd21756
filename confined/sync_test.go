package confined

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSyncLaterIsFlushedBeforeAnyLaterSync(t *testing.T) {
	dir := t.TempDir()
	owedFile := filepath.Join(dir, "owed")
	if err := os.WriteFile(owedFile, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	release, flushing := make(chan struct{}), make(chan string, 4)
	flushHook = func(p string) { flushing <- p; <-release }
	t.Cleanup(func() { flushHook = nil })

	before := Syncs()
	SyncLater(owedFile, dir)
	if p := <-flushing; p != owedFile {
		t.Fatalf("first put-off flush is %s, want %s", p, owedFile)
	}
	// The background flush is held: a flush a caller waits for must wait
	// for it, or a durable write could reach the disk without the writes
	// put off before it.
	later := make(chan struct{})
	go func() {
		SyncDir(dir)
		close(later)
	}()
	select {
	case <-later:
		t.Fatal("SyncDir returned while a flush put off before it had not been made")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if p := <-flushing; p != dir {
		t.Fatalf("second put-off flush is %s, want %s", p, dir)
	}
	<-later
	Settle()
	if got := Syncs() - before; got != 3 {
		t.Fatalf("Syncs grew by %d, want 3 (two put off, one waited for)", got)
	}
}

func TestSettleReturnsAtOnceWithNothingOwed(t *testing.T) {
	done := make(chan struct{})
	go func() { Settle(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Settle waited with nothing owed")
	}
}
