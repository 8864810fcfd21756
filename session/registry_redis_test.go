package session

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRedisListDropsExpired(t *testing.T) {
	addr := startRedis(t, t)
	ctx := context.Background()
	b := openRedisTest(t, addr, "x:", 0)
	for _, id := range []string{"kept", "expired"} {
		if err := b.Sessions.Put(ctx, Meta{ID: id, Status: StatusDone}); err != nil {
			t.Fatal(err)
		}
	}
	raw := rawRedis(t, addr)
	// What a TTL does to the metadata key, without waiting for it.
	if err := raw.Del(ctx, "x:session:expired").Err(); err != nil {
		t.Fatal(err)
	}
	got, err := b.Sessions.List(ctx, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"kept"}, ids(got)); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	if n, err := raw.ZCard(ctx, "x:sessions").Result(); err != nil || n != 1 {
		t.Errorf("index size after List = %d, %v; want 1 (the expired id dropped)", n, err)
	}
}

func TestRedisRegistryCorruptMeta(t *testing.T) {
	addr := startRedis(t, t)
	ctx := context.Background()
	b := openRedisTest(t, addr, "x:", 0)
	mustPut(t, b.Sessions, t0, Meta{ID: "good", Status: StatusDone})
	mustPut(t, b.Sessions, t0, Meta{ID: "bad", Status: StatusDone})
	if err := rawRedis(t, addr).Set(ctx, "x:session:bad", "{not json", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"good"}, ids(mustList(t, b.Sessions, Filter{}))); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	_, err := b.Sessions.Get(ctx, "bad")
	if err == nil || errors.Is(err, ErrSessionNotFound) || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("Get(bad) = %v, want an error saying the JSON is bad", err)
	}
}
