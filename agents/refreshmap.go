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
// Each answer is kept with the usage of the call that gave it, so the
// refresh that applies it counts that call (it was made before the run).
type modelMappings struct {
	mu   sync.Mutex
	byID map[string]keptMapping
}

// keptMapping is a model's answer and what asking it cost.
type keptMapping struct {
	answer map[string]string
	usage  llm.Counts
}

func (c *modelMappings) get(key string) (keptMapping, bool) {
	if c == nil {
		return keptMapping{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.byID[key]
	return a, ok
}

func (c *modelMappings) put(key string, a keptMapping) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID = map[string]keptMapping{}
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
// is. It returns too the usage of the call that gave the answer (a kept
// answer's too: the refresh that applies it counts it), zero when none.
func (s *Sift) askMapping(ctx context.Context, session string, m refresh.Mapping, old []refresh.Column) (refresh.Mapping, llm.Counts, error) {
	mdl := s.mappingModel()
	if mdl == nil || !m.Unsure() {
		return m, llm.Counts{}, nil
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
	kept, ok := s.mappings.get(key)
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
			return refresh.Mapping{}, meter.Total(), fmt.Errorf("%w: ask the model how the columns of %s map to the new data: %w; rename the columns in the file to the old names, or refresh again", ErrCannotRefresh, m.Table, err)
		}
		kept.usage = meter.Total()
		if kept.answer, err = refresh.ParseModelMapping(reply.Content); err != nil {
			return refresh.Mapping{}, kept.usage, fmt.Errorf("%w: %s: %w", ErrCannotRefresh, m.Table, err)
		}
		s.mappings.put(key, kept)
	}
	mapped, err := refresh.WithModel(m, old, kept.answer)
	if err != nil {
		return refresh.Mapping{}, kept.usage, fmt.Errorf("%w: %w", ErrCannotRefresh, err)
	}
	return mapped, kept.usage, nil
}
