package server

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// filesSession runs a built-in analysis in a new session and then adds
// the given files to its workspace.
func filesSession(t *testing.T, ts *testServer, files map[string]string) (id, ws string) {
	t.Helper()
	id = ts.createSession(salesCSV(t))
	ts.ask(id, map[string]any{"question": "monthly revenue trend"})
	ts.openStream(id, "").rest(t)
	ws = filepath.Join(ts.srv.root, id)
	for name, body := range files {
		p := filepath.Join(ws, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return id, ws
}

// get fetches a path sent exactly as written, redirects not followed.
func (ts *testServer) getRaw(t *testing.T, path string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", ts.http.URL+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.URL.Opaque = path
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestFilesAnyNameDownloadsByEveryForm: names with spaces and non-ASCII
// text download raw (where HTTP allows), percent-encoded and with encoded
// slashes (as a generated OpenAPI client sends {path}); the session's
// file_urls download as listed; '..' is a 400, never a redirect.
func TestFilesAnyNameDownloadsByEveryForm(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	files := map[string]string{
		"out/revenue by region.csv": "region,revenue\n",
		"out/收入.csv":                "收入\n",
		"out/topn_chart.png":        "PNG",
		"out/sub/50% off.csv":       "pct\n",
	}
	id, _ := filesSession(t, ts, files)
	base := "/v1/sessions/" + id + "/files/"
	for name, body := range files {
		var forms []string
		els := strings.Split(name, "/")
		for i, el := range els {
			els[i] = url.PathEscape(el)
		}
		forms = append(forms, base+strings.Join(els, "/"), base+strings.Join(els, "%2F"), base+url.PathEscape(name))
		if !strings.ContainsAny(name, " %") {
			forms = append(forms, base+name) // raw UTF-8 bytes
		}
		for _, p := range forms {
			if code, got := ts.getRaw(t, p); code != 200 || got != body {
				t.Errorf("GET %s = %d %q, want 200 %q", p, code, got, body)
			}
		}
	}
	v := ts.session(id)
	if len(v.FileURLs) != len(v.Files) {
		t.Fatalf("file_urls = %v, want one per file of %v", v.FileURLs, v.Files)
	}
	listed := 0
	for i, u := range v.FileURLs {
		want, ours := files[v.Files[i]]
		code, got := ts.getRaw(t, u)
		if code != 200 || ours && got != want {
			t.Errorf("listed URL %s = %d %q", u, code, got)
		}
		if ours {
			listed++
		}
	}
	if listed != len(files) {
		t.Errorf("files listed: %v, want all of %v", v.Files, files)
	}
	for _, p := range []string{"out/../report.md", "../x/report.md", "out/./topn_chart.png", "out//topn_chart.png", "out/%2e%2e/report.md", "out%2F..%2Freport.md"} {
		if code, body := ts.getRaw(t, base+p); code != 400 {
			t.Errorf("GET %s = %d (%s), want 400", p, code, body)
		}
	}
}

// TestFilesSwapRace: code keeps swapping out/d between a directory and a
// link to a host directory while the files endpoint is asked hundreds of
// times for out/d/a.txt: the host file's bytes are never served.
func TestFilesSwapRace(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	id, ws := filesSession(t, ts, map[string]string{"out/d/a.txt": "fine"})
	host := t.TempDir()
	if err := os.WriteFile(filepath.Join(host, "a.txt"), []byte("CANARY-HOST-SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(ws, "out")
	if err := os.Symlink(host, filepath.Join(out, "alt")); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			_ = unix.Renameat2(unix.AT_FDCWD, filepath.Join(out, "d"), unix.AT_FDCWD, filepath.Join(out, "alt"), unix.RENAME_EXCHANGE)
		}
	}()
	leaked, served := 0, 0
	for range 600 {
		code, body := ts.getRaw(t, "/v1/sessions/"+id+"/files/out/d/a.txt")
		if strings.Contains(body, "CANARY") {
			leaked++
		}
		if code == 200 {
			served++
		}
	}
	close(stop)
	wg.Wait()
	if leaked > 0 {
		t.Errorf("the host file was served %d times of 600 (%d answers 200)", leaked, served)
	}
}
