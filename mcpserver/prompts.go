package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/templates"
)

// maxCompletions is the most values one completion answer carries, as
// the MCP specification allows.
const maxCompletions = 100

// Prompt names: the prompts are the tools' front doors for a person
// picking them in a client's menu, with completion for their arguments.
const (
	promptAnalyze = "analyze"
	promptBuiltin = "builtin_analysis"
)

// invalidParams is the JSON-RPC error for a request whose parameters
// are wrong (-32602), as the MCP specification asks of prompts,
// completion and resource reads (the request's URI is at fault, not the
// server).
func invalidParams(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

func (s *Server) addPrompts() {
	s.mcp.AddPrompt(&mcp.Prompt{
		Name:        promptAnalyze,
		Title:       "Analyse data with Sift",
		Description: "Ask Sift a question about data files: the analyze tool plans, runs Python and writes a report.",
		Arguments: []*mcp.PromptArgument{
			{Name: "question", Description: "What to find out", Required: true},
			{Name: "file", Description: "A file or directory to analyse, under the server's allowed directories", Required: true},
		},
	}, s.analyzePrompt)
	s.mcp.AddPrompt(&mcp.Prompt{
		Name:        promptBuiltin,
		Title:       "Run a built-in analysis",
		Description: "Run one of Sift's built-in analyses on a table, with no language model: " + strings.Join(templates.Names(), ", ") + ".",
		Arguments: []*mcp.PromptArgument{
			{Name: "analysis", Description: "The built-in analysis", Required: true},
			{Name: "file", Description: "The table to analyse, under the server's allowed directories", Required: true},
			{Name: "question", Description: "Optional: columns, periods or N, e.g. 'monthly revenue by region'"},
		},
	}, s.builtinPrompt)
}

// promptArgs checks a prompt request's required arguments.
func promptArgs(req *mcp.GetPromptRequest, required ...string) (map[string]string, error) {
	args := req.Params.Arguments
	for _, name := range required {
		if strings.TrimSpace(args[name]) == "" {
			return nil, invalidParams("prompt %s needs the argument %q", req.Params.Name, name)
		}
	}
	return args, nil
}

func (s *Server) analyzePrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	args, err := promptArgs(req, "question", "file")
	if err != nil {
		return nil, err
	}
	return userPrompt("Analyse data with Sift", fmt.Sprintf("Use Sift's analyze tool with files [%q] to answer: %s\nThen tell me the answer and the main findings, and where the report is. Answer in the language of the question.", args["file"], args["question"])), nil
}

func (s *Server) builtinPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	args, err := promptArgs(req, "analysis", "file")
	if err != nil {
		return nil, err
	}
	if _, err := templates.Lookup(args["analysis"]); err != nil {
		return nil, invalidParams("%v", err)
	}
	text := fmt.Sprintf("Use Sift's run_builtin_analysis tool with analysis %q and files [%q]", args["analysis"], args["file"])
	if q := strings.TrimSpace(args["question"]); q != "" {
		text += fmt.Sprintf(" and question %q", q)
	}
	return userPrompt("Run a built-in analysis", text+". Then tell me its findings and where the report is."), nil
}

func userPrompt(desc, text string) *mcp.GetPromptResult {
	return &mcp.GetPromptResult{Description: desc, Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}
}

// complete answers completion/complete: analysis names and files for the
// prompts' arguments, session ids and file paths for the resource
// template. An unknown prompt, template or argument is invalid params
// (-32602), as the specification says.
func (s *Server) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	ref, arg := p.Ref, p.Argument
	var values []string
	switch {
	case ref.Type == "ref/prompt" && (ref.Name == promptAnalyze || ref.Name == promptBuiltin):
		switch {
		case arg.Name == "analysis" && ref.Name == promptBuiltin:
			values = prefixed(templates.Names(), arg.Value)
		case arg.Name == "file":
			values = s.completeFile(arg.Value)
		case arg.Name == "question":
		default:
			return nil, invalidParams("prompt %s has no argument %q", ref.Name, arg.Name)
		}
	case ref.Type == "ref/prompt":
		return nil, invalidParams("unknown prompt %q: this server's prompts are %s and %s", ref.Name, promptAnalyze, promptBuiltin)
	case ref.Type == "ref/resource" && ref.URI == resourceTemplate:
		switch arg.Name {
		case "id":
			metas, err := s.store.Sessions.List(ctx, session.Filter{Limit: maxListedSessions})
			if err != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "list sessions: " + err.Error()}
			}
			for _, m := range metas {
				values = append(values, m.ID)
			}
			values = prefixed(values, arg.Value)
		case "path":
			var ctxArgs map[string]string
			if p.Context != nil {
				ctxArgs = p.Context.Arguments
			}
			id := ctxArgs["id"]
			if session.ValidateID(id) == nil {
				values = prefixed(s.workspace(id).Deliverables(), arg.Value)
			}
		default:
			return nil, invalidParams("the resource template %s has no argument %q", resourceTemplate, arg.Name)
		}
	case ref.Type == "ref/resource":
		return nil, invalidParams("unknown resource template %q: this server's is %s", ref.URI, resourceTemplate)
	default:
		return nil, invalidParams("unknown reference type %q", ref.Type)
	}
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}, Total: len(values)}}
	if len(values) > maxCompletions {
		values, res.Completion.HasMore = values[:maxCompletions], true
	}
	res.Completion.Values = append(res.Completion.Values, values...)
	return res, nil
}

// resourceTemplate is the URI template of sessions' files, as
// addResources registers it.
const resourceTemplate = uriPrefix + "{id}/{+path}"

// prefixed keeps the names that start with prefix, sorted.
func prefixed(names []string, prefix string) []string {
	out := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !strings.HasPrefix(n, prefix) })
	slices.Sort(out)
	return out
}

// completeFile completes a path under the allowed directories: a
// relative one under the first, an absolute one under any. Directories
// end in '/'; hidden entries, '..' and paths leading out of the allowed
// directories (through a symbolic link too) complete to nothing.
func (s *Server) completeFile(value string) []string {
	dir, base := "", value
	if i := strings.LastIndex(value, "/"); i >= 0 {
		dir, base = value[:i+1], value[i+1:]
	}
	if slices.Contains(strings.Split(dir, "/"), "..") || strings.HasPrefix(base, ".") && base != "" {
		return nil
	}
	var real, root string
	if filepath.IsAbs(value) {
		for _, r := range s.allow {
			if d, err := operator.Confine(r, dir); err == nil {
				real, root = d, r
				break
			}
		}
	} else {
		root = s.allow[0]
		real, _ = operator.Confine(root, "./"+dir)
	}
	if real == "" {
		return nil
	}
	entries, err := os.ReadDir(real)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !strings.HasPrefix(name, base) {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			// Only a link that stays inside the allowed directory.
			target, err := operator.Confine(root, filepath.Join(real, name))
			if err != nil {
				continue
			}
			st, err := os.Stat(target)
			isDir = err == nil && st.IsDir()
		}
		if isDir {
			name += "/"
		}
		out = append(out, dir+name)
	}
	return out
}
