package mcpserver

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestResourcesAnyNameListedAndRead: output files whose names have spaces
// or non-ASCII text are listed with valid (percent-encoded) URIs that read
// back; refused reads (a link code planted, '..', files that are not
// deliverables, malformed encoding) answer JSON-RPC -32602.
func TestResourcesAnyNameListedAndRead(t *testing.T) {
	env := newEnv(t, nil)
	cs := connect(t, env.srv, nil)
	out, isErr := call(t, cs, "run_builtin_analysis", map[string]any{"analysis": "topn", "files": []string{"sales.csv"}, "question": "total revenue by region"}, nil)
	if isErr {
		t.Fatalf("the analysis failed: %s", out)
	}
	id := strings.TrimSuffix(strings.TrimPrefix(reportURI.FindString(out), uriPrefix), "/report.md")
	ws := filepath.Join(env.sessions, id)
	files := map[string]string{"out/revenue by region.csv": "region,revenue\n", "out/收入.csv": "收入\n"}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(ws, filepath.FromSlash(name)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("CANARY"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(ws, "out", "link.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "out", ".x.csv"), []byte("CANARY"), 0o644); err != nil {
		t.Fatal(err)
	}

	lr, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, r := range lr.Resources {
		u, err := url.Parse(r.URI)
		if err != nil || strings.ContainsAny(r.URI, " \t") || u.Scheme != "sift" {
			t.Errorf("listed URI %q is not a valid URI: %v", r.URI, err)
			continue
		}
		if strings.Contains(r.URI, "link.csv") {
			t.Errorf("a link is listed: %s", r.URI)
		}
		rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: r.URI})
		if err != nil {
			t.Errorf("read listed %s: %v", r.URI, err)
			continue
		}
		for name, body := range files {
			if r.URI == resourceURI(id, name) {
				found++
				if len(rr.Contents) != 1 || rr.Contents[0].Text != body {
					t.Errorf("%s read %+v, want %q", r.URI, rr.Contents, body)
				}
			}
		}
	}
	if found != len(files) {
		t.Errorf("listed %d of the files %v", found, files)
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uriPrefix + id + "/out%2Frevenue%20by%20region.csv"}); err != nil {
		t.Errorf("an encoded slash must read too: %v", err)
	}
	for _, uri := range []string{
		uriPrefix + id + "/out/link.csv",
		uriPrefix + id + "/out/../events.jsonl",
		uriPrefix + id + "/events.jsonl",
		uriPrefix + id + "/out/.x.csv",
		uriPrefix + id + "/out/%zz.csv",
	} {
		_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("read %s = %v, want JSON-RPC %d", uri, err, jsonrpc.CodeInvalidParams)
		}
		if err != nil && strings.Contains(err.Error(), "CANARY") {
			t.Errorf("read %s leaked the secret", uri)
		}
	}
}
