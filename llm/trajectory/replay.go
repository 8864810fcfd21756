package trajectory

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/internal/call"
)

// ErrUnanswerable is wrapped by the error a replay model returns when
// the recording holds no answer for a request: the agent made more calls
// than were recorded, or an agent the recording never saw called.
var ErrUnanswerable = errors.New("replay: the recording cannot answer this request")

// DivergenceKind says how a replayed run left its recording.
type DivergenceKind string

// The kinds of divergence.
const (
	// DivergedRequest: a request's messages differ from the recorded ones
	// (a changed prompt, a different tool result).
	DivergedRequest DivergenceKind = "request"
	// DivergedTools: the tools offered, a forced tool choice, or a tool's
	// description or parameters differ.
	DivergedTools DivergenceKind = "tools"
	// DivergedUnanswerable: the recording has no answer left for the agent.
	DivergedUnanswerable DivergenceKind = "unanswerable"
	// DivergedUnused: recorded calls the replayed run never made.
	DivergedUnused DivergenceKind = "unused"
)

// Divergence is one place where a replayed run differs from its recording.
type Divergence struct {
	// Call is the 1-based number of the replayed call, in the order the
	// calls arrived; 0 for unused recorded calls.
	Call int `json:"call,omitempty"`
	// Turn is the question of the session (from 1) the call served, or,
	// for unused recorded calls, the question recorded with them (0 when
	// the recording names none).
	Turn int `json:"turn,omitempty"`
	// Agent is the agent that made the call.
	Agent string `json:"agent"`
	// Record is the 1-based line of the recording the call was compared
	// with, or 0 when there was none.
	Record int `json:"record,omitempty"`
	// Kind says what differs.
	Kind DivergenceKind `json:"kind"`
	// Message is the 1-based index of the first differing message of the
	// request, or 0.
	Message int `json:"message,omitempty"`
	// Tool names the tool whose definition differs, and ToolPart says
	// which part of it: "description" or "parameters" (its JSON schema).
	Tool     string `json:"tool,omitempty"`
	ToolPart string `json:"tool_part,omitempty"`
	// Recorded and Got show what differs, clipped around the first
	// difference.
	Recorded string `json:"recorded,omitempty"`
	Got      string `json:"got,omitempty"`
}

// What says in a few words what differs.
func (d Divergence) What() string {
	switch d.Kind {
	case DivergedUnused:
		return "recorded calls were never made"
	case DivergedUnanswerable:
		return "the recording has no answer left"
	case DivergedTools:
		if d.Tool != "" {
			return fmt.Sprintf("the %s of tool %s differs", d.ToolPart, d.Tool)
		}
		return "the tools offered differ"
	}
	return fmt.Sprintf("message %d of the request differs", d.Message)
}

// String describes d in one or two lines.
func (d Divergence) String() string {
	var b strings.Builder
	switch d.Kind {
	case DivergedUnused:
		fmt.Fprintf(&b, "%s: recorded call (line %d) was never made", d.Agent, d.Record)
		return b.String()
	case DivergedUnanswerable:
		fmt.Fprintf(&b, "call %d (%s): the recording has no answer left for this agent", d.Call, d.Agent)
	default:
		fmt.Fprintf(&b, "call %d (%s, recording line %d): %s", d.Call, d.Agent, d.Record, d.What())
	}
	if d.Recorded != "" || d.Got != "" {
		fmt.Fprintf(&b, "\n    recorded: %q\n    now:      %q", d.Recorded, d.Got)
	}
	return b.String()
}

// ReplayConfig configures a Replay.
type ReplayConfig struct {
	// Live, when set, answers every call from the first divergence on, so
	// that a run re-records what diverged (the recording's answers no
	// longer fit the conversation). Optional; without it the recorded
	// answers are served on regardless, and a request the recording cannot
	// answer fails with ErrUnanswerable.
	Live func(agent string) model.ToolCallingChatModel
}

// Replay serves the recorded answers of a trajectory (see Writer,
// Read) in order, per agent, comparing each new request with the
// recorded one by content (messages, tools offered, forced tool choice;
// never token counts or timings) and noting every divergence. It is safe
// for concurrent use.
type Replay struct {
	cfg     ReplayConfig
	records []Record

	// turned says the records name their question (Record.Turn).
	turned bool

	mu       sync.Mutex
	queues   map[queueKey][]int // indexes into records, in order
	turn     int
	calls    int
	diverged []Divergence
	live     bool
}

// queueKey selects the records that answer one agent in one question
// (turn 0 when the records name no question).
type queueKey struct {
	turn  int
	agent string
}

// NewReplay returns a Replay of records. Records with no agent (a
// recording captured outside Sift) answer any agent that has no records of
// its own, in order. When the records name their question (see llm.WithTurn),
// each question is answered only from its own records, so a question that
// diverges leaves the next ones unaffected; the replay starts at question
// 1 (see StartTurn).
func NewReplay(records []Record, cfg ReplayConfig) *Replay {
	r := &Replay{cfg: cfg, records: records, queues: map[queueKey][]int{}, turn: 1}
	r.turned = slices.ContainsFunc(records, func(rec Record) bool { return rec.Turn > 0 })
	for i, rec := range records {
		if rec.Kind == KindEmbeddings {
			// Not a chat model's answer: the run calls its embedder itself.
			continue
		}
		k := queueKey{agent: rec.Agent}
		if r.turned {
			k.turn = rec.Turn
		}
		r.queues[k] = append(r.queues[k], i)
	}
	return r
}

// StartTurn makes the calls that follow those of question turn (from 1) of
// the recorded session.
func (r *Replay) StartTurn(turn int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.turn = turn
}

// ModelFor returns the model that serves agent's recorded answers; give it
// to llm.Wrap under the same agent name.
func (r *Replay) ModelFor(agent string) model.ToolCallingChatModel {
	return &replayModel{replay: r, agent: agent}
}

// Divergences returns the divergences so far, in the order they happened,
// followed by the recorded calls not (yet) replayed.
func (r *Replay) Divergences() []Divergence {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]Divergence(nil), r.diverged...)
	if r.live {
		return out
	}
	var unused []int
	for _, q := range r.queues {
		unused = append(unused, q...)
	}
	slices.Sort(unused)
	for _, i := range unused {
		out = append(out, Divergence{Turn: r.records[i].Turn, Agent: r.records[i].Agent, Record: i + 1, Kind: DivergedUnused})
	}
	return out
}

// Calls returns how many calls were replayed.
func (r *Replay) Calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

// next compares a request with the agent's next record: the next one of
// the call's plan step (ctx's, see llm.WithStep) when the queue has one, since
// steps run side by side interleave their calls differently each run. It
// returns the record to answer with, or live when the live model must
// answer.
func (r *Replay) next(ctx context.Context, agent string, req []Message, tools []Tool, forced bool) (rec *Record, live bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if r.live {
		return nil, true, nil
	}
	key := queueKey{agent: agent}
	if r.turned {
		key.turn = r.turn
	}
	if anyAgent := (queueKey{turn: key.turn}); len(r.queues[key]) == 0 && len(r.queues[anyAgent]) > 0 {
		key = anyAgent
	}
	q := r.queues[key]
	if len(q) == 0 {
		d := Divergence{Call: r.calls, Turn: r.turn, Agent: agent, Kind: DivergedUnanswerable}
		if len(req) > 0 {
			d.Got = clipText(req[len(req)-1].text(), 200)
		}
		r.diverge(d)
		if r.live {
			return nil, true, nil
		}
		return nil, false, fmt.Errorf("%w: call %d from agent %q", ErrUnanswerable, r.calls, agent)
	}
	at := 0
	if step, ok := call.Step(ctx); ok {
		if j := slices.IndexFunc(q, func(i int) bool { return r.records[i].Step == step }); j >= 0 {
			at = j
		}
	}
	i := q[at]
	r.queues[key] = append(q[:at:at], q[at+1:]...)
	rec = &r.records[i]
	if d, ok := compareRequest(rec, req, tools, forced); !ok {
		d.Call, d.Turn, d.Agent, d.Record = r.calls, r.turn, agent, i+1
		r.diverge(d)
		if r.live {
			return nil, true, nil
		}
	}
	return rec, false, nil
}

// diverge notes d and, with a live model, switches to it.
func (r *Replay) diverge(d Divergence) {
	r.diverged = append(r.diverged, d)
	if r.cfg.Live != nil {
		r.live = true
	}
}

// compareRequest compares a request with a record; ok is true when they
// match.
func compareRequest(rec *Record, req []Message, tools []Tool, forced bool) (Divergence, bool) {
	n := max(len(rec.Request), len(req))
	for i := range n {
		var want, got string
		if i < len(rec.Request) {
			want = rec.Request[i].canonical()
		}
		if i < len(req) {
			got = req[i].canonical()
		}
		if !sameText(want, got) {
			w, g := clipAround(want, got, 160)
			return Divergence{Kind: DivergedRequest, Message: i + 1, Recorded: w, Got: g}, false
		}
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	if !slices.Equal(rec.Tools, names) || rec.ToolChoiceForced != forced {
		return Divergence{Kind: DivergedTools, Recorded: toolsText(rec.Tools, rec.ToolChoiceForced), Got: toolsText(names, forced)}, false
	}
	// Much of a prompt is in its tools' descriptions and schemas; a
	// recording made before they were recorded has only the names.
	if len(rec.ToolDefs) != len(tools) {
		return Divergence{}, true
	}
	for i, got := range tools {
		want := rec.ToolDefs[i]
		part, w, g := "", "", ""
		switch {
		case !sameText(want.Description, got.Description):
			part, w, g = "description", want.Description, got.Description
		case string(want.Parameters) != string(got.Parameters):
			part, w, g = "parameters", string(want.Parameters), string(got.Parameters)
		default:
			continue
		}
		w, g = clipAround(w, g, 160)
		return Divergence{Kind: DivergedTools, Tool: got.Name, ToolPart: part, Recorded: w, Got: g}, false
	}
	return Divergence{}, true
}

func toolsText(tools []string, forced bool) string {
	s := "[" + strings.Join(tools, ", ") + "]"
	if forced {
		s += " (forced)"
	}
	return s
}

// canonical is the text a message is compared by: its role, texts and
// tool calls, with volatile parts (timings) blanked. Tool-call IDs and tool
// names of results are left out: providers make the IDs up, and OpenAI's
// shape has no tool names.
func (m Message) canonical() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] ", m.Role)
	// Text sent as parts compares equal to the same text sent whole.
	texts := m.Parts
	if m.Content != "" {
		texts = append([]string{m.Content}, texts...)
	}
	b.WriteString(strings.Join(texts, "\n"))
	for _, tc := range m.ToolCalls {
		fmt.Fprintf(&b, "\n-> %s(%s)", tc.Name, tc.Arguments)
	}
	return BlankTimings(b.String())
}

// BlankTimings replaces what differs between two runs of the same code in
// a text, the Python tool's "(ran 120ms)" timings, with "(ran …)".
func BlankTimings(s string) string { return volatile.ReplaceAllString(s, "(ran …)") }

// text is the message's content, or its tool calls.
func (m Message) text() string {
	if m.Content != "" || len(m.ToolCalls) == 0 {
		return m.Content
	}
	parts := make([]string, len(m.ToolCalls))
	for i, tc := range m.ToolCalls {
		parts[i] = tc.Name + "(" + tc.Arguments + ")"
	}
	return strings.Join(parts, "; ")
}

// volatile matches what differs between two runs of the same code: the
// Python tool's timing line.
var volatile = regexp.MustCompile(`\(ran [0-9.]+[a-zµ]*\)`)

// cutMarker matches the mark a bounded trajectory leaves (see
// Config.MaxContentChars).
var cutMarker = regexp.MustCompile(`\[\.\.\. \d+ characters cut \.\.\.\]`)

// sameText compares a recorded text with a new one; a recorded text cut by
// MaxContentChars matches any text with the same head and tail.
func sameText(recorded, got string) bool {
	if recorded == got {
		return true
	}
	loc := cutMarker.FindStringIndex(recorded)
	if loc == nil {
		return false
	}
	head, tail := recorded[:loc[0]], recorded[loc[1]:]
	return len(got) >= len(head)+len(tail) && strings.HasPrefix(got, head) && strings.HasSuffix(got, tail)
}

// clipAround returns both texts clipped to about n characters around
// their first difference.
func clipAround(a, b string, n int) (string, string) {
	ra, rb := []rune(a), []rune(b)
	i := 0
	for i < len(ra) && i < len(rb) && ra[i] == rb[i] {
		i++
	}
	from := max(i-n/4, 0)
	cut := func(r []rune) string {
		if from >= len(r) {
			return ""
		}
		to := min(from+n, len(r))
		s := string(r[from:to])
		if from > 0 {
			s = "…" + s
		}
		if to < len(r) {
			s += "…"
		}
		return s
	}
	return cut(ra), cut(rb)
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// replayModel is one agent's view of a Replay.
type replayModel struct {
	replay *Replay
	agent  string
	tools  []*schema.ToolInfo
	// live is the agent's live model bound to tools, made on first use.
	liveOnce sync.Once
	live     model.ToolCallingChatModel
	liveErr  error
}

// WithTools returns a copy offering tools.
func (m *replayModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return &replayModel{replay: m.replay, agent: m.agent, tools: tools}, nil
}

// GetType names the model as a replay.
func (m *replayModel) GetType() string { return "Replay" }

// Generate answers from the recording, or from the live model after a
// divergence.
func (m *replayModel) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	tools, forced := call.Tools(m.tools, opts)
	t := &Writer{}
	_, defs := t.Tools(tools)
	rec, live, err := m.replay.next(ctx, m.agent, t.Messages(in), defs, forced)
	if err != nil {
		return nil, err
	}
	if live {
		lm, err := m.liveModel()
		if err != nil {
			return nil, err
		}
		return lm.Generate(ctx, in, opts...)
	}
	if rec.Error != "" {
		return nil, fmt.Errorf("replay: recorded error: %s", rec.Error)
	}
	return recordedReply(rec), nil
}

// Stream answers like Generate, in one chunk; after a divergence the live
// model streams.
func (m *replayModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

// liveModel returns the agent's live model bound to the tools.
func (m *replayModel) liveModel() (model.ToolCallingChatModel, error) {
	m.liveOnce.Do(func() {
		lm := m.replay.cfg.Live(m.agent)
		if lm == nil {
			m.liveErr = fmt.Errorf("%w: no live model for agent %q", ErrUnanswerable, m.agent)
			return
		}
		if len(m.tools) > 0 {
			lm, m.liveErr = lm.WithTools(m.tools)
		}
		m.live = lm
	})
	return m.live, m.liveErr
}

// recordedReply rebuilds the recorded reply. Recorded usage is passed on
// unless it was an estimate, which the decorator estimates again.
func recordedReply(rec *Record) *schema.Message {
	msg := &schema.Message{Role: schema.Assistant}
	if rec.Response != nil {
		r := rec.Response
		msg.Content, msg.ReasoningContent = r.Content, r.ReasoningContent
		if msg.Content == "" && len(r.Parts) > 0 {
			msg.Content = strings.Join(r.Parts, "\n")
		}
		for i, tc := range r.ToolCalls {
			id := tc.ID
			if id == "" {
				id = fmt.Sprintf("call_replay_%d", i)
			}
			msg.ToolCalls = append(msg.ToolCalls, schema.ToolCall{Index: intRef(i), ID: id, Type: "function", Function: schema.FunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
		}
	}
	finish := "stop"
	if len(msg.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	msg.ResponseMeta = &schema.ResponseMeta{FinishReason: finish}
	if u := rec.Usage; u != nil && !u.Estimated {
		msg.ResponseMeta.Usage = &schema.TokenUsage{
			PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.PromptTokens + u.CompletionTokens,
			PromptTokenDetails:      schema.PromptTokenDetails{CachedTokens: u.CachedTokens},
			CompletionTokensDetails: schema.CompletionTokensDetails{ReasoningTokens: u.ReasoningTokens},
		}
	}
	return msg
}

func intRef(i int) *int { return &i }
