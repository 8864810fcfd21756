package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// zombie starts a child process that exits at once and leaves it unreaped
// (a zombie) until the test ends; it returns the child as an Owner.
func zombie(t *testing.T) *Owner {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() { _ = cmd.Wait() })
	start, err := processStart(pid)
	if err != nil {
		t.Skipf("no /proc here to read process states: %v", err)
	}
	// Wait for the child to exit without reaping it (WNOWAIT).
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
		t.Fatalf("wait for the child to exit: %v", err)
	}
	host, _ := os.Hostname()
	return &Owner{Host: host, PID: pid, Start: start}
}

// TestOwnerGoneZombie: a process that exited but is not reaped yet holds
// its pid and answers signal 0, yet runs nothing: it is gone, and a
// session it left running is stopped.
func TestOwnerGoneZombie(t *testing.T) {
	z := zombie(t)
	if !z.Gone() {
		t.Errorf("a zombie owner (pid %d) counts as alive", z.PID)
	}
	if !(Meta{Status: StatusRunning, Owner: z}).OwnerGone() {
		t.Error("a session left running by a zombie is not seen as stopped")
	}
}

// TestClaimsTakeOverEndedHolder checks every backend: a claim whose
// holder process ended (exited, or a zombie) is taken at once, long before
// it would expire, by exactly one of those who try at once; a claim held
// by a live process is refused with who holds it and since when.
func TestClaimsTakeOverEndedHolder(t *testing.T) {
	for _, bc := range testBackends(t) {
		t.Run(bc.name, func(t *testing.T) {
			if bc.skip != nil {
				bc.skip(t)
			}
			c := bc.open(t).Claims
			ctx := context.Background()
			const ttl = time.Hour
			self := ThisProcess()

			live := NewID()
			if err := c.Acquire(ctx, live, Holder{ID: "runner", Process: self, What: "sift run"}, ttl); err != nil {
				t.Fatal(err)
			}
			err := c.Acquire(ctx, live, Holder{ID: "resumer", Process: self, What: "sift resume"}, ttl)
			var ce *ClaimedError
			if !errors.As(err, &ce) || !errors.Is(err, ErrClaimed) {
				t.Fatalf("a second holder of a live claim: %v, want a ClaimedError", err)
			}
			if ce.Holder.ID != "runner" || ce.Holder.What != "sift run" || ce.Holder.Process == nil || ce.Holder.Process.PID != self.PID || ce.Holder.Since.IsZero() {
				t.Errorf("the refusal names %+v, want the holder sift run, its pid and since when", ce.Holder)
			}
			for _, want := range []string{"sift run", fmt.Sprintf("pid %d on %s", self.PID, self.Host), "since "} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the refusal %q does not say %q", err, want)
				}
			}
			// Renewing by Acquire keeps when the claim was taken.
			since := ce.Holder.Since
			if err := c.Acquire(ctx, live, Holder{ID: "runner", Process: self, What: "sift run"}, ttl); err != nil {
				t.Fatal(err)
			}
			err = c.Acquire(ctx, live, Holder{ID: "other"}, ttl)
			if !errors.As(err, &ce) || !ce.Holder.Since.Equal(since) {
				t.Errorf("after a renewal the claim is held since %v, want %v (%v)", ce.Holder.Since, since, err)
			}

			cmd := exec.Command(os.Args[0], "-test.run=^$")
			if err := cmd.Run(); err != nil {
				t.Fatal(err)
			}
			ended := &Owner{Host: self.Host, PID: cmd.ProcessState.Pid()}
			for name, dead := range map[string]*Owner{"exited": ended, "zombie": zombie(t)} {
				id := NewID()
				if err := c.Acquire(ctx, id, Holder{ID: "dead-" + name, Process: dead, What: "sift resume"}, ttl); err != nil {
					t.Fatal(err)
				}
				if _, err := c.RequestPause(ctx, id); err != nil {
					t.Fatal(err)
				}
				var wg sync.WaitGroup
				wins := make(chan string, 8)
				for i := range 8 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						owner := fmt.Sprintf("taker%d", i)
						if err := c.Acquire(ctx, id, Holder{ID: owner, Process: self}, ttl); err == nil {
							wins <- owner
						} else if !errors.Is(err, ErrClaimed) {
							t.Errorf("%s: %v", owner, err)
						}
					}()
				}
				wg.Wait()
				close(wins)
				if n := len(wins); n != 1 {
					t.Fatalf("%s holder: %d took its claim over, want exactly 1", name, n)
				}
				winner := <-wins
				if pause, err := c.Renew(ctx, id, winner, ttl); err != nil || pause {
					t.Errorf("%s holder: the new holder renews: pause %v, %v; want its own fresh claim", name, pause, err)
				}
				if _, err := c.Renew(ctx, id, "dead-"+name, ttl); !errors.Is(err, ErrClaimLost) {
					t.Errorf("%s holder: the dead holder still renews: %v", name, err)
				}
			}
		})
	}
}

// TestFileClaimsLeaveNoTrace: once the last claim is released, the file
// backend's claims directory is gone, so a sessions directory nobody runs
// anything in holds sessions only.
func TestFileClaimsLeaveNoTrace(t *testing.T) {
	root := t.TempDir()
	b, err := OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, h1, err := HoldClaim(ctx, b.Claims, NewID(), "sift run", 0)
	if err != nil {
		t.Fatal(err)
	}
	_, h2, err := HoldClaim(ctx, b.Claims, NewID(), "sift resume", 0)
	if err != nil {
		t.Fatal(err)
	}
	h1.Release()
	if _, err := os.Stat(filepath.Join(root, ".claims")); err != nil {
		t.Errorf("the claims directory went while a claim is held: %v", err)
	}
	h2.Release()
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("after the last release the sessions directory holds %v, want nothing", entries)
	}
}

// TestFileClaimsExclusiveWhileTidying: processes taking and releasing one
// claim over and over, while its directory comes and goes, never hold it
// two at a time.
func TestFileClaimsExclusiveWhileTidying(t *testing.T) {
	b, err := OpenFileBackend(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	id := NewID()
	var active, taken atomic.Int32
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			owner := fmt.Sprintf("g%d", g)
			for range 40 {
				err := b.Claims.Acquire(ctx, id, Holder{ID: owner}, time.Hour)
				if errors.Is(err, ErrClaimed) {
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				taken.Add(1)
				if n := active.Add(1); n != 1 {
					t.Errorf("%d holders of one claim at once", n)
				}
				active.Add(-1)
				if err := b.Claims.Release(ctx, id, owner); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if taken.Load() == 0 {
		t.Error("nobody ever took the claim")
	}
}

// TestHoldClaimStopsWhenTakenOver: a holder whose claim another took over
// (it stalled past the claim's time) has its context ended with
// ErrClaimLost, so its run stops rather than run twice; a holder whose
// claim merely expired takes it again.
func TestHoldClaimStopsWhenTakenOver(t *testing.T) {
	b, err := OpenFileBackend(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id := NewID()
	ctx, hold, err := HoldClaim(context.Background(), b.Claims, id, "sift resume", 30*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Release()
	// As if it expired unrenewed and another process took it.
	if err := b.Claims.Release(context.Background(), id, hold.owner); err != nil {
		t.Fatal(err)
	}
	if err := b.Claims.Acquire(context.Background(), id, Holder{ID: "thief", Process: ThisProcess()}, time.Hour); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
		t.Fatal("the holder's context did not end when its claim was taken over")
	}
	if cause := context.Cause(ctx); !errors.Is(cause, ErrClaimLost) || !errors.Is(cause, ErrClaimed) {
		t.Errorf("cause %v, want ErrClaimLost and who holds it now", cause)
	}
}

// BenchmarkHoldClaim measures what taking and giving up a session's claim
// costs a sift run, resume or chat turn, per backend on this machine.
func BenchmarkHoldClaim(b *testing.B) {
	for _, name := range []string{"file", "sqlite"} {
		b.Run(name, func(b *testing.B) {
			var be *Backend
			var err error
			if name == "file" {
				be, err = OpenFileBackend(b.TempDir())
			} else {
				be, err = OpenSQLiteBackend(context.Background(), SQLiteConfig{Path: filepath.Join(b.TempDir(), "sift.db")})
			}
			if err != nil {
				b.Fatal(err)
			}
			id := NewID()
			for b.Loop() {
				_, h, err := HoldClaim(context.Background(), be.Claims, id, "bench", 0)
				if err != nil {
					b.Fatal(err)
				}
				h.Release()
			}
		})
	}
}

// TestFileClaimsMkdirRacingTidy: an acquisition whose mkdir of the claims
// directory loses to another process's, which then tidies the directory
// away before the mkdir can see it, takes the claim instead of failing
// with "file exists".
func TestFileClaimsMkdirRacingTidy(t *testing.T) {
	root := t.TempDir()
	b, err := OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	lost := false
	mkdirAll = func(path string, perm os.FileMode) error {
		if !lost {
			lost = true
			// What MkdirAll answers when its mkdir met a directory that
			// was removed before its second look.
			return &os.PathError{Op: "mkdir", Path: path, Err: unix.EEXIST}
		}
		return os.MkdirAll(path, perm)
	}
	t.Cleanup(func() { mkdirAll = os.MkdirAll })
	if err := b.Claims.Acquire(context.Background(), NewID(), Holder{ID: "a"}, time.Hour); err != nil {
		t.Fatalf("acquire after losing the mkdir race: %v", err)
	}
	if !lost {
		t.Fatal("the acquisition never made the claims directory")
	}
}
