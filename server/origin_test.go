package server

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// raw sends a request with the given headers (Host among them) and returns
// the status and the error code of a JSON error answer.
func (ts *testServer) raw(method, path, body string, header map[string]string) (int, string) {
	ts.t.Helper()
	req, err := http.NewRequest(method, ts.http.URL+path, strings.NewReader(body))
	if err != nil {
		ts.t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var e errorBody
	_ = json.Unmarshal(b, &e)
	return resp.StatusCode, e.Error.Code
}

func (ts *testServer) port() string {
	_, port, _ := net.SplitHostPort(ts.http.Listener.Addr().String())
	return port
}

// TestCrossOriginRefused: a page on another site cannot create sessions or
// start runs on a person's loopback server (CSRF), with or without a token;
// the server's own page (same origin) and clients that send no Origin
// (curl, scripts) can.
func TestCrossOriginRefused(t *testing.T) {
	for _, token := range []string{"", "s3cret"} {
		cfg := testConfig(t, nil)
		cfg.Token = token
		ts := startServer(t, cfg)
		auth := map[string]string{}
		if token != "" {
			auth["Authorization"] = "Bearer " + token
		}
		with := func(h map[string]string) map[string]string {
			out := map[string]string{"Content-Type": "application/json"}
			for k, v := range auth {
				out[k] = v
			}
			for k, v := range h {
				out[k] = v
			}
			return out
		}
		id := ts.createSession(salesCSV(t))
		for _, tt := range []struct {
			name, method, path string
			header             map[string]string
			want               int
		}{
			{"foreign page creates a session", "POST", "/v1/sessions", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
			{"foreign page starts a run", "POST", "/v1/sessions/" + id + "/runs", map[string]string{"Origin": "http://attacker.test:8080"}, http.StatusForbidden},
			{"foreign page by fetch metadata", "POST", "/v1/sessions/" + id + "/runs", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
			{"sandboxed page (Origin null)", "DELETE", "/v1/sessions/" + id, map[string]string{"Origin": "null"}, http.StatusForbidden},
			{"another port on this machine", "POST", "/v1/sessions/" + id + "/pause", map[string]string{"Origin": "http://127.0.0.1:1"}, http.StatusForbidden},
			{"same origin creates a session", "POST", "/v1/sessions", map[string]string{"Origin": ts.http.URL, "Sec-Fetch-Site": "same-origin"}, http.StatusCreated},
			{"no Origin creates a session", "POST", "/v1/sessions", nil, http.StatusCreated},
			{"a foreign page may still read nothing but GET", "GET", "/v1/sessions", map[string]string{"Origin": "https://evil.example"}, http.StatusOK},
		} {
			got, code := ts.raw(tt.method, tt.path, "{}", with(tt.header))
			if got != tt.want {
				t.Errorf("token %q, %s: %s %s answered %d (%s), want %d", token, tt.name, tt.method, tt.path, got, code, tt.want)
			}
			if tt.want == http.StatusForbidden && code != "cross_origin" {
				t.Errorf("token %q, %s: error code %q, want cross_origin", token, tt.name, code)
			}
		}
		if v := ts.session(id); v.Status != statusCreated {
			t.Errorf("token %q: the session is %s after the refused requests, want %s", token, v.Status, statusCreated)
		}
	}
}

// TestForeignHostRefused: without a token, a page whose own name was
// rebound to 127.0.0.1 (DNS rebinding: its requests are same-origin and
// carry its name as Host) reaches nothing; loopback names on the server's
// port do, and --allowed-host adds a reverse proxy's name. With a token,
// any Host is served (the token guards).
func TestForeignHostRefused(t *testing.T) {
	cfg := testConfig(t, nil)
	ts := startServer(t, cfg)
	port := ts.port()
	for _, tt := range []struct {
		host string
		want int
	}{
		{"rebind.attacker.example:" + port, http.StatusForbidden},
		{"rebind.attacker.example", http.StatusForbidden},
		{"127.0.0.1.nip.io:" + port, http.StatusForbidden},
		{"localhost.attacker.example:" + port, http.StatusForbidden},
		{"127.0.0.1:1", http.StatusForbidden},
		{"127.0.0.1:" + port, http.StatusOK},
		{"localhost:" + port, http.StatusOK},
		{"LOCALHOST:" + port, http.StatusOK},
		{"[::1]:" + port, http.StatusOK},
	} {
		for _, path := range []string{"/v1/sessions", "/v1/openapi.json", "/metrics", "/"} {
			got, code := ts.raw("GET", path, "", map[string]string{"Host": tt.host})
			if got != tt.want {
				t.Errorf("GET %s with Host %s answered %d (%s), want %d", path, tt.host, got, code, tt.want)
			}
		}
	}
	// A rebound page's POST is same-origin by its Origin: the Host check
	// stops it all the same.
	rebound := "rebind.attacker.example:" + port
	if got, _ := ts.raw("POST", "/v1/sessions", "{}", map[string]string{"Host": rebound, "Origin": "http://" + rebound, "Content-Type": "application/json"}); got != http.StatusForbidden {
		t.Errorf("a rebound page's POST answered %d, want 403", got)
	}
	if got, _ := ts.raw("GET", "/healthz", "", map[string]string{"Host": rebound}); got != http.StatusOK {
		t.Errorf("/healthz with a foreign Host answered %d, want 200 (probes name the server as they please)", got)
	}

	cfg = testConfig(t, nil)
	cfg.AllowedHosts = []string{"sift.example.com"}
	cfg.AllowedOrigins = []string{"https://sift.example.com"}
	proxied := startServer(t, cfg)
	if got, code := proxied.raw("POST", "/v1/sessions", "{}", map[string]string{"Host": "sift.example.com", "Origin": "https://sift.example.com", "Content-Type": "application/json"}); got != http.StatusCreated {
		t.Errorf("through an allowed reverse proxy: POST answered %d (%s), want 201", got, code)
	}
	if got, _ := proxied.raw("GET", "/v1/sessions", "", map[string]string{"Host": "other.example.com"}); got != http.StatusForbidden {
		t.Errorf("a host not allowed answered %d, want 403", got)
	}

	cfg = testConfig(t, nil)
	cfg.Token = "s3cret"
	tokened := startServer(t, cfg)
	if got, code := tokened.raw("GET", "/v1/sessions", "", map[string]string{"Host": "sift.example.com", "Authorization": "Bearer s3cret"}); got != http.StatusOK {
		t.Errorf("with a token, any Host: answered %d (%s), want 200", got, code)
	}
}

// TestNonJSONBodyRefused: a body that does not say it is JSON is refused,
// even when it parses as JSON: a form or text/plain body is what a page of
// another site can send without asking the browser first.
func TestNonJSONBodyRefused(t *testing.T) {
	ts := startServer(t, testConfig(t, nil))
	id := ts.createSession(salesCSV(t))
	body := `{"question":"top products"}`
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "text/plain; charset=utf-8"} {
		for _, path := range []string{"/v1/sessions/" + id + "/runs", "/v1/sessions/" + id + "/answers"} {
			got, code := ts.raw("POST", path, body, map[string]string{"Content-Type": ct})
			if got != http.StatusUnsupportedMediaType {
				t.Errorf("POST %s with Content-Type %q answered %d (%s), want 415", path, ct, got, code)
			}
		}
	}
	if v := ts.session(id); v.Status != statusCreated {
		t.Errorf("the session is %s after the refused requests, want %s", v.Status, statusCreated)
	}
	// JSON that says so still goes through to the endpoint's own checks.
	if got, code := ts.raw("POST", "/v1/sessions/"+id+"/answers", `{}`, map[string]string{"Content-Type": "application/json; charset=utf-8"}); got != http.StatusConflict {
		t.Errorf("a JSON answer to a session that waits for none answered %d (%s), want 409", got, code)
	}
}
