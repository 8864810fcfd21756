// Package mcpserver is Sift as a Model Context Protocol server: an
// assistant or IDE that speaks MCP runs Sift's analyses on files the
// operator allows, runs one built-in analysis without a model, lists
// sessions, asks follow-ups in a session, and reads each session's report,
// plan and artifacts as resources.
//
// New builds the server from the library's agents.Config; Run serves it
// over any transport of the SDK (stdio for `sift mcp`), and Handler serves
// it as streamable HTTP behind a bearer token. Every path a client gives
// is confined to Config.Allow: a "..", an absolute path elsewhere or a
// symbolic link out of those directories is refused. The files are copied
// into the session's read-only input/ and generated code runs in the
// library's sandbox, as for every other surface.
//
// The SDK is github.com/modelcontextprotocol/go-sdk, the same one the
// client in tools/mcp uses.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/server"
	"github.com/sift-agent/sift/session"
)

// ErrPathRefused is wrapped when a client names a path outside the allowed
// directories.
var ErrPathRefused = errors.New("path refused")

// Config configures a Server.
type Config struct {
	// Sift is the library configuration every run uses. Its Store and
	// SessionsRoot hold the sessions the tools and resources show. Models
	// may be left empty: then only the built-in analyses run.
	Sift agents.Config
	// Allow are the directories whose files (and subdirectories) a client
	// may analyse; a relative path a client gives is taken from the first.
	// Required: at least one.
	Allow []string
	// Databases are the databases, by name, that a client may name; it
	// never gives a URL (name to URL, as sift run's --db takes them).
	// Optional.
	Databases map[string]string
	// Version is the version reported to clients. Optional; default "dev".
	Version string
	// Logger logs the protocol's failures. Optional; slog.Default(), which
	// writes to stderr: over stdio, stdout carries only the protocol.
	Logger *slog.Logger
}

// Server is Sift's MCP server. Create it with New.
type Server struct {
	cfg   Config
	sift  *agents.Sift
	store *session.Backend
	root  string
	// allow are the allowed directories, absolute and free of symlinks.
	allow []string
	mcp   *mcp.Server

	// pausing is closed by Shutdown: running analyses pause at their next
	// safe point and new ones are refused.
	pausing   chan struct{}
	pauseOnce sync.Once
	mu        sync.Mutex
	runs      sync.WaitGroup
}

// New validates cfg, opens the session store and registers the tools and
// resources.
func New(cfg Config) (*Server, error) {
	if len(cfg.Allow) == 0 {
		return nil, errors.New("mcpserver: no allowed directory: name at least one directory whose files clients may analyse (sift mcp --allow DIR)")
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Server{cfg: cfg, pausing: make(chan struct{})}
	for _, dir := range cfg.Allow {
		abs, err := filepath.Abs(dir)
		if err == nil {
			abs, err = filepath.EvalSymlinks(abs)
		}
		if st, serr := os.Stat(abs); err != nil || serr != nil || !st.IsDir() {
			return nil, fmt.Errorf("allowed directory %s: not a readable directory; check the path", dir)
		}
		s.allow = append(s.allow, abs)
	}
	root, store, err := session.OpenRoot(cfg.Sift.SessionsRoot, cfg.Sift.Store)
	if err != nil {
		return nil, err
	}
	cfg.Sift.SessionsRoot, cfg.Sift.Store = root, store
	if s.sift, err = agents.New(cfg.Sift); err != nil {
		return nil, err
	}
	s.cfg, s.store, s.root = cfg, cfg.Sift.Store, root
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "sift", Title: "Sift data analyst", Version: cfg.Version}, &mcp.ServerOptions{
		Instructions:      instructions,
		Logger:            cfg.Logger,
		CompletionHandler: s.complete,
	})
	s.addTools()
	s.addResources()
	s.addPrompts()
	return s, nil
}

// instructions tell the client's model what the server is for.
const instructions = `Sift analyses data files: give analyze a question and the files; it plans, runs Python and writes a report (report.md) with tables and charts. run_builtin_analysis runs one fixed analysis (profile, trend, topn, ...) without a language model. Each run is a session: list_sessions shows them, follow_up asks more in one, and its report, plan and out/ files are resources (sift://sessions/{id}/{path}).`

// MCP returns the SDK server, to serve over a transport of the caller's.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one client over t (e.g. &mcp.StdioTransport{}) until the
// client leaves or ctx ends.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.mcp.Run(ctx, t)
}

// Handler serves the MCP server as streamable HTTP. With a token, every
// request must carry Authorization: Bearer TOKEN.
func (s *Server) Handler(token string) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{Logger: s.cfg.Logger})
	if token == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !server.HasBearer(r, token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sift"`)
			http.Error(w, "this server needs a token: send the header Authorization: Bearer TOKEN (the one sift mcp was given with --token or SIFT_TOKEN)", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Shutdown asks running analyses to pause at their next safe point
// (their sessions stay resumable), refuses new ones, waits for them to end
// or ctx to, then closes every client session. Call it before the
// http.Server shuts down: open streams otherwise keep it waiting.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.pauseOnce.Do(func() { close(s.pausing) })
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { s.runs.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("shut down: analyses still running were stopped (resumable with sift resume): %w", ctx.Err())
	}
	for ss := range s.mcp.Sessions() {
		_ = ss.Close()
	}
	return err
}

// startRun counts a run in, or refuses it once Shutdown began.
func (s *Server) startRun() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.pausing:
		return errors.New("the server is shutting down; try again when it is back")
	default:
	}
	s.runs.Add(1)
	return nil
}

// confine maps a path a client gave to its real location inside an allowed
// directory, or refuses it with an error wrapping ErrPathRefused. A
// relative path is taken from the first allowed directory.
func (s *Server) confine(p string) (string, error) {
	refuse := func(why string) error {
		return fmt.Errorf("%w: %q %s; give a file or directory under %s", ErrPathRefused, p, why, strings.Join(s.allow, ", "))
	}
	if strings.TrimSpace(p) == "" {
		return "", refuse("is empty")
	}
	for _, el := range strings.Split(filepath.ToSlash(p), "/") {
		if el == ".." {
			return "", refuse("has a '..' element")
		}
	}
	roots := s.allow
	if !filepath.IsAbs(p) {
		roots = s.allow[:1]
	}
	for _, root := range roots {
		real, err := operator.Confine(root, p)
		if err != nil {
			continue
		}
		if _, err := os.Stat(real); err != nil {
			return "", fmt.Errorf("%q: no such file or directory under the allowed directories; check the path", p)
		}
		return real, nil
	}
	return "", refuse("is outside the directories this server allows (or leads out of them through a symbolic link)")
}
