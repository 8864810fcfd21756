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

// modelMappings keeps each model's column mapping by session, table and
// columns, so that the mapping a person approves is the one the refresh
// applies: the refresh plans again when it runs (PlanRefresh, then
// Refresh), and a model asked twice may answer otherwise.
type modelMappings struct {
	mu   sync.Mutex
	byID map[string]map[string]string
}

func (c *modelMappings) get(key string) (map[string]string, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.byID[key]
	return a, ok
}

func (c *modelMappings) put(key string, a map[string]string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID = map[string]map[string]string{}
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
// refused. With no model, or when similarity is sure, m is returned as it
// is. The call is metered on meter (nil: not metered).
func (s *Sift) askMapping(ctx context.Context, session string, m refresh.Mapping, old []refresh.Column, meter *llm.Meter) (refresh.Mapping, error) {
	mdl := s.mappingModel()
	if mdl == nil || !m.Unsure() {
		return m, nil
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
	answer, ok := s.mappings.get(key)
	if !ok {
		opts := []llm.WrapOption{llm.WithPrices(s.cfg.Prices)}
		if name := s.cfg.Models.Names["planner"]; name != "" {
			opts = append(opts, llm.WithModelName(name))
		} else if name := s.cfg.Models.Names["default"]; name != "" {
			opts = append(opts, llm.WithModelName(name))
		}
		reply, err := llm.Wrap(mdl, mappingAgent, meter, opts...).Generate(ctx, prompt.ColumnMapping(m.Table, describe(old), describe(m.Found), describe(unsure)))
		if err != nil {
			return refresh.Mapping{}, fmt.Errorf("%w: ask the model how the columns of %s map to the new data: %w; rename the columns in the file to the old names, or refresh again", ErrCannotRefresh, m.Table, err)
		}
		if answer, err = refresh.ParseModelMapping(reply.Content); err != nil {
			return refresh.Mapping{}, fmt.Errorf("%w: %s: %w", ErrCannotRefresh, m.Table, err)
		}
		s.mappings.put(key, answer)
	}
	mapped, err := refresh.WithModel(m, old, answer)
	if err != nil {
		return refresh.Mapping{}, fmt.Errorf("%w: %w", ErrCannotRefresh, err)
	}
	return mapped, nil
}
