package tokens

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/cloudwego/eino/schema"
)

// Segment kinds, in the order a request is rendered.
const (
	// KindToolsBlock is the framing around the tool definitions.
	KindToolsBlock = "tools"
	// KindTool is one tool definition: name, description and JSON schema.
	KindTool = "tool"
	// KindFrame is a message's framing: its role and name.
	KindFrame = "frame"
	// KindContent is a message's text, or one part of multi-part content.
	KindContent = "content"
	// KindImage is an image part.
	KindImage = "image"
	// KindToolCall is one tool call of an assistant message.
	KindToolCall = "tool_call"
	// KindToolCallID is the ID of the call a tool result answers.
	KindToolCallID = "tool_call_id"
	// KindReplyPrime is the priming of the reply that ends every request.
	KindReplyPrime = "reply"
)

// Segment is one piece of a chat request as a provider renders it into
// its prompt. The pieces of a request, in order, are the tool definitions
// (first, as Anthropic documents its cache order and as OpenAI caches
// them: part of the prefix), then every message's framing, text and tool
// calls, then the priming of the reply; their Tokens add up to [Request].
type Segment struct {
	// Kind says what the piece is (KindTool, KindContent, ...).
	Kind string
	// Text is the piece's text; for framing, the role and name.
	Text string
	// Tokens is what the piece costs, framing overhead included.
	Tokens int
}

// Segments renders a chat request to modelName into its pieces, in the
// order a provider puts them into the prompt.
func Segments(modelName string, msgs []*schema.Message, tools []*schema.ToolInfo) []Segment {
	encoding := EncodingFor(modelName)
	segs := toolSegments(encoding, tools, make([]Segment, 0, len(tools)+3*len(msgs)+2))
	for _, m := range msgs {
		segs = messageSegments(encoding, m, segs)
	}
	return append(segs, Segment{Kind: KindReplyPrime, Tokens: ReplyPrime})
}

// toolSegments appends the tool definitions' pieces to segs.
func toolSegments(encoding string, tools []*schema.ToolInfo, segs []Segment) []Segment {
	if len(tools) == 0 {
		return segs
	}
	segs = append(segs, Segment{Kind: KindToolsBlock, Tokens: tokensToolsBlock})
	for _, t := range tools {
		if t == nil {
			continue
		}
		text := t.Name + "\n" + t.Desc
		n := tokensPerTool + countWith(encoding, t.Name) + countWith(encoding, t.Desc)
		if js := ToolSchema(t); js != "" {
			text += "\n" + js
			n += countWith(encoding, js)
		}
		segs = append(segs, Segment{Kind: KindTool, Text: text, Tokens: n})
	}
	return segs
}

// ToolSchema is a tool's parameters as the JSON schema an OpenAI-compatible
// client sends, or "" when it has none.
func ToolSchema(t *schema.ToolInfo) string {
	if t == nil || t.ParamsOneOf == nil {
		return ""
	}
	js, err := t.ParamsOneOf.ToJSONSchema()
	if err != nil || js == nil {
		return ""
	}
	b, err := json.Marshal(js)
	if err != nil {
		return ""
	}
	return string(b)
}

// messageSegments appends one message's pieces to segs.
func messageSegments(encoding string, m *schema.Message, segs []Segment) []Segment {
	if m == nil {
		return segs
	}
	frame := Segment{Kind: KindFrame, Text: string(m.Role), Tokens: tokensPerMessage + countWith(encoding, string(m.Role))}
	if m.Name != "" {
		frame.Text += ":" + m.Name
		frame.Tokens += tokensPerName + countWith(encoding, m.Name)
	}
	segs = append(segs, frame)
	if m.Content != "" {
		segs = append(segs, Segment{Kind: KindContent, Text: m.Content, Tokens: countWith(encoding, m.Content)})
	}
	part := func(typ schema.ChatMessagePartType, text string) {
		if typ == schema.ChatMessagePartTypeImageURL {
			segs = append(segs, Segment{Kind: KindImage, Tokens: tokensPerImage})
			return
		}
		segs = append(segs, Segment{Kind: KindContent, Text: text, Tokens: countWith(encoding, text)})
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
		segs = append(segs, Segment{Kind: KindToolCall, Text: tc.Function.Name + "\n" + tc.Function.Arguments,
			Tokens: tokensPerToolCall + countWith(encoding, tc.Function.Name) + countWith(encoding, tc.Function.Arguments)})
	}
	if m.ToolCallID != "" {
		segs = append(segs, Segment{Kind: KindToolCallID, Text: m.ToolCallID, Tokens: countWith(encoding, m.ToolCallID)})
	}
	return segs
}

func sum(segs []Segment) int {
	n := 0
	for _, s := range segs {
		n += s.Tokens
	}
	return n
}

// CommonPrefix returns how many leading tokens two rendered requests to
// modelName share: the tokens of their identical leading segments, plus,
// when the first differing segments are both text, the tokens of their
// common leading text less one (the token that straddles the point where
// they part). It is what a provider's prefix cache could serve the second
// request from the first.
func CommonPrefix(modelName string, a, b []Segment) int {
	n := 0
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			n += a[i].Tokens
			continue
		}
		if a[i].Kind == KindContent && b[i].Kind == KindContent {
			if k := commonTextPrefix(a[i].Text, b[i].Text); k != "" {
				n += max(Text(modelName, k)-1, 0)
			}
		}
		break
	}
	return n
}

// commonTextPrefix is the longest common prefix of a and b, cut back to a
// rune boundary.
func commonTextPrefix(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	for i > 0 && i < len(a) && !utf8.RuneStart(a[i]) {
		i--
	}
	return a[:i]
}
