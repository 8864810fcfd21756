package tracing

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"

	"github.com/sift-agent/sift/llm"
)

func TestEnabled(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want bool
	}{
		{"nothing set", nil, false},
		{"endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, true},
		{"traces endpoint", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, true},
		{"console exporter", map[string]string{"OTEL_TRACES_EXPORTER": "console"}, true},
		{"exporter none wins", map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"}, false},
		{"SDK disabled", map[string]string{"OTEL_SDK_DISABLED": "TRUE", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"}, false},
		{"SDK not disabled", map[string]string{"OTEL_SDK_DISABLED": "false", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Enabled(func(k string) string { return tt.env[k] }); got != tt.want {
				t.Errorf("Enabled = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSetupTracingOffLeavesGlobalAlone(t *testing.T) {
	before := otel.GetTracerProvider()
	shutdown, err := SetupTracing(context.Background(), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if otel.GetTracerProvider() != before {
		t.Error("SetupTracing installed a provider with tracing off")
	}
	if err := shutdown(context.Background()); err != nil {
		t.Errorf("shutdown = %v", err)
	}
}

func TestSetupTracingBadProtocol(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "carrier-pigeon")
	if _, err := SetupTracing(context.Background(), os.Getenv); err == nil {
		t.Error("SetupTracing accepted an unknown OTLP protocol")
	}
}

// TestSetupTracingExportsOTLP exports a run's spans over OTLP/HTTP to a
// local receiver. It installs the global tracer provider for the rest of
// this package's tests.
func TestSetupTracingExportsOTLP(t *testing.T) {
	var (
		mu       sync.Mutex
		requests []*http.Request
		bodies   [][]byte
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		requests = append(requests, r)
		bodies = append(bodies, body)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	t.Setenv("OTEL_TRACES_EXPORTER", "")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "")
	t.Setenv("OTEL_SERVICE_NAME", "sift-test")

	ctx := context.Background()
	shutdown, err := SetupTracing(ctx, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	runCtx, endRun := llm.StartRun(ctx, "sess-otlp")
	if !trace.SpanFromContext(runCtx).IsRecording() {
		t.Error("run span does not record after SetupTracing")
	}
	_, endAgent := llm.StartAgent(runCtx, llm.AgentPlanner)
	endAgent(nil)
	endRun(nil)
	if err := shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}

	mu.Lock()
	defer mu.Unlock()
	if len(requests) == 0 {
		t.Fatal("no spans reached the OTLP receiver")
	}
	r := requests[0]
	if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		t.Errorf("request = %s %s (%s), want POST /v1/traces with protobuf", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
	}
	// The protobuf payload holds the span and service names as strings.
	for _, want := range []string{"sift.run", "invoke_agent planner", "sift-test", "sess-otlp"} {
		found := false
		for _, b := range bodies {
			found = found || bytes.Contains(b, []byte(want))
		}
		if !found {
			t.Errorf("exported spans do not mention %q", want)
		}
	}
}

// TestConsoleExporterWritesToStderr: OTEL_TRACES_EXPORTER=console writes
// spans to standard error (consoleWriter), never into stdout, where a
// command's answer and --json events go.
func TestConsoleExporterWritesToStderr(t *testing.T) {
	// By descriptor, not os.Stderr itself: go test -json (as make test
	// runs) puts another file in os.Stderr after the package's init.
	if f, ok := consoleWriter.(*os.File); !ok || f.Fd() != 2 {
		t.Fatalf("the console exporter writes to %v, want standard error (descriptor 2; stdout is the command's answer)", consoleWriter)
	}
	var buf bytes.Buffer
	old := consoleWriter
	consoleWriter = &buf
	t.Cleanup(func() { consoleWriter = old })
	t.Setenv("OTEL_TRACES_EXPORTER", "console")
	ctx := context.Background()
	shutdown, err := SetupTracing(ctx, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	_, endRun := llm.StartRun(ctx, "sess-console")
	endRun(nil)
	if err := shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte("sess-console")) {
		t.Errorf("the console exporter did not write the run's span to its writer (stderr); got %q", buf.String())
	}
}
