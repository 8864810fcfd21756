package exampletest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sift-agent/sift/llm"
)

func TestOfflineHidesModelSettings(t *testing.T) {
	for _, k := range modelEnv {
		t.Setenv(k, "set-by-developer")
	}
	t.Setenv("SIFT_CONFIG", "")
	home := t.TempDir()
	cfgDir := filepath.Join(home, ".config", "sift")
	if err := os.MkdirAll(cfgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "config.json"), []byte(`{"base_url": "http://127.0.0.1:9/v1", "model": "m"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")

	Offline(t)
	cfg, err := llm.LoadConfig("", os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Configured() {
		t.Errorf("after Offline no model may be configured; got %+v", cfg)
	}
}
