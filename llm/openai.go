package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	einoopenai "github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/components/model"
)

// ErrNotConfigured is returned by New when the endpoint lacks a model name or
// a base URL. Callers without a model can fall back to the template path.
var ErrNotConfigured = errors.New("model: no chat model configured")

// ErrAuth is wrapped by the error a model call returns when the endpoint
// rejects the credentials (HTTP 401 or 403).
var ErrAuth = errors.New("model: the endpoint rejected the credentials")

// howToConfigure is appended to ErrNotConfigured errors.
const howToConfigure = "set SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL " +
	"(or OPENAI_BASE_URL/OPENAI_API_KEY/OPENAI_MODEL, or ARK_API_KEY/ARK_MODEL), " +
	"pass --base-url, --api-key and --model, " +
	`or write {"base_url": "...", "api_key": "...", "model": "..."} to ~/.config/sift/config.json (or the file named by $SIFT_CONFIG)`

// ErrUnreachable is wrapped by the error a model call returns when no
// connection to the endpoint could be made (refused, unknown host).
var ErrUnreachable = errors.New("model: cannot reach the endpoint")

// UnreachableError reports that no connection to the endpoint could be
// made. It unwraps to ErrUnreachable and to the network error.
type UnreachableError struct {
	// Host is the host:port that was dialled.
	Host string
	// Err is the network error.
	Err error
}

// Error describes the failure and what to check.
func (e *UnreachableError) Error() string {
	return fmt.Sprintf("model: cannot reach the endpoint at %s (%v); check the base URL (--base-url, SIFT_BASE_URL or OPENAI_BASE_URL, or \"base_url\" in the config file) and that the server is running", e.Host, e.Err)
}

// Unwrap returns ErrUnreachable and the network error.
func (e *UnreachableError) Unwrap() []error { return []error{ErrUnreachable, e.Err} }

// unreachable reports whether err means no connection could be made.
func unreachable(err error) bool {
	var dns *net.DNSError
	var op *net.OpError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &dns) || (errors.As(err, &op) && op.Op == "dial" && !op.Timeout())
}

// AuthError reports that the endpoint rejected the credentials. It unwraps to
// ErrAuth.
type AuthError struct {
	// StatusCode is 401 or 403.
	StatusCode int
	// URL is the request URL.
	URL string
	// Message is the server's error message, if it sent one.
	Message string
}

// Error describes the failure and what to check.
func (e *AuthError) Error() string {
	var b strings.Builder
	// The URL is left out: http.Client already puts it in front.
	fmt.Fprintf(&b, "model: the endpoint answered HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" {
		fmt.Fprintf(&b, " (%s)", e.Message)
	}
	b.WriteString("; check the API key (--api-key, SIFT_API_KEY, OPENAI_API_KEY or ARK_API_KEY, or \"api_key\" in the config file) and that it may use this model")
	return b.String()
}

// Unwrap returns ErrAuth.
func (e *AuthError) Unwrap() error { return ErrAuth }

// Option adjusts how New builds a model.
type Option func(*options)

type options struct {
	transport http.RoundTripper
	sleep     func(ctx context.Context, d time.Duration) error
}

// WithTransport sets the transport under the retry layer (e.g. to record or
// replay exchanges). Default http.DefaultTransport.
func WithTransport(rt http.RoundTripper) Option {
	return func(o *options) { o.transport = rt }
}

// WithSleep replaces how the retry layer waits between attempts; it must
// return ctx's error early when ctx is done. Tests use it to avoid waiting.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(o *options) { o.sleep = sleep }
}

// New returns a chat model for an OpenAI-compatible endpoint. Its HTTP client
// retries rate limits (429), server errors (5xx), timeouts and dropped
// connections up to ep.MaxRetries times, bounds each attempt by ep.Timeout,
// and turns 401/403 replies into an *AuthError (wrapping ErrAuth).
//
// The base URL must include the API version path (e.g. ".../v1"). A missing
// model name or base URL is ErrNotConfigured.
func New(ctx context.Context, ep Endpoint, opts ...Option) (model.ToolCallingChatModel, error) {
	ep = ep.WithDefaults()
	var missing []string
	if ep.BaseURL == "" {
		missing = append(missing, "base URL")
	}
	if ep.Model == "" {
		missing = append(missing, "model name")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w (missing %s): %s", ErrNotConfigured, strings.Join(missing, " and "), howToConfigure)
	}

	var o options
	for _, opt := range opts {
		opt(&o)
	}
	retry := &RetryTransport{
		Base:           o.transport,
		MaxRetries:     ep.MaxRetries,
		AttemptTimeout: ep.Timeout,
		Sleep:          o.sleep,
	}
	client := &http.Client{Transport: &authTransport{next: retry}}

	cm, err := einoopenai.NewChatModel(ctx, &einoopenai.ChatModelConfig{
		BaseURL:         strings.TrimRight(ep.BaseURL, "/"),
		APIKey:          ep.APIKey,
		Model:           ep.Model,
		Temperature:     ep.Temperature,
		MaxTokens:       ep.MaxTokens,
		ReasoningEffort: einoopenai.ReasoningEffortLevel(ep.ReasoningEffort),
		ExtraFields:     ep.ExtraBody,
		HTTPClient:      client,
	})
	if err != nil {
		return nil, fmt.Errorf("model: create OpenAI-compatible client for %s: %w", ep.BaseURL, err)
	}
	return cm, nil
}

// authTransport turns 401 and 403 replies into an *AuthError, so that the
// failure can be told apart from other API errors whatever the body holds.
type authTransport struct {
	next http.RoundTripper
}

// maxErrorBody is how much of a rejected request's body is read for its message.
const maxErrorBody = 16 << 10

// RoundTrip sends req and converts an authentication failure to an error.
func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil && unreachable(err) {
		return nil, &UnreachableError{Host: req.URL.Host, Err: err}
	}
	if err != nil || (resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden) {
		return resp, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	return nil, &AuthError{StatusCode: resp.StatusCode, URL: req.URL.Redacted(), Message: errorMessage(body)}
}

// errorMessage extracts the message from an OpenAI-style error body, or
// returns the body itself when it is short text.
func errorMessage(body []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil {
			return s
		}
	}
	text := []rune(strings.TrimSpace(string(body)))
	if len(text) > 200 {
		return string(text[:200]) + "…"
	}
	return string(text)
}
