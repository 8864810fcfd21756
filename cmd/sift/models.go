package main

import (
	"context"
	"fmt"
	"os"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
)

// modelOptions are the model flags every command that calls a model
// shares: an endpoint, a config file, per-agent model names, or a script.
type modelOptions struct {
	BaseURL    string
	APIKey     string
	Model      string
	ConfigPath string
	Script     string
	// AgentModels are per-agent model names from --planner-model etc.
	AgentModels map[string]string
}

// resolveModels connects the models from flags, env and config file, in
// that order of precedence; a script replaces them all. It returns empty
// Models (and a label saying so) when none is configured.
func resolveModels(ctx context.Context, o modelOptions) (agents.Models, string, error) {
	if o.Script != "" {
		script, err := scripted.LoadFile(o.Script)
		if err != nil {
			return agents.Models{}, "", usageError{err}
		}
		return agents.Models{Default: script.Model()}, fmt.Sprintf("scripted model from %s (offline: no model is called)", o.Script), nil
	}
	mc, err := llm.LoadConfig(o.ConfigPath, os.Getenv)
	if err != nil {
		return agents.Models{}, "", fmt.Errorf("%w: %w", llm.ErrNotConfigured, err)
	}
	if o.BaseURL != "" {
		mc.Default.BaseURL = o.BaseURL
	}
	if o.APIKey != "" {
		mc.Default.APIKey = o.APIKey
	}
	if o.Model != "" {
		mc.Default.Model = o.Model
	}
	for agent, name := range o.AgentModels {
		mc.SetAgentModel(agent, name)
	}
	if !mc.Configured() {
		return agents.Models{}, "none configured (set SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL for the agents)", nil
	}
	ms, err := agents.ModelsFromConfig(ctx, mc)
	if err != nil {
		return agents.Models{}, "", err
	}
	ep := mc.For(llm.AgentPlanner)
	return ms, fmt.Sprintf("%s at %s", ep.Model, ep.BaseURL), nil
}

// configured reports whether ms holds any model.
func configured(ms agents.Models) bool {
	return ms.Default != nil || ms.Planner != nil || ms.Executor != nil || ms.Code != nil || ms.Report != nil
}
