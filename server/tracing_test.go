package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// The trace a client's request belongs to, as its traceparent header says.
const (
	clientTraceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	traceparent   = "00-" + clientTraceID + "-00f067aa0ba902b7-01"
)

// recordSpans installs a global tracer provider that records every span
// for the rest of the test.
func recordSpans(t *testing.T) *tracetest.InMemoryExporter {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	old := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() {
		otel.SetTracerProvider(old)
		_ = tp.Shutdown(context.Background())
	})
	return exp
}

// askTraced starts a run of session id with the client's traceparent.
func askTraced(t *testing.T, ts *testServer, id, question string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"question": question})
	req, _ := http.NewRequest("POST", ts.http.URL+"/v1/sessions/"+id+"/runs", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("traceparent", traceparent)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("ask: %d", resp.StatusCode)
	}
}

// spansOfTrace names the ended spans of the client's trace.
func spansOfTrace(exp *tracetest.InMemoryExporter) map[string]tracetest.SpanStub {
	out := map[string]tracetest.SpanStub{}
	for _, s := range exp.GetSpans() {
		if s.SpanContext.TraceID().String() == clientTraceID {
			out[s.Name] = s
		}
	}
	return out
}

// TestOneTraceJoinsTheRequestAndItsRun: the API request that starts a run
// has an HTTP server span in the client's trace (its traceparent), and the
// run's spans join that trace: in the same server, and through the run
// queue in a worker. Before, neither had a span in the client's trace.
func TestOneTraceJoinsTheRequestAndItsRun(t *testing.T) {
	exp := recordSpans(t)
	t.Run("in process", func(t *testing.T) {
		exp.Reset()
		ts := startServer(t, testConfig(t, nil))
		id := ts.createSession(salesCSV(t))
		askTraced(t, ts, id, "monthly revenue trend")
		ts.openStream(id, "").rest(t)
		checkTrace(t, exp)
	})
	t.Run("through the run queue", func(t *testing.T) {
		exp.Reset()
		addr := startRedis(t)
		apiCfg := testConfig(t, nil)
		apiCfg.Sift.Store, apiCfg.NoRuns = redisBackend(t, addr), true
		api := startServer(t, apiCfg)
		workerCfg := testConfig(t, nil)
		workerCfg.Sift.SessionsRoot = apiCfg.Sift.SessionsRoot
		workerCfg.Sift.Store, workerCfg.RunQueue, workerCfg.WorkerName = redisBackend(t, addr), true, "w1"
		startServer(t, workerCfg)
		id := api.createSession(salesCSV(t))
		askTraced(t, api, id, "monthly revenue trend")
		api.openStream(id, "").rest(t)
		checkTrace(t, exp)
	})
}

func checkTrace(t *testing.T, exp *tracetest.InMemoryExporter) {
	t.Helper()
	spans := spansOfTrace(exp)
	httpSpan, ok := spans["POST /v1/sessions/{id}/..."]
	if !ok {
		t.Fatalf("no HTTP server span in the client's trace; spans: %v", names(exp))
	}
	if httpSpan.Status.Code == codes.Error {
		t.Errorf("the accepted request's span is an error: %+v", httpSpan.Status)
	}
	if _, ok := spans["sift.run"]; !ok {
		t.Errorf("the run's span is not in the client's trace; spans: %v", names(exp))
	}
}

func names(exp *tracetest.InMemoryExporter) []string {
	var out []string
	for _, s := range exp.GetSpans() {
		out = append(out, s.Name+" "+s.SpanContext.TraceID().String()[:8])
	}
	return out
}
