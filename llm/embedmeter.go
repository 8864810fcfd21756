package llm

import (
	"context"
	"time"

	"github.com/sift-agent/sift/llm/tokens"
	"github.com/sift-agent/sift/llm/trajectory"
)

// EmbeddingsAgent is the agent an embeddings endpoint's calls are metered
// under (see MeterEmbeddings): the usage lists them apart from the model
// calls.
const EmbeddingsAgent = "embeddings"

// Embedder turns texts into vectors, one per text in order (memory.Embedder,
// sqldb.Embedder).
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float64, error)
}

// countedEmbedder is an Embedder that says the tokens its endpoint billed
// (Embeddings.EmbedCounted).
type countedEmbedder interface {
	EmbedCounted(ctx context.Context, texts []string) ([][]float64, int, error)
}

// MeterEmbeddings returns emb with every call metered into meter under
// EmbeddingsAgent and the plan step of its context, priced with prices
// (when given) and recorded in traj (when given) as a Record of kind
// trajectory.KindEmbeddings: the tokens the endpoint's answer says it
// billed, else the texts sent counted offline (tokens.Text, Estimated).
// A nil emb is returned as nil.
func MeterEmbeddings(emb Embedder, meter *Meter, traj *trajectory.Writer, prices PriceTable) Embedder {
	if emb == nil {
		return nil
	}
	if m, ok := emb.(*meteredEmbedder); ok {
		emb = m.inner
	}
	model := ""
	if n, ok := emb.(interface{ Model() string }); ok {
		model = n.Model()
	}
	return &meteredEmbedder{inner: emb, model: model, meter: meter, traj: traj, prices: prices}
}

type meteredEmbedder struct {
	inner  Embedder
	model  string
	meter  *Meter
	traj   *trajectory.Writer
	prices PriceTable
}

func (m *meteredEmbedder) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	start := time.Now()
	var (
		vecs   [][]float64
		billed int
		err    error
	)
	if c, ok := m.inner.(countedEmbedder); ok {
		vecs, billed, err = c.EmbedCounted(ctx, texts)
	} else {
		vecs, err = m.inner.Embed(ctx, texts)
	}
	counts := Counts{Calls: 1, PromptTokens: billed, Latency: time.Since(start)}
	if err != nil {
		counts.Errors = 1
	} else if billed == 0 {
		for _, t := range texts {
			counts.PromptTokens += tokens.Text(m.model, t)
		}
		counts.Estimated = 1
	}
	if m.prices != nil && err == nil {
		if cost, ok := m.prices.Cost(m.model, counts); ok {
			counts.Cost = cost
		} else {
			counts.Unpriced = 1
		}
	}
	step, _ := StepFrom(ctx)
	m.meter.AddStep(EmbeddingsAgent, step, counts)
	if m.traj != nil {
		rec := trajectory.Record{
			Time: start, Agent: EmbeddingsAgent, Kind: trajectory.KindEmbeddings, Step: step, Turn: TurnFrom(ctx), Model: m.model,
			LatencyMS: counts.Latency.Milliseconds(), Error: errText(err),
		}
		for _, t := range texts {
			rec.Request = append(rec.Request, trajectory.Message{Role: "user", Content: t})
		}
		if err == nil {
			rec.Usage = &trajectory.Usage{PromptTokens: counts.PromptTokens, Estimated: counts.Estimated > 0, Cost: counts.Cost, Unpriced: counts.Unpriced > 0}
		}
		m.traj.Write(rec)
	}
	return vecs, err
}
