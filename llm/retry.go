package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"
)

// Defaults for RetryTransport, filled in by its settings method.
const (
	// DefaultRetryBaseDelay is the backoff before the first retry; it doubles
	// with every further retry.
	DefaultRetryBaseDelay = 500 * time.Millisecond
	// DefaultRetryMaxDelay caps the exponential backoff.
	DefaultRetryMaxDelay = 30 * time.Second
	// DefaultMaxRetryAfter caps how long a server's Retry-After can make us wait.
	DefaultMaxRetryAfter = 60 * time.Second
)

// maxDrain is how much of a discarded reply body is read so the connection
// can be reused.
const maxDrain = 64 << 10

// RetryTransport is an http.RoundTripper that retries a request that failed
// with HTTP 429, a 5xx status (except 501), a timeout or a dropped connection,
// with exponential backoff and jitter, honouring the server's Retry-After.
// The request body is buffered so that every attempt sends it intact. When
// the request's context is cancelled it stops at once, even mid-wait.
//
// When the retries are used up on a status, the last reply is returned as is,
// so that the caller can read the server's error message.
//
// The zero value is usable: it sends through http.DefaultTransport with no
// retries.
type RetryTransport struct {
	// Base sends each attempt. Optional; default http.DefaultTransport.
	Base http.RoundTripper
	// MaxRetries is how many times a failed attempt is retried. Optional;
	// 0 or negative means no retries.
	MaxRetries int
	// AttemptTimeout bounds each attempt, including reading its reply body.
	// An attempt that times out is retried. Optional; 0 means no limit
	// beyond the request's context.
	AttemptTimeout time.Duration
	// BaseDelay is the backoff before the first retry; it doubles with each
	// retry, and a random jitter of up to half of it is taken off.
	// Optional; default DefaultRetryBaseDelay.
	BaseDelay time.Duration
	// MaxDelay caps the backoff. Optional; default DefaultRetryMaxDelay.
	MaxDelay time.Duration
	// MaxRetryAfter caps a server's Retry-After. Optional; default
	// DefaultMaxRetryAfter.
	MaxRetryAfter time.Duration
	// Sleep waits d, returning ctx's error early if ctx is done. Optional;
	// default a timer. Tests inject one that records and returns at once.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a number in [0, 1) that scales the random part of the
	// backoff. Optional; default math/rand/v2.Float64.
	Jitter func() float64
	// Now is the clock used to read Retry-After dates. Optional; default
	// time.Now.
	Now func() time.Time
}

// settings returns t with its defaults filled in.
func (t *RetryTransport) settings() RetryTransport {
	s := *t
	if s.Base == nil {
		s.Base = http.DefaultTransport
	}
	if s.MaxRetries < 0 {
		s.MaxRetries = 0
	}
	if s.BaseDelay <= 0 {
		s.BaseDelay = DefaultRetryBaseDelay
	}
	if s.MaxDelay <= 0 {
		s.MaxDelay = DefaultRetryMaxDelay
	}
	if s.MaxRetryAfter <= 0 {
		s.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if s.Sleep == nil {
		s.Sleep = sleepContext
	}
	if s.Jitter == nil {
		s.Jitter = rand.Float64
	}
	if s.Now == nil {
		s.Now = time.Now
	}
	return s
}

// RoundTrip sends req, retrying as described on RetryTransport.
func (t *RetryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	s := t.settings()
	ctx := req.Context()

	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("model: buffer request body for %s %s: %w", req.Method, req.URL.Redacted(), err)
		}
	}

	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("model: %s %s abandoned after %d attempt(s): %w", req.Method, req.URL.Redacted(), attempt, err)
		}
		resp, err := s.attempt(req, body)
		last := attempt >= s.MaxRetries

		var wait time.Duration
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return nil, fmt.Errorf("model: %s %s abandoned after %d attempt(s): %w", req.Method, req.URL.Redacted(), attempt+1, ctx.Err())
			}
			if !retryableError(err) {
				return nil, err
			}
			if last {
				return nil, fmt.Errorf("model: %s %s failed after %d attempt(s): %w", req.Method, req.URL.Redacted(), attempt+1, err)
			}
			wait = s.backoff(attempt)
		case retryableStatus(resp.StatusCode):
			if last {
				return resp, nil
			}
			var ok bool
			if wait, ok = s.retryAfter(resp.Header); !ok {
				wait = s.backoff(attempt)
			}
			io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
			resp.Body.Close()
		default:
			return resp, nil
		}

		if err := s.Sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("model: %s %s abandoned after %d attempt(s): %w", req.Method, req.URL.Redacted(), attempt+1, err)
		}
	}
}

// attempt sends one copy of req with the buffered body, bounded by
// AttemptTimeout. The timeout's context is released when the reply body is
// closed.
func (s *RetryTransport) attempt(req *http.Request, body []byte) (*http.Response, error) {
	ctx, cancel := req.Context(), context.CancelFunc(func() {})
	if s.AttemptTimeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, s.AttemptTimeout)
	}
	r := req.Clone(ctx)
	if body != nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		r.ContentLength = int64(len(body))
	}
	resp, err := s.Base.RoundTrip(r)
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// cancelOnClose releases an attempt's timeout when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// backoff is the wait before retry number attempt+1: BaseDelay doubled per
// attempt, capped at MaxDelay, less a random part of up to half.
func (s *RetryTransport) backoff(attempt int) time.Duration {
	d := s.MaxDelay
	if attempt < 30 {
		if exp := s.BaseDelay << attempt; exp > 0 && exp < d {
			d = exp
		}
	}
	return d - time.Duration(s.Jitter()*float64(d/2))
}

// retryAfter reads Retry-After (seconds or an HTTP date) or OpenAI's
// retry-after-ms, capped at MaxRetryAfter.
func (s *RetryTransport) retryAfter(h http.Header) (time.Duration, bool) {
	var d time.Duration
	if v := h.Get("Retry-After-Ms"); v != "" {
		ms, err := strconv.ParseFloat(v, 64)
		if err != nil || ms < 0 {
			return 0, false
		}
		d = time.Duration(ms * float64(time.Millisecond))
	} else if v := h.Get("Retry-After"); v != "" {
		if secs, err := strconv.Atoi(v); err == nil {
			if secs < 0 {
				return 0, false
			}
			d = time.Duration(secs) * time.Second
		} else if at, err := http.ParseTime(v); err == nil {
			d = max(at.Sub(s.Now()), 0)
		} else {
			return 0, false
		}
	} else {
		return 0, false
	}
	return min(d, s.MaxRetryAfter), true
}

// retryableStatus reports whether a reply with this status is worth retrying.
func retryableStatus(code int) bool {
	return code == http.StatusTooManyRequests || (code >= 500 && code != http.StatusNotImplemented)
}

// retryableError reports whether a transport error is a timeout or a dropped
// connection, which another attempt may not meet.
func retryableError(err error) bool {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &ne) && ne.Timeout(),
		errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF),
		errors.Is(err, io.ErrUnexpectedEOF):
		return true
	}
	return false
}

// sleepContext waits d or until ctx is done.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
