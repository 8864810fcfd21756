package llm

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cloudwego/eino/schema"
)

// exchange is a run of a conversation that is kept or dropped as a whole:
// one message, or an assistant message with tool calls together with the
// tool messages answering them.
type exchange struct {
	// idx are the positions of the exchange's messages, ascending.
	idx []int
}

// conversation is a history split into what is always kept, what is kept or
// dropped by exchange, and tool results that answer no call.
type conversation struct {
	pinned    []int
	exchanges []exchange
	orphans   []int
}

// split groups msgs into exchanges. Messages for which pin reports true are
// pinned. A tool message belongs to the latest earlier assistant message
// that made the call it answers (by ToolCallID; without one, to the latest
// earlier assistant message with tool calls); a tool message that answers
// no earlier call is an orphan. Nil messages are left out.
func split(msgs []*schema.Message, pin func(int, *schema.Message) bool) conversation {
	var c conversation
	callOwner := map[string]int{} // tool call ID -> exchange
	lastCaller := -1              // latest exchange that made tool calls
	for i, m := range msgs {
		switch {
		case m == nil:
		case pin(i, m):
			c.pinned = append(c.pinned, i)
		case m.Role == schema.Tool:
			owner, ok := callOwner[m.ToolCallID]
			if m.ToolCallID == "" {
				owner, ok = lastCaller, lastCaller >= 0
			}
			if !ok {
				c.orphans = append(c.orphans, i)
				continue
			}
			c.exchanges[owner].idx = append(c.exchanges[owner].idx, i)
		default:
			c.exchanges = append(c.exchanges, exchange{idx: []int{i}})
			if m.Role == schema.Assistant && len(m.ToolCalls) > 0 {
				e := len(c.exchanges) - 1
				lastCaller = e
				for _, tc := range m.ToolCalls {
					callOwner[tc.ID] = e
				}
			}
		}
	}
	return c
}

// isSystem pins system messages.
func isSystem(_ int, m *schema.Message) bool { return m.Role == schema.System }

// TrimHistory returns the messages of msgs that fit in budgetTokens, as
// counted by count: every system message, and then the newest exchanges
// that fit, newest first, stopping at the first that does not. It keeps
// the messages' order.
//
// An assistant message with tool calls and the tool messages answering it
// are one exchange, kept or dropped together, so a call is never separated
// from its result; a tool message that answers no earlier call is dropped,
// as providers reject it.
//
// The budget is respected when the system messages and the newest exchange
// fit in it. The newest exchange is kept even when they do not: a request
// without its latest turn would answer the wrong question, while a request
// that is too long fails loudly at the provider. msgs itself is returned
// when nothing is dropped.
func TrimHistory(msgs []*schema.Message, budgetTokens int, count func(*schema.Message) int) []*schema.Message {
	return trimHistory(msgs, budgetTokens, count, isSystem)
}

// trimHistory is TrimHistory with the pinned messages chosen by pin.
func trimHistory(msgs []*schema.Message, budget int, count func(*schema.Message) int, pin func(int, *schema.Message) bool) []*schema.Message {
	c := split(msgs, pin)
	tokens := make([]int, len(msgs))
	total := 0
	for i, m := range msgs {
		if m != nil {
			tokens[i] = count(m)
		}
	}
	for _, i := range c.pinned {
		total += tokens[i]
	}
	keep := slices.Clone(c.pinned)
	dropped := len(c.orphans) > 0
	for e := len(c.exchanges) - 1; e >= 0; e-- {
		ex := c.exchanges[e]
		n := 0
		for _, i := range ex.idx {
			n += tokens[i]
		}
		if total+n > budget && e != len(c.exchanges)-1 {
			dropped = true
			break
		}
		total += n
		keep = append(keep, ex.idx...)
	}
	if !dropped && len(keep) == len(msgs) {
		return msgs
	}
	slices.Sort(keep)
	out := make([]*schema.Message, len(keep))
	for j, i := range keep {
		out[j] = msgs[i]
	}
	return out
}

// FitWindow trims msgs (see TrimHistory) to fit a context window of window
// tokens with outputReserve tokens left for the reply and margin tokens
// for the error of count's estimate. Whatever else the request carries
// (tool definitions) must be taken off window by the caller.
func FitWindow(msgs []*schema.Message, window, outputReserve, margin int, count func(*schema.Message) int) []*schema.Message {
	return TrimHistory(msgs, max(window-outputReserve-margin, 0), count)
}

// DropDuplicates returns msgs without exact repeats: of exchanges that are
// the same (same roles, names, contents, and tool calls with the same
// names and arguments — their IDs, which providers make new for every
// call, do not count), only the latest is kept. System messages are always kept. An assistant
// message with tool calls and its tool results are compared and kept or
// dropped as a whole (see TrimHistory), so dropping a repeat never leaves a
// call without its result. It keeps the messages' order and returns msgs
// itself when nothing is dropped.
//
// Dropping a repeat changes what came before a later turn, so use it on
// repeated context (the same file preview or tool output pasted twice),
// not on conversations where a short reply ("yes") means something new
// each time.
func DropDuplicates(msgs []*schema.Message) []*schema.Message {
	c := split(msgs, isSystem)
	// Orphans are not this function's business: keep them as they are.
	for _, i := range c.orphans {
		c.exchanges = append(c.exchanges, exchange{idx: []int{i}})
	}
	seen := map[string]bool{}
	keep := slices.Clone(c.pinned)
	for e := len(c.exchanges) - 1; e >= 0; e-- {
		k := exchangeKey(msgs, c.exchanges[e])
		if seen[k] {
			continue
		}
		seen[k] = true
		keep = append(keep, c.exchanges[e].idx...)
	}
	if len(keep) == len(msgs) {
		return msgs
	}
	slices.Sort(keep)
	out := make([]*schema.Message, len(keep))
	for j, i := range keep {
		out[j] = msgs[i]
	}
	return out
}

// messageIdentity is what makes two messages the same for DropDuplicates.
type messageIdentity struct {
	Role      schema.RoleType            `json:"r"`
	Name      string                     `json:"n,omitempty"`
	Content   string                     `json:"c,omitempty"`
	Multi     []schema.ChatMessagePart   `json:"m,omitempty"`
	UserMulti []schema.MessageInputPart  `json:"u,omitempty"`
	AsstMulti []schema.MessageOutputPart `json:"a,omitempty"`
	ToolCalls []schema.FunctionCall      `json:"t,omitempty"`
	ToolName  string                     `json:"tn,omitempty"`
}

// exchangeKey encodes an exchange's identity.
func exchangeKey(msgs []*schema.Message, ex exchange) string {
	ids := make([]messageIdentity, len(ex.idx))
	for j, i := range ex.idx {
		m := msgs[i]
		calls := make([]schema.FunctionCall, len(m.ToolCalls))
		for k, tc := range m.ToolCalls {
			calls[k] = tc.Function
		}
		ids[j] = messageIdentity{
			Role: m.Role, Name: m.Name, Content: m.Content,
			Multi: m.MultiContent, UserMulti: m.UserInputMultiContent, AsstMulti: m.AssistantGenMultiContent,
			ToolCalls: calls, ToolName: m.ToolName,
		}
	}
	b, err := json.Marshal(ids)
	if err != nil {
		// Unencodable content (it cannot come from a provider): treat the
		// exchange as unique rather than guess.
		return fmt.Sprintf("\x00unique %d", ex.idx[0])
	}
	return string(b)
}

// DefaultOutputReserve is the reply room a Window keeps by default.
const DefaultOutputReserve = 4096

// Window is a model's context window, for WithWindow: each request is
// trimmed (see TrimHistory) to Tokens minus OutputReserve, Margin and the
// tokens of the tools offered, counted with the offline tokenizer for the
// model named by WithModelName.
type Window struct {
	// Tokens is the context window in tokens, e.g. 128000. Required:
	// 0 turns trimming off.
	Tokens int
	// OutputReserve is left free for the reply. Optional; default
	// DefaultOutputReserve (4096).
	OutputReserve int
	// Margin absorbs the error of the offline count (exact for OpenAI's
	// models, an estimate for others). Optional; default Tokens/20 (5%).
	Margin int
	// KeepFirstUser keeps the first user message like a system message.
	// Sift's agents put the task there, and a trimmed request that lost it
	// no longer says what to do. Optional; default false, as TrimHistory.
	KeepFirstUser bool
	// DropDuplicates drops exact repeats of earlier messages (see
	// DropDuplicates) before trimming: an agent that re-reads the same
	// file or re-runs the same cell need not pay for it twice. Optional.
	DropDuplicates bool
}

// WithDefaults returns w with its empty optional fields filled in. This is
// the one place window defaults are decided.
func (w Window) WithDefaults() Window {
	if w.OutputReserve <= 0 {
		w.OutputReserve = DefaultOutputReserve
	}
	if w.Margin <= 0 {
		w.Margin = w.Tokens / 20
	}
	return w
}
