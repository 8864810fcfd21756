// Package trajectory records a session's model calls and replays them.
//
// A Writer appends each call that llm.Wrap decorates (request, reply,
// timing, usage, error) as one Record, a line of a session's
// trajectory.jsonl; Read, Scan and Load read such a recording back, or one
// captured from an OpenAI-compatible provider. A Replay serves a
// recording's answers to a new run, per agent and question, and notes
// where the run's requests diverge from the recorded ones.
//
// The package imports nothing of llm: llm imports it (its decorator writes
// the records), and llm keeps the old names of release 1
// (llm.TrajectoryRecord, llm.NewReplay, ...) as deprecated aliases.
package trajectory

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/usage"
)

// Config configures a Writer.
type Config struct {
	// MaxContentChars bounds each written text (message content, reasoning,
	// tool-call arguments) in characters: longer texts keep their head and
	// tail around a "[... N characters cut ...]" marker. Optional; 0 (the
	// default) writes them whole.
	MaxContentChars int
}

// Writer appends every model call of a session — request, reply, timing,
// usage and error — to a JSONL stream, one Record per line, for debugging
// and replay (a session's trajectory.jsonl). Give it to llm.Wrap with
// llm.WithTrajectory. No HTTP headers are written, so API keys never are.
//
// It is safe for concurrent use. A write error does not fail the model
// call: the first one is kept, and Err and Close report it.
type Writer struct {
	mu     sync.Mutex
	w      io.Writer
	closer io.Closer
	cfg    Config
	err    error
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer, cfg Config) *Writer {
	return &Writer{w: w, cfg: cfg}
}

// Open opens (creating it, mode 0600, or appending to it) the JSONL file at
// path; Close closes it.
func Open(path string, cfg Config) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("model: open trajectory file: %w", err)
	}
	t := NewWriter(f, cfg)
	t.closer = f
	return t, nil
}

// Err returns the first write error, or nil.
func (t *Writer) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// Close closes the file opened by Open (and does nothing more for
// a Writer made by NewWriter), and returns the first write error.
// Records written after Close are dropped.
func (t *Writer) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closer != nil {
		if err := t.closer.Close(); err != nil && t.err == nil {
			t.err = fmt.Errorf("model: close trajectory file: %w", err)
		}
		t.closer = nil
	}
	t.w = nil
	return t.err
}

// Record is one model call, one line of the trajectory.
type Record struct {
	// Time is when the call started.
	Time time.Time `json:"time"`
	// Agent is the name the model was wrapped under (see llm.Wrap).
	Agent string `json:"agent"`
	// Kind is KindEmbeddings for a call to an embeddings endpoint
	// (llm.MeterEmbeddings), whose Request holds the texts sent and which
	// a Replay does not serve; empty for a chat model's call.
	Kind string `json:"kind,omitempty"`
	// Step is the plan step (see llm.WithStep); 0 outside any step.
	Step int `json:"step,omitempty"`
	// Turn is the question of the session the call served, from 1 (see
	// llm.WithTurn); 0 when not known (recordings made before turns were
	// recorded, captures from a provider).
	Turn int `json:"turn,omitempty"`
	// Model is the model name given to llm.Wrap with llm.WithModelName.
	Model string `json:"model,omitempty"`
	// Stream is true for a Stream call.
	Stream bool `json:"stream,omitempty"`
	// Request holds the messages sent, after any trimming (see
	// llm.WithWindow).
	Request []Message `json:"request"`
	// Trimmed is how many messages the window dropped from the request.
	Trimmed int `json:"trimmed,omitempty"`
	// Tools names the tools offered.
	Tools []string `json:"tools,omitempty"`
	// ToolDefs are the tools offered as the model reads them: name,
	// description and parameters (recordings made before they were
	// recorded have only Tools).
	ToolDefs []Tool `json:"tool_defs,omitempty"`
	// ToolChoiceForced is true when the call forced a tool call.
	ToolChoiceForced bool `json:"tool_choice_forced,omitempty"`
	// Response is the reply as the caller received it (tool calls
	// repaired), or what had arrived of a stream that failed.
	Response *Message `json:"response,omitempty"`
	// LatencyMS is the call's duration in milliseconds, up to the end of a
	// stream.
	LatencyMS int64 `json:"latency_ms"`
	// Usage is the call's token usage and cost.
	Usage *Usage `json:"usage,omitempty"`
	// Error is the call's error text, if it failed.
	Error string `json:"error,omitempty"`
}

// KindEmbeddings is the Kind of an embeddings call's Record.
const KindEmbeddings = "embeddings"

// Message is one message of a Record.
type Message struct {
	Role             string `json:"role"`
	Name             string `json:"name,omitempty"`
	Content          string `json:"content,omitempty"`
	ReasoningContent string `json:"reasoning_content,omitempty"`
	// Parts holds the text of multi-part content; images appear as
	// "[image]".
	Parts      []string   `json:"parts,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	ToolName   string     `json:"tool_name,omitempty"`
}

// ToolCall is one tool call of a Message.
type ToolCall struct {
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Tool is one tool offered to the model, as the model reads it.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Parameters is the tool's JSON schema, its object keys sorted, or
	// empty for a tool that takes none.
	Parameters json.RawMessage `json:"parameters,omitempty"`
}

// Tools converts the tools offered to a call: their names, and their
// definitions as the model reads them (schemas with sorted keys).
func (t *Writer) Tools(infos []*schema.ToolInfo) (names []string, defs []Tool) {
	for _, ti := range infos {
		if ti == nil {
			continue
		}
		names = append(names, ti.Name)
		def := Tool{Name: ti.Name, Description: t.bound(ti.Desc)}
		if ti.ParamsOneOf != nil {
			if js, err := ti.ParamsOneOf.ToJSONSchema(); err == nil && js != nil {
				if b, err := json.Marshal(js); err == nil {
					def.Parameters = sortedJSON(b)
				}
			}
		}
		defs = append(defs, def)
	}
	return names, defs
}

// sortedJSON rewrites a JSON schema with its object keys and its
// "required" lists sorted (a set, which OpenAI clients send sorted), so
// that the same schema compares equal however it was written; b is
// returned as it is when it is not JSON.
func sortedJSON(b []byte) json.RawMessage {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return b
	}
	sortRequired(v)
	if out, err := json.Marshal(v); err == nil {
		return out
	}
	return b
}

func sortRequired(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if names, ok := x.([]any); ok && k == "required" {
				slices.SortFunc(names, func(a, b any) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
			}
			sortRequired(x)
		}
	case []any:
		for _, x := range v {
			sortRequired(x)
		}
	}
}

// Usage is the usage of one call, as llm's Meter counted it (see
// llm.RecordedCounts).
type Usage struct {
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	CachedTokens     int     `json:"cached_tokens,omitempty"`
	ReasoningTokens  int     `json:"reasoning_tokens,omitempty"`
	Estimated        bool    `json:"estimated,omitempty"`
	Cost             float64 `json:"cost_usd,omitempty"`
	// Unpriced is true when a price table was given but had no price for
	// the call's model, so Cost leaves the call out.
	Unpriced bool `json:"unpriced,omitempty"`
}

// Counts is the usage of the recorded call, as llm's Meter counted it
// when the call was made (llm.RecordedCounts is the same): a session's
// usage can be summed from its trajectory over every run.
func (r Record) Counts() usage.Counts {
	c := usage.Counts{Calls: 1, Latency: time.Duration(r.LatencyMS) * time.Millisecond}
	if r.Error != "" {
		c.Errors = 1
	}
	if u := r.Usage; u != nil {
		c.PromptTokens, c.CompletionTokens = u.PromptTokens, u.CompletionTokens
		c.CachedTokens, c.ReasoningTokens = u.CachedTokens, u.ReasoningTokens
		c.Cost = u.Cost
		if u.Estimated {
			c.Estimated = 1
		}
		if u.Unpriced {
			c.Unpriced = 1
		}
	}
	return c
}

// Write appends one record. It is what llm.Wrap calls; callers can record
// calls made some other way.
func (t *Writer) Write(rec Record) {
	if t == nil {
		return
	}
	line, err := json.Marshal(rec)
	if err == nil {
		line = append(line, '\n')
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w == nil || t.err != nil {
		return
	}
	if err != nil {
		t.err = fmt.Errorf("model: encode trajectory record: %w", err)
		return
	}
	if _, err := t.w.Write(line); err != nil {
		t.err = fmt.Errorf("model: write trajectory: %w", err)
	}
}

// Message converts m for the trajectory, bounding its texts (see
// Config.MaxContentChars).
func (t *Writer) Message(m *schema.Message) Message {
	if m == nil {
		return Message{}
	}
	tm := Message{
		Role:             string(m.Role),
		Name:             m.Name,
		Content:          t.bound(m.Content),
		ReasoningContent: t.bound(m.ReasoningContent),
		ToolCallID:       m.ToolCallID,
		ToolName:         m.ToolName,
	}
	part := func(typ schema.ChatMessagePartType, text string) {
		if typ == schema.ChatMessagePartTypeImageURL {
			tm.Parts = append(tm.Parts, "[image]")
			return
		}
		tm.Parts = append(tm.Parts, t.bound(text))
	}
	for _, p := range m.MultiContent {
		part(p.Type, p.Text)
	}
	for _, p := range m.UserInputMultiContent {
		part(p.Type, p.Text)
	}
	for _, p := range m.AssistantGenMultiContent {
		part(p.Type, p.Text)
	}
	for _, tc := range m.ToolCalls {
		tm.ToolCalls = append(tm.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: t.bound(tc.Function.Arguments)})
	}
	return tm
}

// Messages converts a request, leaving out nil messages.
func (t *Writer) Messages(msgs []*schema.Message) []Message {
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		if m != nil {
			out = append(out, t.Message(m))
		}
	}
	return out
}

// bound keeps the head and tail of s within MaxContentChars characters.
func (t *Writer) bound(s string) string {
	limit := t.cfg.MaxContentChars
	if limit <= 0 || len(s) <= limit {
		return s
	}
	r := []rune(s)
	if len(r) <= limit {
		return s
	}
	head := limit * 2 / 3
	tail := limit - head
	return string(r[:head]) + fmt.Sprintf("[... %d characters cut ...]", len(r)-limit) + string(r[len(r)-tail:])
}
