package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sift-agent/sift/session"
)

// TestScheduleFiresOncePerTickAcrossServers: two servers on one store
// (the sessions directory's files, or Redis) with the same schedule; each
// firing is taken by one of them, whose refresh runs on the newest
// matching file. A firing with no file is a failed session that says why.
func TestScheduleFiresOncePerTickAcrossServers(t *testing.T) {
	t.Run("files", func(t *testing.T) {
		scheduleFiresOnce(t, func(root string) *session.Backend {
			store, err := session.OpenFileBackend(root)
			if err != nil {
				t.Fatal(err)
			}
			return store
		})
	})
	t.Run("redis", func(t *testing.T) {
		addr := startRedis(t)
		scheduleFiresOnce(t, func(string) *session.Backend { return redisBackend(t, addr) })
	})
}

func scheduleFiresOnce(t *testing.T, open func(sessionsRoot string) *session.Backend) {
	script := refreshScript()
	cfg := testConfig(t, script)
	cfg.Sift.Store = open(cfg.Sift.SessionsRoot)
	data := t.TempDir()
	cfg.DataDirs = map[string]string{"exports": data}
	a := startServer(t, cfg)
	rows := "2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n"
	id := a.createSession([2]string{"s.csv", "date,region,revenue\n" + rows})
	a.ask(id, map[string]any{"question": "Who sells most?", "mode": "plan", "parallel": 1})
	a.openStream(id, "").rest(t)

	old := filepath.Join(data, "sales-2024.csv")
	newest := filepath.Join(data, "sales-2025.csv")
	for p, body := range map[string]string{old: rows, newest: rows + "2025-01-07,North,200\n2025-03-02,South,120\n"} {
		if err := os.WriteFile(p, []byte("date,region,revenue\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.Chtimes(old, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour))
	sc := Schedule{Name: "weekly", Cron: "0 7 * * 1", Session: id, DataDir: "exports", Pattern: "sales-*.csv"}
	cfg.Schedules = []Schedule{sc}
	b, c := startServer(t, cfg), startServer(t, cfg)

	fireBoth := func(tick time.Time) []string {
		var mu sync.Mutex
		var ids []string
		var wg sync.WaitGroup
		for _, s := range []*testServer{b, c} {
			wg.Go(func() {
				got, err := s.srv.fire(context.Background(), sc, tick)
				if err != nil {
					t.Errorf("fire: %v", err)
				}
				if got != "" {
					mu.Lock()
					ids = append(ids, got)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		return ids
	}
	monday := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	for _, tick := range []time.Time{monday, monday.AddDate(0, 0, 7)} {
		ids := fireBoth(tick)
		if len(ids) != 1 {
			t.Fatalf("tick %s was taken %d times, want once: %v", tick, len(ids), ids)
		}
		b.openStream(ids[0], "").rest(t)
		v := b.session(ids[0])
		if v.Status != "done" || v.Parent != id || v.Origin != "refresh" {
			t.Errorf("the firing's session = %+v", v)
		}
		md, err := os.ReadFile(filepath.Join(cfg.Sift.SessionsRoot, ids[0], "report.md"))
		if err != nil || !strings.Contains(string(md), "North sold 350 and South 190") || !strings.Contains(string(md), "sales-2025.csv") {
			t.Errorf("the firing's report (%v):\n%s", err, md)
		}
	}
	if again := fireBoth(monday); len(again) != 0 {
		t.Errorf("a firing already taken ran again: %v", again)
	}

	none := sc
	none.Name, none.Pattern = "nothing", "orders-*.csv"
	failed, err := b.srv.fire(context.Background(), none, monday)
	if err == nil || failed == "" || !strings.Contains(err.Error(), "no file in the data directory matches orders-*.csv") {
		t.Fatalf("a firing with no file: %q %v", failed, err)
	}
	if v := b.session(failed); v.Status != "failed" || !strings.Contains(v.Error, "orders-*.csv") {
		t.Errorf("the failed firing's session = %+v", v)
	}
	if v := b.scrape().value(t, "sift_schedule_failures_total"); v != 1 {
		t.Errorf("sift_schedule_failures_total = %v, want 1", v)
	}
}

func TestSchedulesAreChecked(t *testing.T) {
	dirs := map[string]string{"exports": t.TempDir()}
	for _, tc := range []struct {
		sc   Schedule
		want string
	}{
		{Schedule{Name: "w", Cron: "every monday", Session: "s1", DataDir: "exports", Pattern: "*.csv"}, `cron "every monday"`},
		{Schedule{Name: "w", Cron: "@daily", Session: "s1", DataDir: "elsewhere", Pattern: "*.csv"}, `no data directory named "elsewhere"`},
		{Schedule{Name: "w", Cron: "@daily", Session: "s1", DataDir: "exports", Pattern: "../*.csv"}, "not a file name pattern"},
		{Schedule{Name: "a b", Cron: "@daily", Session: "s1", DataDir: "exports", Pattern: "*.csv"}, "give a name"},
	} {
		if _, err := parseSchedules([]Schedule{tc.sc}, dirs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.sc, err, tc.want)
		}
	}
	if cs, err := parseSchedules([]Schedule{{Name: "w", Cron: "0 7 * * 1", Session: "s1", DataDir: "exports", Pattern: "*.csv"}}, dirs); err != nil || len(cs) != 1 {
		t.Errorf("a good schedule: %v", err)
	}
}
