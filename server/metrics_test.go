package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// scraped is /metrics as a Prometheus server reads it.
type scraped map[string]*dto.MetricFamily

// scrape reads /metrics through the server's own handler.
func (ts *testServer) scrape() scraped {
	ts.t.Helper()
	resp, err := http.Get(ts.http.URL + "/metrics")
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		ts.t.Fatalf("/metrics: %d", resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		ts.t.Fatalf("/metrics is not the Prometheus text format: %v", err)
	}
	return fams
}

// series returns the series of family name whose labels include labels
// ("k=v" pairs).
func (s scraped) series(t testing.TB, name string, labels ...string) []*dto.Metric {
	t.Helper()
	f, ok := s[name]
	if !ok {
		t.Fatalf("/metrics has no %s", name)
	}
	var out []*dto.Metric
	for _, m := range f.Metric {
		have := map[string]string{}
		for _, l := range m.Label {
			have[l.GetName()] = l.GetValue()
		}
		if !slices.ContainsFunc(labels, func(kv string) bool { k, v, _ := strings.Cut(kv, "="); return have[k] != v }) {
			out = append(out, m)
		}
	}
	return out
}

// value sums the counters or gauges of name matching labels.
func (s scraped) value(t testing.TB, name string, labels ...string) float64 {
	t.Helper()
	var v float64
	for _, m := range s.series(t, name, labels...) {
		switch {
		case m.Counter != nil:
			v += m.Counter.GetValue()
		case m.Gauge != nil:
			v += m.Gauge.GetValue()
		case m.Untyped != nil:
			v += m.Untyped.GetValue()
		}
	}
	return v
}

// histogram sums the count and sum of the histograms of name matching
// labels.
func (s scraped) histogram(t testing.TB, name string, labels ...string) (count uint64, sum float64) {
	t.Helper()
	for _, m := range s.series(t, name, labels...) {
		if m.Histogram == nil {
			t.Fatalf("%s is not a histogram", name)
		}
		count += m.Histogram.GetSampleCount()
		sum += m.Histogram.GetSampleSum()
	}
	return count, sum
}

// countEvents counts events of kind in fs whose data contains has.
func countEvents(fs []sseFrame, kind, has string) int {
	n := 0
	for _, f := range fs {
		if f.event == kind && strings.Contains(f.data, has) {
			n++
		}
	}
	return n
}

// TestMetricsOfScriptedRuns: after a scripted analysis, a run queued
// behind it and a run whose model fails, /metrics (read through the real
// handler) has a run-duration sample per run by outcome, a step-duration
// sample per finished step, a model-call sample per model call by role
// and outcome, a queue-wait sample per run that covers the time the
// queued one waited, the failure by kind, and the Go and process metrics.
func TestMetricsOfScriptedRuns(t *testing.T) {
	g := newGate(t)
	script := twoStepScript(g)
	cfg := testConfig(t, script)
	cfg.MaxRuns = 1
	ts := startServer(t, cfg)

	first := ts.createSession()
	ts.ask(first, map[string]any{"question": "x", "mode": "plan"})
	g.wait(t)
	second := ts.createSession(salesCSV(t))
	if a := ts.ask(second, map[string]any{"question": "monthly revenue trend", "mode": "template"}); a.State != "queued" {
		t.Fatalf("second run = %+v, want queued", a)
	}
	queuedAt := time.Now()
	// The first run is held at least this long after the second was
	// queued, so the second waits at least as long.
	if ts.scrape().value(t, "sift_queued_runs") != 1 {
		t.Fatal("sift_queued_runs is not 1 with a run queued")
	}
	held := time.Since(queuedAt)
	g.release()
	evs1 := ts.openStream(first, "").rest(t)
	evs2 := ts.openStream(second, "").rest(t)
	for _, evs := range [][]sseFrame{evs1, evs2} {
		if last := evs[len(evs)-1]; last.event != "done" || strings.Contains(last.data, `"error"`) {
			t.Fatalf("run did not succeed: %s %s", kindsOf(evs), last.data)
		}
	}
	// The script has no reply left: the next run's first model call
	// fails, and with it the run.
	third := ts.createSession()
	ts.ask(third, map[string]any{"question": "y", "mode": "plan"})
	evs3 := ts.openStream(third, "").rest(t)
	if last := evs3[len(evs3)-1]; last.event != "done" || !strings.Contains(last.data, "model call") {
		t.Fatalf("third run should fail on its model call: %s %s", kindsOf(evs3), last.data)
	}

	m := ts.scrape()
	for _, name := range []string{"go_goroutines", "go_memstats_heap_alloc_bytes", "go_gc_duration_seconds", "process_cpu_seconds_total", "process_resident_memory_bytes", "process_start_time_seconds"} {
		if _, ok := m[name]; !ok {
			t.Errorf("/metrics lacks the standard %s", name)
		}
	}
	if c, _ := m.histogram(t, "sift_run_duration_seconds", "outcome=done"); c != 2 {
		t.Errorf("run durations of done runs: %d, want 2", c)
	}
	if c, _ := m.histogram(t, "sift_run_duration_seconds", "outcome=failed"); c != 1 {
		t.Errorf("run durations of failed runs: %d, want 1", c)
	}
	if v := m.value(t, "sift_run_failures_total", "kind=model"); v != 1 {
		t.Errorf("model failures: %v, want 1", v)
	}
	if v := m.value(t, "sift_run_failures_total"); v != 1 {
		t.Errorf("failures of any kind: %v, want 1", v)
	}
	if v := m.value(t, "sift_runs_total", "outcome=failed"); v != 1 {
		t.Errorf("failed runs: %v, want 1", v)
	}

	// Every step that finished in these runs has its duration.
	all := slices.Concat(evs1, evs2, evs3)
	for _, status := range []string{"done", "failed"} {
		want := countEvents(all, "step_finished", `"status":"`+status+`"`)
		if c, _ := m.histogram(t, "sift_step_duration_seconds", "status="+status); c != uint64(want) {
			t.Errorf("step durations with status %s: %d, want %d (the step_finished events)", status, c, want)
		}
	}
	if c, _ := m.histogram(t, "sift_step_duration_seconds"); c < 3 {
		t.Errorf("step durations: %d, want the first run's 2 steps and the template's", c)
	}

	// Every model call has its duration, by role and outcome.
	calls := countEvents(all, "model_finished", "")
	if c, _ := m.histogram(t, "sift_model_call_duration_seconds"); c != uint64(calls) || calls == 0 {
		t.Errorf("model call durations: %d, want %d (the model_finished events)", c, calls)
	}
	// The executor makes no call here: with no search provider, a step
	// goes straight to the code agent.
	for _, role := range []string{"planner", "executor", "code", "report"} {
		want := countEvents(all, "model_finished", `"role":"`+role+`"`)
		if c, _ := m.histogram(t, "sift_model_call_duration_seconds", "role="+role); c != uint64(want) || (want == 0) != (role == "executor") {
			t.Errorf("model call durations of the %s: %d, want %d", role, c, want)
		}
	}
	if c, _ := m.histogram(t, "sift_model_call_duration_seconds", "outcome=failed"); c == 0 || c != uint64(countEvents(all, "model_finished", `"failed":true`)) {
		t.Errorf("failed model call durations: %d, want the failed calls", c)
	}

	// Each run waited for its slot; the queued one at least as long as
	// the first was held after it came.
	c, sum := m.histogram(t, "sift_queue_wait_seconds")
	if c != 3 || sum < held.Seconds() {
		t.Errorf("queue waits: %d samples summing to %.3fs, want 3 covering the %.3fs the second waited", c, sum, held.Seconds())
	}
}

// TestQueueObserverMetrics: the shared run queue reports through the
// metrics' QueueObserver methods: its depth (asked at each scrape, 0
// without a queue, NaN when it cannot be asked), takeovers, runs per
// worker and queue waits.
func TestQueueObserverMetrics(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	var obs interface {
		QueueWait(d time.Duration)
		Takeover()
		WorkerRun(worker string)
		SetQueueDepth(depth func() (int64, error))
	} = ts.srv.metrics

	if v := ts.scrape().value(t, "sift_queue_depth"); v != 0 {
		t.Errorf("depth without a queue = %v, want 0", v)
	}
	depth := int64(7)
	obs.SetQueueDepth(func() (int64, error) { return depth, nil })
	if v := ts.scrape().value(t, "sift_queue_depth"); v != 7 {
		t.Errorf("depth = %v, want 7", v)
	}
	depth = 2
	if v := ts.scrape().value(t, "sift_queue_depth"); v != 2 {
		t.Errorf("depth is not asked again at each scrape: %v, want 2", v)
	}
	obs.SetQueueDepth(func() (int64, error) { return 0, errors.New("redis: connection refused") })
	if v := ts.scrape().value(t, "sift_queue_depth"); !math.IsNaN(v) {
		t.Errorf("depth of a queue that cannot be asked = %v, want NaN", v)
	}

	obs.Takeover()
	obs.Takeover()
	obs.WorkerRun("worker-a")
	obs.WorkerRun("worker-a")
	obs.WorkerRun("worker-b")
	obs.QueueWait(90 * time.Second)
	obs.QueueWait(0)
	m := ts.scrape()
	if v := m.value(t, "sift_run_takeovers_total"); v != 2 {
		t.Errorf("takeovers = %v, want 2", v)
	}
	if a, b := m.value(t, "sift_worker_runs_total", "worker=worker-a"), m.value(t, "sift_worker_runs_total", "worker=worker-b"); a != 2 || b != 1 {
		t.Errorf("runs per worker: a %v b %v, want 2 and 1", a, b)
	}
	c, sum := m.histogram(t, "sift_queue_wait_seconds")
	if c != 2 || sum != 90 {
		t.Errorf("queue waits: %d summing to %v, want 2 summing to 90", c, sum)
	}
	for _, b := range m.series(t, "sift_queue_wait_seconds")[0].Histogram.Bucket {
		if want := uint64(1); b.GetUpperBound() < 90 && b.GetCumulativeCount() != want {
			t.Errorf("bucket le=%v holds %d, want only the 0s wait", b.GetUpperBound(), b.GetCumulativeCount())
		}
	}
}

// TestMetricsLabelsStayBounded: however many workers come and go and
// whatever roles and statuses runs report, each sift_* metric keeps a
// bounded set of series, and every label value is one docs/metrics.md
// lists (or a worker name, up to maxWorkerLabels of them).
func TestMetricsLabelsStayBounded(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	m := ts.srv.metrics
	for i := range 1000 {
		m.WorkerRun(fmt.Sprintf("worker-%d", i))
	}
	m.WorkerRun("")
	run := m.startRun()
	now := time.Now()
	for i := range 200 {
		run.event(event.Event{Kind: event.ModelFinished, Call: &event.ModelCall{Role: fmt.Sprintf("role-%d", i), ElapsedMS: 10}})
		step := &plans.StepState{Step: plans.Step{Index: i}, Status: plans.StepStatus(fmt.Sprintf("status-%d", i))}
		run.event(event.Event{Kind: event.StepStarted, Step: step, Time: now})
		run.event(event.Event{Kind: event.StepFinished, Step: step, Time: now.Add(time.Second)})
	}
	run.end(event.Event{Kind: event.Done, Err: errors.New("something unheard of")})

	s := ts.scrape()
	if v := s.value(t, "sift_worker_runs_total", "worker=worker-0"); v != 1 {
		t.Errorf("the first worker's runs = %v, want 1", v)
	}
	if v := s.value(t, "sift_worker_runs_total", "worker=other"); v != 1000-maxWorkerLabels+1 {
		t.Errorf("runs of workers past the first %d = %v, want %d under other", maxWorkerLabels, v, 1000-maxWorkerLabels+1)
	}
	if c, _ := s.histogram(t, "sift_model_call_duration_seconds", "role=other"); c != 200 {
		t.Errorf("calls of unknown roles under other: %d, want 200", c)
	}
	if c, _ := s.histogram(t, "sift_step_duration_seconds", "status=other"); c != 200 {
		t.Errorf("steps of unknown status under other: %d, want 200", c)
	}
	if v := s.value(t, "sift_run_failures_total", "kind=internal"); v != 1 {
		t.Errorf("an unknown error's kind: %v internal, want 1", v)
	}
	allowed := map[string][]string{
		"outcome": slices.Concat(runOutcomes, modelOutcomes),
		"status":  stepStatuses,
		"role":    modelRoles,
		"kind":    failureKinds,
	}
	for name, f := range s {
		if !strings.HasPrefix(name, "sift_") {
			continue
		}
		if len(f.Metric) > maxWorkerLabels+1 {
			t.Errorf("%s has %d series", name, len(f.Metric))
		}
		for _, met := range f.Metric {
			for _, l := range met.Label {
				if l.GetName() == "worker" {
					continue
				}
				if vals, ok := allowed[l.GetName()]; !ok || !slices.Contains(vals, l.GetValue()) {
					t.Errorf("%s{%s=%q}: a label value outside the documented sets", name, l.GetName(), l.GetValue())
				}
			}
		}
	}
}

// TestMetricsShareAnEmbeddersRegistry: a registry given in Config that
// has the Go and process collectors already (as Prometheus's default one
// does) takes the server's metrics beside them.
func TestMetricsShareAnEmbeddersRegistry(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	cfg := testConfig(t, nil)
	cfg.Registerer, cfg.Gatherer = reg, reg
	ts := startServer(t, cfg)
	m := ts.scrape()
	for _, name := range []string{"go_goroutines", "process_start_time_seconds", "sift_runs_total", "sift_queue_wait_seconds"} {
		if m[name] == nil {
			t.Errorf("/metrics lacks %s", name)
		}
	}
}

// TestFailureKinds: a failed run's kind, from its final event's error as
// the agents wrap it.
func TestFailureKinds(t *testing.T) {
	runFailed := func(err error) error { return fmt.Errorf("%w: %w", agents.ErrRunFailed, err) }
	for _, c := range []struct {
		err  error
		kind string
	}{
		{runFailed(&agents.ModelError{Agent: "planner", Err: errors.New("503 overloaded")}), failModel},
		{runFailed(&agents.ModelError{Agent: "code", Err: context.DeadlineExceeded}), failModel},
		{fmt.Errorf("%w: resuming needs the model", agents.ErrNoModel), failModel},
		{fmt.Errorf("chat: %w", llm.ErrAuth), failModel},
		{fmt.Errorf("chat: %w", llm.ErrUnreachable), failModel},
		{fmt.Errorf("%w: step 2 failed", agents.ErrAnswerOnFailedSteps), failTool},
		{fmt.Errorf("%w: bubblewrap is not installed", operator.ErrNoSandbox), failSandbox},
		{&operator.NoPythonError{}, failSandbox},
		{fmt.Errorf("%w: uids 100-199", operator.ErrNoSandboxUID), failSandbox},
		{runFailed(fmt.Errorf("interrupted: %w", context.Canceled)), failCancelled},
		{runFailed(fmt.Errorf("interrupted: %w", context.DeadlineExceeded)), failTimeout},
		{fmt.Errorf("%w: 10 model calls of 10 allowed", agents.ErrBudgetExceeded), failBudget},
		{fmt.Errorf("%w: session x has no step left", agents.ErrNothingToResume), failInput},
		{fmt.Errorf("%w: input file a.csv missing", session.ErrBadInput), failInput},
		{fmt.Errorf("%w. These words could not be placed: humidity", agents.ErrNoTemplateMatch), failNotUnderstood},
		{runFailed(errors.New("checkpoint store: disk full")), failInternal},
	} {
		if got := failureKind(event.Event{Kind: event.Done, Err: c.err}); got != c.kind {
			t.Errorf("%v: kind %s, want %s", c.err, got, c.kind)
		}
		if !slices.Contains(failureKinds, c.kind) {
			t.Errorf("kind %s is not in failureKinds", c.kind)
		}
	}
	if got := failureKind(event.Event{Kind: event.Error, Err: errors.New("x")}); got != failInternal {
		t.Errorf("a run that ended without its done event: %s, want internal", got)
	}
}

// TestMetricsDocumented: docs/metrics.md names every sift_* metric the
// server exports, with its type, and every failure kind; the alert rules
// and the dashboard use only metrics that exist.
func TestMetricsDocumented(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	// A label value makes the metrics that have none yet appear.
	ts.srv.metrics.WorkerRun("w1")
	fams := ts.scrape()
	doc := readDoc(t, "metrics.md")
	for name, f := range fams {
		if !strings.HasPrefix(name, "sift_") {
			continue
		}
		typ := strings.ToLower(f.GetType().String())
		if !regexp.MustCompile("(?m)^\\| `" + name + "` \\| " + typ + " \\|").MatchString(doc) {
			t.Errorf("docs/metrics.md has no table row | `%s` | %s |", name, typ)
		}
	}
	for _, row := range regexp.MustCompile("(?m)^\\| `(sift_[a-z_]+)` \\|").FindAllStringSubmatch(doc, -1) {
		if fams[row[1]] == nil {
			t.Errorf("docs/metrics.md lists %s, which /metrics does not export", row[1])
		}
	}
	for _, k := range failureKinds {
		if !strings.Contains(doc, "| `"+k+"` |") {
			t.Errorf("docs/metrics.md does not explain the failure kind %s", k)
		}
	}
	known := func(name string) bool {
		for _, suffix := range []string{"", "_bucket", "_count", "_sum"} {
			if base, ok := strings.CutSuffix(name, suffix); ok && fams[base] != nil {
				return true
			}
		}
		return false
	}
	used := regexp.MustCompile(`\b(?:sift|go|process)_[a-z_]+`)
	for _, f := range []string{"alerts.yml", "grafana-dashboard.json"} {
		text := readDoc(t, f)
		names := used.FindAllString(text, -1)
		if len(names) == 0 {
			t.Errorf("docs/%s uses no metric", f)
		}
		for _, n := range names {
			if !known(n) {
				t.Errorf("docs/%s uses %s, which /metrics does not export", f, n)
			}
		}
	}
}

// dashboardExprs are the queries of docs/grafana-dashboard.json's
// panels, with Grafana's variables replaced by what Prometheus accepts.
func dashboardExprs(t *testing.T) []string {
	t.Helper()
	var dash struct {
		Panels []struct {
			Title   string
			Type    string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal([]byte(readDoc(t, "grafana-dashboard.json")), &dash); err != nil {
		t.Fatalf("docs/grafana-dashboard.json: %v", err)
	}
	vars := strings.NewReplacer("$__rate_interval", "5m", "$job", ".*")
	var exprs []string
	for _, p := range dash.Panels {
		if p.Type == "row" {
			continue
		}
		if len(p.Targets) == 0 {
			t.Errorf("dashboard panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			exprs = append(exprs, vars.Replace(tg.Expr))
		}
	}
	return exprs
}

// TestAlertRulesAndDashboardQueries: promtool accepts docs/alerts.yml,
// its unit tests (testdata/alerts_test.yml) see each alert fire when it
// should and stay quiet when it should not, and every dashboard query
// parses. Skipped without promtool (Debian: apt-get install prometheus).
func TestAlertRulesAndDashboardQueries(t *testing.T) {
	exprs := dashboardExprs(t)
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("promtool is missing: .ci/run installs it (Debian: apt-get install --no-install-recommends prometheus)")
		}
		t.Skip("needs promtool to check the alert rules (Debian: apt-get install --no-install-recommends prometheus)")
	}
	run := func(args ...string) {
		t.Helper()
		out, err := exec.Command(promtool, args...).CombinedOutput()
		if err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("check", "rules", filepath.Join("..", "docs", "alerts.yml"))
	run("test", "rules", filepath.Join("testdata", "alerts_test.yml"))
	// The dashboard's queries, checked as recording rules.
	var rules strings.Builder
	rules.WriteString("groups:\n  - name: dashboard\n    rules:\n")
	for i, e := range exprs {
		q, _ := json.Marshal(e)
		fmt.Fprintf(&rules, "      - record: dashboard_query_%d\n        expr: %s\n", i, q)
	}
	f := filepath.Join(t.TempDir(), "dashboard.yml")
	if err := os.WriteFile(f, []byte(rules.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	run("check", "rules", f)
}

func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNoModelRunNoBuiltInUnderstoodIsNotUnderstood: with no model, a
// request no built-in analysis matches, and one whose reading names a
// column the data lacks, fail as not_understood (docs/metrics.md), not as
// model failures: nothing was wrong with a model; the person rephrases or
// configures one.
func TestNoModelRunNoBuiltInUnderstoodIsNotUnderstood(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	for _, q := range []string{"Why did North grow, and what should we do next?", "monthly humidity trend"} {
		id := ts.createSession(salesCSV(t))
		ts.ask(id, map[string]any{"question": q})
		evs := ts.openStream(id, "").rest(t)
		if last := evs[len(evs)-1]; last.event != "done" || !strings.Contains(last.data, "no model configured") {
			t.Fatalf("%q should fail saying no built-in answers it without a model: %s %s", q, kindsOf(evs), last.data)
		}
	}
	m := ts.scrape()
	if v := m.value(t, "sift_run_failures_total", "kind=not_understood"); v != 2 {
		t.Errorf("not_understood failures: %v, want 2", v)
	}
	if v := m.value(t, "sift_run_failures_total", "kind=model"); v != 0 {
		t.Errorf("model failures: %v, want 0 (no model call was tried)", v)
	}
}
