package server

import (
	"context"
	"net/http"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/propagation"
)

// propagator carries W3C trace context (traceparent, tracestate): from a
// client's request into the API's span, and from the API through the run
// queue into the worker's run, so that one trace joins an API request, its
// queued run and the worker's steps.
var propagator = propagation.TraceContext{}

// traced gives every request an HTTP server span, a child of the client's
// traceparent when it sends one, through the global tracer provider (a
// no-op until tracing is set up: see llm/tracing).
//
// The mux's route (Request.Pattern) is copied back onto the request the
// handler was given, through the copies the span and the base path make,
// so that middleware around Sift's handler (an embedder's access log)
// still sees which route served it.
func traced(h http.Handler) http.Handler {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		if p, ok := r.Context().Value(patternKey{}).(*string); ok {
			*p = r.Pattern
		}
	})
	span := otelhttp.NewHandler(inner, "sift.http",
		otelhttp.WithPropagators(propagator),
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method + " " + routeOf(r) }),
	)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var pattern string
		span.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), patternKey{}, &pattern)))
		r.Pattern = pattern
	})
}

// patternKey holds where traced copies the mux's route back to.
type patternKey struct{}

// routeOf names a request's route without its ids, for span names.
func routeOf(r *http.Request) string {
	p := r.URL.Path
	switch {
	case p == "/" || p == "":
		return "/"
	case len(p) >= len("/v1/sessions/") && p[:len("/v1/sessions/")] == "/v1/sessions/":
		return "/v1/sessions/{id}/..."
	}
	return p
}

// traceCarrier is ctx's trace context as a map, for a queued job.
func traceCarrier(ctx context.Context) map[string]string {
	c := propagation.MapCarrier{}
	propagator.Inject(ctx, c)
	if len(c) == 0 {
		return nil
	}
	return c
}

// withTrace puts the trace context a job carries (traceCarrier) on ctx, so
// the run's spans join the trace of the request that queued it.
func withTrace(ctx context.Context, carrier map[string]string) context.Context {
	if len(carrier) == 0 {
		return ctx
	}
	return propagator.Extract(ctx, propagation.MapCarrier(carrier))
}
