package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/server"
)

// workerOptions is everything `sift worker` needs, parsed from flags.
// Its Addr, when set, serves /healthz, /readyz and /metrics.
type workerOptions struct {
	serverOptions
	// DataDirs are the named data directories the schedules' data_dir
	// names (sift serve's --data-dir).
	DataDirs []string
}

func newWorkerCmd(io *ioStreams, runF func(context.Context, *workerOptions) error) *cobra.Command {
	opts := &workerOptions{}
	cmd := &cobra.Command{
		Use:   "worker --store redis://HOST:PORT/DB --sessions-dir DIR",
		Short: "Run queued sessions for sift serve --no-runs",
		Long: `Take runs from the run queue in Redis and run them: every run, resume and
answer that an API server (sift serve --no-runs or --queue) queued, up to
--max-runs at a time. Workers come and go: a new one joins by starting.
A worker renews a lease on each run; when it dies, another worker takes
its runs over once the lease (--lease) expires and resumes them from the
last checkpoint. SIGTERM or Ctrl-C stops taking runs, pauses the running
ones at their next safe point and hands them back to the queue.

Every worker and server must share --store (the same Redis) and
--sessions-dir (a network file system mounted at the same absolute path
on every machine), and give the same models. The API server's
--data-dir directories must exist at the same paths on every worker.
Generated code runs in each worker's own sandbox, as with sift serve.`,
		Example: `  sift worker --store redis://redis:6379/0 --sessions-dir /shared/sift --max-runs 8
  sift worker --store redis://redis:6379/0 --sessions-dir /shared/sift --addr 0.0.0.0:9090 --token "$(cat token)"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.KernelPoolSet = cmd.Flags().Changed("kernel-pool")
			if opts.Addr != "" {
				if err := opts.check(opts.Addr); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runWorker(cmd.Context(), io, opts)
		},
	}
	addServerFlags(cmd, &opts.serverOptions, "", "serve /healthz, /readyz and /metrics on HOST:PORT (default: no HTTP)", "runs this worker works at once")
	cmd.Flags().StringArrayVar(&opts.DataDirs, "data-dir", nil, "a data directory the --schedules name, NAME=DIR or DIR, as sift serve's (repeatable)")
	return cmd
}

// runWorker works queued runs until ctx ends (SIGTERM) or Ctrl-C, then
// hands its running runs back to the queue.
func runWorker(ctx context.Context, io *ioStreams, opts *workerOptions) error {
	cfg, label, err := opts.serverConfig(ctx)
	if err != nil {
		return err
	}
	cfg.RunQueue = true
	if cfg.DataDirs, err = dataDirs(opts.DataDirs); err != nil {
		return usageError{err}
	}
	closePool, err := opts.startKernelPool(ctx, io.ErrOut, &cfg, true)
	if err != nil {
		return err
	}
	defer closePool()
	srv, err := server.New(cfg)
	if err != nil {
		return usageError{err}
	}
	name := srv.WorkerName()
	fmt.Fprintf(io.ErrOut, "Model: %s\n", label)
	drain := func(sctx context.Context) error {
		fmt.Fprintf(io.ErrOut, "Worker %s draining: running sessions pause at their next safe point and go back to the queue.\n", name)
		return srv.Shutdown(sctx)
	}
	stopped := fmt.Sprintf("Worker %s stopped; its runs are back in the queue.", name)
	addr := opts.Addr
	var h http.Handler = srv.OpsHandler()
	if addr == "" {
		return waitAndDrain(ctx, io, opts.ShutdownTimeout, func() {
			fmt.Fprintf(io.ErrOut, "Worker %s taking runs from the queue (up to %d at once)\n", name, opts.MaxRuns)
		}, drain, stopped)
	}
	return listenAndServe(ctx, io, addr, h, opts.ShutdownTimeout,
		func(a net.Addr) {
			fmt.Fprintf(io.ErrOut, "Worker %s taking runs from the queue (up to %d at once); health and metrics on http://%s\n", name, opts.MaxRuns, a)
		}, drain, stopped)
}

// waitAndDrain waits, with nothing to serve, until ctx ends (SIGTERM) or
// Ctrl-C, then drains within timeout; started is called first.
func waitAndDrain(ctx context.Context, io *ioStreams, timeout time.Duration, started func(), drain func(context.Context) error, stopped string) error {
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
	started()
	select {
	case <-ctx.Done():
	case <-stop:
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	if err := drain(sctx); err != nil {
		return err
	}
	fmt.Fprintln(io.ErrOut, stopped)
	return nil
}
