package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/url"
	"path"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sift-agent/sift/session"
)

// uriPrefix starts every resource URI: sift://sessions/{id}/{path}.
const uriPrefix = "sift://sessions/"

// maxListedSessions bounds the sessions whose files resources/list shows,
// newest first; older ones are still read by URI.
const maxListedSessions = 50

// maxResourceBytes bounds one resource read.
const maxResourceBytes = 32 << 20

// resourceURI is the URI of a session file, each path element
// percent-encoded so that any name (spaces, non-ASCII) makes a valid URI.
func resourceURI(id, rel string) string {
	els := strings.Split(rel, "/")
	for i, el := range els {
		els[i] = url.PathEscape(el)
	}
	return uriPrefix + url.PathEscape(id) + "/" + strings.Join(els, "/")
}

func resourceURIs(id string, rels []string) []string {
	out := make([]string, len(rels))
	for i, r := range rels {
		out[i] = resourceURI(id, r)
	}
	return out
}

// addResources serves each session's plan, report and out/ files. The SDK
// lists only resources registered one by one, and sessions come and go, so
// resources/list is answered from the session store by a middleware, and
// reads go through a URI template.
func (s *Server) addResources() {
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "session-file",
		Title:       "A session's report, plan or artifact",
		Description: "report.md, report.html, plan.md or a file under out/ of a Sift session",
		URITemplate: uriPrefix + "{id}/{+path}",
	}, s.readResource)
	s.mcp.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "resources/list" {
				return s.listResources(ctx)
			}
			return next(ctx, method, req)
		}
	})
}

func (s *Server) listResources(ctx context.Context) (*mcp.ListResourcesResult, error) {
	metas, err := s.store.Sessions.List(ctx, session.Filter{Limit: maxListedSessions})
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	res := &mcp.ListResourcesResult{Resources: []*mcp.Resource{}}
	for _, m := range metas {
		for _, rel := range s.workspace(m.ID).Deliverables() {
			res.Resources = append(res.Resources, &mcp.Resource{
				URI:         resourceURI(m.ID, rel),
				Name:        m.ID + "/" + rel,
				Description: oneLine(m.Question),
				MIMEType:    mimeType(rel),
			})
		}
	}
	return res, nil
}

func (s *Server) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, rel, ok := strings.Cut(strings.TrimPrefix(uri, uriPrefix), "/")
	if !strings.HasPrefix(uri, uriPrefix) || !ok {
		return nil, invalidParams("resource %q: use sift://sessions/{id}/{path}, e.g. sift://sessions/ID/report.md", uri)
	}
	// Decoded once, as listed: out/revenue%20by%20region.csv (or with its
	// slashes encoded too) names out/revenue by region.csv.
	id, err := url.PathUnescape(id)
	if err == nil {
		rel, err = url.PathUnescape(rel)
	}
	if err != nil {
		return nil, invalidParams("resource %q: malformed percent-encoding: %v", uri, err)
	}
	if err := session.ValidateID(id); err != nil {
		return nil, invalidParams("resource %q: %v", uri, err)
	}
	f, err := s.workspace(id).OpenDeliverable(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, mcp.ResourceNotFoundError(uri)
	case err != nil:
		return nil, invalidParams("resource %q: %v", uri, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxResourceBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", uri, err)
	}
	if len(data) > maxResourceBytes {
		return nil, invalidParams("resource %q is larger than %d MiB; read it from the workspace on disk", uri, maxResourceBytes>>20)
	}
	c := &mcp.ResourceContents{URI: uri, MIMEType: mimeType(rel)}
	if isText(c.MIMEType) {
		c.Text = string(data)
	} else {
		c.Blob = data
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
}

// mimeType is the media type of a workspace file by its extension.
func mimeType(rel string) string {
	switch ext := path.Ext(rel); ext {
	case ".md":
		return "text/markdown"
	case ".csv":
		return "text/csv"
	case ".jsonl":
		return "application/jsonl"
	default:
		if t := mime.TypeByExtension(ext); t != "" {
			return t
		}
	}
	return "application/octet-stream"
}

func isText(mimeType string) bool {
	return strings.HasPrefix(mimeType, "text/") || strings.HasPrefix(mimeType, "application/json")
}
