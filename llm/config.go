// Package llm connects Sift's agents to chat models.
//
// Any OpenAI-compatible chat endpoint (OpenAI, Ark, DeepSeek, Qwen, Ollama,
// vLLM, ...) is a provider: [LoadConfig] gathers its base URL, key and model
// name from a config file and the environment, [New] builds an Eino
// [model.ToolCallingChatModel] for it whose HTTP client retries rate limits,
// server errors and dropped connections, and [Wrap] decorates any chat model
// with per-agent usage metering ([Meter]) and tool-call repair. The scripted
// model used by tests, benchmarks and offline demos lives in llm/scripted.
//
// [model.ToolCallingChatModel]: https://pkg.go.dev/github.com/cloudwego/eino/components/model#ToolCallingChatModel
package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sift-agent/sift/internal/jsonpos"
)

// Agent names with their own model settings in [Config.Agents].
const (
	// AgentPlanner writes the first plan.
	AgentPlanner = "planner"
	// AgentExecutor carries out plan steps and replans.
	AgentExecutor = "executor"
	// AgentCode writes and runs Python code.
	AgentCode = "code"
	// AgentReport writes the final report.
	AgentReport = "report"
)

// AgentNames lists the agents that [Config.Configured] checks and that have a
// SIFT_<AGENT>_MODEL environment variable, in pipeline order.
var AgentNames = []string{AgentPlanner, AgentExecutor, AgentCode, AgentReport}

// Defaults filled in by [Endpoint.WithDefaults].
const (
	// DefaultTimeout bounds one HTTP attempt, including reading a streamed reply.
	DefaultTimeout = 120 * time.Second
	// DefaultMaxRetries is how many times a failed request is retried.
	DefaultMaxRetries = 4
	// DefaultOpenAIBaseURL is used when a key is given without a base URL.
	DefaultOpenAIBaseURL = "https://api.openai.com/v1"
	// DefaultArkBaseURL is Volcengine Ark's OpenAI-compatible endpoint, used
	// when ARK_API_KEY is set without ARK_BASE_URL.
	DefaultArkBaseURL = "https://ark.cn-beijing.volces.com/api/v3"
)

// redacted replaces an API key wherever an Endpoint is printed or logged.
const redacted = "[redacted]"

// Endpoint says how to reach one OpenAI-compatible chat model.
//
// Printing an Endpoint (fmt's %v, %+v, %#v, %s, or slog) never shows the key.
type Endpoint struct {
	// BaseURL is the API root including its version path, e.g.
	// "https://api.openai.com/v1" or "http://localhost:11434/v1".
	// Optional when APIKey is set: defaults to DefaultOpenAIBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token. Optional for local servers.
	APIKey string
	// Model is the model name (or Ark endpoint ID). Required.
	Model string
	// Timeout bounds each HTTP attempt, including reading a streamed reply.
	// Optional; default DefaultTimeout (120s).
	Timeout time.Duration
	// MaxRetries is how many times a request that failed with 429, a 5xx
	// status, a timeout or a dropped connection is retried. Optional; 0 means
	// DefaultMaxRetries (4); a negative value disables retries.
	MaxRetries int
	// Temperature is the sampling temperature. Optional; nil leaves the
	// server's default.
	Temperature *float32
	// MaxTokens bounds each reply's tokens (max_tokens). Optional; nil
	// leaves the server's default.
	MaxTokens *int
	// ReasoningEffort is "low", "medium" or "high" for reasoning models
	// (reasoning_effort). Optional; empty leaves the server's default.
	ReasoningEffort string
	// ExtraBody is merged into every request's JSON body: the switches
	// some endpoints have beyond the OpenAI API, e.g. reasoning off with
	// {"enable_thinking": false} (Qwen) or {"thinking": {"type":
	// "disabled"}} (Ark, DeepSeek). Optional.
	ExtraBody map[string]any
	// ContextWindow is the model's context window in tokens. Optional; 0
	// takes it from the table of known models (KnownContextWindow), else
	// DefaultContextWindow; negative turns trimming off.
	ContextWindow int
	// Images marks a model that accepts images in its input, so the report
	// writer may look at the charts it cites. Optional; default false.
	Images bool
}

// WithDefaults returns e with its empty optional fields filled in: Timeout,
// MaxRetries, and BaseURL when a key is known but no base URL is.
// This is the one place endpoint defaults are decided.
func (e Endpoint) WithDefaults() Endpoint {
	if e.Timeout <= 0 {
		e.Timeout = DefaultTimeout
	}
	if e.MaxRetries == 0 {
		e.MaxRetries = DefaultMaxRetries
	}
	if e.BaseURL == "" && e.APIKey != "" {
		e.BaseURL = DefaultOpenAIBaseURL
	}
	return e
}

// Configured reports whether e names a model and a base URL (or has a key
// for the default OpenAI URL).
func (e Endpoint) Configured() bool {
	e = e.WithDefaults()
	return e.Model != "" && e.BaseURL != ""
}

// String describes e with its API key redacted.
func (e Endpoint) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Endpoint{BaseURL: %q, APIKey: %q, Model: %q", e.BaseURL, e.redactedKey(), e.Model)
	if e.Timeout != 0 {
		fmt.Fprintf(&b, ", Timeout: %s", e.Timeout)
	}
	if e.MaxRetries != 0 {
		fmt.Fprintf(&b, ", MaxRetries: %d", e.MaxRetries)
	}
	if e.Temperature != nil {
		fmt.Fprintf(&b, ", Temperature: %g", *e.Temperature)
	}
	b.WriteString("}")
	return b.String()
}

// GoString is String, so that %#v does not print the key either.
func (e Endpoint) GoString() string { return "model." + e.String() }

// LogValue makes slog print e with its API key redacted.
func (e Endpoint) LogValue() slog.Value {
	attrs := []slog.Attr{
		slog.String("base_url", e.BaseURL),
		slog.String("api_key", e.redactedKey()),
		slog.String("model", e.Model),
	}
	if e.Timeout != 0 {
		attrs = append(attrs, slog.Duration("timeout", e.Timeout))
	}
	if e.MaxRetries != 0 {
		attrs = append(attrs, slog.Int("max_retries", e.MaxRetries))
	}
	if e.Temperature != nil {
		attrs = append(attrs, slog.Float64("temperature", float64(*e.Temperature)))
	}
	return slog.GroupValue(attrs...)
}

func (e Endpoint) redactedKey() string {
	if e.APIKey == "" {
		return ""
	}
	return redacted
}

// overlay returns e with every field that o sets replacing e's.
func (e Endpoint) overlay(o Endpoint) Endpoint {
	if o.BaseURL != "" {
		e.BaseURL = o.BaseURL
	}
	if o.APIKey != "" {
		e.APIKey = o.APIKey
	}
	if o.Model != "" {
		e.Model = o.Model
	}
	if o.Timeout != 0 {
		e.Timeout = o.Timeout
	}
	if o.MaxRetries != 0 {
		e.MaxRetries = o.MaxRetries
	}
	if o.Temperature != nil {
		e.Temperature = o.Temperature
	}
	if o.MaxTokens != nil {
		e.MaxTokens = o.MaxTokens
	}
	if o.ReasoningEffort != "" {
		e.ReasoningEffort = o.ReasoningEffort
	}
	if o.ExtraBody != nil {
		e.ExtraBody = o.ExtraBody
	}
	if o.ContextWindow != 0 {
		e.ContextWindow = o.ContextWindow
	}
	if o.Images {
		e.Images = true
	}
	return e
}

// Config holds the model settings for a run: one default endpoint and
// per-agent overrides.
//
// The CLI applies its flags by setting fields of Default (or of an Agents
// entry) on the Config that LoadConfig returned.
type Config struct {
	// Default is used for every agent, field by field, unless overridden.
	Default Endpoint
	// Agents holds per-agent overrides keyed by agent name (AgentPlanner,
	// AgentExecutor, AgentCode, AgentReport, or any other agent's name).
	// Fields left empty fall back to Default. Optional.
	Agents map[string]Endpoint
	// MCPServers is the config file's "mcp_servers" section as written;
	// package tools/mcp reads it (mcp.ParseServers). Optional.
	MCPServers json.RawMessage
	// Instructions are standing instructions every agent follows, from
	// the config file's "instructions", e.g. "Revenue means net of
	// refunds." Optional.
	Instructions string
	// Glossary maps the domain's terms to their meaning, from the config
	// file's "glossary". Optional.
	Glossary map[string]string
}

// For returns the endpoint for the named agent: its override merged field by
// field over Default, with defaults filled in.
func (c Config) For(agent string) Endpoint {
	return c.Default.overlay(c.Agents[agent]).WithDefaults()
}

// Configured reports whether every agent in AgentNames (and so Default, for
// any other agent whose fields are all inherited) has a model and a base URL
// (or a key for the default OpenAI URL).
func (c Config) Configured() bool {
	for _, a := range AgentNames {
		if !c.For(a).Configured() {
			return false
		}
	}
	return true
}

// SetAgentModel sets the model name for one agent, keeping its other
// overrides. It is how the CLI applies a --<agent>-model flag.
func (c *Config) SetAgentModel(agent, modelName string) {
	if c.Agents == nil {
		c.Agents = make(map[string]Endpoint)
	}
	ep := c.Agents[agent]
	ep.Model = modelName
	c.Agents[agent] = ep
}

// fileEndpoint is one endpoint as written in the config file.
type fileEndpoint struct {
	BaseURL         string         `json:"base_url"`
	APIKey          string         `json:"api_key"`
	Model           string         `json:"model"`
	Timeout         string         `json:"timeout"`
	MaxRetries      int            `json:"max_retries"`
	Temperature     *float32       `json:"temperature"`
	MaxTokens       *int           `json:"max_tokens"`
	ReasoningEffort string         `json:"reasoning_effort"`
	ExtraBody       map[string]any `json:"extra_body"`
	ContextWindow   int            `json:"context_window"`
	Images          bool           `json:"images"`
}

// fileConfig is the config file's JSON shape.
type fileConfig struct {
	fileEndpoint
	Agents       map[string]fileEndpoint `json:"agents"`
	MCPServers   json.RawMessage         `json:"mcp_servers"`
	Instructions string                  `json:"instructions"`
	Glossary     map[string]string       `json:"glossary"`
}

// LoadConfig gathers the model settings. Later sources override earlier ones,
// field by field:
//
//  1. the JSON config file: path if given, else $SIFT_CONFIG, else
//     $XDG_CONFIG_HOME/sift/config.json or ~/.config/sift/config.json when it
//     exists, e.g.
//     {"base_url": "...", "api_key": "...", "model": "...", "timeout": "60s",
//     "max_retries": 4, "temperature": 0.2, "max_tokens": 4096,
//     "reasoning_effort": "low", "extra_body": {"enable_thinking": false},
//     "context_window": 32768, "images": true,
//     "agents": {"planner": {"model": "...", "temperature": 0}},
//     "instructions": "Revenue means net of refunds.",
//     "glossary": {"GMV": "gross merchandise value"}};
//  2. OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL;
//  3. ARK_API_KEY, ARK_MODEL and ARK_BASE_URL (Ark through its
//     OpenAI-compatible endpoint: ARK_API_KEY also switches the base URL to
//     ARK_BASE_URL or DefaultArkBaseURL);
//  4. SIFT_BASE_URL, SIFT_API_KEY, SIFT_MODEL;
//  5. SIFT_PLANNER_MODEL, SIFT_EXECUTOR_MODEL, SIFT_CODE_MODEL,
//     SIFT_REPORT_MODEL for the agents' models.
//
// getenv reads the environment; nil means os.Getenv. A config file named by
// path or $SIFT_CONFIG must exist; a malformed file is an error naming it.
func LoadConfig(path string, getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var cfg Config

	file, required := path, true
	if file == "" {
		file = getenv("SIFT_CONFIG")
	}
	if file == "" {
		file, required = defaultConfigPath(getenv), false
	}
	if file != "" {
		fc, err := readConfigFile(file, required)
		if err != nil {
			return Config{}, err
		}
		cfg = fc
	}

	envOverlay := func(base, key, model string) {
		cfg.Default = cfg.Default.overlay(Endpoint{BaseURL: getenv(base), APIKey: getenv(key), Model: getenv(model)})
	}
	envOverlay("OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL")

	ark := Endpoint{BaseURL: getenv("ARK_BASE_URL"), APIKey: getenv("ARK_API_KEY"), Model: getenv("ARK_MODEL")}
	if ark.APIKey != "" && ark.BaseURL == "" {
		ark.BaseURL = DefaultArkBaseURL
	}
	cfg.Default = cfg.Default.overlay(ark)

	envOverlay("SIFT_BASE_URL", "SIFT_API_KEY", "SIFT_MODEL")

	for _, a := range AgentNames {
		if m := getenv("SIFT_" + strings.ToUpper(a) + "_MODEL"); m != "" {
			cfg.SetAgentModel(a, m)
		}
	}
	return cfg, nil
}

// defaultConfigPath is where the config file lives when none is named, or ""
// when the home directory is unknown.
func defaultConfigPath(getenv func(string) string) string {
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" {
		return filepath.Join(dir, "sift", "config.json")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "sift", "config.json")
	}
	return ""
}

// readConfigFile parses the config file at path. A missing file is an error
// only when required.
func readConfigFile(path string, required bool) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if !required && errors.Is(err, fs.ErrNotExist) {
			return Config{}, nil
		}
		return Config{}, fmt.Errorf("model: read config file %s: %w", path, err)
	}
	var fc fileConfig
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fc); err != nil {
		return Config{}, fmt.Errorf("model: config file %s is not valid: %s; expected JSON like {\"base_url\": \"...\", \"api_key\": \"...\", \"model\": \"...\", \"timeout\": \"60s\", \"agents\": {\"planner\": {\"model\": \"...\"}}}",
			path, jsonpos.Describe(data, err))
	}
	if dec.More() {
		return Config{}, fmt.Errorf("model: config file %s is not valid: more than one JSON value; it must hold a single object", path)
	}

	cfg := Config{MCPServers: fc.MCPServers, Instructions: fc.Instructions, Glossary: fc.Glossary}
	if cfg.Default, err = fc.fileEndpoint.endpoint(); err != nil {
		return Config{}, fmt.Errorf("model: config file %s is not valid: %w", path, err)
	}
	for name, fe := range fc.Agents {
		ep, err := fe.endpoint()
		if err != nil {
			return Config{}, fmt.Errorf("model: config file %s is not valid: agents.%s: %w", path, name, err)
		}
		if cfg.Agents == nil {
			cfg.Agents = make(map[string]Endpoint)
		}
		cfg.Agents[name] = ep
	}
	return cfg, nil
}

// endpoint converts a file entry, parsing its timeout.
func (fe fileEndpoint) endpoint() (Endpoint, error) {
	ep := Endpoint{BaseURL: fe.BaseURL, APIKey: fe.APIKey, Model: fe.Model, MaxRetries: fe.MaxRetries, Temperature: fe.Temperature,
		MaxTokens: fe.MaxTokens, ReasoningEffort: fe.ReasoningEffort, ExtraBody: fe.ExtraBody, ContextWindow: fe.ContextWindow, Images: fe.Images}
	switch fe.ReasoningEffort {
	case "", "low", "medium", "high":
	default:
		return Endpoint{}, fmt.Errorf("reasoning_effort %q is not one of low, medium, high", fe.ReasoningEffort)
	}
	if fe.MaxTokens != nil && *fe.MaxTokens <= 0 {
		return Endpoint{}, fmt.Errorf("max_tokens %d must be positive", *fe.MaxTokens)
	}
	if fe.Timeout != "" {
		d, err := time.ParseDuration(fe.Timeout)
		if err != nil || d <= 0 {
			return Endpoint{}, fmt.Errorf("timeout %q is not a positive duration like \"60s\" or \"2m\"", fe.Timeout)
		}
		ep.Timeout = d
	}
	return ep, nil
}
