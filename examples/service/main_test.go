package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/server"
)

// TestMountedUnderPrefix: the host service's own route works, and Sift's
// API answers under /sift/: upload, ask a built-in analysis, stream the
// run to its done event, download the report.
func TestMountedUnderPrefix(t *testing.T) {
	py, err := operator.FindPython(context.Background(), "")
	if err != nil {
		t.Skipf("needs Python with pandas and matplotlib (CI installs them): %v", err)
	}
	handler, sift, err := newService(server.Config{Sift: agents.Config{SessionsRoot: t.TempDir(), Python: py}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(handler)
	defer ts.Close()
	defer sift.Shutdown(context.Background())

	if body := get(t, ts.URL+"/hello"); !strings.Contains(body, "host service") {
		t.Errorf("/hello = %q", body)
	}
	if body := get(t, ts.URL+"/sift/healthz"); !strings.Contains(body, "ok") {
		t.Errorf("/sift/healthz = %q", body)
	}
	data, err := os.ReadFile(filepath.Join("..", "data", "sales.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "sales.csv")
	fw.Write(data)
	mw.Close()
	resp, err := http.Post(ts.URL+"/sift/v1/sessions", mw.FormDataContentType(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID string }
	json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp.StatusCode != 201 || created.ID == "" {
		t.Fatalf("create = %d", resp.StatusCode)
	}
	resp, err = http.Post(ts.URL+"/sift/v1/sessions/"+created.ID+"/runs", "application/json", strings.NewReader(`{"question":"monthly revenue trend"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 202 {
		t.Fatalf("run = %d", resp.StatusCode)
	}
	resp, err = http.Get(ts.URL + "/sift/v1/sessions/" + created.ID + "/events")
	if err != nil {
		t.Fatal(err)
	}
	var last string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		// Each event is a plain SSE message with its kind in the data.
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			var e struct {
				Kind string `json:"kind"`
			}
			if err := json.Unmarshal([]byte(data), &e); err != nil {
				t.Fatalf("event data is not JSON (%v): %s", err, data)
			}
			last = e.Kind
		}
	}
	resp.Body.Close()
	if last != "done" {
		t.Fatalf("the stream ended with %q, want done", last)
	}
	if report := get(t, ts.URL+"/sift/v1/sessions/"+created.ID+"/files/report.md"); !strings.Contains(report, "2024-07") {
		t.Errorf("report.md lacks the month of the peak:\n%s", report)
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
