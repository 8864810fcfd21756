package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/server"
)

// serveOptions is everything `sift serve` needs, parsed from flags.
type serveOptions struct {
	runOptions
	Addr            string
	Token           string
	MaxRuns         int
	MaxUploadMB     int64
	MaxFiles        int
	DataDirs        []string
	Heartbeat       time.Duration
	ShutdownTimeout time.Duration
}

func newServeCmd(io *ioStreams, runF func(context.Context, *serveOptions) error) *cobra.Command {
	opts := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT]",
		Short: "Serve the web app and the HTTP API",
		Long: `Serve Sift over HTTP: the web app at /, the JSON API under /v1 (documented
at /v1/openapi.json), live run events as Server-Sent Events, /healthz,
/readyz and Prometheus /metrics.

Without a token it listens on loopback only; give --token (or SIFT_TOKEN)
to listen elsewhere. SIGTERM or Ctrl-C stops taking runs, pauses running
sessions at their next safe point and exits; after a restart they resume
from the page. Several servers sharing --store (redis:// or sqlite:) and
--sessions-dir serve the same sessions.`,
		Example: `  sift serve
  sift serve --addr 0.0.0.0:8080 --token "$(cat token)" --max-runs 8
  sift serve --store redis://localhost:6379/0 --sessions-dir /shared/sift --data-dir exports=/srv/exports`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Token == "" {
				opts.Token = os.Getenv("SIFT_TOKEN")
			}
			if err := server.CheckListen(opts.Addr, opts.Token); err != nil {
				return usageError{err}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runServe(cmd.Context(), io, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Addr, "addr", "127.0.0.1:8080", "address to listen on, HOST:PORT")
	f.StringVar(&opts.Token, "token", "", "bearer token every API request must carry (prefer env SIFT_TOKEN: flags are visible to other users)")
	f.IntVar(&opts.MaxRuns, "max-runs", server.DefaultMaxRuns, "runs going at once; more wait in a queue")
	f.Int64Var(&opts.MaxUploadMB, "max-upload", server.DefaultMaxUploadBytes>>20, "most megabytes of files one session may upload")
	f.IntVar(&opts.MaxFiles, "max-files", server.DefaultMaxFiles, "most files one session may upload")
	f.StringArrayVar(&opts.DataDirs, "data-dir", nil, "a directory sessions may take as input, NAME=DIR or DIR (named by its base name; repeatable)")
	f.DurationVar(&opts.Heartbeat, "heartbeat", server.DefaultHeartbeat, "interval of the comments that keep event streams open through proxies")
	f.DurationVar(&opts.ShutdownTimeout, "shutdown-timeout", 5*time.Minute, "on SIGTERM, how long running sessions may take to reach a safe point before they are stopped at once (still resumable)")
	f.IntVar(&opts.MaxIterations, "max-iterations", 10, "most execute/replan rounds")
	addModelFlags(cmd, &opts.runOptions)
	_ = f.MarkHidden("json")
	return cmd
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
	cfg, label, err := siftConfig(ctx, &opts.runOptions)
	if err != nil {
		return err
	}
	dirs, err := dataDirs(opts.DataDirs)
	if err != nil {
		return usageError{err}
	}
	srv, err := server.New(server.Config{
		Sift: cfg, Token: opts.Token, MaxRuns: opts.MaxRuns, MaxUploadBytes: opts.MaxUploadMB << 20,
		MaxFiles: opts.MaxFiles, DataDirs: dirs, Heartbeat: opts.Heartbeat,
	})
	if err != nil {
		return usageError{err}
	}
	l, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w; choose another --addr", opts.Addr, err)
	}
	hs := &http.Server{
		Handler:           srv,
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

	fmt.Fprintf(io.ErrOut, "Model: %s\n", label)
	fmt.Fprintf(io.ErrOut, "Sift serving on http://%s (API: /v1, see /v1/openapi.json)\n", l.Addr())
	served := make(chan error, 1)
	go func() { served <- hs.Serve(l) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	case <-stop:
	}
	fmt.Fprintln(io.ErrOut, "Shutting down: running sessions pause at their next safe point.")
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opts.ShutdownTimeout)
	defer cancel()
	// Stop accepting connections while the runs reach a safe point; open
	// event streams end once their runs have.
	go func() { _ = hs.Shutdown(sctx) }()
	err = srv.Shutdown(sctx)
	if herr := hs.Shutdown(sctx); herr != nil && !errors.Is(herr, http.ErrServerClosed) {
		err = errors.Join(err, herr)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(io.ErrOut, "Stopped; paused sessions resume from the page or with sift resume.")
	return nil
}
