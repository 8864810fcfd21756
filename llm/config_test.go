package llm

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func envFunc(env map[string]string) func(string) string {
	return func(k string) string { return env[k] }
}

func ptr[T any](v T) *T { return &v }

func TestLoadConfigPrecedence(t *testing.T) {
	const file = `{"base_url": "http://file/v1", "api_key": "file-key", "model": "file-model", "timeout": "60s",
		"max_retries": 2, "temperature": 0.5,
		"agents": {"planner": {"model": "file-planner"}, "report": {"base_url": "http://report/v1", "timeout": "5m"}}}`

	tests := []struct {
		name string
		env  map[string]string
		want Config
	}{
		{
			name: "file only",
			want: Config{
				Default: Endpoint{BaseURL: "http://file/v1", APIKey: "file-key", Model: "file-model", Timeout: 60 * time.Second, MaxRetries: 2, Temperature: ptr[float32](0.5)},
				Agents: map[string]Endpoint{
					"planner": {Model: "file-planner"},
					"report":  {BaseURL: "http://report/v1", Timeout: 5 * time.Minute},
				},
			},
		},
		{
			name: "OPENAI_* over file",
			env:  map[string]string{"OPENAI_BASE_URL": "http://openai/v1", "OPENAI_API_KEY": "openai-key", "OPENAI_MODEL": "gpt"},
			want: Config{
				Default: Endpoint{BaseURL: "http://openai/v1", APIKey: "openai-key", Model: "gpt", Timeout: 60 * time.Second, MaxRetries: 2, Temperature: ptr[float32](0.5)},
				Agents: map[string]Endpoint{
					"planner": {Model: "file-planner"},
					"report":  {BaseURL: "http://report/v1", Timeout: 5 * time.Minute},
				},
			},
		},
		{
			name: "OPENAI_MODEL alone keeps the file's URL and key",
			env:  map[string]string{"OPENAI_MODEL": "gpt"},
			want: Config{
				Default: Endpoint{BaseURL: "http://file/v1", APIKey: "file-key", Model: "gpt", Timeout: 60 * time.Second, MaxRetries: 2, Temperature: ptr[float32](0.5)},
				Agents: map[string]Endpoint{
					"planner": {Model: "file-planner"},
					"report":  {BaseURL: "http://report/v1", Timeout: 5 * time.Minute},
				},
			},
		},
		{
			name: "ARK_* over OPENAI_*, default Ark URL",
			env: map[string]string{"OPENAI_BASE_URL": "http://openai/v1", "OPENAI_API_KEY": "openai-key", "OPENAI_MODEL": "gpt",
				"ARK_API_KEY": "ark-key", "ARK_MODEL": "ep-123"},
			want: Config{
				Default: Endpoint{BaseURL: DefaultArkBaseURL, APIKey: "ark-key", Model: "ep-123", Timeout: 60 * time.Second, MaxRetries: 2, Temperature: ptr[float32](0.5)},
				Agents: map[string]Endpoint{
					"planner": {Model: "file-planner"},
					"report":  {BaseURL: "http://report/v1", Timeout: 5 * time.Minute},
				},
			},
		},
		{
			name: "ARK_BASE_URL replaces the default Ark URL",
			env:  map[string]string{"ARK_API_KEY": "ark-key", "ARK_BASE_URL": "http://ark/v3"},
			want: Config{
				Default: Endpoint{BaseURL: "http://ark/v3", APIKey: "ark-key", Model: "file-model", Timeout: 60 * time.Second, MaxRetries: 2, Temperature: ptr[float32](0.5)},
				Agents: map[string]Endpoint{
					"planner": {Model: "file-planner"},
					"report":  {BaseURL: "http://report/v1", Timeout: 5 * time.Minute},
				},
			},
		},
		{
			name: "SIFT_* over ARK_* and per-agent models over the file's",
			env: map[string]string{"ARK_API_KEY": "ark-key", "ARK_MODEL": "ep-123",
				"SIFT_BASE_URL": "http://sift/v1", "SIFT_API_KEY": "sift-key", "SIFT_MODEL": "sift-model",
				"SIFT_PLANNER_MODEL": "env-planner", "SIFT_CODE_MODEL": "env-code"},
			want: Config{
				Default: Endpoint{BaseURL: "http://sift/v1", APIKey: "sift-key", Model: "sift-model", Timeout: 60 * time.Second, MaxRetries: 2, Temperature: ptr[float32](0.5)},
				Agents: map[string]Endpoint{
					"planner": {Model: "env-planner"},
					"code":    {Model: "env-code"},
					"report":  {BaseURL: "http://report/v1", Timeout: 5 * time.Minute},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "config.json", file)
			got, err := LoadConfig(path, envFunc(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("LoadConfig mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadConfigFileLocation(t *testing.T) {
	tests := []struct {
		name      string
		files     map[string]string // relative to a temp dir
		path      string            // relative; "" for none
		env       map[string]string // "$DIR" is replaced by the temp dir
		wantModel string
		wantErr   error
	}{
		{
			name:      "path argument wins over SIFT_CONFIG",
			files:     map[string]string{"a.json": `{"model": "a"}`, "b.json": `{"model": "b"}`},
			path:      "a.json",
			env:       map[string]string{"SIFT_CONFIG": "$DIR/b.json"},
			wantModel: "a",
		},
		{
			name:      "SIFT_CONFIG when no path",
			files:     map[string]string{"b.json": `{"model": "b"}`, "home/.config/sift/config.json": `{"model": "home"}`},
			env:       map[string]string{"SIFT_CONFIG": "$DIR/b.json", "HOME": "$DIR/home"},
			wantModel: "b",
		},
		{
			name:      "~/.config/sift/config.json when it exists",
			files:     map[string]string{"home/.config/sift/config.json": `{"model": "home"}`},
			env:       map[string]string{"HOME": "$DIR/home"},
			wantModel: "home",
		},
		{
			name:      "XDG_CONFIG_HOME before HOME",
			files:     map[string]string{"xdg/sift/config.json": `{"model": "xdg"}`, "home/.config/sift/config.json": `{"model": "home"}`},
			env:       map[string]string{"HOME": "$DIR/home", "XDG_CONFIG_HOME": "$DIR/xdg"},
			wantModel: "xdg",
		},
		{
			name: "no default file is fine",
			env:  map[string]string{"HOME": "$DIR/home"},
		},
		{
			name:    "a named file must exist",
			env:     map[string]string{"SIFT_CONFIG": "$DIR/missing.json"},
			wantErr: fs.ErrNotExist,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				writeFile(t, dir, name, content)
			}
			env := map[string]string{}
			for k, v := range tt.env {
				env[k] = strings.ReplaceAll(v, "$DIR", dir)
			}
			path := ""
			if tt.path != "" {
				path = filepath.Join(dir, tt.path)
			}
			got, err := LoadConfig(path, envFunc(env))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("LoadConfig error = %v, want %v", err, tt.wantErr)
			}
			if got.Default.Model != tt.wantModel {
				t.Errorf("Default.Model = %q, want %q", got.Default.Model, tt.wantModel)
			}
		})
	}
}

func TestLoadConfigMalformed(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    []string // substrings of the error
	}{
		{"syntax error", "{\n  \"model\": \"x\",\n}", []string{"line 3", "invalid character"}},
		{"unknown field", `{"base-url": "http://x"}`, []string{`unknown field "base-url"`}},
		{"wrong type", `{"model": 5}`, []string{"line 1", "cannot unmarshal number"}},
		{"bad timeout", `{"timeout": "soon"}`, []string{`timeout "soon"`}},
		{"bad agent timeout", `{"agents": {"code": {"timeout": "-1s"}}}`, []string{"agents.code", `timeout "-1s"`}},
		{"two values", `{} {}`, []string{"more than one JSON value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "config.json", tt.content)
			_, err := LoadConfig(path, envFunc(nil))
			if err == nil {
				t.Fatal("LoadConfig succeeded, want an error")
			}
			for _, s := range append([]string{path}, tt.want...) {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

func TestConfigFor(t *testing.T) {
	cfg := Config{
		Default: Endpoint{BaseURL: "http://default/v1", APIKey: "key", Model: "big", Temperature: ptr[float32](0.2)},
		Agents: map[string]Endpoint{
			AgentPlanner: {Model: "planner-model"},
			AgentReport:  {BaseURL: "http://report/v1", APIKey: "report-key", Timeout: time.Minute, MaxRetries: -1},
		},
	}
	tests := []struct {
		agent string
		want  Endpoint
	}{
		{AgentPlanner, Endpoint{BaseURL: "http://default/v1", APIKey: "key", Model: "planner-model", Timeout: DefaultTimeout, MaxRetries: DefaultMaxRetries, Temperature: ptr[float32](0.2)}},
		{AgentReport, Endpoint{BaseURL: "http://report/v1", APIKey: "report-key", Model: "big", Timeout: time.Minute, MaxRetries: -1, Temperature: ptr[float32](0.2)}},
		{AgentExecutor, Endpoint{BaseURL: "http://default/v1", APIKey: "key", Model: "big", Timeout: DefaultTimeout, MaxRetries: DefaultMaxRetries, Temperature: ptr[float32](0.2)}},
		{"someone-else", Endpoint{BaseURL: "http://default/v1", APIKey: "key", Model: "big", Timeout: DefaultTimeout, MaxRetries: DefaultMaxRetries, Temperature: ptr[float32](0.2)}},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, cfg.For(tt.agent)); diff != "" {
				t.Errorf("For(%q) mismatch (-want +got):\n%s", tt.agent, diff)
			}
		})
	}
}

func TestConfigured(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want bool
	}{
		{"empty", Config{}, false},
		{"key and model use the OpenAI URL", Config{Default: Endpoint{APIKey: "k", Model: "m"}}, true},
		{"local server without key", Config{Default: Endpoint{BaseURL: "http://localhost:11434/v1", Model: "qwen"}}, true},
		{"no model", Config{Default: Endpoint{BaseURL: "http://localhost:11434/v1"}}, false},
		{"key only", Config{Default: Endpoint{APIKey: "k"}}, false},
		{"every agent has a model of its own", Config{
			Default: Endpoint{BaseURL: "http://x/v1"},
			Agents:  map[string]Endpoint{"planner": {Model: "a"}, "executor": {Model: "b"}, "code": {Model: "c"}, "report": {Model: "d"}},
		}, true},
		{"one agent lacks a model", Config{
			Default: Endpoint{BaseURL: "http://x/v1"},
			Agents:  map[string]Endpoint{"planner": {Model: "a"}, "executor": {Model: "b"}, "code": {Model: "c"}},
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.cfg.Configured(); got != tt.want {
				t.Errorf("Configured() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSetAgentModel(t *testing.T) {
	var cfg Config
	cfg.SetAgentModel(AgentCode, "coder")
	cfg.Agents[AgentCode] = Endpoint{Model: "coder", Timeout: time.Second}
	cfg.SetAgentModel(AgentCode, "coder-2")
	want := map[string]Endpoint{AgentCode: {Model: "coder-2", Timeout: time.Second}}
	if diff := cmp.Diff(want, cfg.Agents); diff != "" {
		t.Errorf("Agents mismatch (-want +got):\n%s", diff)
	}
}

func TestEndpointRedactsKey(t *testing.T) {
	const secret = "sk-very-secret-123"
	ep := Endpoint{BaseURL: "http://x/v1", APIKey: secret, Model: "m", Timeout: time.Second}
	cfg := Config{Default: ep, Agents: map[string]Endpoint{"planner": ep}}

	var logged bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logged, nil))
	logger.Info("endpoint", "ep", ep)
	slog.New(slog.NewTextHandler(&logged, nil)).Info("endpoint", "ep", ep)

	outputs := map[string]string{
		"%v ep":   fmt.Sprintf("%v", ep),
		"%+v ep":  fmt.Sprintf("%+v", ep),
		"%#v ep":  fmt.Sprintf("%#v", ep),
		"%s ep":   fmt.Sprintf("%s", ep),
		"%v cfg":  fmt.Sprintf("%v", cfg),
		"%+v cfg": fmt.Sprintf("%+v", cfg),
		"%#v cfg": fmt.Sprintf("%#v", cfg),
		"%v &ep":  fmt.Sprintf("%v", &ep),
		"slog":    logged.String(),
	}
	for name, out := range outputs {
		if strings.Contains(out, secret) {
			t.Errorf("%s prints the key: %s", name, out)
		}
		if !strings.Contains(out, redacted) {
			t.Errorf("%s does not show that a key is set: %s", name, out)
		}
	}
	if got := fmt.Sprint(Endpoint{Model: "m"}); strings.Contains(got, redacted) {
		t.Errorf("an endpoint without a key prints %q, want no redaction marker", got)
	}
}

func TestLoadConfigKeepsMCPServers(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(p, []byte(`{"model": "m", "mcp_servers": {"files": {"command": "mcp-files"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(p, func(string) string { return "" })
	if err != nil {
		t.Fatalf("a config file with mcp_servers must load: %v", err)
	}
	if !strings.Contains(string(cfg.MCPServers), `"mcp-files"`) {
		t.Errorf("the mcp_servers section must be kept for tools/mcp: %s", cfg.MCPServers)
	}
}

func TestLoadConfigReadsInstructionsAndGlossary(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(p, []byte(`{"model": "m", "instructions": "Revenue means net of refunds.", "glossary": {"GMV": "gross merchandise value"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(p, func(string) string { return "" })
	if err != nil {
		t.Fatalf("a config file with instructions and a glossary must load: %v", err)
	}
	if cfg.Instructions != "Revenue means net of refunds." || cfg.Glossary["GMV"] != "gross merchandise value" {
		t.Errorf("instructions and glossary not read: %q %v", cfg.Instructions, cfg.Glossary)
	}
}
