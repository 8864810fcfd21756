package session

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// checkpointWriterEnv, when set to a directory, turns the test binary into
// the child of TestFileStoreSurvivesKill: it writes checkpoints into a file
// store there until it is killed.
const checkpointWriterEnv = "SIFT_TEST_CHECKPOINT_WRITER"

// killTestID is the checkpoint id the killed writer keeps replacing.
const killTestID = "killed-session"

// sealedPayload returns a checkpoint of size bytes that carries its
// sequence number first and the SHA-256 of everything before it last, so
// a reader can tell a whole checkpoint from a torn one.
func sealedPayload(seq uint64, size int) []byte {
	body := make([]byte, size-sha256.Size)
	binary.BigEndian.PutUint64(body, seq)
	// Cheap, seq-dependent filler: a torn write of one checkpoint over
	// another shows up as a wrong checksum.
	r := rand.New(rand.NewPCG(seq, uint64(size)))
	for i := 8; i+8 <= len(body); i += 8 {
		binary.LittleEndian.PutUint64(body[i:], r.Uint64())
	}
	sum := sha256.Sum256(body)
	return append(body, sum[:]...)
}

// openSealed checks a payload made by sealedPayload and returns its
// sequence number.
func openSealed(data []byte) (uint64, error) {
	if len(data) < 8+sha256.Size {
		return 0, fmt.Errorf("only %d bytes", len(data))
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if want := sha256.Sum256(body); !bytes.Equal(sum, want[:]) {
		return 0, fmt.Errorf("checksum mismatch over %d bytes: a torn checkpoint", len(data))
	}
	return binary.BigEndian.Uint64(body), nil
}

// runCheckpointWriter is the child process: it continues the sequence
// found in the store and writes checkpoints of 1 to 8 MiB forever,
// printing "begin N" before and "done N" after each write.
func runCheckpointWriter(dir string) {
	b, err := OpenFileBackend(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx := context.Background()
	seq := uint64(0)
	if data, ok, err := b.Checkpoints.Get(ctx, killTestID); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	} else if ok {
		if seq, err = openSealed(data); err != nil {
			fmt.Fprintln(os.Stderr, "found a torn checkpoint at start:", err)
			os.Exit(2)
		}
	}
	for {
		seq++
		data := sealedPayload(seq, (1+int(seq%8))<<20)
		fmt.Printf("begin %d\n", seq)
		if err := b.Checkpoints.Set(ctx, killTestID, data); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Printf("done %d\n", seq)
	}
}

// TestFileStoreSurvivesKill kills a process writing checkpoints at random
// moments, several times over, and checks after each kill that the store
// holds a whole checkpoint, no older than the last one reported written.
func TestFileStoreSurvivesKill(t *testing.T) {
	if dir := os.Getenv(checkpointWriterEnv); dir != "" {
		runCheckpointWriter(dir)
		return
	}
	if testing.Short() {
		t.Skip("kills child processes; skipped in -short mode")
	}
	dir := t.TempDir()
	const rounds = 8
	var last uint64
	torn := 0
	for round := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFileStoreSurvivesKill$")
		cmd.Env = append(os.Environ(), checkpointWriterEnv+"="+dir)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill while the target-th write of this round is under way,
		// after a random delay so the moment varies within the write.
		target := 1 + rand.IntN(4)
		jitter := time.Duration(rand.IntN(4000)) * time.Microsecond
		begun, done := 0, uint64(0)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			verb, num, _ := strings.Cut(sc.Text(), " ")
			n, _ := strconv.ParseUint(num, 10, 64)
			switch verb {
			case "done":
				done = n
			case "begin":
				if begun++; begun == target {
					// Not synchronisation: a random pause picks the
					// moment of the kill.
					time.Sleep(jitter)
					_ = cmd.Process.Kill()
				}
			}
			if begun >= target {
				break
			}
		}
		_ = cmd.Wait()
		if begun < target {
			t.Fatalf("round %d: the writer stopped before it was killed:\n%s", round, stderr.String())
		}
		if leftovers, _ := filepath.Glob(filepath.Join(dir, killTestID, partialPrefix+"*")); len(leftovers) > 0 {
			torn++
			for _, f := range leftovers {
				_ = os.Remove(f)
			}
		}

		b, err := OpenFileBackend(dir)
		if err != nil {
			t.Fatal(err)
		}
		data, ok, err := b.Checkpoints.Get(context.Background(), killTestID)
		if err != nil || !ok {
			if last == 0 && done == 0 && err == nil {
				// Killed during the first write of a round while no
				// earlier round left a checkpoint: nothing to read yet.
				continue
			}
			t.Fatalf("round %d: Get = ok %v, err %v; want a checkpoint", round, ok, err)
		}
		seq, err := openSealed(data)
		if err != nil {
			t.Fatalf("round %d: after kill -9 the checkpoint is damaged: %v", round, err)
		}
		if seq < done || seq < last {
			t.Fatalf("round %d: checkpoint %d is older than the last one written (%d, earlier rounds %d)", round, seq, done, last)
		}
		last = seq
	}
	t.Logf("%d of %d kills landed mid-write (a temporary file was left); every checkpoint read back whole", torn, rounds)
}

func TestFileStoreLayout(t *testing.T) {
	root := t.TempDir()
	b, err := OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	mustSet(t, b.Checkpoints, "s1", []byte("state"))
	mustPut(t, b.Sessions, t0, Meta{ID: "s1", Status: StatusRunning})
	for _, f := range []struct {
		name string
		mode fs.FileMode
	}{{CheckpointFile, 0o600}, {MetaFile, 0o600}} {
		info, err := os.Stat(filepath.Join(root, "s1", f.name))
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if got := info.Mode().Perm(); got != f.mode {
			t.Errorf("%s has mode %v, want %v", f.name, got, f.mode)
		}
	}
	if diff := cmp.Diff([]string{CheckpointFile, MetaFile}, dirNames(t, filepath.Join(root, "s1"))); diff != "" {
		t.Errorf("session directory (-want +got), no temporary files expected:\n%s", diff)
	}
	got, err := b.Sessions.Get(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "s1"); got.Workspace != want {
		t.Errorf("Workspace = %q, want %q (filled in by Put)", got.Workspace, want)
	}
}

// countdownCtx is a context that reports itself cancelled after its Err
// method has been called a given number of times: a way to cancel in the
// middle of a write.
type countdownCtx struct {
	context.Context
	left atomic.Int64
}

func (c *countdownCtx) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func TestFileStoreCancelMidWrite(t *testing.T) {
	root := t.TempDir()
	b, err := OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	old := []byte("the previous checkpoint")
	mustSet(t, b.Checkpoints, "s1", old)
	for _, calls := range []int64{1, 2, 4, 7} {
		ctx := &countdownCtx{Context: context.Background()}
		ctx.left.Store(calls)
		err := b.Checkpoints.Set(ctx, "s1", randomBytes(t, 6*atomicChunk))
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Set cancelled after %d checks = %v, want context.Canceled", calls, err)
		}
		wantCheckpoint(t, b.Checkpoints, "s1", old)
		if diff := cmp.Diff([]string{CheckpointFile}, dirNames(t, filepath.Join(root, "s1"))); diff != "" {
			t.Errorf("after a cancelled Set (-want +got), no temporary file expected:\n%s", diff)
		}
	}
}

func TestOpenFileBackendOnAFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "not-a-dir")
	writeFile(t, f, "x")
	if _, err := OpenFileBackend(f); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("OpenFileBackend(file) = %v, want an error saying it is not a directory", err)
	}
}

func TestOpenFileBackendDefaultRoot(t *testing.T) {
	home := t.TempDir()
	t.Setenv("SIFT_HOME", home)
	b, err := OpenFileBackend("")
	if err != nil {
		t.Fatal(err)
	}
	if want := "file:" + filepath.Join(home, "sessions"); b.URL != want {
		t.Errorf("URL = %q, want %q", b.URL, want)
	}
}
