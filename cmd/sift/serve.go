package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/server"
)

// serveOptions is everything `sift serve` needs, parsed from flags.
type serveOptions struct {
	serverOptions
	MaxUploadMB int64
	MaxFiles    int
	DataDirs    []string
	Heartbeat   time.Duration
	// AllowedHosts and AllowedOrigins open the server to a reverse
	// proxy's name and origin (server.Config); SIFT_ALLOWED_HOSTS and
	// SIFT_ALLOWED_ORIGINS (comma-separated) when no flag gives them.
	AllowedHosts   []string
	AllowedOrigins []string
	// BasePath is the path a reverse proxy serves Sift under
	// (server.Config.BasePath); SIFT_BASE_PATH when the flag is not given.
	BasePath string
}

// serverOptions are the flags sift serve and sift worker share: the
// models, sessions and store (runOptions), the token and shutdown
// timeout (listenOptions), the run queue's worker name and lease, the
// address and how many runs go at once. Each command adds its own.
type serverOptions struct {
	runOptions
	listenOptions
	queueOptions
	// Addr is the HOST:PORT served; sift worker serves nothing when it
	// is empty.
	Addr    string
	MaxRuns int
	// Schedules names a JSON file of scheduled refreshes
	// ([]server.Schedule).
	Schedules string
	// Webhook receives the schedules' results, signed with the secret
	// in SIFT_WEBHOOK_SECRET (never a flag: flags show in ps).
	Webhook string
	// KernelPool is how many sandboxed kernels are kept started for new
	// sessions (agents.Config.KernelPool); 0 turns the pool off.
	// KernelPoolSet says the flag was given: a pool that cannot start is
	// then an error, not a warning.
	KernelPool    int
	KernelPoolSet bool
}

// addServerFlags adds the flags of serverOptions, and hides --json (a
// server prints no events). --addr's default and help, and --max-runs's
// help, are the command's own: a worker serves only health and metrics,
// and only when asked.
func addServerFlags(cmd *cobra.Command, o *serverOptions, addr, addrUsage, maxRunsUsage string) {
	f := cmd.Flags()
	f.StringVar(&o.Addr, "addr", addr, addrUsage)
	f.IntVar(&o.MaxRuns, "max-runs", server.DefaultMaxRuns, maxRunsUsage)
	f.IntVar(&o.MaxIterations, "max-iterations", 10, "most execute/replan rounds")
	f.IntVar(&o.KernelPool, "kernel-pool", operator.DefaultKernelPoolSize, "sandboxed Python kernels kept started, pandas imported, for new sessions: each goes to one session only and is never reused; 0 turns the pool off")
	f.StringVar(&o.Schedules, "schedules", "", "JSON file of scheduled refreshes: [{name, cron, session, data_dir, pattern}], each firing taken by one server or worker (see docs/refresh.md)")
	f.StringVar(&o.Webhook, "webhook", "", "URL that receives each scheduled refresh's result as a signed JSON POST; the secret is read from "+webhookSecretEnv+" (see docs/refresh.md)")
	addQueueFlags(cmd, &o.queueOptions)
	addListenFlags(cmd, &o.listenOptions)
	addModelFlags(cmd, &o.runOptions)
	_ = f.MarkHidden("json")
}

// serverConfig is the server.Config both commands start from: the
// library's configuration from the model flags (label names the model),
// the token, the runs at once, and the run queue's worker name and
// lease. The command fills in the rest.
func (o *serverOptions) serverConfig(ctx context.Context) (server.Config, string, error) {
	sift, label, err := siftConfig(ctx, &o.runOptions)
	if err != nil {
		return server.Config{}, "", err
	}
	cfg := server.Config{Sift: sift, Token: o.Token, MaxRuns: o.MaxRuns, WorkerName: o.WorkerName, ClaimTTL: o.Lease}
	if o.Schedules != "" {
		b, err := os.ReadFile(o.Schedules)
		if err != nil {
			return server.Config{}, "", usageError{fmt.Errorf("--schedules: %w", err)}
		}
		if err := json.Unmarshal(b, &cfg.Schedules); err != nil {
			return server.Config{}, "", usageError{fmt.Errorf("--schedules %s: not a JSON list of schedules ({name, cron, session, data_dir, pattern}): %w", o.Schedules, err)}
		}
	}
	if o.Webhook != "" {
		cfg.Webhook = server.Webhook{URL: o.Webhook, Secret: os.Getenv(webhookSecretEnv)}
		if cfg.Webhook.Secret == "" {
			return server.Config{}, "", usageError{fmt.Errorf("--webhook %s: set %s to the secret that signs its POSTs (the receiver checks X-Sift-Signature with it)", o.Webhook, webhookSecretEnv)}
		}
	}
	return cfg, label, nil
}

// startKernelPool sets cfg.Sift.KernelPool to a pool of o.KernelPool
// kernels when this process runs sessions, and returns what closes it
// (after the server has drained: the runs close the kernels they took).
// A pool that cannot start (no Python, the process mode) is said on
// errOut and left off, unless --kernel-pool was given.
func (o *serverOptions) startKernelPool(ctx context.Context, errOut io.Writer, cfg *server.Config, runsHere bool) (closePool func(), err error) {
	if o.KernelPool < 0 {
		return nil, usageError{fmt.Errorf("--kernel-pool %d: give 0 (off) or more", o.KernelPool)}
	}
	if !runsHere {
		return func() {}, nil
	}
	// What a sweep of the pool's directory could not remove is said on
	// errOut, the process's log (the pool sweeps in the background too).
	var mu sync.Mutex
	warn := func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintln(errOut, msg)
	}
	if o.KernelPool == 0 || (!o.KernelPoolSet && cfg.Sift.PythonMode == operator.PythonProcess) {
		// No pool here, but one of an earlier process on these sessions
		// may have died with kernels waiting: what it left goes.
		agents.SweepKernelPool(cfg.Sift, warn)
		return func() {}, nil
	}
	pool, err := agents.NewKernelPool(ctx, cfg.Sift, o.KernelPool, warn)
	if err != nil {
		if o.KernelPoolSet {
			return nil, usageError{fmt.Errorf("--kernel-pool: %w", err)}
		}
		fmt.Fprintf(errOut, "No kernel pool (%v): each session starts its own Python.\n", err)
		return func() {}, nil
	}
	cfg.Sift.KernelPool = pool
	return func() { _ = pool.Close() }, nil
}

// webhookSecretEnv holds the secret that signs the webhook's POSTs.
const webhookSecretEnv = "SIFT_WEBHOOK_SECRET"

// queueOptions are the flags of the run queue (server.Config.RunQueue),
// for sift serve and sift worker.
type queueOptions struct {
	Queue      bool
	NoRuns     bool
	WorkerName string
	Lease      time.Duration
}

// addQueueFlags adds --worker-name and --lease; serve adds --queue and
// --no-runs, which a worker implies and refuses.
func addQueueFlags(cmd *cobra.Command, o *queueOptions) {
	f := cmd.Flags()
	f.StringVar(&o.WorkerName, "worker-name", "", "this process's name in the run queue, its logs and metrics (default HOST-PID)")
	f.DurationVar(&o.Lease, "lease", server.DefaultClaimTTL, "with the run queue: how long a run stays with a worker that stopped renewing it (died, lost Redis) before another worker takes it over")
}

// listenOptions are the flags of the commands that serve over HTTP
// (sift serve, sift mcp --http).
type listenOptions struct {
	Token           string
	ShutdownTimeout time.Duration
}

// addListenFlags adds --token and --shutdown-timeout.
func addListenFlags(cmd *cobra.Command, o *listenOptions) {
	f := cmd.Flags()
	f.StringVar(&o.Token, "token", "", "bearer token every request must carry (prefer env SIFT_TOKEN: flags are visible to other users)")
	f.DurationVar(&o.ShutdownTimeout, "shutdown-timeout", 5*time.Minute, "on SIGTERM, how long running sessions may take to reach a safe point before they are stopped at once (still resumable)")
}

// check takes the token from SIFT_TOKEN when no flag gave one, and refuses
// a non-loopback addr without a token.
func (o *listenOptions) check(addr string) error {
	if o.Token == "" {
		o.Token = os.Getenv("SIFT_TOKEN")
	}
	if err := server.CheckListen(addr, o.Token); err != nil {
		return usageError{err}
	}
	return nil
}

func newServeCmd(io *ioStreams, runF func(context.Context, *serveOptions) error) *cobra.Command {
	opts := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT]",
		Short: "Serve the web app and the HTTP API",
		Long: `Serve Sift over HTTP: the web app at /, the JSON API under /v1 (documented
at /v1/openapi.json), live run events as Server-Sent Events, /healthz,
/readyz and Prometheus /metrics.

Without a token it listens on loopback only and answers only to loopback
Host names (127.0.0.1, localhost, [::1]); give --token (or SIFT_TOKEN) to
listen elsewhere. Pages of other sites may not change anything (POST,
DELETE) with or without a token. Behind a reverse proxy, name it with
--allowed-host and --allowed-origin. SIGTERM or Ctrl-C stops taking runs, pauses running
sessions at their next safe point and exits; after a restart they resume
from the page. Several servers sharing --store (redis:// or sqlite:) and
--sessions-dir serve the same sessions.

With --queue (Redis store), runs go through a durable queue in Redis that
every server with --queue and every sift worker takes from; with --no-runs
this server only serves the API and queues runs for workers. SIGTERM then
hands running sessions back to the queue for another worker.`,
		Example: `  sift serve
  sift serve --addr 0.0.0.0:8080 --token "$(cat token)" --max-runs 8
  sift serve --store redis://localhost:6379/0 --sessions-dir /shared/sift --data-dir exports=/srv/exports
  sift serve --no-runs --store redis://redis:6379/0 --sessions-dir /shared/sift --addr 0.0.0.0:8080 --token "$(cat token)"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.check(opts.Addr); err != nil {
				return err
			}
			opts.KernelPoolSet = cmd.Flags().Changed("kernel-pool")
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runServe(cmd.Context(), io, opts)
		},
	}
	addServerFlags(cmd, &opts.serverOptions, "127.0.0.1:8080", "address to listen on, HOST:PORT", "runs going at once; more wait in a queue")
	f := cmd.Flags()
	f.Int64Var(&opts.MaxUploadMB, "max-upload", server.DefaultMaxUploadBytes>>20, "most megabytes of files one session may upload")
	f.IntVar(&opts.MaxFiles, "max-files", server.DefaultMaxFiles, "most files one session may upload")
	f.StringArrayVar(&opts.DataDirs, "data-dir", nil, "a directory sessions may take as input, NAME=DIR or DIR (named by its base name; repeatable)")
	f.DurationVar(&opts.Heartbeat, "heartbeat", server.DefaultHeartbeat, "interval of the comments that keep event streams open through proxies")
	f.StringArrayVar(&opts.AllowedHosts, "allowed-host", nil, "a Host name served besides 127.0.0.1, localhost and [::1] when there is no token, e.g. a reverse proxy's (repeatable; env SIFT_ALLOWED_HOSTS, comma-separated)")
	f.StringArrayVar(&opts.AllowedOrigins, "allowed-origin", nil, "an origin (https://host[:port]) whose pages may change state besides the server's own, e.g. a reverse proxy's (repeatable; env SIFT_ALLOWED_ORIGINS, comma-separated)")
	f.StringVar(&opts.BasePath, "base-path", "", "the path a reverse proxy serves Sift under, e.g. /sift, put before the URLs the API answers with (a proxy's X-Forwarded-Prefix header wins; env SIFT_BASE_PATH)")
	f.BoolVar(&opts.Queue, "queue", false, "send runs through the run queue in Redis (needs --store redis://...): any server or sift worker with a free slot takes them, and a worker's runs are taken over when it dies")
	f.BoolVar(&opts.NoRuns, "no-runs", false, "serve the API and web app only, queueing runs for sift worker processes (implies --queue)")
	return cmd
}

// orEnvList is vals, or the comma-separated list in the environment
// variable env when vals is empty.
func orEnvList(vals []string, env string) []string {
	if len(vals) > 0 {
		return vals
	}
	var out []string
	for _, v := range strings.Split(os.Getenv(env), ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// dataDirs parses --data-dir values into names and directories.
func dataDirs(vals []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range vals {
		name, dir, ok := strings.Cut(v, "=")
		if !ok {
			dir, name = v, filepath.Base(filepath.Clean(v))
		}
		if name == "" || dir == "" {
			return nil, fmt.Errorf("--data-dir %q: give NAME=DIR or DIR", v)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("--data-dir: two directories are named %q; name them with NAME=DIR", name)
		}
		out[name] = dir
	}
	return out, nil
}

// runServe serves until ctx ends (SIGTERM) or Ctrl-C, then shuts down
// gracefully.
func runServe(ctx context.Context, io *ioStreams, opts *serveOptions) error {
	cfg, label, err := opts.serverConfig(ctx)
	if err != nil {
		return err
	}
	if cfg.DataDirs, err = dataDirs(opts.DataDirs); err != nil {
		return usageError{err}
	}
	cfg.MaxUploadBytes, cfg.MaxFiles, cfg.Heartbeat = opts.MaxUploadMB<<20, opts.MaxFiles, opts.Heartbeat
	cfg.AllowedHosts, cfg.AllowedOrigins = orEnvList(opts.AllowedHosts, "SIFT_ALLOWED_HOSTS"), orEnvList(opts.AllowedOrigins, "SIFT_ALLOWED_ORIGINS")
	cfg.RunQueue, cfg.NoRuns = opts.Queue, opts.NoRuns
	cfg.BasePath = opts.BasePath
	if cfg.BasePath == "" {
		cfg.BasePath = os.Getenv("SIFT_BASE_PATH")
	}
	cfg.ModelName = scriptedModelName(opts.Script)
	closePool, err := opts.startKernelPool(ctx, io.ErrOut, &cfg, !opts.NoRuns)
	if err != nil {
		return err
	}
	defer closePool()
	srv, err := server.New(cfg)
	if err != nil {
		return usageError{err}
	}
	fmt.Fprintf(io.ErrOut, "Model: %s\n", label)
	shutting, stopped := serveShutdownLines(opts)
	return listenAndServe(ctx, io, opts.Addr, srv, opts.ShutdownTimeout,
		func(addr net.Addr) {
			fmt.Fprintf(io.ErrOut, "Sift serving on http://%s (API: /v1, see /v1/openapi.json)\n", addr)
		},
		func(sctx context.Context) error {
			fmt.Fprintln(io.ErrOut, shutting)
			return srv.Shutdown(sctx)
		},
		stopped)
}

// serveShutdownLines are what sift serve says as it shuts down and once
// it has: an API-only server has no runs to pause, and one on the run
// queue hands its runs back for another worker instead of leaving them
// for a person to resume.
func serveShutdownLines(opts *serveOptions) (shutting, stopped string) {
	switch {
	case opts.NoRuns:
		return "Shutting down: this server runs nothing (--no-runs); queued and running sessions stay with the workers.",
			"Stopped."
	case opts.Queue:
		return "Shutting down: running sessions pause at their next safe point and go back to the queue.",
			"Stopped; its runs are back in the queue for another worker."
	}
	return "Shutting down: running sessions pause at their next safe point.",
		"Stopped; paused sessions resume from the page or with sift resume."
}

// listenAndServe serves h on addr until ctx ends (SIGTERM) or Ctrl-C,
// then shuts down gracefully: drain (optional) lets running work reach a
// safe point while the listener stops taking connections; after timeout
// open requests are closed at once. listening is told the address.
func listenAndServe(ctx context.Context, io *ioStreams, addr string, h http.Handler, timeout time.Duration, listening func(net.Addr), drain func(context.Context) error, stopped string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w; choose another address", addr, err)
	}
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		// Uploads may be large; event streams set their own write
		// deadlines, so there is no WriteTimeout.
		ReadTimeout: 10 * time.Minute,
		IdleTimeout: 2 * time.Minute,
	}
	// Ctrl-C shuts down too (instead of the CLI's pause-then-stop).
	stop := make(chan struct{})
	hook := func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
	}
	interruptHook.Store(&hook)
	defer interruptHook.Store(nil)

	listening(l.Addr())
	served := make(chan error, 1)
	go func() { served <- hs.Serve(l) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	case <-stop:
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	// Stop accepting connections while the work reaches a safe point;
	// open streams end once their runs have.
	go func() { _ = hs.Shutdown(sctx) }()
	if drain != nil {
		err = drain(sctx)
	}
	herr := hs.Shutdown(sctx)
	if herr != nil && !errors.Is(herr, http.ErrServerClosed) {
		// Past the timeout: close what is still open.
		_ = hs.Close()
		err = errors.Join(err, herr)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(io.ErrOut, stopped)
	return nil
}

// scriptedModelName is how the web app's header names a --script model:
// "scripted (script.json)"; "" without one.
func scriptedModelName(script string) string {
	if script == "" {
		return ""
	}
	return "scripted (" + filepath.Base(script) + ")"
}
