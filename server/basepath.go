package server

import (
	"context"
	"net/http"
	"regexp"
	"strings"
)

// cleanBasePath matches a base path: "/" and path elements of letters,
// digits and "-._~", with no "." or ".." element, and no trailing slash.
var cleanBasePath = regexp.MustCompile(`^(/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$`)

// normBasePath returns p as a base path ("" for none), or false when it is
// not a clean one.
func normBasePath(p string) (string, bool) {
	p = strings.TrimRight(strings.TrimSpace(p), "/")
	if p == "" {
		return "", true
	}
	if !cleanBasePath.MatchString(p) {
		return "", false
	}
	for _, el := range strings.Split(p[1:], "/") {
		if el == "." || el == ".." {
			return "", false
		}
	}
	return p, true
}

// basePath is the path the request reached this server under: the
// proxy's X-Forwarded-Prefix when it is a clean path, else
// Config.BasePath. A prefix that is not clean is ignored, so a header can
// only put a plain path before the URLs of its own answer.
func (s *Server) basePath(r *http.Request) string {
	if h := r.Header.Get("X-Forwarded-Prefix"); h != "" {
		if p, ok := normBasePath(h); ok {
			return p
		}
	}
	p, _ := normBasePath(s.cfg.BasePath)
	return p
}

type basePathKey struct{}

func withBasePath(ctx context.Context, p string) context.Context {
	return context.WithValue(ctx, basePathKey{}, p)
}

// basePathFrom is the request's base path, set by serveClean.
func basePathFrom(ctx context.Context) string {
	p, _ := ctx.Value(basePathKey{}).(string)
	return p
}
