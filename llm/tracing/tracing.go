// Package tracing exports Sift's OpenTelemetry spans, configured by the
// standard OTEL_* environment variables.
//
// The spans themselves are made by package llm (every model call, and
// llm.StartRun, llm.StartAgent and llm.StartTool around them) through
// the OpenTelemetry API alone. This package holds the SDK and the
// exporters, so that only programs that want traces exported — the sift
// command, or a service embedding Sift that calls SetupTracing — link them.
package tracing

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// DefaultServiceName is the service.name of Sift's traces when
// OTEL_SERVICE_NAME (or service.name in OTEL_RESOURCE_ATTRIBUTES) is unset.
const DefaultServiceName = "sift"

// Enabled reports whether the environment asks for traces: when
// OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
// OTEL_TRACES_EXPORTER is set, unless OTEL_TRACES_EXPORTER is "none" or
// OTEL_SDK_DISABLED is "true". getenv reads the environment; nil means
// os.Getenv.
func Enabled(getenv func(string) string) bool {
	if getenv == nil {
		getenv = os.Getenv
	}
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return false
	}
	exporter := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER"))
	if exporter == "none" {
		return false
	}
	return exporter != "" || getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// SetupTracing installs a global OpenTelemetry tracer provider that
// exports Sift's spans in batches, when the environment asks for traces
// (see Enabled); otherwise it does nothing and tracing stays off.
//
// The exporter is chosen by the OpenTelemetry SDK's own rules
// (go.opentelemetry.io/contrib/exporters/autoexport): OTEL_TRACES_EXPORTER
// is "otlp" (the default) or "console" (written to standard error, so
// that a command's output on stdout stays its own); OTLP speaks http/protobuf unless
// OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL says
// "grpc"; OTEL_EXPORTER_OTLP_ENDPOINT, _HEADERS, _TIMEOUT and the rest
// apply as documented there. Those settings, and OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES, are read from the process environment, as the
// SDK reads them; getenv (nil means os.Getenv) only decides whether
// tracing is on.
//
// Call shutdown before the program exits: it flushes the spans still
// buffered, bounded by its context; spans started afterwards are dropped.
func SetupTracing(ctx context.Context, getenv func(string) string) (shutdown func(context.Context) error, err error) {
	if !Enabled(getenv) {
		return func(context.Context) error { return nil }, nil
	}
	exp, err := spanExporter(ctx, getenv)
	if err != nil {
		return nil, fmt.Errorf("tracing: create span exporter: %w; check OTEL_TRACES_EXPORTER (otlp, console or none) and OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf or grpc)", err)
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", DefaultServiceName)),
		resource.WithFromEnv(),
		resource.WithTelemetrySDK(),
	)
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		_ = exp.Shutdown(ctx)
		return nil, fmt.Errorf("tracing: describe the service: %w; check OTEL_RESOURCE_ATTRIBUTES", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	return func(ctx context.Context) error {
		if err := tp.Shutdown(ctx); err != nil {
			return fmt.Errorf("tracing: flush spans: %w", err)
		}
		return nil
	}, nil
}

// consoleWriter is where the console exporter writes: standard error.
// autoexport's console exporter writes to standard output, where it
// would mix spans into `sift run`'s answer and `--json` events.
var consoleWriter io.Writer = os.Stderr

// spanExporter is autoexport's choice, except that "console" writes to
// consoleWriter.
func spanExporter(ctx context.Context, getenv func(string) string) (sdktrace.SpanExporter, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")) == "console" {
		return stdouttrace.New(stdouttrace.WithWriter(consoleWriter))
	}
	return autoexport.NewSpanExporter(ctx)
}
