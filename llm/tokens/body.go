package tokens

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Sent is what one chat completions request costs in prompt tokens,
// counted from the JSON body an OpenAI-compatible client sent: what a
// provider bills, as opposed to an estimate from the Go values the body was
// made from.
type Sent struct {
	// Model is the body's model field; Encoding the tokenizer it is
	// counted with (see [EncodingFor]).
	Model, Encoding string
	// Tools is the tool definitions' share, framing included.
	Tools int
	// Messages is the messages' share, framing included.
	Messages int
	// Total is Tools, Messages and the priming of the reply.
	Total int
	// ToolNames are the names of the tools offered, in the body's order.
	ToolNames []string
	// Bytes is the body's size.
	Bytes int
}

// sentBody is the part of a chat completions request that is billed.
type sentBody struct {
	Model    string `json:"model"`
	Messages []struct {
		Role       string          `json:"role"`
		Name       string          `json:"name"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

// Body counts the prompt tokens of a chat completions request body, with
// the encoding of the body's model (o200k_base for models that are not
// OpenAI's): each tool's name, description and parameters schema exactly
// as sent (compacted JSON), each message's role, name, text (a string, or
// the text parts of an array; image parts as low-detail images), tool
// calls and the ID a tool result answers, with the framing [Request]
// counts.
func Body(body []byte) (Sent, error) {
	var b sentBody
	if err := json.Unmarshal(body, &b); err != nil {
		return Sent{}, fmt.Errorf("count request body: not a chat completions request: %w", err)
	}
	enc := EncodingFor(b.Model)
	s := Sent{Model: b.Model, Encoding: enc, Bytes: len(body)}
	if len(b.Tools) > 0 {
		s.Tools = tokensToolsBlock
	}
	for _, t := range b.Tools {
		f := t.Function
		s.ToolNames = append(s.ToolNames, f.Name)
		s.Tools += tokensPerTool + countWith(enc, f.Name) + countWith(enc, f.Description)
		if len(f.Parameters) > 0 && string(f.Parameters) != "null" {
			var c bytes.Buffer
			if err := json.Compact(&c, f.Parameters); err != nil {
				return Sent{}, fmt.Errorf("count request body: tool %s: %w", f.Name, err)
			}
			s.Tools += countWith(enc, c.String())
		}
	}
	for i, m := range b.Messages {
		s.Messages += tokensPerMessage + countWith(enc, m.Role)
		if m.Name != "" {
			s.Messages += tokensPerName + countWith(enc, m.Name)
		}
		n, err := contentTokens(enc, m.Content)
		if err != nil {
			return Sent{}, fmt.Errorf("count request body: message %d: %w", i, err)
		}
		s.Messages += n
		for _, tc := range m.ToolCalls {
			s.Messages += tokensPerToolCall + countWith(enc, tc.Function.Name) + countWith(enc, tc.Function.Arguments)
		}
		s.Messages += countWith(enc, m.ToolCallID)
	}
	s.Total = s.Tools + s.Messages + ReplyPrime
	return s, nil
}

// contentTokens counts a message's content as sent: a string, or an array
// of parts.
func contentTokens(enc string, raw json.RawMessage) (int, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return countWith(enc, text), nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return 0, errors.New("content is neither a string nor an array of parts")
	}
	n := 0
	for _, p := range parts {
		if p.Type == "image_url" {
			n += tokensPerImage
			continue
		}
		n += countWith(enc, p.Text)
	}
	return n, nil
}
