// Package server is Sift as an HTTP service: a JSON API under /v1 to
// create sessions with data, ask questions, follow runs live over
// Server-Sent Events, answer plan reviews, questions and approvals, pause
// and resume, and download reports and artifacts; plus the web app, health
// checks and Prometheus metrics. The API is documented by openapi.json,
// served at /v1/openapi.json.
//
// New builds the handler from the library's agents.Config; another Go
// service can mount it under its own mux and middleware (http.StripPrefix
// works). Runs go on without any client attached; Shutdown pauses them.
package server

import (
	"cmp"
	"context"
	"crypto/subtle"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/runqueue"
	"github.com/sift-agent/sift/server/web"
	"github.com/sift-agent/sift/session"
)

//go:embed openapi.json
var openAPI []byte

// OpenAPI returns the API's OpenAPI 3 document.
func OpenAPI() []byte { return openAPI }

// Defaults of Config's limits.
const (
	DefaultMaxRuns        = 4
	DefaultMaxUploadBytes = 200 << 20
	DefaultMaxFiles       = 20
	DefaultMaxBodyBytes   = 1 << 20
	DefaultHeartbeat      = 15 * time.Second
	DefaultPollInterval   = 500 * time.Millisecond
	DefaultClaimTTL       = 30 * time.Second
)

// Config configures a Server.
type Config struct {
	// Sift is the library configuration every run uses. Its Store and
	// SessionsRoot are the server's too; with a shared store (Redis,
	// SQLite) and a shared SessionsRoot, several servers serve the same
	// sessions. Models may be left empty: then only the built-in analyses
	// run.
	Sift agents.Config
	// Token, when set, is the bearer token every /v1 request and /metrics
	// must carry. Optional; empty means no authentication (listen on
	// loopback only: see CheckListen).
	Token string
	// MaxRuns is how many runs go at once; more wait in a queue whose
	// position the event stream reports. Optional; default 4.
	MaxRuns int
	// MaxUploadBytes bounds the body of POST /v1/sessions (all files
	// together). Optional; default 200 MiB.
	MaxUploadBytes int64
	// MaxFiles bounds the files of one upload. Optional; default 20.
	MaxFiles int
	// MaxBodyBytes bounds every other request body. Optional; default 1 MiB.
	MaxBodyBytes int64
	// DataDirs are the directories, by name, that a session may take as
	// input (the operator's --data-dir). Optional.
	DataDirs map[string]string
	// Databases are the databases, by name, that a session may use; a
	// request names one, never gives a DSN (name to URL, as sift run's
	// --db takes them: sqlite:..., postgres://..., mysql://...). Optional.
	Databases map[string]string
	// Heartbeat is the interval of the comment lines that keep event
	// streams open through proxies. Optional; default 15s.
	Heartbeat time.Duration
	// PollInterval is how often a stream re-reads the event log of a run
	// that another server is doing, and how often a server renews its
	// claims on the sessions it runs (and so sees a pause another server
	// asked for). Optional; default 500ms.
	PollInterval time.Duration
	// ClaimTTL is how long a server's claim on a session it runs or has
	// queued lasts without renewal: after a server dies, its sessions can
	// be resumed elsewhere this long after. Optional; default 30s.
	ClaimTTL time.Duration
	// AllowedHosts are Host names (with or without :port; "*" for any)
	// served besides loopback ones when there is no Token: a reverse
	// proxy's public name, if it passes the Host on. Optional; by default
	// only 127.0.0.1, localhost and [::1] on the port the request came in
	// on are served, so a page whose name was rebound to this machine
	// (DNS rebinding) reaches nothing.
	AllowedHosts []string
	// AllowedOrigins are origins (scheme://host[:port]) whose pages may
	// change state here (POST, DELETE) besides the server's own: a reverse
	// proxy's public origin when it passes on the Host it was given.
	// Optional; by default cross-origin requests that change state are
	// refused (CSRF), with or without a token.
	AllowedOrigins []string
	// BasePath is the path a reverse proxy serves this server under
	// ("/sift" for https://example.com/sift/), put before the URLs the
	// API answers with (a session's file_urls). Optional; default none.
	// A request's X-Forwarded-Prefix header, when it is a clean path, is
	// used instead: a proxy that strips a prefix says which.
	BasePath string
	// Registerer receives the server's metrics. Optional; by default a
	// registry of the server's own, served at /metrics.
	Registerer prometheus.Registerer
	// Gatherer serves /metrics when Registerer is set. Optional.
	Gatherer prometheus.Gatherer
	// Logger logs run failures. Optional; slog.Default().
	Logger *slog.Logger
	// RunQueue sends every run, resume and answer through the run queue
	// in the store's Redis (Sift.Store must be a Redis backend): any
	// server or worker with a free slot takes the next one, a worker that
	// dies has its runs taken over once its lease (ClaimTTL) expires, and
	// Shutdown hands running runs back to the queue. Optional; off: runs
	// go on the server that accepted them, in its own queue.
	RunQueue bool
	// NoRuns makes the server API only: it queues runs (RunQueue is
	// implied) and never takes any; workers do. Optional.
	NoRuns bool
	// WorkerName names this server as a worker in the run queue, its
	// logs and metrics. Optional; host name and pid (DefaultWorkerName).
	WorkerName string
	// Schedules refresh finished sessions at the times cron expressions
	// name (see Schedule). Optional.
	Schedules []Schedule
	// Webhook receives each scheduled refresh's result, signed (see
	// Webhook). Optional.
	Webhook Webhook
	// ModelName names the model in GET /v1/config (the web app's header)
	// when Sift.Models.Names names none, as for a scripted model: "scripted
	// (script.json)". Optional; Models.Names comes first, and setting those
	// changes more than the name (a model's tokenizer and context window
	// are chosen by name).
	ModelName string
}

// Server is the HTTP handler. Create it with New; stop it with Shutdown.
type Server struct {
	cfg  Config
	sift *agents.Sift
	// tableCounts keeps the row counts of table files read (tables.go).
	tableCounts tableCounts
	// handler is mux behind the origin rules (originGuard).
	handler http.Handler
	store   *session.Backend
	root    string
	mux     *http.ServeMux
	metrics *metrics
	log     *slog.Logger

	// otherDir is set once this worker took a queued run of another
	// sessions directory (queue.go): it takes no more runs.
	otherDir atomic.Bool
	// reconcileDue is set while a reconcile of the queue with the
	// sessions directory waits to run (recover.go).
	reconcileDue atomic.Bool
	// drainStarted is closed when Shutdown begins.
	drainStarted chan struct{}
	// worked are the queue entries this worker works, by session.
	worked workedEntries

	// owner names this server in the store's claims.
	owner string
	// runCtx is the parent of every run: not tied to any request, so runs
	// go on without clients; Shutdown cancels it only as a last resort.
	runCtx    context.Context
	cancelAll context.CancelFunc

	mu       sync.Mutex
	hubs     map[string]*hub // active (running or queued) runs by session
	queue    []*hub
	running  int
	draining bool
	wg       sync.WaitGroup
	// closing ends every event stream at Shutdown.
	closing chan struct{}

	// runq is the run queue (Config.RunQueue), or nil; slots bound the
	// runs this worker takes from it; stopTaking ends its taking, at
	// Shutdown; observer hears what the queue does, for metrics.
	runq       *runqueue.Queue
	slots      chan struct{}
	stopTaking context.CancelFunc
	observer   runqueue.QueueObserver
}

// New validates cfg, fills its defaults and opens the session store.
func New(cfg Config) (*Server, error) {
	bp, ok := normBasePath(cfg.BasePath)
	if !ok {
		return nil, fmt.Errorf("server: base path %q is not a plain path: give one such as /sift (letters, digits and -._~ between slashes)", cfg.BasePath)
	}
	cfg.BasePath = bp
	if cfg.MaxRuns <= 0 {
		cfg.MaxRuns = DefaultMaxRuns
	}
	if cfg.MaxUploadBytes <= 0 {
		cfg.MaxUploadBytes = DefaultMaxUploadBytes
	}
	if cfg.MaxFiles <= 0 {
		cfg.MaxFiles = DefaultMaxFiles
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = DefaultHeartbeat
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.ClaimTTL <= 0 {
		cfg.ClaimTTL = DefaultClaimTTL
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.WorkerName == "" {
		cfg.WorkerName = DefaultWorkerName()
	}
	cfg.RunQueue = cfg.RunQueue || cfg.NoRuns
	for name, dir := range cfg.DataDirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("data directory %s=%s: not a readable directory; check the path", name, dir)
		}
	}
	if err := checkWebhook(cfg.Webhook); err != nil {
		return nil, err
	}
	crons, err := parseSchedules(cfg.Schedules, cfg.DataDirs)
	if err != nil {
		return nil, err
	}
	root, store, err := session.OpenRoot(cfg.Sift.SessionsRoot, cfg.Sift.Store)
	if err != nil {
		return nil, err
	}
	cfg.Sift.SessionsRoot, cfg.Sift.Store = root, store
	// The page shows the report growing as the model writes it.
	cfg.Sift.StreamReport = true
	// The library records statuses through finishingRegistry: retried,
	// and on a worker one step with the removal of the run's entry.
	sc, through := cfg.Sift, *store
	finishing := &finishingRegistry{Registry: store.Sessions}
	through.Sessions, sc.Store = finishing, &through
	sift, err := agents.New(sc)
	if err != nil {
		return nil, err
	}
	reg, gath := cfg.Registerer, cfg.Gatherer
	if reg == nil {
		r := prometheus.NewRegistry()
		reg, gath = r, r
	}
	m, err := newMetrics(reg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		cfg: cfg, sift: sift, store: cfg.Sift.Store, root: root, metrics: m, log: cfg.Logger, owner: session.NewID(),
		runCtx: ctx, cancelAll: cancel, hubs: map[string]*hub{}, closing: make(chan struct{}),
		drainStarted: make(chan struct{}),
	}
	finishing.s = s
	if err := s.startQueue(); err != nil {
		return nil, err
	}
	s.startSchedules(crons)
	s.routes(gath)
	if s.handler, err = newOriginGuard(cfg, http.HandlerFunc(s.serveClean)); err != nil {
		return nil, err
	}
	s.handler = traced(s.handler)
	return s, nil
}

func (s *Server) routes(gath prometheus.Gatherer) {
	mux := http.NewServeMux()
	api := func(pattern string, h http.HandlerFunc) { mux.Handle(pattern, s.authorized(h)) }
	mux.HandleFunc("GET /v1/openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(openAPI)
	})
	api("GET /v1/config", s.handleConfig)
	api("GET /v1/sessions", s.handleListSessions)
	api("POST /v1/sessions", s.handleCreateSession)
	api("GET /v1/sessions/{id}", s.handleGetSession)
	api("DELETE /v1/sessions/{id}", s.handleDeleteSession)
	api("POST /v1/sessions/{id}/runs", s.handleRun)
	api("POST /v1/sessions/{id}/answers", s.handleAnswer)
	api("POST /v1/sessions/{id}/pause", s.handlePause)
	api("POST /v1/sessions/{id}/resume", s.handleResume)
	api("POST /v1/sessions/{id}/refresh", s.handleRefresh)
	api("POST /v1/sessions/{id}/fork", s.handleFork)
	api("GET /v1/sessions/{id}/compare", s.handleCompare)
	api("GET /v1/sessions/{id}/events", s.handleEvents)
	api("GET /v1/sessions/{id}/files/{path...}", s.handleFile)
	api("GET /v1/sessions/{id}/tables/{path...}", s.handleTable)
	api("GET /v1/memory", s.handleListMemory)
	api("PATCH /v1/memory/{id}", s.handleEditMemory)
	api("DELETE /v1/memory/{id}", s.handleForgetMemory)
	mux.Handle("/v1/", s.authorized(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, codeNotFound, fmt.Sprintf("no API endpoint %s %s; see /v1/openapi.json", r.Method, r.URL.Path))
	}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", s.handleReady)
	mux.Handle("GET /metrics", s.authorized(promhttp.HandlerFor(gath, promhttp.HandlerOpts{}).ServeHTTP))
	mux.Handle("/", web.Handler())
	s.mux = mux
}

// ServeHTTP answers a request: pages of other sites are refused first (see Config.AllowedHosts and
// AllowedOrigins; originGuard), then serveClean answers.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// serveClean serves the API, the web app, health checks and metrics.
func (s *Server) serveClean(w http.ResponseWriter, r *http.Request) {
	if refuseDotFilePath(w, r) {
		return
	}
	if strings.HasPrefix(r.URL.Path, "/v1/") && !cleanPath(r.URL.Path) {
		// The mux would redirect (307) to the cleaned path: an API path
		// with '.', '..' or empty elements is refused as the document says.
		writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("the path %s has '.', '..' or empty elements; ask by the plain path (see /v1/openapi.json)", r.URL.EscapedPath()))
		return
	}
	in := r.WithContext(withBasePath(r.Context(), s.basePath(r)))
	s.mux.ServeHTTP(w, in)
	r.Pattern = in.Pattern
}

// cleanPath reports whether p has no '.', '..' or empty elements (a
// trailing slash aside).
func cleanPath(p string) bool {
	return path.Clean(p) == strings.TrimSuffix(p, "/") || p == "/"
}

// authorized refuses requests without the configured bearer token. The
// event stream also takes it as ?access_token=, since a browser's
// EventSource cannot set headers.
func (s *Server) authorized(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Token != "" {
			ok := HasBearer(r, s.cfg.Token)
			if !ok && strings.HasSuffix(r.URL.Path, "/events") && !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
				ok = tokenEqual(r.URL.Query().Get("access_token"), s.cfg.Token)
			}
			if !ok {
				w.Header().Set("WWW-Authenticate", `Bearer realm="sift"`)
				writeError(w, http.StatusUnauthorized, codeUnauthorized, "this server needs a token: send the header Authorization: Bearer TOKEN (the one sift serve was given with --token or SIFT_TOKEN)")
				return
			}
		}
		h(w, r)
	})
}

// HasBearer reports whether r carries the header Authorization: Bearer
// token. Every surface that takes a token (the API, sift mcp over HTTP)
// checks it here.
func HasBearer(r *http.Request, token string) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && tokenEqual(got, token)
}

// tokenEqual compares tokens in constant time.
func tokenEqual(got, token string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	draining := s.draining
	s.mu.Unlock()
	if draining {
		writeError(w, http.StatusServiceUnavailable, codeNotReady, "the server is shutting down")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if _, err := s.store.Sessions.List(ctx, session.Filter{Limit: 1}); err != nil {
		writeError(w, http.StatusServiceUnavailable, codeNotReady, "the session store does not answer: "+err.Error())
		return
	}
	if s.runq != nil {
		if err := s.runq.Check(ctx); err != nil {
			writeError(w, http.StatusServiceUnavailable, codeNotReady, err.Error()+"; runs cannot be queued or taken until Redis answers")
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

func (s *Server) handleConfig(w http.ResponseWriter, _ *http.Request) {
	m := s.cfg.Sift.Models
	info := map[string]any{
		"model":            m.Default != nil || (m.Planner != nil && m.Executor != nil && m.Code != nil && m.Report != nil),
		"model_name":       cmp.Or(modelName(m), s.cfg.ModelName),
		"data_dirs":        sortedKeys(s.cfg.DataDirs),
		"databases":        sortedKeys(s.cfg.Databases),
		"max_upload_bytes": s.cfg.MaxUploadBytes,
		"max_files":        s.cfg.MaxFiles,
		"max_runs":         s.cfg.MaxRuns,
	}
	writeJSON(w, http.StatusOK, info)
}

// Shutdown stops taking runs, asks every running session to pause at its
// next safe point and waits for the runs to end; queued runs are dropped
// (their sessions stay as they were). When ctx ends first, the runs are
// stopped at once (their sessions are left paused, resumable). Event
// streams end once their runs have. Call it before (or while) the
// http.Server shuts down: open event streams otherwise keep it waiting.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	if !s.draining {
		s.draining = true
		close(s.drainStarted)
		if s.stopTaking != nil {
			s.stopTaking()
			// Runs of the queue go back to it once paused.
			for _, h := range s.hubs {
				h.handBack.Store(true)
			}
		}
		for _, h := range s.queue {
			close(h.drop)
			h.finish()
			delete(s.hubs, h.id)
		}
		s.queue = nil
		for _, h := range s.hubs {
			h.requestPause()
		}
	}
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		s.cancelAll()
		<-done
		err = fmt.Errorf("shut down: runs were stopped at once: %w", ctx.Err())
	}
	s.mu.Lock()
	select {
	case <-s.closing:
	default:
		close(s.closing)
	}
	s.mu.Unlock()
	return err
}

// CheckListen refuses to serve a non-loopback address without a token.
func CheckListen(addr, token string) error {
	if token != "" {
		return nil
	}
	host := addr
	if h, _, err := splitHostPort(addr); err == nil {
		host = h
	}
	if isLoopback(host) {
		return nil
	}
	return fmt.Errorf("refusing to listen on %s without a token: anyone who reaches it could read your data and run code; set --token (or SIFT_TOKEN), or listen on 127.0.0.1", addr)
}

// errorBody is the JSON of every error answer.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, status int, code errorCode, msg string) {
	var b errorBody
	b.Error.Code, b.Error.Message = code.name, msg
	writeJSON(w, status, b)
}

// requestError maps a library error to an HTTP answer.
func requestError(w http.ResponseWriter, err error) {
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		writeError(w, http.StatusRequestEntityTooLarge, codeTooLarge, fmt.Sprintf("the request body is larger than this server's limit of %s; send less", humanBytes(mbe.Limit)))
	case errors.Is(err, session.ErrSessionNotFound), errors.Is(err, session.ErrWorkspaceNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, err.Error())
	case errors.Is(err, session.ErrInvalidID):
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
	default:
		writeError(w, http.StatusInternalServerError, codeInternal, err.Error())
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// modelName names the configured model for the page's header: the default
// model's name, or the roles' names when they differ ("planner: a, code:
// b"); empty when no name is known (a scripted model).
func modelName(m agents.Models) string {
	if n := m.Names["default"]; n != "" {
		return n
	}
	var parts []string
	seen := map[string]bool{}
	for _, role := range []string{"planner", "executor", "code", "report"} {
		if n := m.Names[role]; n != "" && !seen[n] {
			seen[n] = true
			parts = append(parts, role+": "+n)
		}
	}
	if len(parts) == 1 {
		_, n, _ := strings.Cut(parts[0], ": ")
		return n
	}
	return strings.Join(parts, ", ")
}
