package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// newPageServer serves the given routes and counts the requests it gets.
func newPageServer(t *testing.T, routes map[string]http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	mux := http.NewServeMux()
	for path, h := range routes {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			h(w, r)
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &hits
}

// servePage answers with contentType and body.
func servePage(contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		} else {
			w.Header()["Content-Type"] = nil // stop net/http from sniffing one
		}
		io.WriteString(w, body)
	}
}

// newFetch builds web_fetch for cfg.
func newFetch(t *testing.T, cfg FetchConfig) tool.InvokableTool {
	t.Helper()
	tl, err := FetchTool(cfg)
	if err != nil {
		t.Fatalf("FetchTool: %v", err)
	}
	return tl
}

// fetchReply runs web_fetch with args and fails the test on an error.
func fetchReply(t *testing.T, tl tool.InvokableTool, args FetchArgs) string {
	t.Helper()
	raw := fmt.Sprintf(`{"url":%q,"start_char":%d}`, args.URL, args.StartChar)
	got, err := tl.InvokableRun(context.Background(), raw)
	if err != nil {
		t.Fatalf("web_fetch(%s): %v", raw, err)
	}
	return got
}

func TestFetchHTML(t *testing.T) {
	const page = `<!doctype html><html><head><title>Quarterly sales</title>
<script>document.write("tracking")</script><style>body{font:1em serif}</style></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<h1>Sales by region</h1>
<p>North grew fastest; see <a href="/data/north.csv">the data</a>.</p>
<ul><li>North: 120</li><li>South: 80</li></ul>
<script>var tracker = "should not appear";</script>
</body></html>`
	srv, _ := newPageServer(t, map[string]http.HandlerFunc{"/report": servePage("text/html; charset=utf-8", page)})
	tl := newFetch(t, FetchConfig{AllowPrivate: true})

	got := fetchReply(t, tl, FetchArgs{URL: srv.URL + "/report"})
	want := "URL: " + srv.URL + "/report\n" +
		"Title: Quarterly sales\n\n" +
		"# Sales by region\n\n" +
		"North grew fastest; see the data (" + srv.URL + "/data/north.csv).\n\n" +
		"- North: 120\n- South: 80\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reply (-want +got):\n%s", diff)
	}
}

func TestFetchPassThroughAndRefusal(t *testing.T) {
	srv, _ := newPageServer(t, map[string]http.HandlerFunc{
		"/data.json": servePage("application/json", `{"rows": [1, 2, 3]}`),
		"/notes.txt": servePage("text/plain; charset=utf-8", "line 1\r\nline 2\n"),
		"/ld":        servePage("application/ld+json", `{"@type":"Dataset"}`),
		"/sniffed":   servePage("", "<html><head><title>Sniffed</title></head><body><p>hi</p></body></html>"),
		"/chart.png": servePage("image/png", "\x89PNG\r\n\x1a\n...."),
		"/missing":   func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) },
	})
	tl := newFetch(t, FetchConfig{AllowPrivate: true})
	tests := []struct {
		path string
		want string
	}{
		{"/data.json", "URL: " + srv.URL + "/data.json\nTitle: (untitled)\n\n{\"rows\": [1, 2, 3]}\n"},
		{"/notes.txt", "URL: " + srv.URL + "/notes.txt\nTitle: (untitled)\n\nline 1\nline 2\n"},
		{"/ld", "URL: " + srv.URL + "/ld\nTitle: (untitled)\n\n{\"@type\":\"Dataset\"}\n"},
		{"/sniffed", "URL: " + srv.URL + "/sniffed\nTitle: Sniffed\n\nhi\n"},
		{"/chart.png", "URL: " + srv.URL + "/chart.png\nRefused: the content type is \"image/png\", and web_fetch reads only HTML, plain text and JSON."},
		{"/missing", "URL: " + srv.URL + "/missing\nHTTP 404 Not Found: the page could not be read. Check the URL, or pick another source."},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got := fetchReply(t, tl, FetchArgs{URL: srv.URL + tt.path})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("reply (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFetchCaps(t *testing.T) {
	alphabet := "abcdefghijklmnopqrstuvwxyz"
	srv, _ := newPageServer(t, map[string]http.HandlerFunc{
		"/big":      servePage("text/plain", strings.Repeat("0123456789", 500)),
		"/alphabet": servePage("text/plain", alphabet),
	})
	tests := []struct {
		name string
		cfg  FetchConfig
		args FetchArgs
		want string
	}{
		{
			name: "body capped at MaxBytes",
			cfg:  FetchConfig{AllowPrivate: true, MaxBytes: 1000, MaxChars: 5000},
			args: FetchArgs{URL: srv.URL + "/big"},
			want: "URL: " + srv.URL + "/big\nTitle: (untitled)\n" +
				"The page is larger than 1000 bytes; only that much was read, so its text ends early.\n\n" +
				strings.Repeat("0123456789", 100) + "\n",
		},
		{
			name: "text cut at MaxChars says how to read on",
			cfg:  FetchConfig{AllowPrivate: true, MaxChars: 10},
			args: FetchArgs{URL: srv.URL + "/alphabet"},
			want: "URL: " + srv.URL + "/alphabet\nTitle: (untitled)\n" +
				"Showing characters 0-10 of 26.\n" +
				"Text cut: call web_fetch again with start_char=10 to read on.\n\nabcdefghij\n",
		},
		{
			name: "reading on from start_char",
			cfg:  FetchConfig{AllowPrivate: true, MaxChars: 10},
			args: FetchArgs{URL: srv.URL + "/alphabet", StartChar: 20},
			want: "URL: " + srv.URL + "/alphabet\nTitle: (untitled)\nShowing characters 20-26 of 26.\n\nuvwxyz\n",
		},
		{
			name: "start_char past the end",
			cfg:  FetchConfig{AllowPrivate: true, MaxChars: 10},
			args: FetchArgs{URL: srv.URL + "/alphabet", StartChar: 26},
			want: "URL: " + srv.URL + "/alphabet\nTitle: (untitled)\nstart_char 26 is past the end: the text has 26 characters.\n",
		},
		{
			name: "negative start_char",
			cfg:  FetchConfig{AllowPrivate: true},
			args: FetchArgs{URL: srv.URL + "/alphabet", StartChar: -1},
			want: "start_char must be 0 or more, not -1.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fetchReply(t, newFetch(t, tt.cfg), tt.args)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("reply (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFetchRefusesNonHTTPSchemes(t *testing.T) {
	tl := newFetch(t, FetchConfig{AllowPrivate: true})
	tests := []struct{ url, want string }{
		{"file:///etc/passwd", `Refused file:///etc/passwd: only http and https URLs can be fetched, not "file".`},
		{"ftp://example.org/data.csv", `Refused ftp://example.org/data.csv: only http and https URLs can be fetched, not "ftp".`},
		{"gopher://example.org/", `Refused gopher://example.org/: only http and https URLs can be fetched, not "gopher".`},
		{"example.org/page", `Refused example.org/page: only http and https URLs can be fetched, not "".`},
		{"http:///nohost", "Cannot fetch http:///nohost: the URL has no host. Pass a full address, e.g. https://example.org/page."},
		{"", "web_fetch needs a url: pass the full address, e.g. https://example.org/page."},
	}
	for _, tt := range tests {
		if got := fetchReply(t, tl, FetchArgs{URL: tt.url}); got != tt.want {
			t.Errorf("web_fetch(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

func TestFetchRefusesPrivateAddresses(t *testing.T) {
	srv, hits := newPageServer(t, map[string]http.HandlerFunc{"/": servePage("text/plain", "internal secret")})
	u, _ := url.Parse(srv.URL)
	tl := newFetch(t, FetchConfig{}) // AllowPrivate false
	for _, target := range []string{
		srv.URL + "/",                           // a literal loopback address
		"http://localhost:" + u.Port() + "/",    // a name that resolves to one: caught at dial time
		"http://[::ffff:127.0.0.1]:" + u.Port(), // IPv4-mapped loopback
	} {
		got := fetchReply(t, tl, FetchArgs{URL: target})
		if !strings.HasPrefix(got, "Refused ") || !strings.Contains(got, "loopback, private or link-local") {
			t.Errorf("web_fetch(%s) = %q, want a refusal", target, got)
		}
		if strings.Contains(got, "internal secret") {
			t.Errorf("web_fetch(%s) leaked the page: %q", target, got)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the private server got %d requests, want 0", n)
	}
}

func TestFetchFollowsRedirects(t *testing.T) {
	srv, _ := newPageServer(t, map[string]http.HandlerFunc{
		"/old": func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/new", http.StatusFound) },
		"/new": servePage("text/html", "<title>New home</title><p>Moved here.</p>"),
		"/ftp": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "ftp://example.org/file", http.StatusMovedPermanently)
		},
		"/loop": func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) },
	})
	tl := newFetch(t, FetchConfig{AllowPrivate: true})
	tests := []struct{ path, want string }{
		{"/old", "URL: " + srv.URL + "/new\nTitle: New home\n\nMoved here.\n"},
		{"/ftp", "Refused " + srv.URL + "/ftp: it redirects to an address that is not http or https."},
		{"/loop", "Refused " + srv.URL + "/loop: it redirected more than 10 times."},
	}
	for _, tt := range tests {
		if got := fetchReply(t, tl, FetchArgs{URL: srv.URL + tt.path}); got != tt.want {
			t.Errorf("web_fetch(%s):\n got %q\nwant %q", tt.path, got, tt.want)
		}
	}
}

func TestFetchDecodesCharsets(t *testing.T) {
	gbk := func(s string) string {
		out, err := simplifiedchinese.GBK.NewEncoder().String(s)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	// The first 1024 bytes are ASCII, so only the whole body shows it is UTF-8.
	undeclared := "<title>Caf\u00e9</title><!--" + strings.Repeat(" ", 1100) + "--><p>Cr\u00e8me br\u00fbl\u00e9e</p>"
	srv, _ := newPageServer(t, map[string]http.HandlerFunc{
		"/gbk-header": servePage("text/html; charset=gbk", gbk("<html><head><title>销售报告</title></head><body><p>你好，世界</p></body></html>")),
		"/gbk-meta":   servePage("text/html", gbk(`<html><head><meta charset="gb2312"><title>数据</title></head><body><p>分析结果</p></body></html>`)),
		"/gbk-text":   servePage("text/plain; charset=GBK", gbk("纯文本")),
		"/undeclared": servePage("text/html", undeclared),
		"/latin1":     servePage("text/html; charset=iso-8859-1", "<p>Caf\xe9</p>"),
	})
	tl := newFetch(t, FetchConfig{AllowPrivate: true})
	tests := []struct{ path, want string }{
		{"/gbk-header", "URL: " + srv.URL + "/gbk-header\nTitle: 销售报告\n\n你好，世界\n"},
		{"/gbk-meta", "URL: " + srv.URL + "/gbk-meta\nTitle: 数据\n\n分析结果\n"},
		{"/gbk-text", "URL: " + srv.URL + "/gbk-text\nTitle: (untitled)\n\n纯文本\n"},
		{"/undeclared", "URL: " + srv.URL + "/undeclared\nTitle: Caf\u00e9\n\nCr\u00e8me br\u00fbl\u00e9e\n"},
		{"/latin1", "URL: " + srv.URL + "/latin1\nTitle: (untitled)\n\nCaf\u00e9\n"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got := fetchReply(t, tl, FetchArgs{URL: srv.URL + tt.path})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("reply (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFetchTimeoutIsAReply(t *testing.T) {
	release := make(chan struct{})
	srv, _ := newPageServer(t, map[string]http.HandlerFunc{"/slow": func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}})
	t.Cleanup(func() { close(release) }) // runs before srv.Close, which waits for the handler
	tl := newFetch(t, FetchConfig{AllowPrivate: true, Timeout: 50 * time.Millisecond})
	got := fetchReply(t, tl, FetchArgs{URL: srv.URL + "/slow"})
	want := "Timed out after 50ms reading " + srv.URL + "/slow. Try again later or pick another source."
	if got != want {
		t.Errorf("reply = %q, want %q", got, want)
	}
}

func TestFetchCancelledIsAnError(t *testing.T) {
	srv, hits := newPageServer(t, map[string]http.HandlerFunc{"/": servePage("text/plain", "x")})
	tl := newFetch(t, FetchConfig{AllowPrivate: true})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := tl.InvokableRun(ctx, fmt.Sprintf(`{"url":%q}`, srv.URL+"/"))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("server got %d requests after cancellation, want 0", n)
	}
}

func TestFetchToolConfig(t *testing.T) {
	opaque := &http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, errors.New("unused") })}
	if _, err := FetchTool(FetchConfig{Client: opaque}); !errors.Is(err, ErrUnguardableTransport) {
		t.Errorf("FetchTool with an opaque transport: error = %v, want ErrUnguardableTransport", err)
	}
	if _, err := FetchTool(FetchConfig{Client: opaque, AllowPrivate: true}); err != nil {
		t.Errorf("FetchTool with an opaque transport and AllowPrivate: %v", err)
	}

	got := FetchConfig{}.withDefaults()
	want := FetchConfig{MaxBytes: DefaultFetchMaxBytes, MaxChars: DefaultFetchMaxChars, Timeout: DefaultFetchTimeout}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}

	tl := newFetch(t, FetchConfig{})
	info, err := tl.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	js, err := info.ParamsOneOf.ToJSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != FetchToolName || js.Properties.Len() != 2 {
		t.Errorf("tool %q has %d parameters, want %q with url and start_char", info.Name, js.Properties.Len(), FetchToolName)
	}
	if diff := cmp.Diff([]string{"url"}, js.Required); diff != "" {
		t.Errorf("required (-want +got):\n%s", diff)
	}
}

// BenchmarkFetchHTML measures one web_fetch of a 2 MiB HTML page from a
// local server: transfer, decoding and conversion to text.
func BenchmarkFetchHTML(b *testing.B) {
	page := benchmarkPage(2 << 20)
	srv := httptest.NewServer(servePage("text/html; charset=utf-8", page))
	defer srv.Close()
	tl, err := FetchTool(FetchConfig{AllowPrivate: true, MaxBytes: 4 << 20})
	if err != nil {
		b.Fatal(err)
	}
	args := fmt.Sprintf(`{"url":%q}`, srv.URL)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tl.InvokableRun(context.Background(), args); err != nil {
			b.Fatal(err)
		}
	}
}
