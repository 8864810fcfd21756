package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cloudwego/eino/components/tool"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Version is what Sift tells MCP servers it is.
const clientVersion = "0.1"

// Errors the tools' failures wrap, for callers that branch on them.
var (
	// ErrStart: a server could not be started or did not answer.
	ErrStart = errors.New("MCP server did not start")
	// ErrStopped: a server stopped (crashed, was killed, closed the
	// connection) and its tools are unavailable for the rest of the run.
	ErrStopped = errors.New("MCP server stopped")
	// ErrTimeout: a call took longer than the server's call timeout.
	ErrTimeout = errors.New("MCP tool call timed out")
	// ErrToolFailed: the server answered that the call failed, or its
	// answer could not be read.
	ErrToolFailed = errors.New("MCP tool call failed")
)

// Options are what Connect needs besides the servers.
type Options struct {
	// LogDir receives each stdio server's stderr as mcp-<name>.log.
	// Optional; without it stderr is discarded.
	LogDir string
	// Save stores binary content a tool returns (images, audio, blobs)
	// under a workspace-relative path such as out/mcp/charts-plot-1.png.
	// Optional; without it such content is described, not saved.
	Save func(ctx context.Context, path string, data []byte) error
	// Getenv expands ${VAR} in Env and Headers. Optional; os.Getenv.
	Getenv func(string) string
}

// Toolset is the connected servers of one run and their tools.
type Toolset struct {
	servers  []*server
	tools    []Tool
	problems []error
}

// Tool is one MCP tool, ready to hand to an agent after wrapping.
type Tool struct {
	// InvokableTool calls the server; its Info carries the server's schema.
	tool.InvokableTool
	// Name is the tool's name in Sift: <server>_<tool>.
	Name string
	// Server is the server's configured name; Remote the tool's name there.
	Server, Remote string
	// ReadOnly is set when the configuration marks the tool read-only.
	ReadOnly bool
	// Agent is who gets it (AgentExecutor or AgentCode).
	Agent string
}

// Connect starts (stdio) or reaches (HTTP) every server at once, and lists
// their tools. A server that fails does not stop the others: its failure is
// in Problems, and it offers no tools. Close the Toolset when the run ends,
// whatever happened.
func Connect(ctx context.Context, servers []ServerConfig, opts Options) *Toolset {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	ts := &Toolset{servers: make([]*server, len(servers))}
	found := make([][]Tool, len(servers))
	errs := make([]error, len(servers))
	var wg sync.WaitGroup
	for i, c := range servers {
		s := &server{cfg: c.withDefaults(), opts: opts, ended: make(chan struct{})}
		ts.servers[i] = s
		wg.Add(1)
		go func() {
			defer wg.Done()
			found[i], errs[i] = s.start(ctx)
		}()
	}
	wg.Wait()
	seen := map[string]string{}
	for i := range servers {
		if errs[i] != nil {
			ts.problems = append(ts.problems, errs[i])
			continue
		}
		for _, t := range found[i] {
			if other, dup := seen[t.Name]; dup {
				ts.problems = append(ts.problems, fmt.Errorf("MCP tool %s of server %q has the same Sift name (%s) as one of server %q: it is not offered; rename a server", t.Remote, t.Server, t.Name, other))
				continue
			}
			seen[t.Name] = t.Server
			ts.tools = append(ts.tools, t)
		}
	}
	return ts
}

// Tools returns the tools for the named agent (AgentExecutor or AgentCode).
func (ts *Toolset) Tools(agent string) []Tool {
	if ts == nil {
		return nil
	}
	var out []Tool
	for _, t := range ts.tools {
		if t.Agent == agent {
			out = append(out, t)
		}
	}
	return out
}

// Writing lists the Sift names of the tools not marked read-only, for the
// approval policy.
func (ts *Toolset) Writing() []string {
	if ts == nil {
		return nil
	}
	var out []string
	for _, t := range ts.tools {
		if !t.ReadOnly {
			out = append(out, t.Name)
		}
	}
	return out
}

// Problems are the servers that could not be used, each saying why and
// what to do.
func (ts *Toolset) Problems() []error {
	if ts == nil {
		return nil
	}
	return ts.problems
}

// Close disconnects every server and stops the stdio ones.
func (ts *Toolset) Close() error {
	if ts == nil {
		return nil
	}
	var errs []error
	for _, s := range ts.servers {
		if s != nil {
			errs = append(errs, s.close())
		}
	}
	return errors.Join(errs...)
}

// server is one configured server during a run.
type server struct {
	cfg  ServerConfig
	opts Options

	mu      sync.Mutex
	sess    *sdk.ClientSession
	cmd     *exec.Cmd
	log     *os.File
	logPath string
	// stopped says why the server can no longer be called; nil while it
	// can.
	stopped error
	saved   int
	// ended is closed when the connection has ended, for whatever reason.
	ended chan struct{}
}

// start connects to the server and lists the tools it offers.
func (s *server) start(ctx context.Context) ([]Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.StartTimeout)
	defer cancel()
	transport, err := s.transport()
	if err != nil {
		s.stop(err)
		return nil, err
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "sift", Version: clientVersion}, &sdk.ClientOptions{Capabilities: &sdk.ClientCapabilities{}})
	sess, err := client.Connect(ctx, transport, nil)
	if err != nil {
		err = s.startError(ctx, err)
		s.stop(err)
		return nil, err
	}
	s.mu.Lock()
	s.sess = sess
	s.mu.Unlock()
	go func() {
		_ = sess.Wait()
		close(s.ended)
	}()
	var out []Tool
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			err = s.startError(ctx, fmt.Errorf("list its tools: %w", err))
			s.stop(err)
			return nil, err
		}
		if !s.cfg.offers(t.Name) {
			continue
		}
		rt, err := newRemoteTool(s, t)
		if err != nil {
			return nil, fmt.Errorf("%w: %q: tool %s: %v", ErrStart, s.cfg.Name, t.Name, err)
		}
		out = append(out, Tool{InvokableTool: rt, Name: rt.name, Server: s.cfg.Name, Remote: t.Name, ReadOnly: s.cfg.readOnly(t.Name), Agent: s.cfg.Agent})
	}
	return out, nil
}

// startError says why the server did not start, with what it wrote to
// stderr.
func (s *server) startError(ctx context.Context, err error) error {
	what := "could not be reached"
	if s.cfg.Transport() == "stdio" {
		what = "could not be started"
	}
	msg := fmt.Sprintf("%q %s: %v", s.cfg.Name, what, err)
	if ctx.Err() == context.DeadlineExceeded {
		msg = fmt.Sprintf("%q did not answer within %s", s.cfg.Name, s.cfg.StartTimeout)
	}
	if tail := s.stderrTail(); tail != "" {
		msg += "; it wrote: " + tail
	}
	msg += "; " + s.fixHint()
	return fmt.Errorf("%w: %s", ErrStart, msg)
}

// fixHint says what to check for a server that does not work.
func (s *server) fixHint() string {
	if s.cfg.Transport() == "stdio" {
		hint := fmt.Sprintf("check its command (%s) and arguments in mcp_servers", s.cfg.Command)
		if s.logPath != "" {
			hint += " and its log " + s.logPath
		}
		return hint
	}
	return fmt.Sprintf("check that %s is up and its headers in mcp_servers", s.cfg.URL)
}

// httpReconnects is how many times a streamable HTTP server's interrupted
// stream is resumed before its call fails.
const httpReconnects = 3

// transport makes the stdio or HTTP transport.
func (s *server) transport() (sdk.Transport, error) {
	if s.cfg.URL != "" {
		headers := http.Header{}
		for k, v := range s.cfg.Headers {
			headers.Set(k, expand(v, s.opts.Getenv))
		}
		return &sdk.StreamableClientTransport{
			Endpoint:   s.cfg.URL,
			HTTPClient: &http.Client{Transport: headerTransport{headers: headers, base: http.DefaultTransport}},
			// A response stream the server closes before its result (as
			// SEP-1699 lets it, with a retry delay) is resumed with
			// Last-Event-ID after that delay: with no retries the call
			// failed. A server that is gone still fails the call after
			// these few attempts, within its CallTimeout.
			MaxRetries: httpReconnects,
		}, nil
	}
	cmd := exec.Command(s.cfg.Command, s.cfg.Args...)
	cmd.Dir = s.cfg.Dir
	cmd.Env = serverEnv(s.cfg.Env, s.opts.Getenv)
	setProcessGroup(cmd)
	if s.opts.LogDir != "" {
		s.logPath = filepath.Join(s.opts.LogDir, "mcp-"+s.cfg.Name+".log")
		f, err := openLog(s.logPath)
		if err != nil {
			return nil, fmt.Errorf("%w: %q: its log: %v", ErrStart, s.cfg.Name, err)
		}
		s.log = f
		cmd.Stderr = f
	}
	s.cmd = cmd
	return &sdk.CommandTransport{Command: cmd, TerminateDuration: terminateAfter}, nil
}

// session returns the live session, or why there is none.
func (s *server) session() (*sdk.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped != nil {
		return nil, s.stopped
	}
	if s.sess == nil {
		return nil, fmt.Errorf("%w: %q is not connected", ErrStopped, s.cfg.Name)
	}
	return s.sess, nil
}

// crashed marks the server stopped after a call lost it, and says so with
// its exit status and the end of its stderr.
func (s *server) crashed(tool string, cause error) error {
	s.mu.Lock()
	sess := s.sess
	s.sess = nil
	s.mu.Unlock()
	if sess != nil {
		_ = sess.Close()
	}
	msg := fmt.Sprintf("%q stopped during the call to %s", s.cfg.Name, tool)
	if s.cmd != nil && s.cmd.ProcessState != nil {
		msg += " (" + s.cmd.ProcessState.String() + ")"
	} else if cause != nil {
		msg += " (" + cause.Error() + ")"
	}
	if tail := s.stderrTail(); tail != "" {
		msg += "; its last words: " + tail
	}
	msg += "; its tools are unavailable for the rest of this run"
	err := fmt.Errorf("%w: %s", ErrStopped, msg)
	s.stop(err)
	return err
}

// stop records why the server can no longer be called, and stops it.
func (s *server) stop(why error) {
	s.mu.Lock()
	if s.stopped == nil {
		s.stopped = why
		if !errors.Is(why, ErrStopped) {
			s.stopped = fmt.Errorf("%w: %v", ErrStopped, why)
		}
	}
	sess := s.sess
	s.sess = nil
	s.mu.Unlock()
	if sess != nil {
		_ = sess.Close()
	}
	killGroup(s.cmd)
}

// close ends the session and stops the process and its children.
func (s *server) close() error {
	s.mu.Lock()
	sess := s.sess
	s.sess = nil
	if s.stopped == nil {
		s.stopped = fmt.Errorf("%w: %q was closed at the end of the run", ErrStopped, s.cfg.Name)
	}
	s.mu.Unlock()
	var err error
	if sess != nil {
		err = sess.Close()
		if s.cmd != nil && errors.Is(err, context.Canceled) {
			err = nil
		}
	}
	killGroup(s.cmd)
	if s.log != nil {
		_ = s.log.Close()
	}
	if err != nil && s.cmd != nil {
		// A stdio server that had to be signalled is stopped all the same.
		err = nil
	}
	return err
}

// stderrTail is the end of the server's stderr log, on one line.
func (s *server) stderrTail() string {
	if s.logPath == "" {
		return ""
	}
	f, err := openLogForReading(s.logPath)
	if err != nil {
		return ""
	}
	defer f.Close()
	const max = 400
	if st, err := f.Stat(); err == nil && st.Size() > max {
		_, _ = f.Seek(st.Size()-max, io.SeekStart)
	}
	b, _ := io.ReadAll(f)
	return strings.Join(strings.Fields(string(b)), " ")
}

// serverEnv is a stdio server's environment: a few harmless variables of
// Sift's, and the configured ones (with ${VAR} expanded).
func serverEnv(extra map[string]string, getenv func(string) string) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER"} {
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	for k, v := range extra {
		env = append(env, k+"="+expand(v, getenv))
	}
	return env
}

// expand replaces ${VAR} and $VAR with values from getenv.
func expand(s string, getenv func(string) string) string { return os.Expand(s, getenv) }

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	headers http.Header
	base    http.RoundTripper
}

func (t headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range t.headers {
		req.Header[k] = v
	}
	return t.base.RoundTrip(req)
}
