package web_test

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/server/web"
)

func get(t *testing.T, h http.Handler, path string) *http.Response {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec.Result()
}

func TestHandlerServesAppWithPolicy(t *testing.T) {
	h := web.Handler()
	res := get(t, h, "/")
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), `<script type="module" src="app.js">`) {
		t.Fatalf("GET /: %s\n%s", res.Status, body)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("GET / Content-Type %q", ct)
	}
	csp := res.Header.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "default-src 'self'", "object-src 'none'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	// The file viewer frames report.html from a blob: URL, under this
	// policy: frames from blob: only, and the report's styles by hash.
	if !strings.Contains(csp, "frame-src blob:;") {
		t.Errorf("Content-Security-Policy %q does not keep frames to blob: URLs", csp)
	}
	for _, h := range report.StyleHashes() {
		if !strings.Contains(csp, h) {
			t.Errorf("Content-Security-Policy %q lacks the report's style hash %s: report.html shows unstyled in the viewer", csp, h)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("Content-Security-Policy allows inline or eval'd script: %q", csp)
	}
	if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options %q", got)
	}
	if res := get(t, h, "/app.js"); !strings.Contains(res.Header.Get("Content-Type"), "javascript") {
		t.Errorf("app.js served as %q: browsers refuse a module that is not JavaScript", res.Header.Get("Content-Type"))
	}
	if res := get(t, h, "/nope.js"); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /nope.js: %s, want 404", res.Status)
	}
}

// Every file the page loads (from index.html, and each module's imports)
// is served: a typo in a path would otherwise show only in a browser.
func TestHandlerServesEveryReferencedAsset(t *testing.T) {
	h := web.Handler()
	refs := regexp.MustCompile(`(?:src|href)="([^"#:]+)"|from '\./([^']+)'`)
	seen := map[string]bool{}
	queue := []string{""} // "/" is index.html
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		res := get(t, h, "/"+name)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET /%s: %s", name, res.Status)
			continue
		}
		for _, m := range refs.FindAllStringSubmatch(string(body), -1) {
			ref := m[1] + m[2]
			queue = append(queue, strings.TrimPrefix(ref, "./"))
		}
	}
	for _, want := range []string{"app.js", "app.css", "api.js", "run.js", "markdown.js"} {
		if !seen[want] {
			t.Errorf("%s is not reached from index.html", want)
		}
	}
}

// The page renders model and tool output; it must do so as text. No script
// may hand a string to the HTML parser.
func TestScriptsNeverParseHTML(t *testing.T) {
	unsafe := regexp.MustCompile(`\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|\beval\(|new Function\(|srcdoc`)
	err := filepath.WalkDir("static", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".js" {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if unsafe.MatchString(line) {
				t.Errorf("%s:%d parses HTML from a string: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
