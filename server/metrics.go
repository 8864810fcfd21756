package server

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sift-agent/sift/event"
)

// metrics are the server's Prometheus metrics.
type metrics struct {
	runs             *prometheus.CounterVec
	modelCalls       prometheus.Counter
	promptTokens     prometheus.Counter
	completionTokens prometheus.Counter
	cost             prometheus.Counter
	active           prometheus.Gauge
	queued           prometheus.Gauge
	sseClients       prometheus.Gauge
}

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
	}
	for _, c := range []prometheus.Collector{m.runs, m.modelCalls, m.promptTokens, m.completionTokens, m.cost, m.active, m.queued, m.sseClients} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// observeRun counts a run by its last event.
func (m *metrics) observeRun(final event.Event) {
	outcome := "done"
	switch {
	case final.Kind == event.EventDone && final.Text == "paused":
		outcome = "paused"
	case final.Kind != event.EventDone || final.Err != nil:
		outcome = "failed"
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
}
