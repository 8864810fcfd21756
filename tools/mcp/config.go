// Package mcp offers the tools of Model Context Protocol servers to Sift's
// agents as Eino tools.
//
// Servers are named in Sift's config file under "mcp_servers" (see
// ParseServers): a command started over stdio, or a streamable HTTP URL.
// Connect starts or reaches them for one run and lists their tools; each
// allowed tool becomes a tool.InvokableTool whose parameters are the
// server's own JSON schema. The agents wrap these tools like their built-in
// ones (argument repair, output caps, approval, tracing). Close stops every
// server Connect started.
//
// The client is github.com/modelcontextprotocol/go-sdk, the same SDK Sift's
// own MCP server (package mcpserver) uses.
package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// Agents that can be given a server's tools.
const (
	// AgentExecutor is the plan executor (the default).
	AgentExecutor = "executor"
	// AgentCode is the code agent, beside python and the file tools.
	AgentCode = "code"
)

// Defaults of ServerConfig.
const (
	// DefaultStartTimeout bounds starting a server and listing its tools.
	DefaultStartTimeout = 30 * time.Second
	// DefaultCallTimeout bounds one tool call.
	DefaultCallTimeout = 2 * time.Minute
)

// ErrInvalidConfig is wrapped by the errors of ParseServers and LoadFile.
var ErrInvalidConfig = errors.New("invalid MCP server configuration")

// ServerConfig describes one MCP server. Exactly one of Command and URL is
// set.
type ServerConfig struct {
	// Name names the server in tool names (<name>_<tool>), messages and
	// its stderr log. Required: letters, digits, '-' and '_'.
	Name string
	// Command starts a server that speaks MCP over stdin/stdout; Args are
	// its arguments. It runs with only PATH, HOME, LANG, TMPDIR and Env in
	// its environment: Sift's own keys are not passed on.
	Command string
	Args    []string
	// Env adds environment variables for Command. Values may name Sift's
	// environment as ${VAR}. Optional.
	Env map[string]string
	// Dir is Command's working directory. Optional; default Sift's.
	Dir string
	// URL is a streamable HTTP endpoint, such as http://127.0.0.1:8080/mcp.
	URL string
	// Headers are sent with every HTTP request (an Authorization header,
	// say). Values may name Sift's environment as ${VAR}. Optional.
	Headers map[string]string
	// Allow lists the server's tools that are offered; empty offers all.
	Allow []string
	// Deny lists the server's tools that are never offered. Deny wins
	// over Allow.
	Deny []string
	// ReadOnly marks every tool of the server read-only; ReadOnlyTools
	// marks some. A tool not marked is treated as writing: each call waits
	// for the person's approval (unattended runs refuse it).
	ReadOnly      bool
	ReadOnlyTools []string
	// Agent is who gets the tools: AgentExecutor (default) or AgentCode.
	Agent string
	// StartTimeout bounds start-up and listing tools. Optional; default
	// DefaultStartTimeout.
	StartTimeout time.Duration
	// CallTimeout bounds one call. Optional; default DefaultCallTimeout.
	CallTimeout time.Duration
}

// Transport names how the server is reached: "stdio" or "http".
func (c ServerConfig) Transport() string {
	if c.URL != "" {
		return "http"
	}
	return "stdio"
}

// offers says whether the server's tool called name may be offered.
func (c ServerConfig) offers(name string) bool {
	if slices.Contains(c.Deny, name) {
		return false
	}
	return len(c.Allow) == 0 || slices.Contains(c.Allow, name)
}

// readOnly says whether the server's tool called name is marked read-only.
func (c ServerConfig) readOnly(name string) bool {
	return c.ReadOnly || slices.Contains(c.ReadOnlyTools, name)
}

// withDefaults fills the optional fields.
func (c ServerConfig) withDefaults() ServerConfig {
	if c.Agent == "" {
		c.Agent = AgentExecutor
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = DefaultStartTimeout
	}
	if c.CallTimeout <= 0 {
		c.CallTimeout = DefaultCallTimeout
	}
	return c
}

var serverName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// Validate reports what is wrong with c, and what to write instead.
func (c ServerConfig) Validate() error {
	if !serverName.MatchString(c.Name) {
		return fmt.Errorf("%w: server name %q: use 1-32 letters, digits, '-' or '_'", ErrInvalidConfig, c.Name)
	}
	switch {
	case c.Command == "" && c.URL == "":
		return fmt.Errorf("%w: server %q: give \"command\" (a stdio server) or \"url\" (a streamable HTTP server)", ErrInvalidConfig, c.Name)
	case c.Command != "" && c.URL != "":
		return fmt.Errorf("%w: server %q: give either \"command\" or \"url\", not both", ErrInvalidConfig, c.Name)
	case c.URL != "" && !strings.HasPrefix(c.URL, "http://") && !strings.HasPrefix(c.URL, "https://"):
		return fmt.Errorf("%w: server %q: url %q must start with http:// or https://", ErrInvalidConfig, c.Name, c.URL)
	case c.URL != "" && (len(c.Args) > 0 || len(c.Env) > 0 || c.Dir != ""):
		return fmt.Errorf("%w: server %q: \"args\", \"env\" and \"dir\" are for stdio servers (\"command\"); an HTTP server takes \"headers\"", ErrInvalidConfig, c.Name)
	case c.Command != "" && len(c.Headers) > 0:
		return fmt.Errorf("%w: server %q: \"headers\" are for HTTP servers (\"url\"); a stdio server takes \"env\"", ErrInvalidConfig, c.Name)
	}
	switch c.Agent {
	case "", AgentExecutor, AgentCode:
	default:
		return fmt.Errorf("%w: server %q: agent %q: use %q or %q", ErrInvalidConfig, c.Name, c.Agent, AgentExecutor, AgentCode)
	}
	for _, n := range append(append(append([]string(nil), c.Allow...), c.Deny...), c.ReadOnlyTools...) {
		if strings.TrimSpace(n) == "" {
			return fmt.Errorf("%w: server %q: an empty tool name in allow, deny or read_only", ErrInvalidConfig, c.Name)
		}
	}
	return nil
}

// fileServer is one server as written in the config file.
type fileServer struct {
	Command      string            `json:"command"`
	Args         []string          `json:"args"`
	Env          map[string]string `json:"env"`
	Dir          string            `json:"dir"`
	URL          string            `json:"url"`
	Headers      map[string]string `json:"headers"`
	Allow        []string          `json:"allow"`
	Deny         []string          `json:"deny"`
	ReadOnly     json.RawMessage   `json:"read_only"`
	Agent        string            `json:"agent"`
	StartTimeout string            `json:"start_timeout"`
	CallTimeout  string            `json:"timeout"`
}

// ParseServers reads the "mcp_servers" section of Sift's config file: an
// object from server name to server, e.g.
//
//	{"files": {"command": "mcp-files", "args": ["--root", "/data"],
//	           "env": {"TOKEN": "${FILES_TOKEN}"}, "read_only": true},
//	 "charts": {"url": "http://127.0.0.1:8080/mcp",
//	            "headers": {"Authorization": "Bearer ${CHARTS_TOKEN}"},
//	            "allow": ["bar_chart"], "deny": ["delete_chart"],
//	            "read_only": ["bar_chart"], "agent": "executor",
//	            "timeout": "2m", "start_timeout": "30s"}}
//
// "read_only" is true (every tool) or a list of tool names. An empty or
// null section is no servers. The servers come back sorted by name.
func ParseServers(raw json.RawMessage) ([]ServerConfig, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	var byName map[string]json.RawMessage
	if err := json.Unmarshal(raw, &byName); err != nil {
		return nil, fmt.Errorf("%w: \"mcp_servers\" must be an object from server name to server: %v", ErrInvalidConfig, err)
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]ServerConfig, 0, len(names))
	for _, name := range names {
		var fs fileServer
		dec := json.NewDecoder(bytes.NewReader(byName[name]))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&fs); err != nil {
			return nil, fmt.Errorf("%w: server %q: %v; the keys are command, args, env, dir, url, headers, allow, deny, read_only, agent, timeout, start_timeout", ErrInvalidConfig, name, err)
		}
		c := ServerConfig{Name: name, Command: fs.Command, Args: fs.Args, Env: fs.Env, Dir: fs.Dir, URL: fs.URL, Headers: fs.Headers,
			Allow: fs.Allow, Deny: fs.Deny, Agent: fs.Agent}
		if err := parseReadOnly(fs.ReadOnly, &c); err != nil {
			return nil, fmt.Errorf("%w: server %q: %v", ErrInvalidConfig, name, err)
		}
		var err error
		if c.StartTimeout, err = parseDuration("start_timeout", fs.StartTimeout); err != nil {
			return nil, fmt.Errorf("%w: server %q: %v", ErrInvalidConfig, name, err)
		}
		if c.CallTimeout, err = parseDuration("timeout", fs.CallTimeout); err != nil {
			return nil, fmt.Errorf("%w: server %q: %v", ErrInvalidConfig, name, err)
		}
		if err := c.Validate(); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// LoadFile reads MCP servers from a JSON file: either Sift's config file
// (servers under "mcp_servers", other keys ignored) or a file holding only
// the servers under "mcp_servers" or "mcpServers", the key other MCP
// clients use.
func LoadFile(path string) ([]ServerConfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read MCP server configuration: %w", err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%w: %s is not a JSON object: %v", ErrInvalidConfig, path, err)
	}
	raw, ok := top["mcp_servers"]
	if !ok {
		raw, ok = top["mcpServers"]
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s has no \"mcp_servers\" object; write {\"mcp_servers\": {\"name\": {\"command\": \"...\"}}}", ErrInvalidConfig, path)
	}
	servers, err := ParseServers(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return servers, nil
}

// parseReadOnly reads "read_only": true, false, or a list of tool names.
func parseReadOnly(raw json.RawMessage, c *ServerConfig) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, &c.ReadOnly); err == nil {
		return nil
	}
	if err := json.Unmarshal(raw, &c.ReadOnlyTools); err == nil {
		return nil
	}
	return fmt.Errorf("read_only is %s: write true (every tool) or a list of tool names", raw)
}

// parseDuration reads an optional duration such as "30s".
func parseDuration(key, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s %q is not a positive duration like \"30s\" or \"2m\"", key, s)
	}
	return d, nil
}
