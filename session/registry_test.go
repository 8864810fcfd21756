package session

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/plans"
)

// clockAt returns a context whose clock (see WithClock) stands at tm.
func clockAt(tm time.Time) context.Context {
	return WithClock(context.Background(), func() time.Time { return tm })
}

// ids returns the ids of ms, in order.
func ids(ms []Meta) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

// sampleMeta has every field set except the times.
func sampleMeta(id string) Meta {
	return Meta{
		ID:       id,
		Question: "Which region sells most? ünïcode & <b>",
		Status:   StatusWaiting,
		Step:     &plans.Step{Index: 2, Description: "Chart sales by region"},
		Pending: &Pending{ID: "interrupt-1", Kind: PendingPlanReview, Prompt: "Approve the plan?",
			Choices: []string{"approve", "edit", "reject"}},
		Error:     "",
		Mode:      "plan",
		Inputs:    []string{"input/sales.csv", "input/2023/q1.xlsx"},
		Workspace: "/srv/sift/sessions/" + id,
	}
}

// mustPut stores m at the time tm or fails the test.
func mustPut(t *testing.T, r Registry, tm time.Time, m Meta) {
	t.Helper()
	if err := r.Put(clockAt(tm), m); err != nil {
		t.Fatalf("Put(%s): %v", m.ID, err)
	}
}

// mustList lists with f or fails the test.
func mustList(t *testing.T, r Registry, f Filter) []Meta {
	t.Helper()
	got, err := r.List(context.Background(), f)
	if err != nil {
		t.Fatalf("List(%+v): %v", f, err)
	}
	return got
}

// TestRegistryConformance runs the same checks on every registry.
func TestRegistryConformance(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, b *Backend)
	}{
		{"PutGet", func(t *testing.T, b *Backend) {
			// A clock outside UTC still gives UTC times back.
			at := t0.In(time.FixedZone("CET", 3600))
			mustPut(t, b.Sessions, at, sampleMeta("s1"))
			got, err := b.Sessions.Get(context.Background(), "s1")
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			want := sampleMeta("s1")
			want.Created, want.Updated = t0, t0
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Get (-want +got):\n%s", diff)
			}
			if got.Created.Location() != time.UTC {
				t.Errorf("Created is in %v, want UTC", got.Created.Location())
			}
		}},
		{"UpdateKeepsCreated", func(t *testing.T, b *Backend) {
			mustPut(t, b.Sessions, t0, Meta{ID: "s1", Question: "q", Status: StatusRunning, Workspace: "/w/s1"})
			later := t0.Add(time.Hour)
			mustPut(t, b.Sessions, later, Meta{ID: "s1", Question: "q", Status: StatusDone, Workspace: "/w/s1"})
			got, err := b.Sessions.Get(context.Background(), "s1")
			if err != nil {
				t.Fatal(err)
			}
			want := Meta{ID: "s1", Question: "q", Status: StatusDone, Created: t0, Updated: later, Workspace: "/w/s1"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Get after update (-want +got):\n%s", diff)
			}
		}},
		{"ExplicitCreated", func(t *testing.T, b *Backend) {
			created := t0.Add(-48 * time.Hour)
			m := sampleMeta("s1")
			m.Created = created
			mustPut(t, b.Sessions, t0, m)
			got, err := b.Sessions.Get(context.Background(), "s1")
			if err != nil {
				t.Fatal(err)
			}
			if !got.Created.Equal(created) || !got.Updated.Equal(t0) {
				t.Errorf("Created, Updated = %v, %v; want %v (as given), %v (now)", got.Created, got.Updated, created, t0)
			}
		}},
		{"Missing", func(t *testing.T, b *Backend) {
			if _, err := b.Sessions.Get(context.Background(), "nope"); !errors.Is(err, ErrSessionNotFound) {
				t.Errorf("Get of a missing session = %v, want ErrSessionNotFound", err)
			}
			if err := b.Sessions.Delete(context.Background(), "nope"); !errors.Is(err, ErrSessionNotFound) {
				t.Errorf("Delete of a missing session = %v, want ErrSessionNotFound", err)
			}
			if got := mustList(t, b.Sessions, Filter{}); got == nil || len(got) != 0 {
				t.Errorf("List of an empty registry = %#v, want an empty, non-nil slice", got)
			}
		}},
		{"Invalid", func(t *testing.T, b *Backend) {
			bad := []struct {
				m    Meta
				want error
			}{
				{Meta{ID: "../escape", Status: StatusDone}, ErrInvalidID},
				{Meta{ID: "", Status: StatusDone}, ErrInvalidID},
				{Meta{ID: "s1"}, ErrInvalidMeta},
				{Meta{ID: "s1", Status: "finished"}, ErrInvalidMeta},
				{Meta{ID: "s1", Status: StatusWaiting, Pending: &Pending{Kind: "bogus"}}, ErrInvalidMeta},
			}
			for _, c := range bad {
				if err := b.Sessions.Put(clockAt(t0), c.m); !errors.Is(err, c.want) {
					t.Errorf("Put(%+v) = %v, want %v", c.m, err, c.want)
				}
			}
			if got := mustList(t, b.Sessions, Filter{}); len(got) != 0 {
				t.Errorf("List after refused Puts = %v, want nothing", ids(got))
			}
			if _, err := b.Sessions.Get(context.Background(), "../escape"); !errors.Is(err, ErrInvalidID) {
				t.Errorf("Get(../escape) = %v, want ErrInvalidID", err)
			}
			if err := b.Sessions.Delete(context.Background(), "../escape"); !errors.Is(err, ErrInvalidID) {
				t.Errorf("Delete(../escape) = %v, want ErrInvalidID", err)
			}
		}},
		{"ListNewestFirstAndFilters", func(t *testing.T, b *Backend) {
			mustPut(t, b.Sessions, t0, Meta{ID: "a", Status: StatusRunning})
			mustPut(t, b.Sessions, t0.Add(time.Hour), Meta{ID: "b", Status: StatusFailed})
			mustPut(t, b.Sessions, t0.Add(2*time.Hour), Meta{ID: "c", Status: StatusRunning})
			mustPut(t, b.Sessions, t0.Add(2*time.Hour), Meta{ID: "d", Status: StatusWaiting})
			// Updating "a" later does not make it newer: order is by
			// creation.
			mustPut(t, b.Sessions, t0.Add(3*time.Hour), Meta{ID: "a", Status: StatusDone})
			tests := []struct {
				f    Filter
				want []string
			}{
				{Filter{}, []string{"d", "c", "b", "a"}},
				{Filter{Status: []Status{StatusDone}}, []string{"a"}},
				{Filter{Status: []Status{StatusRunning, StatusWaiting}}, []string{"d", "c"}},
				{Filter{Status: []Status{StatusPaused}}, []string{}},
				{Filter{Limit: 2}, []string{"d", "c"}},
				{Filter{UpdatedBefore: t0.Add(90 * time.Minute)}, []string{"b"}},
				{Filter{UpdatedBefore: t0.Add(2 * time.Hour)}, []string{"b"}},
				{Filter{Status: []Status{StatusDone, StatusFailed}, UpdatedBefore: t0.Add(4 * time.Hour), Limit: 1}, []string{"b"}},
			}
			for _, tt := range tests {
				if diff := cmp.Diff(tt.want, ids(mustList(t, b.Sessions, tt.f))); diff != "" {
					t.Errorf("List(%+v) (-want +got):\n%s", tt.f, diff)
				}
			}
		}},
		{"ListReturnsWholeMeta", func(t *testing.T, b *Backend) {
			mustPut(t, b.Sessions, t0, sampleMeta("s1"))
			want := sampleMeta("s1")
			want.Created, want.Updated = t0, t0
			if diff := cmp.Diff([]Meta{want}, mustList(t, b.Sessions, Filter{})); diff != "" {
				t.Errorf("List (-want +got):\n%s", diff)
			}
		}},
		{"DeleteRemovesCheckpoint", func(t *testing.T, b *Backend) {
			mustPut(t, b.Sessions, t0, Meta{ID: "s1", Status: StatusPaused})
			mustSet(t, b.Checkpoints, "s1", []byte("state"))
			mustPut(t, b.Sessions, t0, Meta{ID: "s2", Status: StatusPaused})
			mustSet(t, b.Checkpoints, "s2", []byte("other state"))
			if err := b.Sessions.Delete(context.Background(), "s1"); err != nil {
				t.Fatalf("Delete: %v", err)
			}
			if _, err := b.Sessions.Get(context.Background(), "s1"); !errors.Is(err, ErrSessionNotFound) {
				t.Errorf("Get after Delete = %v, want ErrSessionNotFound", err)
			}
			wantNoCheckpoint(t, b.Checkpoints, "s1")
			if err := b.Sessions.Delete(context.Background(), "s1"); !errors.Is(err, ErrSessionNotFound) {
				t.Errorf("second Delete = %v, want ErrSessionNotFound", err)
			}
			// The other session is untouched.
			wantCheckpoint(t, b.Checkpoints, "s2", []byte("other state"))
			if diff := cmp.Diff([]string{"s2"}, ids(mustList(t, b.Sessions, Filter{}))); diff != "" {
				t.Errorf("List after Delete (-want +got):\n%s", diff)
			}
		}},
		{"DeleteCheckpointOnly", func(t *testing.T, b *Backend) {
			mustSet(t, b.Checkpoints, "s1", []byte("state"))
			if err := b.Sessions.Delete(context.Background(), "s1"); err != nil {
				t.Fatalf("Delete of a session with only a checkpoint: %v", err)
			}
			wantNoCheckpoint(t, b.Checkpoints, "s1")
		}},
		{"ConcurrentPuts", func(t *testing.T, b *Backend) {
			const n = 16
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for i := range n {
				wg.Go(func() {
					errs <- b.Sessions.Put(clockAt(t0.Add(time.Duration(i)*time.Minute)), Meta{ID: fmt.Sprintf("s%02d", i), Status: StatusRunning})
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Errorf("concurrent Put: %v", err)
				}
			}
			var want []string
			for i := n - 1; i >= 0; i-- {
				want = append(want, fmt.Sprintf("s%02d", i))
			}
			if diff := cmp.Diff(want, ids(mustList(t, b.Sessions, Filter{}))); diff != "" {
				t.Errorf("List (-want +got):\n%s", diff)
			}
		}},
		{"CancelledContext", func(t *testing.T, b *Backend) {
			mustPut(t, b.Sessions, t0, Meta{ID: "s1", Status: StatusRunning})
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := b.Sessions.Put(ctx, Meta{ID: "s1", Status: StatusDone}); !errors.Is(err, context.Canceled) {
				t.Errorf("Put = %v, want context.Canceled", err)
			}
			if _, err := b.Sessions.Get(ctx, "s1"); !errors.Is(err, context.Canceled) {
				t.Errorf("Get = %v, want context.Canceled", err)
			}
			if _, err := b.Sessions.List(ctx, Filter{}); !errors.Is(err, context.Canceled) {
				t.Errorf("List = %v, want context.Canceled", err)
			}
			if err := b.Sessions.Delete(ctx, "s1"); !errors.Is(err, context.Canceled) {
				t.Errorf("Delete = %v, want context.Canceled", err)
			}
			got, err := b.Sessions.Get(context.Background(), "s1")
			if err != nil || got.Status != StatusRunning {
				t.Errorf("after cancelled calls Get = %+v, %v; want the session unchanged", got, err)
			}
		}},
		{"Prune", func(t *testing.T, b *Backend) {
			const day = 24 * time.Hour
			now := t0.Add(60 * day)
			for i, m := range []Meta{
				{ID: "old-done", Status: StatusDone},
				{ID: "old-failed", Status: StatusFailed},
				{ID: "old-running", Status: StatusRunning},
				{ID: "old-waiting", Status: StatusWaiting},
				{ID: "old-paused", Status: StatusPaused},
			} {
				mustPut(t, b.Sessions, t0.Add(time.Duration(i)*time.Hour), m)
				mustSet(t, b.Checkpoints, m.ID, []byte(m.ID))
			}
			// Exactly 30 days old is not older than 30 days.
			mustPut(t, b.Sessions, now.Add(-30*day), Meta{ID: "edge-done", Status: StatusDone})
			mustPut(t, b.Sessions, now.Add(-day), Meta{ID: "new-done", Status: StatusDone})

			clock := func() time.Time { return now }
			got, err := Prune(context.Background(), b.Sessions, 30*day, clock, false)
			if err != nil {
				t.Fatalf("Prune: %v", err)
			}
			if diff := cmp.Diff([]string{"old-done", "old-failed"}, got); diff != "" {
				t.Errorf("Prune removed (-want +got):\n%s", diff)
			}
			wantNoCheckpoint(t, b.Checkpoints, "old-done")
			wantCheckpoint(t, b.Checkpoints, "old-running", []byte("old-running"))

			got, err = Prune(context.Background(), b.Sessions, 30*day, clock, true)
			if err != nil {
				t.Fatalf("forced Prune: %v", err)
			}
			if diff := cmp.Diff([]string{"old-running", "old-waiting", "old-paused"}, got); diff != "" {
				t.Errorf("forced Prune removed (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"new-done", "edge-done"}, ids(mustList(t, b.Sessions, Filter{}))); diff != "" {
				t.Errorf("left after Prune (-want +got):\n%s", diff)
			}
		}},
	}
	for _, bc := range testBackends(t) {
		t.Run(bc.name, func(t *testing.T) {
			if bc.skip != nil {
				bc.skip(t)
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { c.run(t, bc.open(t)) })
			}
		})
	}
}

func TestStatus(t *testing.T) {
	tests := []struct {
		s               Status
		valid, finished bool
	}{
		{StatusRunning, true, false},
		{StatusWaiting, true, false},
		{StatusPaused, true, false},
		{StatusDone, true, true},
		{StatusFailed, true, true},
		{"", false, false},
		{"Done", false, false},
	}
	for _, tt := range tests {
		if got := tt.s.Valid(); got != tt.valid {
			t.Errorf("%q.Valid() = %v, want %v", tt.s, got, tt.valid)
		}
		if got := tt.s.Finished(); got != tt.finished {
			t.Errorf("%q.Finished() = %v, want %v", tt.s, got, tt.finished)
		}
	}
	for _, s := range Statuses {
		if !s.Valid() {
			t.Errorf("Statuses holds %q, which is not Valid", s)
		}
	}
	if len(Statuses) != 5 {
		t.Errorf("Statuses has %d entries, want 5", len(Statuses))
	}
}

// faultyRegistry is a file registry whose List or Delete fail on demand.
type faultyRegistry struct {
	Registry
	listErr   error
	deleteErr map[string]error
}

func (r *faultyRegistry) List(ctx context.Context, f Filter) ([]Meta, error) {
	if r.listErr != nil {
		return nil, r.listErr
	}
	return r.Registry.List(ctx, f)
}

func (r *faultyRegistry) Delete(ctx context.Context, id string) error {
	if err := r.deleteErr[id]; err != nil {
		return err
	}
	return r.Registry.Delete(ctx, id)
}

func TestPruneErrors(t *testing.T) {
	newReg := func(t *testing.T) Registry {
		b, err := OpenFileBackend(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		for i, id := range []string{"a", "b", "c"} {
			mustPut(t, b.Sessions, t0.Add(time.Duration(i)*time.Hour), Meta{ID: id, Status: StatusDone})
		}
		return b.Sessions
	}
	now := func() time.Time { return t0.Add(24 * time.Hour) }
	diskFull := errors.New("disk on fire")

	t.Run("NegativeAge", func(t *testing.T) {
		if _, err := Prune(context.Background(), newReg(t), -time.Hour, now, false); err == nil {
			t.Error("Prune with a negative age succeeded, want an error")
		}
	})
	t.Run("ListFails", func(t *testing.T) {
		reg := &faultyRegistry{Registry: newReg(t), listErr: diskFull}
		if _, err := Prune(context.Background(), reg, time.Hour, now, false); !errors.Is(err, diskFull) {
			t.Errorf("Prune = %v, want the List error", err)
		}
	})
	t.Run("DeleteFails", func(t *testing.T) {
		reg := &faultyRegistry{Registry: newReg(t), deleteErr: map[string]error{"b": diskFull}}
		got, err := Prune(context.Background(), reg, time.Hour, now, false)
		if !errors.Is(err, diskFull) {
			t.Errorf("Prune = %v, want the Delete error", err)
		}
		if diff := cmp.Diff([]string{"a"}, got); diff != "" {
			t.Errorf("deleted before the failure (-want +got):\n%s", diff)
		}
	})
	t.Run("AlreadyGone", func(t *testing.T) {
		gone := fmt.Errorf("delete session b: %w", ErrSessionNotFound)
		reg := &faultyRegistry{Registry: newReg(t), deleteErr: map[string]error{"b": gone}}
		got, err := Prune(context.Background(), reg, time.Hour, now, false)
		if err != nil {
			t.Fatalf("Prune: %v", err)
		}
		if diff := cmp.Diff([]string{"a", "c"}, got); diff != "" {
			t.Errorf("deleted (-want +got):\n%s", diff)
		}
	})
	t.Run("Cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Prune(ctx, newReg(t), time.Hour, now, false); !errors.Is(err, context.Canceled) {
			t.Errorf("Prune = %v, want context.Canceled", err)
		}
	})
}

// BenchmarkRegistryList lists 1000 sessions in each backend.
func BenchmarkRegistryList(b *testing.B) {
	for _, bc := range benchBackends(b) {
		b.Run(bc.name, func(b *testing.B) {
			reg := bc.open(b).Sessions
			for i := range 1000 {
				m := sampleMeta(fmt.Sprintf("s%04d", i))
				if err := reg.Put(WithClock(context.Background(), func() time.Time { return t0.Add(time.Duration(i) * time.Second) }), m); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				got, err := reg.List(context.Background(), Filter{Status: []Status{StatusWaiting}, Limit: 50})
				if err != nil || len(got) != 50 {
					b.Fatalf("List = %d sessions, %v", len(got), err)
				}
			}
		})
	}
}
