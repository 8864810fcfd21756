package session

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
)

// backendCase opens a fresh, empty backend of one kind for a test.
type backendCase struct {
	name string
	// skip, when set, skips the backend's tests when what it needs is
	// missing.
	skip func(t testing.TB)
	open func(t *testing.T) *Backend
}

// testBackends returns the three backends. The Redis one starts a
// redis-server for the calling test the first time it is opened (each
// open gets its own key prefix), and skips when redis-server is missing.
func testBackends(parent *testing.T) []backendCase {
	var (
		once sync.Once
		addr string
		n    atomic.Int64
	)
	return []backendCase{
		{"file", nil, func(t *testing.T) *Backend {
			b, err := OpenFileBackend(t.TempDir())
			if err != nil {
				t.Fatalf("OpenFileBackend: %v", err)
			}
			return b
		}},
		{"sqlite", nil, func(t *testing.T) *Backend {
			b, err := OpenSQLiteBackend(context.Background(), SQLiteConfig{Path: filepath.Join(t.TempDir(), "sift.db")})
			if err != nil {
				t.Fatalf("OpenSQLiteBackend: %v", err)
			}
			t.Cleanup(func() { _ = b.Close() })
			return b
		}},
		{"redis", skipWithoutRedis, func(t *testing.T) *Backend {
			// The server lives as long as the test that called
			// testBackends, so its subtests share it.
			once.Do(func() { addr = startRedis(parent, t) })
			if addr == "" {
				t.Fatal("the Redis server failed to start in an earlier subtest")
			}
			b, err := OpenRedisBackend(context.Background(), RedisConfig{
				URL:    "redis://" + addr + "/0",
				Prefix: fmt.Sprintf("test%d:", n.Add(1)),
			})
			if err != nil {
				t.Fatalf("OpenRedisBackend: %v", err)
			}
			t.Cleanup(func() { _ = b.Close() })
			return b
		}},
	}
}

// randomBytes returns n random bytes.
func randomBytes(t testing.TB, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

// mustSet stores a checkpoint or fails the test.
func mustSet(t *testing.T, s Store, id string, data []byte) {
	t.Helper()
	if err := s.Set(context.Background(), id, data); err != nil {
		t.Fatalf("Set(%s): %v", id, err)
	}
}

// wantCheckpoint fails the test unless s holds want under id.
func wantCheckpoint(t *testing.T, s Store, id string, want []byte) {
	t.Helper()
	got, ok, err := s.Get(context.Background(), id)
	if err != nil || !ok {
		t.Fatalf("Get(%s) = ok %v, err %v; want the checkpoint", id, ok, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Get(%s) returned %d bytes that differ from the %d stored", id, len(got), len(want))
	}
}

// wantNoCheckpoint fails the test unless s holds nothing under id.
func wantNoCheckpoint(t *testing.T, s Store, id string) {
	t.Helper()
	got, ok, err := s.Get(context.Background(), id)
	if err != nil || ok || got != nil {
		t.Fatalf("Get(%s) = %d bytes, ok %v, err %v; want nothing, not ok, no error", id, len(got), ok, err)
	}
}

// TestStoreConformance runs the same checks on every checkpoint store.
func TestStoreConformance(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, s Store)
	}{
		{"RoundTrip", func(t *testing.T, s Store) {
			data := []byte("gob bytes \x00\x01\xff")
			mustSet(t, s, "20261122-020655-ab12cd", data)
			wantCheckpoint(t, s, "20261122-020655-ab12cd", data)
		}},
		{"Empty", func(t *testing.T, s Store) {
			mustSet(t, s, "s1", nil)
			got, ok, err := s.Get(context.Background(), "s1")
			if err != nil || !ok || len(got) != 0 {
				t.Fatalf("Get = %q, ok %v, err %v; want an empty checkpoint", got, ok, err)
			}
		}},
		{"Overwrite", func(t *testing.T, s Store) {
			mustSet(t, s, "s1", []byte("first, and longer than the second"))
			mustSet(t, s, "s1", []byte("second"))
			wantCheckpoint(t, s, "s1", []byte("second"))
		}},
		{"Missing", func(t *testing.T, s Store) {
			wantNoCheckpoint(t, s, "never-written")
		}},
		{"IdsAreSeparate", func(t *testing.T, s Store) {
			mustSet(t, s, "a", []byte("A"))
			mustSet(t, s, "b", []byte("B"))
			wantCheckpoint(t, s, "a", []byte("A"))
			wantCheckpoint(t, s, "b", []byte("B"))
		}},
		{"Large", func(t *testing.T, s Store) {
			data := randomBytes(t, 10<<20)
			mustSet(t, s, "big", data)
			wantCheckpoint(t, s, "big", data)
		}},
		{"ConcurrentWriters", func(t *testing.T, s Store) {
			const writers, writes = 16, 8
			var wg sync.WaitGroup
			errs := make(chan error, writers*writes)
			for w := range writers {
				wg.Go(func() {
					id := fmt.Sprintf("w%02d", w)
					for i := range writes {
						if err := s.Set(context.Background(), id, fmt.Appendf(nil, "%s write %d", id, i)); err != nil {
							errs <- err
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Errorf("concurrent Set: %v", err)
			}
			for w := range writers {
				id := fmt.Sprintf("w%02d", w)
				wantCheckpoint(t, s, id, fmt.Appendf(nil, "%s write %d", id, writes-1))
			}
		}},
		{"CancelledContext", func(t *testing.T, s Store) {
			mustSet(t, s, "s1", []byte("kept"))
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := s.Set(ctx, "s1", []byte("lost")); !errors.Is(err, context.Canceled) {
				t.Errorf("Set with a cancelled context = %v, want context.Canceled", err)
			}
			if _, _, err := s.Get(ctx, "s1"); !errors.Is(err, context.Canceled) {
				t.Errorf("Get with a cancelled context = %v, want context.Canceled", err)
			}
			if err := s.Delete(ctx, "s1"); !errors.Is(err, context.Canceled) {
				t.Errorf("Delete with a cancelled context = %v, want context.Canceled", err)
			}
			wantCheckpoint(t, s, "s1", []byte("kept"))
		}},
		{"InvalidIDs", func(t *testing.T, s Store) {
			for _, id := range []string{"", "../escape", "a/b", `a\b`, ".hidden", "..", "with space", string(make([]byte, 129))} {
				if err := s.Set(context.Background(), id, []byte("x")); !errors.Is(err, ErrInvalidID) {
					t.Errorf("Set(%q) = %v, want ErrInvalidID", id, err)
				}
				if _, _, err := s.Get(context.Background(), id); !errors.Is(err, ErrInvalidID) {
					t.Errorf("Get(%q) = %v, want ErrInvalidID", id, err)
				}
				if err := s.Delete(context.Background(), id); !errors.Is(err, ErrInvalidID) {
					t.Errorf("Delete(%q) = %v, want ErrInvalidID", id, err)
				}
			}
		}},
		{"Delete", func(t *testing.T, s Store) {
			mustSet(t, s, "s1", []byte("x"))
			if err := s.Delete(context.Background(), "s1"); err != nil {
				t.Fatalf("Delete: %v", err)
			}
			wantNoCheckpoint(t, s, "s1")
			if err := s.Delete(context.Background(), "s1"); err != nil {
				t.Errorf("Delete of a missing checkpoint = %v, want nil", err)
			}
		}},
		{"CloseTwice", func(t *testing.T, s Store) {
			if err := s.Close(); err != nil {
				t.Errorf("first Close: %v", err)
			}
			if err := s.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
		}},
	}
	for _, b := range testBackends(t) {
		t.Run(b.name, func(t *testing.T) {
			if b.skip != nil {
				b.skip(t)
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { c.run(t, b.open(t).Checkpoints) })
			}
		})
	}
}

func TestParseStoreURL(t *testing.T) {
	t.Setenv("SIFT_HOME", "/srv/sift")
	tests := []struct {
		url  string
		want storeSpec
	}{
		{"file:/var/sift", storeSpec{kind: "file", path: "/var/sift"}},
		{"file:///var/sift", storeSpec{kind: "file", path: "/var/sift"}},
		{"file:rel/dir", storeSpec{kind: "file", path: "rel/dir"}},
		{"file:", storeSpec{kind: "file", path: "/srv/sift/sessions"}},
		{"  FILE:/x  ", storeSpec{kind: "file", path: "/x"}},
		{"sqlite:sift.db", storeSpec{kind: "sqlite", path: "sift.db"}},
		{"sqlite:///var/lib/sift.db", storeSpec{kind: "sqlite", path: "/var/lib/sift.db"}},
		{"sqlite3:/a.db", storeSpec{kind: "sqlite", path: "/a.db"}},
		{"redis://localhost:6379/0", storeSpec{kind: "redis", redisURL: "redis://localhost:6379/0", prefix: "sift:"}},
		{"redis://:secret@cache:6380/2?prefix=prod:&ttl=720h&dial_timeout=3s", storeSpec{
			kind: "redis", redisURL: "redis://:secret@cache:6380/2?dial_timeout=3s", prefix: "prod:", ttl: 720 * 3600e9}},
		{"rediss://cache:6380", storeSpec{kind: "redis", redisURL: "rediss://cache:6380", prefix: "sift:"}},
	}
	for _, tt := range tests {
		got, err := parseStoreURL(tt.url)
		if err != nil {
			t.Errorf("parseStoreURL(%q): %v", tt.url, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(storeSpec{})); diff != "" {
			t.Errorf("parseStoreURL(%q) (-want +got):\n%s", tt.url, diff)
		}
	}
}

func TestParseStoreURLErrors(t *testing.T) {
	for _, url := range []string{
		"",
		"/just/a/path",
		"postgres://db/sift",
		"sqlite:",
		"sqlite:a.db?mode=ro",
		"redis:///0",
		"redis://h:1/0?ttl=soon",
		"redis://h:1/0?ttl=-1h",
	} {
		if _, err := parseStoreURL(url); !errors.Is(err, ErrBadStoreURL) {
			t.Errorf("parseStoreURL(%q) = %v, want ErrBadStoreURL", url, err)
		}
	}
}

func TestDefaultStoreURL(t *testing.T) {
	t.Setenv("SIFT_HOME", "/srv/sift")
	t.Setenv(StoreEnv, "")
	if got, want := DefaultStoreURL(), "file:/srv/sift/sessions"; got != want {
		t.Errorf("DefaultStoreURL() without %s = %q, want %q", StoreEnv, got, want)
	}
	t.Setenv(StoreEnv, "sqlite:/var/lib/sift.db")
	if got, want := DefaultStoreURL(), "sqlite:/var/lib/sift.db"; got != want {
		t.Errorf("DefaultStoreURL() with %s = %q, want %q", StoreEnv, got, want)
	}
}

func TestOpenBackend(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		url     string
		wantURL string
	}{
		{"file:" + dir + "/sessions", "file:" + dir + "/sessions"},
		{"sqlite:" + dir + "/db/sift.db", "sqlite:" + dir + "/db/sift.db"},
	}
	for _, tt := range tests {
		b, err := OpenBackend(context.Background(), tt.url)
		if err != nil {
			t.Fatalf("OpenBackend(%q): %v", tt.url, err)
		}
		if b.URL != tt.wantURL {
			t.Errorf("OpenBackend(%q).URL = %q, want %q", tt.url, b.URL, tt.wantURL)
		}
		mustSet(t, b.Checkpoints, "s1", []byte("x"))
		wantCheckpoint(t, b.Checkpoints, "s1", []byte("x"))
		if err := b.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
	if _, err := OpenBackend(context.Background(), "mongodb://h/db"); !errors.Is(err, ErrBadStoreURL) {
		t.Errorf("OpenBackend(mongodb://...) = %v, want ErrBadStoreURL", err)
	}
}

func TestOpenBackendFromEnv(t *testing.T) {
	path := filepath.Join(t.TempDir(), "env.db")
	t.Setenv(StoreEnv, "sqlite:"+path)
	b, err := OpenBackend(context.Background(), "")
	if err != nil {
		t.Fatalf("OpenBackend(\"\"): %v", err)
	}
	defer b.Close()
	if want := "sqlite:" + path; b.URL != want {
		t.Errorf("OpenBackend(\"\") with %s set opened %q, want %q", StoreEnv, b.URL, want)
	}
}

func TestOpenStore(t *testing.T) {
	s, err := OpenStore(context.Background(), "file:"+t.TempDir())
	if err != nil {
		t.Fatalf("OpenStore: %v", err)
	}
	defer s.Close()
	mustSet(t, s, "s1", []byte("checkpoint"))
	wantCheckpoint(t, s, "s1", []byte("checkpoint"))
}

// BenchmarkCheckpointSet saves one checkpoint of each size, over and over,
// in each backend.
func BenchmarkCheckpointSet(b *testing.B) {
	for _, size := range []int{64 << 10, 4 << 20} {
		for _, bc := range benchBackends(b) {
			b.Run(fmt.Sprintf("%s/%dKiB", bc.name, size>>10), func(b *testing.B) {
				s := bc.open(b).Checkpoints
				data := randomBytes(b, size)
				b.SetBytes(int64(size))
				for b.Loop() {
					if err := s.Set(context.Background(), "bench", data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkCheckpointGet reads back one 4 MiB checkpoint in each backend.
func BenchmarkCheckpointGet(b *testing.B) {
	const size = 4 << 20
	for _, bc := range benchBackends(b) {
		b.Run(bc.name, func(b *testing.B) {
			s := bc.open(b).Checkpoints
			if err := s.Set(context.Background(), "bench", randomBytes(b, size)); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(size)
			for b.Loop() {
				if _, _, err := s.Get(context.Background(), "bench"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchCase opens a fresh backend for a benchmark.
type benchCase struct {
	name string
	open func(b *testing.B) *Backend
}

// benchBackends returns the backends to benchmark; Redis only when
// redis-server is installed.
func benchBackends(b *testing.B) []benchCase {
	cases := []benchCase{
		{"file", func(b *testing.B) *Backend {
			be, err := OpenFileBackend(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			return be
		}},
		{"sqlite", func(b *testing.B) *Backend {
			be, err := OpenSQLiteBackend(context.Background(), SQLiteConfig{Path: filepath.Join(b.TempDir(), "sift.db")})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = be.Close() })
			return be
		}},
	}
	if redisInstalled() {
		cases = append(cases, benchCase{"redis", func(b *testing.B) *Backend {
			addr := startRedis(b, b)
			be, err := OpenRedisBackend(context.Background(), RedisConfig{URL: "redis://" + addr + "/0"})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = be.Close() })
			return be
		}})
	}
	return cases
}

// approvalAgent interrupts once, with state, and on resume says what state
// and answer it got back: the smallest agent whose resume needs a stored
// checkpoint.
type approvalAgent struct{}

func (approvalAgent) Name(context.Context) string        { return "approver" }
func (approvalAgent) Description(context.Context) string { return "asks for approval once" }

func (approvalAgent) Run(ctx context.Context, _ *adk.AgentInput, _ ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	it, gen := adk.NewAsyncIteratorPair[*adk.AgentEvent]()
	gen.Send(adk.StatefulInterrupt(ctx, "Approve the plan?", "state-42"))
	gen.Close()
	return it
}

func (approvalAgent) Resume(_ context.Context, info *adk.ResumeInfo, _ ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	it, gen := adk.NewAsyncIteratorPair[*adk.AgentEvent]()
	text := fmt.Sprintf("state %v, answer %v", info.InterruptState, info.ResumeData)
	gen.Send(adk.EventFromMessage(schema.AssistantMessage(text, nil), nil, schema.Assistant, ""))
	gen.Close()
	return it
}

// TestStoreResumesRunner interrupts an ADK run with each backend, closes
// the backend (as a process exit would), opens it again and resumes: the
// resumed agent must get its state and the answer.
func TestStoreResumesRunner(t *testing.T) {
	dir := t.TempDir()
	urls := []struct{ name, url string }{
		{"file", "file:" + filepath.Join(dir, "sessions")},
		{"sqlite", "sqlite:" + filepath.Join(dir, "sift.db")},
	}
	if redisInstalled() {
		urls = append(urls, struct{ name, url string }{"redis", "redis://" + startRedis(t, t) + "/0?prefix=runner:"})
	}
	for _, u := range urls {
		t.Run(u.name, func(t *testing.T) {
			ctx := context.Background()
			const id = "20261122-020655-ab12cd"

			first, err := OpenStore(ctx, u.url)
			if err != nil {
				t.Fatal(err)
			}
			runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: approvalAgent{}, CheckPointStore: first})
			var interruptID string
			events := runner.Query(ctx, "go", adk.WithCheckPointID(id))
			for {
				ev, ok := events.Next()
				if !ok {
					break
				}
				if ev.Err != nil {
					t.Fatalf("run: %v", ev.Err)
				}
				if ev.Action != nil && ev.Action.Interrupted != nil {
					interruptID = ev.Action.Interrupted.InterruptContexts[0].ID
				}
			}
			if interruptID == "" {
				t.Fatal("the run did not interrupt")
			}
			if err := first.Close(); err != nil {
				t.Fatal(err)
			}

			second, err := OpenStore(ctx, u.url)
			if err != nil {
				t.Fatal(err)
			}
			defer second.Close()
			runner = adk.NewRunner(ctx, adk.RunnerConfig{Agent: approvalAgent{}, CheckPointStore: second})
			resumed, err := runner.ResumeWithParams(ctx, id, &adk.ResumeParams{Targets: map[string]any{interruptID: "yes"}})
			if err != nil {
				t.Fatalf("ResumeWithParams: %v", err)
			}
			var said []string
			for {
				ev, ok := resumed.Next()
				if !ok {
					break
				}
				if ev.Err != nil {
					t.Fatalf("resume: %v", ev.Err)
				}
				if ev.Output != nil && ev.Output.MessageOutput != nil {
					said = append(said, ev.Output.MessageOutput.Message.Content)
				}
			}
			if diff := cmp.Diff([]string{"state state-42, answer yes"}, said); diff != "" {
				t.Errorf("resumed agent said (-want +got):\n%s", diff)
			}
		})
	}
}
