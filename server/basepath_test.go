package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
)

// TestFileURLsBehindAReverseProxy: behind a reverse proxy that serves Sift
// under a path prefix, a session's file_urls carry that prefix and each
// downloads through the proxy: the proxy's X-Forwarded-Prefix header (a
// clean path) wins, else Config.BasePath; a header that is not a plain
// path is ignored.
func TestFileURLsBehindAReverseProxy(t *testing.T) {
	cfg := testConfig(t, nil)
	cfg.BasePath = "/data/sift/"
	ts := startServer(t, cfg)
	files := map[string]string{"out/by region.csv": "region,revenue\n"}
	id, _ := filesSession(t, ts, files)
	backend, _ := url.Parse(ts.http.URL)

	// proxy serves the server under prefix, stripping it, and sends
	// header as X-Forwarded-Prefix when it is set.
	proxy := func(prefix, header string) *httptest.Server {
		rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(backend)
			pr.Out.URL.Path = strings.TrimPrefix(pr.In.URL.Path, prefix)
			pr.Out.URL.RawPath = ""
			pr.Out.Host = backend.Host
			if header != "" {
				pr.Out.Header.Set("X-Forwarded-Prefix", header)
			}
		}}
		p := httptest.NewServer(rp)
		t.Cleanup(p.Close)
		return p
	}
	get := func(u string) (int, string) {
		t.Helper()
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, c := range []struct {
		name, prefix, header, want string
	}{
		{"forwarded prefix", "/sift", "/sift", "/sift/v1/sessions/"},
		{"configured base path", "/data/sift", "", "/data/sift/v1/sessions/"},
		{"a header that is not a plain path", "/data/sift", "//evil.example/x", "/data/sift/v1/sessions/"},
		{"a header with dot segments", "/data/sift", "/a/../b", "/data/sift/v1/sessions/"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := proxy(c.prefix, c.header)
			var v sessionView
			req, _ := http.NewRequest("GET", p.URL+c.prefix+"/v1/sessions/"+id, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			err = decodeJSON(resp, &v)
			if err != nil || len(v.FileURLs) == 0 {
				t.Fatalf("session through the proxy: %v %+v", err, v)
			}
			found := false
			for i, u := range v.FileURLs {
				if !strings.HasPrefix(u, c.want) {
					t.Errorf("file URL %s does not start with %s", u, c.want)
					continue
				}
				if want, ours := files[v.Files[i]]; ours {
					found = true
					if code, body := get(p.URL + u); code != 200 || body != want {
						t.Errorf("GET %s through the proxy = %d %q, want 200 %q", u, code, body, want)
					}
				}
			}
			if !found {
				t.Errorf("file_urls %v lack the session's file", v.FileURLs)
			}
		})
	}
}

// TestBasePathMustBePlain: a base path that is not a plain path is refused
// when the server is made.
func TestBasePathMustBePlain(t *testing.T) {
	for _, bp := range []string{"https://example.com/sift", "/a/../b", "sift", "/a b"} {
		cfg := testConfig(t, nil)
		cfg.BasePath = bp
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "base path") {
			t.Errorf("BasePath %q: New = %v, want a base path error", bp, err)
		}
	}
}

func decodeJSON(resp *http.Response, v any) error {
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(v)
}
