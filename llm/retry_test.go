package llm

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// step is one scripted outcome of the fake transport.
type step struct {
	status     int
	retryAfter string
	header     map[string]string
	err        error
	// block makes the attempt wait for its context to end.
	block bool
	// hook runs when the attempt is made.
	hook func()
}

// fakeTransport plays steps and records the bodies it was sent.
type fakeTransport struct {
	mu     sync.Mutex
	steps  []step
	bodies []string
}

func (f *fakeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body string
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		body = string(b)
	}
	f.mu.Lock()
	n := len(f.bodies)
	f.bodies = append(f.bodies, body)
	f.mu.Unlock()
	if n >= len(f.steps) {
		return nil, errors.New("fake transport: no more steps")
	}
	s := f.steps[n]
	if s.hook != nil {
		s.hook()
	}
	if s.block {
		<-req.Context().Done()
		return nil, req.Context().Err()
	}
	if s.err != nil {
		return nil, s.err
	}
	resp := &http.Response{
		StatusCode: s.status,
		Header:     http.Header{},
		Body:       io.NopCloser(strings.NewReader("reply " + http.StatusText(s.status))),
		Request:    req,
	}
	if s.retryAfter != "" {
		resp.Header.Set("Retry-After", s.retryAfter)
	}
	for k, v := range s.header {
		resp.Header.Set(k, v)
	}
	return resp, nil
}

// sleepRecorder records waits without waiting.
type sleepRecorder struct {
	mu    sync.Mutex
	slept []time.Duration
}

func (s *sleepRecorder) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.slept = append(s.slept, d)
	s.mu.Unlock()
	return ctx.Err()
}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

var _ net.Error = timeoutError{}

func TestRetryTransport(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	const body = `{"model":"m","messages":[{"role":"user","content":"hello"}]}`
	tests := []struct {
		name       string
		steps      []step
		maxRetries int
		wantStatus int
		wantErr    error
		wantSlept  []time.Duration
	}{
		{
			name:       "429 with Retry-After seconds, then 200",
			steps:      []step{{status: 429, retryAfter: "2"}, {status: 200}},
			maxRetries: 4,
			wantStatus: 200,
			wantSlept:  []time.Duration{2 * time.Second},
		},
		{
			name:       "429 with Retry-After date, then 200",
			steps:      []step{{status: 429, retryAfter: now.Add(7 * time.Second).Format(http.TimeFormat)}, {status: 200}},
			maxRetries: 4,
			wantStatus: 200,
			wantSlept:  []time.Duration{7 * time.Second},
		},
		{
			name:       "Retry-After is capped",
			steps:      []step{{status: 429, retryAfter: "3600"}, {status: 503, retryAfter: now.Add(time.Hour).Format(http.TimeFormat)}, {status: 200}},
			maxRetries: 4,
			wantStatus: 200,
			wantSlept:  []time.Duration{DefaultMaxRetryAfter, DefaultMaxRetryAfter},
		},
		{
			name:       "retry-after-ms",
			steps:      []step{{status: 429, header: map[string]string{"Retry-After-Ms": "250"}}, {status: 200}},
			maxRetries: 4,
			wantStatus: 200,
			wantSlept:  []time.Duration{250 * time.Millisecond},
		},
		{
			name:       "unreadable Retry-After falls back to backoff",
			steps:      []step{{status: 429, retryAfter: "soon"}, {status: 200}},
			maxRetries: 4,
			wantStatus: 200,
			wantSlept:  []time.Duration{time.Second},
		},
		{
			name:       "503 then 200 with exponential backoff",
			steps:      []step{{status: 503}, {status: 502}, {status: 500}, {status: 200}},
			maxRetries: 4,
			wantStatus: 200,
			wantSlept:  []time.Duration{time.Second, 2 * time.Second, 4 * time.Second},
		},
		{
			name:       "retries used up returns the last reply",
			steps:      []step{{status: 503}, {status: 503}, {status: 503}},
			maxRetries: 2,
			wantStatus: 503,
			wantSlept:  []time.Duration{time.Second, 2 * time.Second},
		},
		{
			name:       "400 is not retried",
			steps:      []step{{status: 400}, {status: 200}},
			maxRetries: 4,
			wantStatus: 400,
		},
		{
			name:       "501 is not retried",
			steps:      []step{{status: 501}, {status: 200}},
			maxRetries: 4,
			wantStatus: 501,
		},
		{
			name:       "no retries configured",
			steps:      []step{{status: 429, retryAfter: "1"}, {status: 200}},
			maxRetries: 0,
			wantStatus: 429,
		},
		{
			name:       "connection reset, then 200",
			steps:      []step{{err: syscall.ECONNRESET}, {status: 200}},
			maxRetries: 4,
			wantStatus: 200,
			wantSlept:  []time.Duration{time.Second},
		},
		{
			name:       "transport timeout, then unexpected EOF, then 200",
			steps:      []step{{err: timeoutError{}}, {err: io.ErrUnexpectedEOF}, {status: 200}},
			maxRetries: 4,
			wantStatus: 200,
			wantSlept:  []time.Duration{time.Second, 2 * time.Second},
		},
		{
			name:       "connection refused is not retried",
			steps:      []step{{err: syscall.ECONNREFUSED}, {status: 200}},
			maxRetries: 4,
			wantErr:    syscall.ECONNREFUSED,
		},
		{
			name:       "errors after the last retry are returned",
			steps:      []step{{err: syscall.ECONNRESET}, {err: syscall.ECONNRESET}},
			maxRetries: 1,
			wantErr:    syscall.ECONNRESET,
			wantSlept:  []time.Duration{time.Second},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := &fakeTransport{steps: tt.steps}
			var rec sleepRecorder
			rt := &RetryTransport{
				Base:       fake,
				MaxRetries: tt.maxRetries,
				BaseDelay:  time.Second,
				Sleep:      rec.sleep,
				Jitter:     func() float64 { return 0 },
				Now:        func() time.Time { return now },
			}
			req, err := http.NewRequest(http.MethodPost, "http://example.test/v1/chat/completions", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := rt.RoundTrip(req)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("RoundTrip error = %v, want %v", err, tt.wantErr)
			}
			if err == nil {
				defer resp.Body.Close()
				if resp.StatusCode != tt.wantStatus {
					t.Errorf("status = %d, want %d", resp.StatusCode, tt.wantStatus)
				}
				got, _ := io.ReadAll(resp.Body)
				if want := "reply " + http.StatusText(tt.wantStatus); string(got) != want {
					t.Errorf("body = %q, want %q", got, want)
				}
			}
			if diff := cmp.Diff(tt.wantSlept, rec.slept); diff != "" {
				t.Errorf("slept mismatch (-want +got):\n%s", diff)
			}
			wantAttempts := len(tt.wantSlept) + 1
			if len(fake.bodies) != wantAttempts {
				t.Errorf("attempts = %d, want %d", len(fake.bodies), wantAttempts)
			}
			for i, b := range fake.bodies {
				if b != body {
					t.Errorf("attempt %d sent body %q, want %q", i+1, b, body)
				}
			}
		})
	}
}

func TestRetryTransportBackoffJitter(t *testing.T) {
	rt := (&RetryTransport{BaseDelay: time.Second, MaxDelay: 5 * time.Second, Jitter: func() float64 { return 0.5 }}).settings()
	var got []time.Duration
	for attempt := range 5 {
		got = append(got, rt.backoff(attempt))
	}
	// Each wait is the doubled delay (capped at 5s) less half of its half.
	want := []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second, 3750 * time.Millisecond, 3750 * time.Millisecond}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("backoff mismatch (-want +got):\n%s", diff)
	}
}

func TestRetryTransportStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The first attempt is rate limited for a minute; the caller gives up
	// meanwhile. The real sleeper must return at once.
	fake := &fakeTransport{steps: []step{{status: 429, retryAfter: "60", hook: cancel}, {status: 200}}}
	rt := &RetryTransport{Base: fake, MaxRetries: 4}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://example.test/v1/chat/completions", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = rt.RoundTrip(req)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("RoundTrip error = %v, want context.Canceled", err)
	}
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("RoundTrip took %s after cancellation, want prompt return", elapsed)
	}
	if len(fake.bodies) != 1 {
		t.Errorf("attempts = %d, want 1", len(fake.bodies))
	}
}

func TestRetryTransportCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fake := &fakeTransport{steps: []step{{status: 200}}}
	rt := &RetryTransport{Base: fake, MaxRetries: 4}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://example.test/", nil)
	if _, err := rt.RoundTrip(req); !errors.Is(err, context.Canceled) {
		t.Fatalf("RoundTrip error = %v, want context.Canceled", err)
	}
	if len(fake.bodies) != 0 {
		t.Errorf("attempts = %d, want 0", len(fake.bodies))
	}
}

func TestRetryTransportAttemptTimeout(t *testing.T) {
	fake := &fakeTransport{steps: []step{{block: true}, {status: 200}}}
	var rec sleepRecorder
	rt := &RetryTransport{
		Base: fake, MaxRetries: 2, AttemptTimeout: time.Millisecond,
		BaseDelay: time.Second, Sleep: rec.sleep, Jitter: func() float64 { return 0 },
	}
	req, _ := http.NewRequest(http.MethodPost, "http://example.test/v1/chat/completions", strings.NewReader("{}"))
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatalf("RoundTrip: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("status = %d, want 200", resp.StatusCode)
	}
	if diff := cmp.Diff([]time.Duration{time.Second}, rec.slept); diff != "" {
		t.Errorf("slept mismatch (-want +got):\n%s", diff)
	}
}
