package mcpserver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sift-agent/sift/tools/templates"
)

// TestCompletion: completion/complete offers the built-in analyses' names
// and the allowed directories' files for the prompts' arguments, and the
// resource template's session ids; it never lists what lies outside the
// allowed directories; an unknown prompt, template or argument is invalid
// params (-32602), as the MCP specification says.
func TestCompletion(t *testing.T) {
	env := newEnv(t, nil)
	if err := os.MkdirAll(filepath.Join(env.data, "exports", "2024"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"exports/sales-2024.csv", ".secret.csv"} {
		if err := os.WriteFile(filepath.Join(env.data, f), []byte("a\n1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(env.data, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "private.csv"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, env.srv, nil)
	ctx := context.Background()
	if init := cs.InitializeResult(); init.Capabilities.Completions == nil || init.Capabilities.Prompts == nil {
		t.Fatalf("capabilities = %+v, want completions and prompts", init.Capabilities)
	}
	complete := func(ref *mcp.CompleteReference, arg, value string, ctxArgs map[string]string) ([]string, error) {
		t.Helper()
		p := &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}}
		if ctxArgs != nil {
			p.Context = &mcp.CompleteContext{Arguments: ctxArgs}
		}
		res, err := cs.Complete(ctx, p)
		if err != nil {
			return nil, err
		}
		return res.Completion.Values, nil
	}
	builtin := &mcp.CompleteReference{Type: "ref/prompt", Name: "builtin_analysis"}
	cases := []struct {
		ref        *mcp.CompleteReference
		arg, value string
		want       []string
	}{
		{builtin, "analysis", "co", prefixedNames("co")},
		{builtin, "analysis", "", prefixedNames("")},
		{builtin, "file", "", []string{"exports/", "sales.csv"}},
		{builtin, "file", "ex", []string{"exports/"}},
		{builtin, "file", "exports/", []string{"exports/2024/", "exports/sales-2024.csv"}},
		{builtin, "file", ".s", nil},
		{builtin, "file", "../", nil},
		{builtin, "file", "elsewhere/", nil},
		{builtin, "file", outside + "/", nil},
		{builtin, "file", env.srv.allow[0] + "/sa", []string{env.srv.allow[0] + "/sales.csv"}},
		{&mcp.CompleteReference{Type: "ref/prompt", Name: "analyze"}, "file", "sa", []string{"sales.csv"}},
	}
	for _, c := range cases {
		got, err := complete(c.ref, c.arg, c.value, nil)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("complete %s %s=%q = %v (%v), want %v", c.ref.Name, c.arg, c.value, got, err, c.want)
		}
	}
	if len(prefixedNames("")) != len(templates.Names()) || len(prefixedNames("co")) == 0 {
		t.Fatalf("the analyses to complete: %v", templates.Names())
	}

	// A session's id and files complete for the resource template.
	out, isErr := call(t, cs, "run_builtin_analysis", map[string]any{"analysis": "profile", "files": []string{"sales.csv"}}, "")
	if isErr {
		t.Fatalf("the analysis failed: %s", out)
	}
	uri := reportURI.FindString(out)
	id := strings.Split(strings.TrimPrefix(uri, uriPrefix), "/")[0]
	tmpl := &mcp.CompleteReference{Type: "ref/resource", URI: resourceTemplate}
	if got, err := complete(tmpl, "id", id[:8], nil); err != nil || !slices.Contains(got, id) {
		t.Errorf("session ids for %q = %v (%v), want %s among them", id[:8], got, err, id)
	}
	if got, err := complete(tmpl, "path", "rep", map[string]string{"id": id}); err != nil || !slices.Contains(got, "report.md") {
		t.Errorf("paths of %s = %v (%v), want report.md among them", id, got, err)
	}
	templatesRes, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || !slices.ContainsFunc(templatesRes.ResourceTemplates, func(rt *mcp.ResourceTemplate) bool { return rt.URITemplate == resourceTemplate }) {
		t.Errorf("the resource template completed (%s) is not the one served: %+v (%v)", resourceTemplate, templatesRes, err)
	}

	// Wrong references are invalid params.
	for _, c := range []struct {
		ref *mcp.CompleteReference
		arg string
	}{
		{&mcp.CompleteReference{Type: "ref/prompt", Name: "test_prompt_with_arguments"}, "arg1"},
		{builtin, "colour"},
		{&mcp.CompleteReference{Type: "ref/resource", URI: "file:///{path}"}, "path"},
		{tmpl, "colour"},
	} {
		_, err := complete(c.ref, c.arg, "x", nil)
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("complete %+v %s: %v, want JSON-RPC error -32602", c.ref, c.arg, err)
		}
	}
}

// TestPrompts: the prompts name the tool and the arguments given; a
// missing argument or an unknown analysis is invalid params (-32602).
func TestPrompts(t *testing.T) {
	env := newEnv(t, nil)
	cs := connect(t, env.srv, nil)
	ctx := context.Background()
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "builtin_analysis", Arguments: map[string]string{"analysis": "topn", "file": "sales.csv", "question": "top 3 regions"}})
	if err != nil || len(res.Messages) != 1 {
		t.Fatalf("get prompt: %v %+v", err, res)
	}
	msg := res.Messages[0].Content.(*mcp.TextContent).Text
	for _, want := range []string{"run_builtin_analysis", `"topn"`, `"sales.csv"`, `"top 3 regions"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("prompt %q lacks %s", msg, want)
		}
	}
	if res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "analyze", Arguments: map[string]string{"question": "Which region grew most?", "file": "sales.csv"}}); err != nil || !strings.Contains(res.Messages[0].Content.(*mcp.TextContent).Text, "analyze tool") {
		t.Errorf("analyze prompt: %v %+v", err, res)
	}
	for _, args := range []map[string]string{{"analysis": "topn"}, {"analysis": "astrology", "file": "sales.csv"}} {
		_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "builtin_analysis", Arguments: args})
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("builtin_analysis %v: %v, want JSON-RPC error -32602", args, err)
		}
	}
}

func prefixedNames(prefix string) []string {
	var out []string
	for _, n := range templates.Names() {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
