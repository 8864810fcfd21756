// Package web is Sift's browser app, embedded in the binary and served by
// the HTTP service (see package server).
//
// The app is plain HTML, CSS and JavaScript modules that a browser runs as
// they are: no build step. It talks only to the /v1 API beside it, with
// relative URLs, so it works wherever the service is mounted.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"

	"github.com/sift-agent/sift/report"
)

//go:embed static
var static embed.FS

// contentSecurityPolicy keeps the page to its own scripts and styles: model
// and tool output is rendered as text, and this is the second wall should
// any of it ever reach the DOM as markup. Images come from the API as blobs
// (fetched with the bearer token), hence blob: and data:. The file viewer
// shows report.html in a sandboxed frame from a blob: URL, which takes on
// this policy: it runs no script but the app's reportframe.js (which keeps
// the report's links in the session), and the report's own styles (and
// only those) are allowed by their hashes.
var contentSecurityPolicy = "default-src 'self'; script-src 'self'; " +
	"style-src 'self' 'unsafe-hashes' " + strings.Join(report.StyleHashes(), " ") + "; " +
	"img-src 'self' blob: data:; connect-src 'self'; frame-src blob:; object-src 'none'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the embedded app: index.html at "/", its scripts and
// styles beside it.
func Handler() http.Handler {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		// The embed pattern above guarantees the directory exists.
		panic(err)
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		// The app is small and changes with the binary: revalidate rather
		// than run a stale script against a newer API.
		h.Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
