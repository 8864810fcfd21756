package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"regexp"
	"strings"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sift-agent/sift/tools"
)

// remoteTool is one MCP tool as an Eino tool.
type remoteTool struct {
	srv    *server
	name   string // Sift's name: <server>_<tool>
	remote string // the server's name
	info   *schema.ToolInfo
}

// unsafeName matches what tool names may not hold (OpenAI allows
// [A-Za-z0-9_-], at most 64 characters).
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// SiftName is the name a server's tool has in Sift: <server>_<tool>, with
// characters models refuse replaced by '_', at most 64 characters.
func SiftName(server, tool string) string {
	n := server + "_" + unsafeName.ReplaceAllString(tool, "_")
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}

// newRemoteTool converts t's definition, keeping its JSON schema as the
// tool's parameters.
func newRemoteTool(s *server, t *sdk.Tool) (*remoteTool, error) {
	params, err := paramsOf(t.InputSchema)
	if err != nil {
		return nil, err
	}
	desc := strings.TrimSpace(t.Description)
	if desc == "" {
		desc = strings.TrimSpace(t.Title)
	}
	name := SiftName(s.cfg.Name, t.Name)
	return &remoteTool{srv: s, name: name, remote: t.Name, info: &schema.ToolInfo{
		Name:        name,
		Desc:        fmt.Sprintf("[MCP server %s] %s", s.cfg.Name, desc),
		ParamsOneOf: params,
	}}, nil
}

// paramsOf turns an MCP input schema into Eino's parameters.
func paramsOf(inputSchema any) (*schema.ParamsOneOf, error) {
	if inputSchema == nil {
		return nil, nil
	}
	b, err := json.Marshal(inputSchema)
	if err != nil {
		return nil, fmt.Errorf("its input schema: %w", err)
	}
	js := &jsonschema.Schema{}
	if err := json.Unmarshal(b, js); err != nil {
		return nil, fmt.Errorf("its input schema is not a JSON schema Sift can read: %w", err)
	}
	return schema.NewParamsOneOfByJSONSchema(js), nil
}

// Info returns the tool's name, description and the server's schema.
func (t *remoteTool) Info(context.Context) (*schema.ToolInfo, error) { return t.info, nil }

// InvokableRun calls the tool on its server. Failures come back as errors
// that say what happened and what to do (wrap with tools.Hint to give them
// to the model as replies); cancelling ctx cancels the call.
func (t *remoteTool) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	var in map[string]any
	if strings.TrimSpace(args) != "" {
		if err := json.Unmarshal([]byte(args), &in); err != nil {
			return "", tools.WithHint(fmt.Errorf("%w: the arguments of %s are not a JSON object: %v", ErrToolFailed, t.name, err),
				"send one JSON object with the fields the tool's schema names")
		}
	}
	sess, err := t.srv.session()
	if err != nil {
		return "", tools.WithHint(err, "do not call this server's tools again in this run; find another way or say what you cannot do")
	}
	cctx, cancel := context.WithTimeout(ctx, t.srv.cfg.CallTimeout)
	defer cancel()
	res, err := sess.CallTool(cctx, &sdk.CallToolParams{Name: t.remote, Arguments: in})
	if err != nil {
		return "", t.callError(ctx, cctx, err)
	}
	return t.render(ctx, res)
}

// callError says why a call failed: the run was cancelled, the call timed
// out, the server stopped, refused the call, or answered with something
// that is not an MCP result.
func (t *remoteTool) callError(ctx, cctx context.Context, err error) error {
	var rpcErr *jsonrpc.Error
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case cctx.Err() == context.DeadlineExceeded:
		return tools.WithHint(fmt.Errorf("%w: MCP server %q did not answer %s within %s", ErrTimeout, t.srv.cfg.Name, t.remote, t.srv.cfg.CallTimeout),
			"try a smaller request, or another way; the timeout is the server's \"timeout\" in mcp_servers")
	case t.srv.lost(err):
		return tools.WithHint(t.srv.crashed(t.remote, err), "do not call this server's tools again in this run; find another way or say what you cannot do")
	case errors.As(err, &rpcErr):
		return tools.WithHint(fmt.Errorf("%w: MCP server %q refused the call to %s: %s", ErrToolFailed, t.srv.cfg.Name, t.remote, rpcErr.Message),
			"check the arguments against the tool's schema and try again")
	}
	return tools.WithHint(fmt.Errorf("%w: MCP server %q answered %s with something Sift cannot read: %v", ErrToolFailed, t.srv.cfg.Name, t.remote, err),
		"try again once; if it fails the same way, find another way")
}

// render turns a result into the reply the model reads: text content as
// it is, structured content as JSON, binary content saved to out/mcp/.
// A result marked as an error becomes an error.
func (t *remoteTool) render(ctx context.Context, res *sdk.CallToolResult) (string, error) {
	var parts []string
	for _, c := range res.Content {
		switch v := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, v.Text)
		case *sdk.ImageContent:
			parts = append(parts, t.saveBinary(ctx, "image", v.MIMEType, v.Data))
		case *sdk.AudioContent:
			parts = append(parts, t.saveBinary(ctx, "audio", v.MIMEType, v.Data))
		case *sdk.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s: %s]", v.URI, firstNonEmpty(v.Title, v.Name, v.Description)))
		case *sdk.EmbeddedResource:
			switch r := v.Resource; {
			case r == nil:
			case r.Text != "":
				parts = append(parts, fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text))
			default:
				parts = append(parts, fmt.Sprintf("[resource %s] ", r.URI)+t.saveBinary(ctx, "resource", r.MIMEType, r.Blob))
			}
		default:
			parts = append(parts, fmt.Sprintf("[%T content, not shown]", c))
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return "", fmt.Errorf("%w: MCP server %q answered %s with structured content Sift cannot read: %v", ErrToolFailed, t.srv.cfg.Name, t.remote, err)
		}
		parts = append(parts, string(b))
	}
	out := strings.Join(parts, "\n")
	if res.IsError {
		if out == "" {
			out = "no details given"
		}
		return "", tools.WithHint(fmt.Errorf("%w: %s (MCP server %q) reported an error: %s", ErrToolFailed, t.remote, t.srv.cfg.Name, out),
			"read the error, fix the arguments and try again; if it fails the same way twice, find another way")
	}
	if out == "" {
		out = "(the tool returned nothing)"
	}
	return out, nil
}

// saveBinary stores binary content in the workspace and says where.
func (t *remoteTool) saveBinary(ctx context.Context, kind, mimeType string, data []byte) string {
	if t.srv.opts.Save == nil {
		return fmt.Sprintf("[%s, %s, %d bytes: not saved]", kind, mimeType, len(data))
	}
	ext := ".bin"
	if exts, _ := mime.ExtensionsByType(mimeType); len(exts) > 0 {
		ext = exts[0]
	}
	t.srv.mu.Lock()
	t.srv.saved++
	n := t.srv.saved
	t.srv.mu.Unlock()
	p := fmt.Sprintf("out/mcp/%s-%d%s", t.name, n, ext)
	if err := t.srv.opts.Save(ctx, p, data); err != nil {
		return fmt.Sprintf("[%s, %s, %d bytes: saving it failed: %v]", kind, mimeType, len(data), err)
	}
	return fmt.Sprintf("[%s saved to %s]", kind, p)
}

// connectionGrace bounds how long a failed call waits to learn whether
// the connection ended with it.
const connectionGrace = 2 * time.Second

// lost says whether a call failed because the connection to the server
// ended (the process exited, the server closed the stream).
func (s *server) lost(err error) bool {
	if errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	if s.cmd == nil {
		return false
	}
	// A stdio server's failed call and the end of its connection race:
	// give the connection a moment to report that it ended.
	timer := time.NewTimer(connectionGrace)
	defer timer.Stop()
	select {
	case <-s.ended:
		return true
	case <-timer.C:
		return false
	}
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
