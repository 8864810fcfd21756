package server

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// metrics are the server's Prometheus metrics; docs/metrics.md lists
// them. Every label has a bounded set of values (see the label sets
// below and maxWorkerLabels), so a long-lived server's series stay few.
type metrics struct {
	runs             *prometheus.CounterVec
	modelCalls       prometheus.Counter
	promptTokens     prometheus.Counter
	completionTokens prometheus.Counter
	cost             prometheus.Counter
	active           prometheus.Gauge
	queued           prometheus.Gauge
	sseClients       prometheus.Gauge

	runDuration   *prometheus.HistogramVec
	stepDuration  *prometheus.HistogramVec
	modelDuration *prometheus.HistogramVec
	queueWait     prometheus.Histogram
	failures      *prometheus.CounterVec
	takeovers     prometheus.Counter
	workerRuns    *prometheus.CounterVec
	// scheduleFirings counts the schedule firings this server took;
	// scheduleFailures those of them that could not run.
	scheduleFirings  prometheus.Counter
	scheduleFailures prometheus.Counter
	// webhookSent and webhookFailures count the schedule results sent
	// to the webhook, and those given up after every try.
	webhookSent, webhookFailures prometheus.Counter

	mu sync.Mutex
	// depth asks the shared run queue for its length (SetQueueDepth).
	depth func() (int64, error)
	// workers are the worker label values given out so far.
	workers map[string]bool
}

// The label values. A value outside a set is reported as "other", so no
// input (a model role, a worker name) can grow the number of series.
var (
	runOutcomes   = []string{"done", "failed", "waiting", "paused"}
	stepStatuses  = []string{string(plans.StatusDone), string(plans.StatusFailed), "other"}
	modelRoles    = []string{"planner", "executor", "code", "report", "other"}
	modelOutcomes = []string{"ok", "failed"}
	failureKinds  = []string{failModel, failTool, failSandbox, failTimeout, failBudget, failCancelled, failInput, failNotUnderstood, failInternal}
)

// otherLabel stands for every value outside a label's set.
const otherLabel = "other"

// maxWorkerLabels bounds the worker label of sift_worker_runs_total:
// workers that come and go (a new name each start) beyond it are counted
// under "other".
const maxWorkerLabels = 64

// Buckets, in seconds. Analyses take seconds to an hour; a step seconds
// to many minutes; a model call a fraction of a second to a few minutes;
// a queued run from nothing to as long as the runs before it.
var (
	runBuckets   = []float64{5, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200}
	stepBuckets  = []float64{1, 2, 5, 10, 30, 60, 120, 300, 600, 1800}
	modelBuckets = []float64{0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300}
	waitBuckets  = []float64{0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600}
)

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sift_runs_total",
			Help: "Runs ended, by outcome: done, failed, waiting (for the person), paused."}, []string{"outcome"}),
		modelCalls:       prometheus.NewCounter(prometheus.CounterOpts{Name: "sift_model_calls_total", Help: "Model calls of ended runs."}),
		promptTokens:     prometheus.NewCounter(prometheus.CounterOpts{Name: "sift_prompt_tokens_total", Help: "Prompt tokens of ended runs."}),
		completionTokens: prometheus.NewCounter(prometheus.CounterOpts{Name: "sift_completion_tokens_total", Help: "Completion tokens of ended runs."}),
		cost:             prometheus.NewCounter(prometheus.CounterOpts{Name: "sift_cost_dollars_total", Help: "Cost of the model calls of ended runs, in US dollars, from the price table."}),
		active:           prometheus.NewGauge(prometheus.GaugeOpts{Name: "sift_active_sessions", Help: "Sessions with a run going on in this server."}),
		queued:           prometheus.NewGauge(prometheus.GaugeOpts{Name: "sift_queued_runs", Help: "Runs waiting for a slot (--max-runs)."}),
		sseClients:       prometheus.NewGauge(prometheus.GaugeOpts{Name: "sift_sse_clients", Help: "Open event streams."}),

		runDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "sift_run_duration_seconds",
			Help: "How long runs took from getting their slot to their done event, by outcome: done, failed, waiting, paused.", Buckets: runBuckets}, []string{"outcome"}),
		stepDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "sift_step_duration_seconds",
			Help: "How long plan steps took, from step_started to step_finished in one run, by status: done, failed, other.", Buckets: stepBuckets}, []string{"status"}),
		modelDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "sift_model_call_duration_seconds",
			Help: "How long model calls took, by role (planner, executor, code, report, other) and outcome (ok, failed).", Buckets: modelBuckets}, []string{"role", "outcome"}),
		queueWait: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "sift_queue_wait_seconds",
			Help: "How long runs waited from being accepted to starting (0 for a run that started at once).", Buckets: waitBuckets}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sift_run_failures_total",
			Help: "Failed runs by kind: model, tool, sandbox, timeout, budget, cancelled, input, internal."}, []string{"kind"}),
		takeovers: prometheus.NewCounter(prometheus.CounterOpts{Name: "sift_run_takeovers_total",
			Help: "Runs this worker took over from a worker whose lease expired."}),
		workerRuns: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sift_worker_runs_total",
			Help: "Runs taken from the shared queue, by worker (at most 64 names, then \"other\")."}, []string{"worker"}),
		scheduleFirings: prometheus.NewCounter(prometheus.CounterOpts{Name: "sift_schedule_firings_total",
			Help: "Schedule firings this server or worker took (each firing is taken by one of them)."}),
		scheduleFailures: prometheus.NewCounter(prometheus.CounterOpts{Name: "sift_schedule_failures_total",
			Help: "Schedule firings taken here that could not run: no file matched, or the session cannot be refreshed on it."}),
		webhookSent: prometheus.NewCounter(prometheus.CounterOpts{Name: "sift_webhook_sent_total",
			Help: "Scheduled refreshes' results sent to the webhook."}),
		webhookFailures: prometheus.NewCounter(prometheus.CounterOpts{Name: "sift_webhook_failures_total",
			Help: "Scheduled refreshes' results the webhook did not take after every try."}),
		workers: map[string]bool{},
	}
	depth := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "sift_queue_depth",
		Help: "Runs waiting in the shared run queue; 0 without one, NaN when the queue cannot be asked."}, m.queueDepth)
	// Label values known in advance start at zero, so rate() and ratios
	// over them work before the first one happens.
	for _, o := range runOutcomes {
		m.runs.WithLabelValues(o)
		m.runDuration.WithLabelValues(o)
	}
	for _, k := range failureKinds {
		m.failures.WithLabelValues(k)
	}
	for _, s := range stepStatuses {
		m.stepDuration.WithLabelValues(s)
	}
	for _, r := range modelRoles {
		for _, o := range modelOutcomes {
			m.modelDuration.WithLabelValues(r, o)
		}
	}
	for _, c := range []prometheus.Collector{m.runs, m.modelCalls, m.promptTokens, m.completionTokens, m.cost, m.active, m.queued, m.sseClients,
		m.runDuration, m.stepDuration, m.modelDuration, m.queueWait, m.failures, m.takeovers, m.workerRuns, m.scheduleFirings, m.scheduleFailures, m.webhookSent, m.webhookFailures, depth} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	// The Go runtime and process metrics every Go service exports. A
	// registry given by the embedder may have them already.
	for _, c := range []prometheus.Collector{collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})} {
		if err := reg.Register(c); err != nil {
			if are := (prometheus.AlreadyRegisteredError{}); !errors.As(err, &are) {
				return nil, err
			}
		}
	}
	return m, nil
}

// QueueWait records how long a run waited from being accepted to
// starting: the in-process wait for a --max-runs slot, or the shared
// queue's.
func (m *metrics) QueueWait(d time.Duration) { m.queueWait.Observe(d.Seconds()) }

// Takeover counts a run taken over from a worker whose lease expired.
func (m *metrics) Takeover() { m.takeovers.Inc() }

// WorkerRun counts a run the worker named took from the shared queue.
// Past maxWorkerLabels names, new ones are counted as "other".
func (m *metrics) WorkerRun(worker string) {
	m.mu.Lock()
	if !m.workers[worker] {
		if len(m.workers) >= maxWorkerLabels || worker == "" {
			worker = otherLabel
		} else {
			m.workers[worker] = true
		}
	}
	m.mu.Unlock()
	m.workerRuns.WithLabelValues(worker).Inc()
}

// SetQueueDepth registers how sift_queue_depth asks the shared queue for
// its length; it is called at each scrape, so it should answer quickly
// (bound it with its own timeout).
func (m *metrics) SetQueueDepth(depth func() (int64, error)) {
	m.mu.Lock()
	m.depth = depth
	m.mu.Unlock()
}

func (m *metrics) queueDepth() float64 {
	m.mu.Lock()
	depth := m.depth
	m.mu.Unlock()
	if depth == nil {
		return 0
	}
	n, err := depth()
	if err != nil {
		return math.NaN()
	}
	return float64(n)
}

// runMetrics follows one run's events: the durations of its steps and
// model calls, and at its end its own.
type runMetrics struct {
	m       *metrics
	started time.Time
	// steps are the step_started times of this run's steps, by index.
	steps map[int]time.Time
}

// startRun begins following a run that has got its slot.
func (m *metrics) startRun() *runMetrics {
	return &runMetrics{m: m, started: time.Now(), steps: map[int]time.Time{}}
}

// event observes one of the run's events.
func (r *runMetrics) event(e event.Event) {
	switch e.Kind {
	case event.StepStarted:
		if e.Step != nil {
			r.steps[e.Step.Index] = e.Time
		}
	case event.StepFinished:
		if e.Step == nil {
			return
		}
		// A step started by an earlier run (before a restart) has no
		// start here: its time is not known.
		if t, ok := r.steps[e.Step.Index]; ok {
			delete(r.steps, e.Step.Index)
			r.m.stepDuration.WithLabelValues(oneOf(string(e.Step.Status), stepStatuses)).Observe(e.Time.Sub(t).Seconds())
		}
	case event.ModelFinished:
		if e.Call == nil {
			return
		}
		outcome := "ok"
		if e.Call.Failed {
			outcome = "failed"
		}
		r.m.modelDuration.WithLabelValues(oneOf(e.Call.Role, modelRoles), outcome).Observe(float64(e.Call.ElapsedMS) / 1000)
	}
}

// end observes the run's end, given its last event.
func (r *runMetrics) end(final event.Event) {
	outcome := r.m.observeRun(final)
	r.m.runDuration.WithLabelValues(outcome).Observe(time.Since(r.started).Seconds())
}

// oneOf is v when set has it, else "other".
func oneOf(v string, set []string) string {
	for _, s := range set {
		if s == v {
			return v
		}
	}
	return otherLabel
}

// observeRun counts a run by its last event and returns its outcome.
func (m *metrics) observeRun(final event.Event) string {
	outcome := "done"
	switch {
	case final.Kind == event.Done && final.Text == "paused":
		outcome = "paused"
	case final.Kind != event.Done || final.Err != nil:
		outcome = "failed"
		m.failures.WithLabelValues(failureKind(final)).Inc()
	case final.Interrupt != nil:
		outcome = "waiting"
	}
	m.runs.WithLabelValues(outcome).Inc()
	if u := final.Usage; u != nil {
		m.modelCalls.Add(float64(u.Calls))
		m.promptTokens.Add(float64(u.PromptTokens))
		m.completionTokens.Add(float64(u.CompletionTokens))
		m.cost.Add(u.Cost)
	}
	return outcome
}

// The kinds of sift_run_failures_total.
const (
	// failModel: the model could not be called (configuration, credentials,
	// endpoint, or a call that failed after its retries).
	failModel = "model"
	// failTool: the run finished, but its answer rests on steps whose code
	// or tools failed.
	failTool = "tool"
	// failSandbox: no Python or no sandbox to run the generated code in.
	failSandbox = "sandbox"
	// failTimeout: a deadline ended the run.
	failTimeout = "timeout"
	// failBudget: the run reached one of its budgets (calls, tokens, cost,
	// time, steps).
	failBudget = "budget"
	// failCancelled: the run was stopped (the server shutting down past
	// its grace).
	failCancelled = "cancelled"
	// failInput: the request could not run as given (bad input, nothing to
	// resume).
	failInput = "input"
	// failNotUnderstood: no built-in analysis understood the request and
	// no model is configured to take it: the person rephrases, names the
	// columns, or a model is configured. Neither the server's fault nor
	// the model's.
	failNotUnderstood = "not_understood"
	// failInternal: anything else; the server's log says what.
	failInternal = "internal"
)

// failureKind sorts a failed run by its final event's error, in the order
// the CLI's exit codes sort the same errors (cmd/sift exitCode).
func failureKind(final event.Event) string {
	err := final.Err
	var me *agents.ModelError
	switch {
	case final.Kind != event.Done || err == nil:
		// The run's events ended without a done event (or a failed one
		// without its error): Sift's own fault.
		return failInternal
	case errors.Is(err, session.ErrBadInput), errors.Is(err, agents.ErrNoQuestion), errors.Is(err, agents.ErrNothingToResume),
		errors.Is(err, session.ErrWorkspaceNotFound):
		return failInput
	case errors.Is(err, context.Canceled):
		return failCancelled
	case errors.Is(err, agents.ErrNoTemplateMatch):
		return failNotUnderstood
	case errors.Is(err, agents.ErrNoModel), errors.Is(err, llm.ErrNotConfigured), errors.Is(err, llm.ErrAuth), errors.Is(err, llm.ErrUnreachable),
		errors.As(err, &me):
		return failModel
	case errors.Is(err, context.DeadlineExceeded):
		return failTimeout
	case errors.Is(err, operator.ErrNoPython), errors.Is(err, operator.ErrNoSandbox), errors.Is(err, operator.ErrNoSandboxUID):
		return failSandbox
	case errors.Is(err, agents.ErrBudgetExceeded):
		return failBudget
	case errors.Is(err, agents.ErrAnswerOnFailedSteps):
		return failTool
	}
	return failInternal
}
