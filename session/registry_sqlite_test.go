package session

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSQLiteRegistryCorruptMeta(t *testing.T) {
	ctx := context.Background()
	b := openSQLiteTest(t, filepath.Join(t.TempDir(), "sift.db"))
	mustPut(t, b.Sessions, t0, Meta{ID: "good", Status: StatusDone})
	mustPut(t, b.Sessions, t0, Meta{ID: "bad", Status: StatusDone})
	db := b.Sessions.(*sqliteRegistry).db
	if _, err := db.Exec(`UPDATE sessions SET meta = '{not json' WHERE id = 'bad'`); err != nil {
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

// TestSQLiteRegistryDeleteIsAtomic checks that a failed Delete leaves both
// the session and its checkpoint: the transaction rolls back.
func TestSQLiteRegistryDeleteIsAtomic(t *testing.T) {
	b := openSQLiteTest(t, filepath.Join(t.TempDir(), "sift.db"))
	mustPut(t, b.Sessions, t0, Meta{ID: "s1", Status: StatusDone})
	mustSet(t, b.Checkpoints, "s1", []byte("state"))
	db := b.Sessions.(*sqliteRegistry).db
	// Make the second DELETE of the transaction fail.
	if _, err := db.Exec(`CREATE TRIGGER refuse BEFORE DELETE ON checkpoints BEGIN SELECT RAISE(ABORT, 'refused'); END`); err != nil {
		t.Fatal(err)
	}
	if err := b.Sessions.Delete(context.Background(), "s1"); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("Delete = %v, want the trigger's refusal", err)
	}
	if _, err := b.Sessions.Get(context.Background(), "s1"); err != nil {
		t.Errorf("Get after a failed Delete: %v; want the session kept", err)
	}
	wantCheckpoint(t, b.Checkpoints, "s1", []byte("state"))
}
