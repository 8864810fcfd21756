package session

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"

	"github.com/sift-agent/sift/session/sessiontest"
)

// The Redis helpers live in sessiontest, for other packages' tests too.
func redisInstalled() bool { return sessiontest.RedisInstalled() }

func skipWithoutRedis(t testing.TB) { t.Helper(); sessiontest.SkipWithoutRedis(t) }

func startRedis(owner, t testing.TB) string { t.Helper(); return sessiontest.StartRedis(owner, t) }

// openRedisTest opens a Redis backend on addr with the given prefix and
// TTL, closed when t ends.
func openRedisTest(t *testing.T, addr, prefix string, ttl time.Duration) *Backend {
	t.Helper()
	b, err := OpenRedisBackend(context.Background(), RedisConfig{URL: "redis://" + addr + "/0", Prefix: prefix, TTL: ttl})
	if err != nil {
		t.Fatalf("OpenRedisBackend: %v", err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// rawRedis returns a plain client on addr, closed when t ends.
func rawRedis(t *testing.T, addr string) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// keys returns every key on the server, sorted.
func keys(t *testing.T, c *redis.Client) []string {
	t.Helper()
	ks, err := c.Keys(context.Background(), "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(ks)
	return ks
}

func TestRedisKeysUnderPrefix(t *testing.T) {
	addr := startRedis(t, t)
	ctx := context.Background()
	b := openRedisTest(t, addr, "p1:", 0)
	mustSet(t, b.Checkpoints, "s1", []byte("x"))
	if err := b.Sessions.Put(ctx, Meta{ID: "s1", Status: StatusRunning}); err != nil {
		t.Fatal(err)
	}
	want := []string{"p1:checkpoint:s1", "p1:session:s1", "p1:sessions"}
	if diff := cmp.Diff(want, keys(t, rawRedis(t, addr))); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}

	other := openRedisTest(t, addr, "p2:", 0)
	wantNoCheckpoint(t, other.Checkpoints, "s1")
	if got, err := other.Sessions.List(ctx, Filter{}); err != nil || len(got) != 0 {
		t.Errorf("List under another prefix = %v, %v; want nothing", got, err)
	}
}

func TestRedisTTL(t *testing.T) {
	addr := startRedis(t, t)
	ctx := context.Background()
	raw := rawRedis(t, addr)
	for _, ttl := range []time.Duration{0, time.Hour} {
		prefix := fmt.Sprintf("ttl%v:", ttl)
		b := openRedisTest(t, addr, prefix, ttl)
		mustSet(t, b.Checkpoints, "s1", []byte("x"))
		if err := b.Sessions.Put(ctx, Meta{ID: "s1", Status: StatusDone}); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{prefix + "checkpoint:s1", prefix + "session:s1"} {
			got, err := raw.PTTL(ctx, key).Result()
			if err != nil {
				t.Fatal(err)
			}
			if ttl == 0 && got != -1 {
				t.Errorf("TTL 0: PTTL(%s) = %v, want -1 (no expiry)", key, got)
			}
			if ttl > 0 && (got <= 0 || got > ttl) {
				t.Errorf("TTL %v: PTTL(%s) = %v, want in (0, %v]", ttl, key, got, ttl)
			}
		}
	}
}

func TestRedisGivenClientStaysOpen(t *testing.T) {
	addr := startRedis(t, t)
	c := rawRedis(t, addr)
	b, err := OpenRedisBackend(context.Background(), RedisConfig{Client: c})
	if err != nil {
		t.Fatal(err)
	}
	mustSet(t, b.Checkpoints, "s1", []byte("x"))
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Ping(context.Background()).Err(); err != nil {
		t.Errorf("the given client after Close: %v; want it still open", err)
	}
	if got := keys(t, c); !slices.Contains(got, "sift:checkpoint:s1") {
		t.Errorf("keys = %v, want the default prefix sift:", got)
	}
}

func TestOpenBackendRedisURL(t *testing.T) {
	addr := startRedis(t, t)
	b, err := OpenBackend(context.Background(), "redis://"+addr+"/3?prefix=u:&ttl=1h")
	if err != nil {
		t.Fatalf("OpenBackend: %v", err)
	}
	defer b.Close()
	mustSet(t, b.Checkpoints, "s1", []byte("x"))
	raw := redis.NewClient(&redis.Options{Addr: addr, DB: 3})
	defer raw.Close()
	ttl, err := raw.PTTL(context.Background(), "u:checkpoint:s1").Result()
	if err != nil || ttl <= 0 || ttl > time.Hour {
		t.Errorf("PTTL(u:checkpoint:s1) in db 3 = %v, %v; want in (0, 1h]", ttl, err)
	}
}

func TestOpenRedisBackendErrors(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	_ = l.Close()

	ctx := context.Background()
	tests := []struct {
		name    string
		cfg     RedisConfig
		wantErr []string
		sentry  error
	}{
		{"nothing to connect to", RedisConfig{}, []string{"URL"}, nil},
		{"negative TTL", RedisConfig{URL: "redis://" + closed, TTL: -time.Second}, []string{"negative"}, nil},
		{"unknown option", RedisConfig{URL: "redis://" + closed + "/0?bogus=1"}, []string{"bogus"}, ErrBadStoreURL},
		{"no server", RedisConfig{URL: "redis://:hunter2@" + closed + "/0"}, []string{"redis-server is running", "xxxxx"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := OpenRedisBackend(ctx, tt.cfg)
			if err == nil {
				t.Fatal("OpenRedisBackend succeeded, want an error")
			}
			for _, s := range tt.wantErr {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error %q shows the password", err)
			}
			if tt.sentry != nil && !errors.Is(err, tt.sentry) {
				t.Errorf("error %v, want it to wrap %v", err, tt.sentry)
			}
		})
	}
}
