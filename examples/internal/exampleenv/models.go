package exampleenv

import (
	"context"
	"fmt"
	"os"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
)

// ScriptedLabel is the label Models returns when it plays the example's
// script instead of calling a model.
const ScriptedLabel = "scripted model (offline example: no model is called)"

// Models returns the chat models for an example run and a label that says
// which they are. When Sift's model settings are complete (a config file, or
// SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL and the other variables
// llm.LoadConfig reads), every agent talks to that endpoint. Otherwise the
// example plays script, a scripted.File JSON document whose replies stand in
// for the model's: the tool calls it scripts (including the Python code) run
// for real, so the files the run writes are genuine.
func Models(ctx context.Context, script []byte) (agents.Models, string, error) {
	if err := ctx.Err(); err != nil {
		return agents.Models{}, "", fmt.Errorf("choose models: %w", err)
	}
	cfg, err := llm.LoadConfig("", os.Getenv)
	if err != nil {
		return agents.Models{}, "", fmt.Errorf("load model settings (fix or remove the config file, or unset SIFT_CONFIG): %w", err)
	}
	if cfg.Configured() {
		ms, err := agents.ModelsFromConfig(ctx, cfg)
		if err != nil {
			return agents.Models{}, "", fmt.Errorf("connect to the configured model endpoint: %w", err)
		}
		ep := cfg.For(llm.AgentPlanner)
		return ms, fmt.Sprintf("model %s at %s (from your Sift model settings)", ep.Model, ep.BaseURL), nil
	}
	s, err := loadScript(script)
	if err != nil {
		return agents.Models{}, "", err
	}
	return agents.Models{Default: s.Model()}, ScriptedLabel, nil
}

// loadScript decodes an embedded scripted.File through a temporary file,
// since scripted.LoadFile is the one decoder of that format.
func loadScript(script []byte) (*scripted.Script, error) {
	f, err := os.CreateTemp("", "sift-example-script-*.json")
	if err != nil {
		return nil, fmt.Errorf("load example script: %w", err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(script)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("load example script: write %s: %w", f.Name(), err)
	}
	s, err := scripted.LoadFile(f.Name())
	if err != nil {
		return nil, fmt.Errorf("load example script (the embedded script.json is broken; restore it from git): %w", err)
	}
	return s, nil
}
