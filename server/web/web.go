// Package web is Sift's browser app, embedded in the binary and served by
// the HTTP service (see package server).
package web

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed static
var static embed.FS

// Handler serves the embedded app: index.html at "/".
func Handler() http.Handler {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		// The embed pattern above guarantees the directory exists.
		panic(err)
	}
	return http.FileServerFS(sub)
}
