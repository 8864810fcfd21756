package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sift-agent/sift/session"
)

// openAPIDoc is the part of the OpenAPI document the tests read.
type openAPIDoc struct {
	Info struct {
		License *struct {
			Name string `json:"name"`
		} `json:"license"`
	} `json:"info"`
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Parameters map[string]struct {
			Schema struct {
				Pattern   string `json:"pattern"`
				MaxLength int    `json:"maxLength"`
			} `json:"schema"`
		} `json:"parameters"`
		Schemas map[string]struct {
			Enum []string `json:"enum"`
		} `json:"schemas"`
	} `json:"components"`
}

type openAPIOperation struct {
	OperationID string                     `json:"operationId"`
	Responses   map[string]json.RawMessage `json:"responses"`
}

func loadOpenAPI(t *testing.T) openAPIDoc {
	t.Helper()
	var doc openAPIDoc
	if err := json.Unmarshal(OpenAPI(), &doc); err != nil {
		t.Fatalf("openapi.json is not JSON: %v", err)
	}
	return doc
}

// operation finds the document's operation for a route pattern of the
// mux ("GET /v1/sessions/{id}/files/{path...}").
func (d openAPIDoc) operation(pattern string) (openAPIOperation, bool) {
	method, path, _ := strings.Cut(pattern, " ")
	path = strings.ReplaceAll(path, "...}", "}")
	raw, ok := d.Paths[path][strings.ToLower(method)]
	if !ok {
		return openAPIOperation{}, false
	}
	var op openAPIOperation
	_ = json.Unmarshal(raw, &op)
	return op, true
}

// routes are the server's routes, as routes() registers them.
var routes = []string{
	"GET /v1/openapi.json", "GET /v1/config", "GET /v1/sessions", "POST /v1/sessions",
	"GET /v1/sessions/{id}", "DELETE /v1/sessions/{id}", "POST /v1/sessions/{id}/runs",
	"POST /v1/sessions/{id}/answers", "POST /v1/sessions/{id}/pause", "POST /v1/sessions/{id}/resume", "POST /v1/sessions/{id}/refresh", "POST /v1/sessions/{id}/fork",
	"GET /v1/sessions/{id}/compare",
	"GET /v1/sessions/{id}/events", "GET /v1/sessions/{id}/files/{path...}",
	"GET /v1/sessions/{id}/tables/{path...}",
	"GET /v1/memory", "PATCH /v1/memory/{id}", "DELETE /v1/memory/{id}",
	"GET /healthz", "GET /readyz", "GET /metrics",
}

// TestOpenAPIDocumentsEveryRoute: every route is an operation with a
// unique operationId (what generated clients call it by), every operation
// is a route, the document has a license and the statuses the store has.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	doc := loadOpenAPI(t)
	ids := map[string]string{}
	for _, rt := range routes {
		op, ok := doc.operation(rt)
		if !ok {
			t.Errorf("%s is not in openapi.json", rt)
			continue
		}
		if op.OperationID == "" {
			t.Errorf("%s has no operationId", rt)
		} else if other, dup := ids[op.OperationID]; dup {
			t.Errorf("%s and %s share the operationId %s", rt, other, op.OperationID)
		}
		ids[op.OperationID] = rt
	}
	n := 0
	for path, ops := range doc.Paths {
		for method := range ops {
			if method == "parameters" {
				continue
			}
			n++
			rt := strings.ToUpper(method) + " " + path
			if !slices.ContainsFunc(routes, func(r string) bool { return strings.ReplaceAll(r, "...}", "}") == rt }) {
				t.Errorf("openapi.json documents %s, which the server does not serve", rt)
			}
		}
	}
	if n != len(routes) {
		t.Errorf("openapi.json has %d operations, the server %d routes", n, len(routes))
	}
	if doc.Info.License == nil || doc.Info.License.Name == "" {
		t.Error("openapi.json has no license")
	}
	// Every status the registry can hold, and the API's own.
	want := []string{statusCreated, statusQueued, "running", "waiting", "paused", "stopped", "done", "failed"}
	got := doc.Components.Schemas["SessionStatus"].Enum
	for _, st := range want {
		if !slices.Contains(got, st) {
			t.Errorf("SessionStatus lacks %q: %v", st, got)
		}
	}
	// The id pattern is the one ValidateID enforces.
	idp := doc.Components.Parameters["SessionID"].Schema
	re := regexp.MustCompile(idp.Pattern)
	for _, id := range []string{session.NewID(), "a.b_c-d", ".hidden", "a b", "a%2Fb", strings.Repeat("x", 129), "é"} {
		valid := session.ValidateID(id) == nil
		if documented := re.MatchString(id) && len(id) <= idp.MaxLength; documented != valid {
			t.Errorf("id %q: the document says valid=%v, ValidateID %v", id, documented, valid)
		}
	}
}

// TestServerAnswersWhatOpenAPISays: requests the schema calls invalid are
// refused with 400 (parallel 0, limit 0 or abc, malformed ids, unknown
// fields, negative budgets), and every status the server answers these
// and ordinary requests with is documented for that operation.
func TestServerAnswersWhatOpenAPISays(t *testing.T) {
	doc := loadOpenAPI(t)
	ts := startServer(t, testConfig(t, nil))
	// Record each answer's status by the route that served it.
	var (
		mu   sync.Mutex
		seen []string
	)
	inner := ts.http.Config.Handler
	ts.http.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		inner.ServeHTTP(rec, r)
		if r.Pattern != "" && r.Pattern != "/v1/" && r.Pattern != "/" {
			mu.Lock()
			seen = append(seen, fmt.Sprintf("%s %d", r.Pattern, rec.status))
			mu.Unlock()
		}
	})
	id := ts.createSession(salesCSV(t))
	bad := "bad%20id"
	cases := []struct {
		method, path string
		body         any
		want         int
	}{
		{"GET", "/v1/sessions?limit=0", nil, 400},
		{"GET", "/v1/sessions?limit=abc", nil, 400},
		{"GET", "/v1/sessions?status=sleeping", nil, 400},
		{"GET", "/v1/sessions?status[]=done", nil, 400},
		{"GET", "/v1/sessions?limit=1&status=created", nil, 200},
		{"POST", "/v1/sessions/" + id + "/runs", map[string]any{"question": "trend", "parallel": 0}, 400},
		{"POST", "/v1/sessions/" + id + "/runs", map[string]any{"question": "trend", "parallel": -1}, 400},
		{"POST", "/v1/sessions/" + id + "/runs", map[string]any{"question": "trend", "budget": map[string]any{"max_steps": -1}}, 400},
		{"POST", "/v1/sessions/" + id + "/runs", map[string]any{"question": "trend", "budget": map[string]any{"max_cost": -0.5}}, 400},
		{"POST", "/v1/sessions/" + id + "/runs", map[string]any{"question": "trend", "colour": "red"}, 400},
		{"POST", "/v1/sessions/" + id + "/answers", map[string]any{"action": "approve"}, 409},
		{"POST", "/v1/sessions/" + id + "/pause", nil, 409},
		{"POST", "/v1/sessions/" + id + "/resume", nil, 409},
		{"POST", "/v1/sessions/" + id + "/refresh", nil, 409},
		{"POST", "/v1/sessions/" + bad + "/refresh", nil, 400},
		{"POST", "/v1/sessions/" + id + "/fork", map[string]any{"at": 1}, 409},
		{"POST", "/v1/sessions/" + id + "/fork", map[string]any{"at": 0}, 400},
		{"GET", "/v1/sessions/" + id + "/compare?with=" + id, nil, 409},
		{"GET", "/v1/sessions/" + id + "/compare", nil, 400},
		{"GET", "/v1/sessions/" + id + "/compare?with=" + session.NewID(), nil, 404},
		{"GET", "/v1/sessions/" + bad + "/compare?with=" + id, nil, 400},
		{"GET", "/v1/sessions/" + id + "/events", nil, 204},
		{"GET", "/v1/sessions/" + id + "/files/report.md", nil, 404},
		{"GET", "/v1/sessions/" + id + "/files/input/sales.csv", nil, 403},
		{"GET", "/v1/sessions/" + id + "/tables/input/sales.csv", nil, 403},
		{"GET", "/v1/sessions/" + id + "/tables/out/x.csv?page=0", nil, 400},
		{"GET", "/v1/sessions/" + bad + "/tables/out/x.csv", nil, 400},
		{"GET", "/v1/sessions/" + id + "/tables/out/../report.md", nil, 400},
		{"GET", "/v1/sessions/" + session.NewID(), nil, 404},
		{"GET", "/v1/sessions/" + bad, nil, 400},
		{"DELETE", "/v1/sessions/" + bad, nil, 400},
		{"POST", "/v1/sessions/" + bad + "/runs", map[string]any{"question": "q"}, 400},
		{"POST", "/v1/sessions/" + bad + "/answers", map[string]any{"answer": "a"}, 400},
		{"POST", "/v1/sessions/" + bad + "/pause", nil, 400},
		{"POST", "/v1/sessions/" + bad + "/resume", nil, 400},
		{"GET", "/v1/sessions/" + bad + "/events", nil, 400},
		{"GET", "/v1/sessions/" + bad + "/files/report.md", nil, 400},
		{"GET", "/v1/sessions/" + id + "/files/out/../../../config", nil, 400},
		{"GET", "/v1/sessions/" + id + "/files/out%2F..%2F..%2F..%2Fconfig", nil, 400},
		{"GET", "/v1/sessions/" + id + "/./", nil, 400},
		{"GET", "/v1//sessions", nil, 400},
		{"GET", "/v1/config", nil, 200},
		{"GET", "/v1/memory", nil, 200},
		{"GET", "/v1/memory?session=" + id, nil, 200},
		{"GET", "/v1/memory?session=" + session.NewID(), nil, 404},
		{"GET", "/v1/memory?session=" + bad, nil, 400},
		{"PATCH", "/v1/memory/f-0123456789abcdef0123", map[string]any{"answer": "yes"}, 404},
		{"PATCH", "/v1/memory/f-0123456789abcdef0123", map[string]any{"text": "yes"}, 400},
		{"PATCH", "/v1/memory/nope", map[string]any{"answer": "yes"}, 400},
		{"DELETE", "/v1/memory/f-0123456789abcdef0123", nil, 404},
		{"DELETE", "/v1/memory/nope", nil, 400},
		{"GET", "/v1/openapi.json", nil, 200},
		{"GET", "/healthz", nil, 200},
		{"GET", "/readyz", nil, 200},
		{"GET", "/metrics", nil, 200},
		{"POST", "/v1/sessions/" + id + "/runs", map[string]any{"question": "monthly revenue trend", "parallel": 1}, 202},
	}
	for _, c := range cases {
		var e errorBody
		out := any(&e)
		if c.want < 400 {
			out = nil
		}
		if code := ts.do(c.method, c.path, c.body, out); code != c.want {
			t.Errorf("%s %s %v = %d %s, want %d", c.method, c.path, c.body, code, e.Error.Message, c.want)
		}
	}
	ts.openStream(id, "").rest(t)
	if code := ts.do("DELETE", "/v1/sessions/"+id, nil, nil); code != 204 {
		t.Errorf("delete = %d", code)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, rt := range routes {
		if !slices.ContainsFunc(seen, func(s string) bool { return strings.HasPrefix(s, rt+" ") }) {
			t.Errorf("no request reached %s", rt)
		}
	}
	for _, s := range seen {
		route, status := s[:strings.LastIndex(s, " ")], s[strings.LastIndex(s, " ")+1:]
		op, ok := doc.operation(route)
		if !ok {
			t.Errorf("%s is not documented", route)
			continue
		}
		if _, ok := op.Responses[status]; !ok {
			t.Errorf("%s answered %s, which openapi.json does not list for %s", route, status, op.OperationID)
		}
	}
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// TestOpenAPIDocumentsTheGuards: the answers the origin guard and the JSON
// check give before any handler runs are documented too: 403 on every
// operation a foreign Host or a page of another site can reach (all but
// the health checks), 415 where a JSON body is read.
func TestOpenAPIDocumentsTheGuards(t *testing.T) {
	doc := loadOpenAPI(t)
	for _, route := range routes {
		op, ok := doc.operation(route)
		if !ok {
			t.Errorf("%s: not in the document", route)
			continue
		}
		if route == "GET /healthz" || route == "GET /readyz" {
			continue
		}
		if _, ok := op.Responses["403"]; !ok {
			t.Errorf("%s: the origin guard answers 403 (cross_origin, foreign_host), which the document does not list", route)
		}
	}
	for _, route := range []string{"POST /v1/sessions/{id}/runs", "POST /v1/sessions/{id}/answers"} {
		op, _ := doc.operation(route)
		if _, ok := op.Responses["415"]; !ok {
			t.Errorf("%s: a body that is not JSON is answered 415, which the document does not list", route)
		}
	}
}

// TestOpenAPIErrorCodesAreTheServers: the document's Error.code enum is
// exactly the list of codes the server can send (errorCodes: writeError
// and refusals take only those), so a strict generated client accepts
// every error answer and the document promises no code that never comes.
func TestOpenAPIErrorCodesAreTheServers(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas struct {
				Error struct {
					Properties struct {
						Error struct {
							Properties struct {
								Code struct {
									Enum []string `json:"enum"`
								} `json:"code"`
							} `json:"properties"`
						} `json:"error"`
					} `json:"properties"`
				} `json:"Error"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range errorCodes {
		want = append(want, c.String())
	}
	got := doc.Components.Schemas.Error.Properties.Error.Properties.Code.Enum
	if !slices.Equal(got, want) {
		t.Errorf("openapi.json's Error.code enum is %q; the server sends %q (server/errcodes.go): make them the same, in that order", got, want)
	}
}
