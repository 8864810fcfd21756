package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/sift-agent/sift/mcpserver"
)

// mcpOptions is everything `sift mcp` needs, parsed from flags.
type mcpOptions struct {
	runOptions
	listenOptions
	// HTTP is the address of the streamable HTTP endpoint; empty serves
	// stdio.
	HTTP string
	// Allow are the directories whose files clients may analyse.
	Allow []string
	// Databases are NAME=URL values of --db: databases clients may name.
	Databases []string
}

func newMCPCmd(io *ioStreams, runF func(context.Context, *mcpOptions) error) *cobra.Command {
	opts := &mcpOptions{}
	cmd := &cobra.Command{
		Use:   "mcp [--http HOST:PORT] [--allow DIR]...",
		Short: "Serve Sift's analyses to MCP clients (assistants, IDEs)",
		Long: `Serve Sift over the Model Context Protocol: over stdio by default (an MCP
client starts sift mcp itself), or as streamable HTTP with --http.

Tools: analyze (a question and files), run_builtin_analysis (no model
needed), list_sessions and follow_up. Each session's report.md, plan.md and
out/ files are resources (sift://sessions/{id}/{path}). Long runs send
progress notifications when the client asks for them.

Clients may name only files under the --allow directories (default: the
current directory); a "..", an absolute path elsewhere or a symbolic link
out of them is refused. Over stdio, stdout carries only the protocol; logs
go to stderr. Over HTTP, a non-loopback address needs --token (or
SIFT_TOKEN), which every request must carry as a bearer token.`,
		Example: `  sift mcp --allow ~/data
  sift mcp --http 127.0.0.1:8765 --allow /srv/exports
  sift mcp --http 0.0.0.0:8765 --token "$(cat token)" --allow /srv/exports --db shop=postgres://reader@db/shop`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.HTTP != "" {
				if err := opts.check(opts.HTTP); err != nil {
					return err
				}
			}
			if len(opts.Allow) == 0 {
				wd, err := os.Getwd()
				if err != nil {
					return fmt.Errorf("find the current directory: %w; give --allow DIR", err)
				}
				opts.Allow = []string{wd}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runMCP(cmd.Context(), io, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.HTTP, "http", "", "serve streamable HTTP on HOST:PORT (at /) instead of stdio")
	f.StringArrayVar(&opts.Allow, "allow", nil, "a directory whose files clients may analyse (repeatable; default the current directory; relative paths are taken from the first)")
	f.StringArrayVar(&opts.Databases, "db", nil, "a database clients may name, NAME=URL, queried read-only (repeatable): shop=sqlite:shop.db, sales=postgres://reader@host/db")
	f.IntVar(&opts.MaxIterations, "max-iterations", 10, "most execute/replan rounds")
	addListenFlags(cmd, &opts.listenOptions)
	addModelFlags(cmd, &opts.runOptions)
	_ = f.MarkHidden("json")
	return cmd
}

// namedDatabases parses --db NAME=URL values.
func namedDatabases(vals []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range vals {
		name, url, ok := strings.Cut(v, "=")
		if !ok || name == "" || url == "" || strings.Contains(name, ":") {
			return nil, fmt.Errorf("--db %q: give NAME=URL, e.g. shop=sqlite:shop.db; clients name the database, never see its URL", v)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("--db: two databases are named %q", name)
		}
		out[name] = url
	}
	return out, nil
}

// runMCP serves until the client leaves (stdio), or until SIGTERM or
// Ctrl-C (HTTP).
func runMCP(ctx context.Context, io *ioStreams, opts *mcpOptions) error {
	cfg, label, err := siftConfig(ctx, &opts.runOptions)
	if err != nil {
		return err
	}
	dbs, err := namedDatabases(opts.Databases)
	if err != nil {
		return usageError{err}
	}
	srv, err := mcpserver.New(mcpserver.Config{
		Sift: cfg, Allow: opts.Allow, Databases: dbs,
		Logger: slog.New(slog.NewTextHandler(io.ErrOut, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return usageError{err}
	}
	fmt.Fprintf(io.ErrOut, "Model: %s\nAllowed: %s\n", label, strings.Join(opts.Allow, ", "))
	if opts.HTTP != "" {
		return listenAndServe(ctx, io, opts.HTTP, srv.Handler(opts.Token), opts.ShutdownTimeout,
			func(addr net.Addr) { fmt.Fprintf(io.ErrOut, "Sift MCP server on http://%s/ (streamable HTTP)\n", addr) },
			func(sctx context.Context) error {
				fmt.Fprintln(io.ErrOut, "Shutting down: running analyses pause at their next safe point.")
				return srv.Shutdown(sctx)
			},
			"Stopped; paused sessions resume with sift resume.")
	}
	return serveStdio(ctx, io, srv)
}

// serveStdio serves one client over the command's stdin and stdout. The
// process's os.Stdout is pointed at stderr meanwhile, so nothing but the
// protocol reaches the client even if some code prints.
func serveStdio(ctx context.Context, ios *ioStreams, srv *mcpserver.Server) error {
	out := ios.Out
	if out == io.Writer(os.Stdout) {
		stdout := os.Stdout
		os.Stdout = os.Stderr
		defer func() { os.Stdout = stdout }()
		out = stdout
	}
	// Ctrl-C stops serving (instead of the CLI's pause-then-stop).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	hook := func() { cancel() }
	interruptHook.Store(&hook)
	defer interruptHook.Store(nil)
	err := srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(ios.In), Writer: nopWriteCloser{out}})
	if ctx.Err() != nil {
		return nil
	}
	return err
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
