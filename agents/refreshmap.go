package agents

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/cloudwego/eino/components/model"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/refresh"
)

// mappingAgent is the name a refresh's column-mapping call is metered
// under.
const mappingAgent = "refresh"

// ModelMapping is the column mapping a model gave for one input of a
// refresh. The plan carries it (RefreshPlan.Models, and so the API's 409
// needs_approval) and the approval sends it back (RefreshRequest.Mapping):
// the refresh then applies the mapping the person approved, whichever
// process runs it, without asking the model again. It is checked again
// as a model's answer is (refresh.WithModel): refused, never corrected.
type ModelMapping struct {
	// Input is the session's input, workspace-relative (input/sales.csv).
	Input string `json:"input"`
	// Columns maps old column names to new ones; "" for a column the
	// model found no place for.
	Columns map[string]string `json:"columns"`
	// Usage is what the call that gave it cost, as metered: the first
	// refresh that applies it counts it (the call was made before the
	// run); another refresh the same process runs with it counts nothing.
	Usage llm.Counts `json:"usage"`
	// key is the mapping's place in the process's modelMappings.
	key string
}

// check refuses a mapping sent back whose usage is negative.
func (mm *ModelMapping) check() error {
	u := mm.Usage
	for _, n := range []int{u.Calls, u.Errors, u.PromptTokens, u.CompletionTokens, u.CachedTokens, u.ReasoningTokens, u.Estimated, u.Unpriced} {
		if n < 0 {
			return fmt.Errorf("%w: the model's mapping of %s counts a negative usage (%+v); send the mapping as the plan gave it, or refresh without one to ask the model again", ErrCannotRefresh, mm.Input, u)
		}
	}
	if u.Cost < 0 || u.Latency < 0 {
		return fmt.Errorf("%w: the model's mapping of %s counts a negative cost or latency; send the mapping as the plan gave it, or refresh without one to ask the model again", ErrCannotRefresh, mm.Input)
	}
	return nil
}

// modelMappings keeps each model's column mapping by session, table and
// columns, so that the mapping a person approves is the one the refresh
// applies when the same process runs it (the refresh plans again when it
// runs, and a model asked twice may answer otherwise); another process
// has it from the request (RefreshRequest.Mapping).
type modelMappings struct {
	mu      sync.Mutex
	byID    map[string]ModelMapping
	counted map[string]bool
}

// count reports whether the call behind the mapping at key is still to be
// counted, and marks it counted: one call, however many refreshes apply
// its answer, is billed once.
func (c *modelMappings) count(key string) bool {
	if c == nil {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counted[key] {
		return false
	}
	if c.counted == nil {
		c.counted = map[string]bool{}
	}
	c.counted[key] = true
	return true
}

func (c *modelMappings) get(key string) (ModelMapping, bool) {
	if c == nil {
		return ModelMapping{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.byID[key]
	return a, ok
}

func (c *modelMappings) put(key string, a ModelMapping) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID = map[string]ModelMapping{}
	}
	c.byID[key] = a
}

// mappingModel is the model a refresh asks for a column mapping: the
// planner's, else the default; nil when the instance has none.
func (s *Sift) mappingModel() model.ToolCallingChatModel {
	if s.cfg.Models.Planner != nil {
		return s.cfg.Models.Planner
	}
	return s.cfg.Models.Default
}

// askMapping asks the model how the old columns of m's table are found in
// the new ones when name and type similarity is not sure of them
// (refresh.Mapping.Unsure), and returns m with the model's answer applied
// (refresh.WithModel): a mapping to a column that is not there is
// refused. A mapping given (the one the person approved, sent back) is
// used in place of asking, and checked the same way. With no model and
// none given, or when similarity is sure, m is returned as it is. It
// returns too the answer with the usage of the call that gave it (a kept
// or given answer's too: the refresh that applies it counts it), nil when
// no answer was used.
func (s *Sift) askMapping(ctx context.Context, session string, m refresh.Mapping, old []refresh.Column, given *ModelMapping) (refresh.Mapping, *ModelMapping, error) {
	mdl := s.mappingModel()
	if !m.Unsure() || (mdl == nil && given == nil) {
		return m, nil, nil
	}
	describe := func(cs []refresh.Column) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = fmt.Sprintf("%s (%s)", c.Name, c.Type)
		}
		return out
	}
	var unsure []refresh.Column
	unsure = append(unsure, m.Missing...)
	for _, p := range m.Pairs {
		if p.Renamed() && p.Score < refresh.SureScore {
			unsure = append(unsure, p.Old)
		}
	}
	key := strings.Join([]string{session, m.Table, strings.Join(describe(old), "\x1f"), strings.Join(describe(m.Found), "\x1f")}, "\x00")
	var kept ModelMapping
	ok := false
	if given != nil {
		if err := given.check(); err != nil {
			return refresh.Mapping{}, nil, err
		}
		kept, ok = *given, true
	} else {
		kept, ok = s.mappings.get(key)
	}
	kept.key = key
	if !ok {
		meter := &llm.Meter{}
		opts := []llm.WrapOption{llm.WithPrices(s.cfg.Prices)}
		if name := s.cfg.Models.Names["planner"]; name != "" {
			opts = append(opts, llm.WithModelName(name))
		} else if name := s.cfg.Models.Names["default"]; name != "" {
			opts = append(opts, llm.WithModelName(name))
		}
		reply, err := llm.Wrap(mdl, mappingAgent, meter, opts...).Generate(ctx, prompt.ColumnMapping(m.Table, describe(old), describe(m.Found), describe(unsure)))
		if err != nil {
			return refresh.Mapping{}, &ModelMapping{Input: m.Table, Usage: meter.Total()}, fmt.Errorf("%w: ask the model how the columns of %s map to the new data: %w; rename the columns in the file to the old names, or refresh again", ErrCannotRefresh, m.Table, err)
		}
		kept = ModelMapping{Input: m.Table, Usage: meter.Total(), key: key}
		if kept.Columns, err = refresh.ParseModelMapping(reply.Content); err != nil {
			return refresh.Mapping{}, &kept, fmt.Errorf("%w: %s: %w", ErrCannotRefresh, m.Table, err)
		}
		s.mappings.put(key, kept)
	}
	mapped, err := refresh.WithModel(m, old, kept.Columns)
	if err != nil {
		return refresh.Mapping{}, &kept, fmt.Errorf("%w: %w", ErrCannotRefresh, err)
	}
	return mapped, &kept, nil
}
