package exampleenv

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/examples/internal/exampletest"
)

func TestModelsPlaysScriptWhenNothingIsConfigured(t *testing.T) {
	exampletest.Offline(t)
	ms, label, err := Models(context.Background(), []byte(`{"name": "t", "replies": [{"content": "scripted hello"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if label != ScriptedLabel {
		t.Errorf("label = %q, want %q", label, ScriptedLabel)
	}
	if ms.Default == nil {
		t.Fatal("Default model is nil")
	}
	msg, err := ms.Default.Generate(context.Background(), []*schema.Message{schema.UserMessage("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if msg.Content != "scripted hello" {
		t.Errorf("reply = %q, want the script's", msg.Content)
	}
}

func TestModelsUsesConfiguredEndpoint(t *testing.T) {
	exampletest.Offline(t)
	t.Setenv("SIFT_BASE_URL", "http://127.0.0.1:9/v1")
	t.Setenv("SIFT_API_KEY", "secret-key-123")
	t.Setenv("SIFT_MODEL", "test-model")
	ms, label, err := Models(context.Background(), []byte(`not even JSON`))
	if err != nil {
		t.Fatal(err)
	}
	if ms.Planner == nil || ms.Executor == nil || ms.Code == nil || ms.Report == nil {
		t.Errorf("every role needs a model: %+v", ms)
	}
	if !strings.Contains(label, "test-model") || !strings.Contains(label, "http://127.0.0.1:9/v1") {
		t.Errorf("label %q must name the model and its endpoint", label)
	}
	if strings.Contains(label, "secret-key-123") || label == ScriptedLabel {
		t.Errorf("label %q must neither show the key nor claim the scripted model", label)
	}
}

func TestModelsErrors(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name       string
		ctx        context.Context
		script     string
		configFile string // written and named by SIFT_CONFIG when set
		want       string
	}{
		{name: "script not JSON", ctx: context.Background(), script: `{`, want: "embedded script.json is broken"},
		{name: "script without replies", ctx: context.Background(), script: `{"name": "x", "replies": []}`, want: "no replies"},
		{name: "broken config file", ctx: context.Background(), script: `{"replies": [{"content": "x"}]}`, configFile: `{"model": `, want: "load model settings"},
		{name: "cancelled", ctx: cancelled, script: `{"replies": [{"content": "x"}]}`, want: "context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exampletest.Offline(t)
			if tt.configFile != "" {
				p := filepath.Join(t.TempDir(), "config.json")
				if err := os.WriteFile(p, []byte(tt.configFile), 0o600); err != nil {
					t.Fatal(err)
				}
				t.Setenv("SIFT_CONFIG", p)
			}
			_, _, err := Models(tt.ctx, []byte(tt.script))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}
