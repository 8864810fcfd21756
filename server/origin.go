package server

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"slices"
	"strings"
)

// originGuard keeps pages of other sites away from the server, which runs
// code and reads data on the person's behalf:
//   - Cross-origin requests that change state (anything but GET, HEAD,
//     OPTIONS) are refused, whatever the token: a page on any site must not
//     create sessions or start runs on a person's server (CSRF). Same-origin
//     requests and requests without Origin (curl, scripts, other services)
//     go through; Config.AllowedOrigins names more origins (a reverse proxy's
//     public address). net/http's CrossOriginProtection decides, from
//     Sec-Fetch-Site and Origin.
//   - Without a token, only loopback Host names are served (127.0.0.1,
//     localhost, [::1], with the port the request came in on), plus
//     Config.AllowedHosts: a page whose own name was rebound to 127.0.0.1
//     (DNS rebinding) would otherwise be same-origin with the API and read
//     it all. With a token, the token is the guard: any Host is served.
//
// /healthz and /readyz answer any Host: probes name the server as they
// please, and the answers tell nothing.
type originGuard struct {
	token   bool
	hosts   []string // lower-case host or host:port, from AllowedHosts
	anyHost bool     // AllowedHosts has "*"
	csrf    *http.CrossOriginProtection
	next    http.Handler
}

func newOriginGuard(cfg Config, next http.Handler) (*originGuard, error) {
	g := &originGuard{token: cfg.Token != "", csrf: http.NewCrossOriginProtection(), next: next}
	for _, h := range cfg.AllowedHosts {
		h = strings.ToLower(strings.TrimSpace(h))
		switch {
		case h == "":
		case h == "*":
			g.anyHost = true
		case strings.Contains(h, "/"):
			return nil, fmt.Errorf("allowed host %q: give a host name, with or without :port (e.g. sift.example.com), not a URL", h)
		default:
			g.hosts = append(g.hosts, h)
		}
	}
	for _, o := range cfg.AllowedOrigins {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if err := g.csrf.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("allowed origin %q: give scheme://host[:port] with nothing after it (e.g. https://sift.example.com): %w", o, err)
		}
	}
	g.csrf.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusForbidden, codeCrossOrigin, fmt.Sprintf("refused a cross-origin %s from %s: pages of other sites may not change anything here. Behind a reverse proxy, add its public origin with --allowed-origin (or SIFT_ALLOWED_ORIGINS)", r.Method, originOf(r)))
	}))
	return g, nil
}

func originOf(r *http.Request) string {
	if o := r.Header.Get("Origin"); o != "" {
		return o
	}
	return "another site (Sec-Fetch-Site: " + r.Header.Get("Sec-Fetch-Site") + ")"
}

func (g *originGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/healthz" || r.URL.Path == "/readyz" {
		g.next.ServeHTTP(w, r)
		return
	}
	if !g.token && !g.hostAllowed(r) {
		writeError(w, http.StatusForbidden, codeForeignHost, fmt.Sprintf("refused Host %q: without a token this server answers only to 127.0.0.1, localhost and [::1] (a page whose name points here must not reach the API). Behind a reverse proxy, add its host name with --allowed-host (or SIFT_ALLOWED_HOSTS), or set a token", r.Host))
		return
	}
	g.csrf.Handler(g.next).ServeHTTP(w, r)
}

// hostAllowed reports whether the request's Host names this server: a
// loopback name on the port the request came in on, or an allowed host.
func (g *originGuard) hostAllowed(r *http.Request) bool {
	if g.anyHost {
		return true
	}
	hostport := strings.ToLower(r.Host)
	if slices.Contains(g.hosts, hostport) {
		return true
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, ""
	}
	if slices.Contains(g.hosts, strings.Trim(host, "[]")) || slices.Contains(g.hosts, host) {
		return true
	}
	if !isLoopbackName(host) {
		return false
	}
	// The port must be the one the request came in on: another port on
	// this machine is another site.
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return true // not served by net/http's server (a test recorder)
	}
	_, lport, err := net.SplitHostPort(local.String())
	if err != nil {
		return true
	}
	if port == "" {
		port = "80"
		if r.TLS != nil {
			port = "443"
		}
	}
	return port == lport
}

// isLoopbackName reports whether host (from a Host header, IPv6 in
// brackets) is a loopback name: localhost or a loopback address. Other
// names are refused even when they resolve to loopback: that is what DNS
// rebinding does.
func isLoopbackName(host string) bool {
	if host == "localhost" {
		return true
	}
	if strings.HasPrefix(host, "[") != strings.HasSuffix(host, "]") {
		return false
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// isJSON reports whether the request says its body is JSON
// (application/json, or a +json type).
func isJSON(r *http.Request) bool {
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && (ct == "application/json" || strings.HasSuffix(ct, "+json"))
}
