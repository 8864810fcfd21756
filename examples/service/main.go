// Command service shows Sift's HTTP handler mounted inside another Go
// service: the service keeps its own routes and middleware, and serves
// Sift's API and web app under /sift/. With no model configured, Sift
// answers the built-in analyses (try "monthly revenue trend" on
// examples/data/sales.csv in the page at http://127.0.0.1:8090/sift/).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/server"
)

// newService is the service's mux: its own /hello, and Sift under
// /sift/, behind the service's request logging.
func newService(cfg server.Config) (http.Handler, *server.Server, error) {
	sift, err := server.New(cfg)
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /hello", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "hello from the host service") })
	mux.Handle("/sift/", http.StripPrefix("/sift", sift))
	return logRequests(mux), sift, nil
}

// logRequests is the host service's own middleware.
func logRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		h.ServeHTTP(w, r)
		slog.Info("request", "method", r.Method, "path", r.URL.Path, "took", time.Since(start))
	})
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "address to listen on")
	sessions := flag.String("sessions", "", "sessions directory (default: a new temporary one)")
	flag.Parse()
	dir := *sessions
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "sift-service-"); err != nil {
			log.Fatal(err)
		}
	}
	handler, sift, err := newService(server.Config{Sift: agents.Config{SessionsRoot: dir}})
	if err != nil {
		log.Fatal(err)
	}
	hs := &http.Server{Addr: *addr, Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		go func() { _ = hs.Shutdown(sctx) }()
		_ = sift.Shutdown(sctx) // pauses running sessions
		_ = hs.Shutdown(sctx)
	}()
	fmt.Printf("Sift mounted at http://%s/sift/ (sessions in %s)\n", *addr, dir)
	if err := hs.ListenAndServe(); err != http.ErrServerClosed {
		log.Fatal(err)
	}
}
