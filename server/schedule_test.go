package server

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
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
	for _, sc := range []Schedule{{Name: "w", Cron: "0 7 * * 1", Session: "s1", DataDir: "exports", Pattern: "*.csv"}, {Name: "db", Cron: "@daily", Session: "s1"}} {
		if cs, err := parseSchedules([]Schedule{sc}, dirs); err != nil || len(cs) != 1 {
			t.Errorf("a good schedule %+v: %v", sc, err)
		}
	}
	for _, sc := range []Schedule{{Name: "w", Cron: "@daily", Session: "s1", Pattern: "*.csv"}, {Name: "w", Cron: "@daily", Session: "s1", DataDir: "exports"}} {
		if _, err := parseSchedules([]Schedule{sc}, dirs); err == nil {
			t.Errorf("%+v: a data directory needs its pattern, and a pattern its directory", sc)
		}
	}
}

// TestScheduleResultsReachTheWebhook: each firing's result, done or
// failed, is POSTed to the webhook, signed with its secret (the
// signature the receiver computes matches, and a forged body's would
// not); a webhook that fails first is tried again.
func TestScheduleResultsReachTheWebhook(t *testing.T) {
	const secret = "s3cret"
	got := make(chan WebhookResult, 4)
	var calls atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if calls.Add(1) == 1 {
			http.Error(w, "not yet", http.StatusServiceUnavailable)
			return
		}
		ts := r.Header.Get("X-Sift-Timestamp")
		if sig := r.Header.Get("X-Sift-Signature"); !hmac.Equal([]byte(sig), []byte(SignWebhook(secret, ts, body))) || sig == SignWebhook(secret, ts, append(body, ' ')) {
			t.Errorf("signature %q does not sign the body", sig)
		}
		var res WebhookResult
		if err := json.Unmarshal(body, &res); err != nil {
			t.Errorf("body %s: %v", body, err)
		}
		got <- res
	}))
	defer hook.Close()

	script := refreshScript()
	cfg := testConfig(t, script)
	data := t.TempDir()
	cfg.DataDirs = map[string]string{"exports": data}
	a := startServer(t, cfg)
	rows := "2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n"
	id := a.createSession([2]string{"s.csv", "date,region,revenue\n" + rows})
	a.ask(id, map[string]any{"question": "Who sells most?", "mode": "plan", "parallel": 1})
	a.openStream(id, "").rest(t)
	if err := os.WriteFile(filepath.Join(data, "sales-2025.csv"), []byte("date,region,revenue\n"+rows+"2025-01-07,North,200\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Webhook = Webhook{URL: hook.URL + "/sift", Secret: secret}
	b := startServer(t, cfg)
	sc := Schedule{Name: "weekly", Cron: "0 7 * * 1", Session: id, DataDir: "exports", Pattern: "sales-*.csv"}
	monday := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	fired, err := b.srv.fire(context.Background(), sc, monday)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case res := <-got:
		if res.Event != "schedule.finished" || res.Schedule != "weekly" || res.Session != fired || res.Parent != id || res.Status != "done" ||
			res.Firing != "2026-11-30T07:00:00Z" || !strings.Contains(res.Answer, "North sells most") {
			t.Errorf("webhook result = %+v", res)
		}
	case <-time.After(time.Minute):
		t.Fatal("the webhook got no result")
	}
	sc.Name, sc.Pattern = "nothing", "orders-*.csv"
	failed, _ := b.srv.fire(context.Background(), sc, monday)
	select {
	case res := <-got:
		if res.Session != failed || res.Status != "failed" || !strings.Contains(res.Error, "orders-*.csv") {
			t.Errorf("a failed firing's webhook result = %+v", res)
		}
	case <-time.After(time.Minute):
		t.Fatal("the webhook got no result for the failed firing")
	}
	// Counted once the receiver has answered, just after it got the body.
	sent := 0.0
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if sent = b.scrape().value(t, "sift_webhook_sent_total"); sent == 2 {
			break
		}
	}
	if sent != 2 {
		t.Errorf("sift_webhook_sent_total = %v, want 2", sent)
	}
	for _, w := range []Webhook{{URL: hook.URL}, {URL: "ftp://x", Secret: "s"}} {
		c := testConfig(t, nil)
		c.Webhook = w
		if _, err := New(c); err == nil {
			t.Errorf("webhook %+v must be refused", w)
		}
	}
}
