package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// FetchToolName is the name the fetch tool is offered to models under.
const FetchToolName = "web_fetch"

// Defaults for FetchConfig.
const (
	// DefaultFetchMaxBytes is how much of a response body is read.
	DefaultFetchMaxBytes int64 = 2 << 20
	// DefaultFetchMaxChars is how many characters of text one reply holds.
	DefaultFetchMaxChars = 8000
	// DefaultFetchTimeout bounds one fetch, redirects and body included.
	DefaultFetchTimeout = 30 * time.Second
)

// maxFetchRedirects is how many redirects one fetch follows.
const maxFetchRedirects = 10

// fetchUserAgent identifies Sift to the sites it reads.
const fetchUserAgent = "Sift-WebFetch/1.0 (+https://github.com/sift-agent/sift)"

// FetchConfig configures the web_fetch tool. The zero value is usable.
type FetchConfig struct {
	// Client sends the requests. Optional; default: a client whose dialer
	// refuses non-public addresses. A given client is copied, not changed;
	// unless AllowPrivate is set its Transport must be nil or an
	// *http.Transport without Proxy or dial hooks, so that the guard can be
	// installed on a clone of it.
	Client *http.Client
	// MaxBytes caps how much of a response body is read. Optional; default
	// DefaultFetchMaxBytes (2 MiB).
	MaxBytes int64
	// MaxChars caps how many characters of text one reply holds; the model
	// reads on with start_char. Optional; default DefaultFetchMaxChars (8000).
	MaxChars int
	// Timeout bounds one fetch. Optional; default DefaultFetchTimeout (30s).
	Timeout time.Duration
	// AllowPrivate lets fetches reach loopback, private and link-local
	// addresses. Optional; default false, which refuses them at dial time
	// (after name resolution, on every redirect) to stop server-side request
	// forgery. Tests set it to reach httptest servers.
	AllowPrivate bool
}

// withDefaults fills the optional fields.
func (c FetchConfig) withDefaults() FetchConfig {
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultFetchMaxBytes
	}
	if c.MaxChars <= 0 {
		c.MaxChars = DefaultFetchMaxChars
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultFetchTimeout
	}
	return c
}

// FetchArgs are the arguments of the web_fetch tool.
type FetchArgs struct {
	// URL is the http or https address to read.
	URL string `json:"url" jsonschema:"description=The http or https URL of the page to read"`
	// StartChar is the character offset to start the text at, to read on
	// after a cut reply.
	StartChar int `json:"start_char,omitempty" jsonschema:"description=Character offset to start reading at; use the value a previous cut reply gave to read on (default 0)"`
}

// fetchToolDesc tells the model what web_fetch does.
const fetchToolDesc = "Read one web page (http or https) as plain text: title, headings marked with #, paragraphs, " +
	"list items, and links as text (url). Plain text and JSON are returned as they are. Long pages are cut; " +
	"the reply then says which start_char to pass to read on."

// FetchTool returns the web_fetch tool configured by cfg.
func FetchTool(cfg FetchConfig) (tool.InvokableTool, error) {
	f, err := newFetcher(cfg)
	if err != nil {
		return nil, err
	}
	t, err := utils.InferTool(FetchToolName, fetchToolDesc, f.run)
	if err != nil {
		return nil, fmt.Errorf("build %s tool: %w", FetchToolName, err)
	}
	return t, nil
}

// fetcher runs web_fetch calls.
type fetcher struct {
	cfg    FetchConfig
	client *http.Client
}

// newFetcher fills cfg's defaults and builds the guarded client.
func newFetcher(cfg FetchConfig) (*fetcher, error) {
	cfg = cfg.withDefaults()
	var client http.Client
	if cfg.Client != nil {
		client = *cfg.Client
	}
	switch {
	case !cfg.AllowPrivate:
		rt, err := guardTransport(client.Transport)
		if err != nil {
			return nil, fmt.Errorf("build %s tool: %w", FetchToolName, err)
		}
		client.Transport = rt
	case client.Transport == nil:
		client.Transport = newFetchTransport(false)
	}
	next := client.CheckRedirect
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return fmt.Errorf("redirect to %s: %w", req.URL.Redacted(), errUnsupportedScheme)
		}
		if len(via) >= maxFetchRedirects {
			return fmt.Errorf("stopped after %d redirects: %w", maxFetchRedirects, errTooManyRedirects)
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	return &fetcher{cfg: cfg, client: &client}, nil
}

// Reasons a fetch is refused; they become notes in the reply.
var (
	errUnsupportedScheme = errors.New("only http and https URLs can be fetched")
	errTooManyRedirects  = errors.New("too many redirects")
)

// run is the web_fetch tool body. Problems the model can act on come back as
// the reply; only cancellation of ctx is an error.
func (f *fetcher) run(ctx context.Context, args FetchArgs) (string, error) {
	raw := strings.TrimSpace(args.URL)
	if raw == "" {
		return "web_fetch needs a url: pass the full address, e.g. https://example.org/page.", nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Sprintf("Cannot fetch %q: it is not a valid URL (%v). Pass a full http or https address.", raw, err), nil
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Sprintf("Refused %s: only http and https URLs can be fetched, not %q.", u.Redacted(), u.Scheme), nil
	}
	if u.Host == "" {
		return fmt.Sprintf("Cannot fetch %s: the URL has no host. Pass a full address, e.g. https://example.org/page.", u.Redacted()), nil
	}
	if args.StartChar < 0 {
		return fmt.Sprintf("start_char must be 0 or more, not %d.", args.StartChar), nil
	}

	callCtx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(callCtx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fmt.Sprintf("Cannot fetch %s: %v.", u.Redacted(), err), nil
	}
	req.Header.Set("User-Agent", fetchUserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.1")

	resp, err := f.client.Do(req)
	if err != nil {
		return f.failure(ctx, callCtx, u, err)
	}
	defer resp.Body.Close()
	final := resp.Request.URL

	if resp.StatusCode >= 400 {
		return fmt.Sprintf("URL: %s\nHTTP %d %s: the page could not be read. Check the URL, or pick another source.",
			final.Redacted(), resp.StatusCode, http.StatusText(resp.StatusCode)), nil
	}

	body, err := io.ReadAll(io.LimitReader(resp.Body, f.cfg.MaxBytes+1))
	if err != nil {
		return f.failure(ctx, callCtx, final, err)
	}
	bytesCut := int64(len(body)) > f.cfg.MaxBytes
	if bytesCut {
		body = body[:f.cfg.MaxBytes]
	}

	contentType := resp.Header.Get("Content-Type")
	var page htmlPage
	switch kind, mediaType := classifyContent(contentType, body); kind {
	case contentHTML:
		page = htmlToText(decodeHTML(body, contentType), final)
	case contentText:
		page = htmlPage{Text: strings.TrimSpace(strings.ReplaceAll(decodeText(body, contentType), "\r\n", "\n"))}
	default:
		return fmt.Sprintf("URL: %s\nRefused: the content type is %q, and web_fetch reads only HTML, plain text and JSON.",
			final.Redacted(), mediaType), nil
	}
	return f.render(final, page, args.StartChar, bytesCut), nil
}

// failure turns a failed request into a note, or into an error when the
// caller cancelled.
func (f *fetcher) failure(ctx, callCtx context.Context, u *url.URL, err error) (string, error) {
	if ctx.Err() != nil {
		return "", fmt.Errorf("%s %s: %w", FetchToolName, u.Redacted(), ctx.Err())
	}
	switch {
	case errors.Is(err, ErrPrivateAddress):
		return fmt.Sprintf("Refused %s: it leads to a loopback, private or link-local address, which %s does not reach. Use a public URL.",
			u.Redacted(), FetchToolName), nil
	case errors.Is(err, errUnsupportedScheme):
		return fmt.Sprintf("Refused %s: it redirects to an address that is not http or https.", u.Redacted()), nil
	case errors.Is(err, errTooManyRedirects):
		return fmt.Sprintf("Refused %s: it redirected more than %d times.", u.Redacted(), maxFetchRedirects), nil
	case errors.Is(callCtx.Err(), context.DeadlineExceeded):
		return fmt.Sprintf("Timed out after %s reading %s. Try again later or pick another source.", f.cfg.Timeout, u.Redacted()), nil
	}
	// The *url.Error wrapper repeats the method and URL; keep its cause.
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Sprintf("Could not fetch %s: %v. Check the URL, or pick another source.", u.Redacted(), err), nil
}

// render lays out the reply: final URL and title first, then where the text
// was cut and how to read on, then the text window.
func (f *fetcher) render(final *url.URL, page htmlPage, start int, bytesCut bool) string {
	var b strings.Builder
	title := page.Title
	if title == "" {
		title = "(untitled)"
	}
	fmt.Fprintf(&b, "URL: %s\nTitle: %s\n", final.Redacted(), title)

	runes := []rune(page.Text)
	total := len(runes)
	if start > 0 && start >= total {
		fmt.Fprintf(&b, "start_char %d is past the end: the text has %d characters.\n", start, total)
		return b.String()
	}
	end := min(start+f.cfg.MaxChars, total)
	if start > 0 || end < total {
		fmt.Fprintf(&b, "Showing characters %d-%d of %d.\n", start, end, total)
	}
	if end < total {
		fmt.Fprintf(&b, "Text cut: call %s again with start_char=%d to read on.\n", FetchToolName, end)
	}
	if bytesCut {
		fmt.Fprintf(&b, "The page is larger than %s; only that much was read, so its text ends early.\n", formatBytes(f.cfg.MaxBytes))
	}
	b.WriteByte('\n')
	if total == 0 {
		b.WriteString("(no readable text)\n")
		return b.String()
	}
	b.WriteString(string(runes[start:end]))
	b.WriteByte('\n')
	return b.String()
}

// contentKind is how web_fetch treats a response body.
type contentKind int

const (
	contentOther contentKind = iota
	contentHTML
	contentText
)

// classifyContent decides from the Content-Type header (or, when it is
// missing or unparseable, from the body) whether the body is HTML, text
// passed through as is (text/*, JSON), or something web_fetch refuses.
func classifyContent(contentType string, body []byte) (contentKind, string) {
	mediaType, _, err := mime.ParseMediaType(contentType)
	if err != nil || mediaType == "" {
		mediaType, _, _ = mime.ParseMediaType(http.DetectContentType(body))
	}
	mediaType = strings.ToLower(mediaType)
	switch {
	case mediaType == "text/html" || mediaType == "application/xhtml+xml":
		return contentHTML, mediaType
	case strings.HasPrefix(mediaType, "text/"),
		mediaType == "application/json", strings.HasSuffix(mediaType, "+json"):
		return contentText, mediaType
	}
	return contentOther, mediaType
}

// decodeHTML converts an HTML body to UTF-8 using, in order, a byte-order
// mark, the Content-Type charset and the document's <meta> declaration. An
// undeclared page that is valid UTF-8 is read as UTF-8 rather than
// windows-1252, which is what such pages nearly always are today.
func decodeHTML(body []byte, contentType string) string {
	enc, name, certain := charset.DetermineEncoding(body, contentType)
	if !certain && name == "windows-1252" && utf8.Valid(trimPartialRune(body)) {
		enc = encoding.Nop
	}
	return decodeWith(enc, body)
}

// decodeText converts a text or JSON body to UTF-8, honouring the
// Content-Type charset; without one it is read as UTF-8.
func decodeText(body []byte, contentType string) string {
	var enc encoding.Encoding = encoding.Nop
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		if cs := params["charset"]; cs != "" {
			if e, _ := charset.Lookup(cs); e != nil {
				enc = e
			}
		}
	}
	return decodeWith(enc, body)
}

// decodeWith decodes body with enc, replacing invalid sequences.
func decodeWith(enc encoding.Encoding, body []byte) string {
	if enc != nil && enc != encoding.Nop {
		if out, _, err := transform.Bytes(enc.NewDecoder(), body); err == nil {
			body = out
		}
	}
	return strings.ToValidUTF8(string(body), "\uFFFD")
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of b, as
// left by the byte cap.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// formatBytes renders n as B, KiB or MiB.
func formatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
