package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/cloudwego/eino/schema"
	"github.com/kaptinlin/jsonrepair"
)

// recoveredCallSeq numbers synthesised tool calls so their IDs are unique
// within the process.
var recoveredCallSeq atomic.Int64

// repairArguments returns tool-call arguments as valid JSON: empty arguments
// become "{}", a JSON object encoded as a JSON string is decoded, and broken
// JSON (trailing commas, single quotes, missing brackets, code fences, ...)
// is repaired. It reports whether it changed anything; arguments it cannot
// repair are returned unchanged.
func repairArguments(args string) (string, bool) {
	trimmed := strings.TrimSpace(args)
	if trimmed == "" {
		return "{}", true
	}
	if json.Valid([]byte(trimmed)) {
		var inner string
		if trimmed[0] == '"' && json.Unmarshal([]byte(trimmed), &inner) == nil {
			if obj, ok := parseObject(inner); ok {
				return obj, true
			}
		}
		return args, false
	}
	fixed, err := jsonrepair.Repair(trimmed)
	if err != nil || !json.Valid([]byte(fixed)) {
		return args, false
	}
	return fixed, true
}

// repairToolCalls repairs the arguments of every tool call in msg, in
// place: broken JSON is mended, then the arguments are taken as meant by
// the called tool's schema among tools (see coerceArguments).
func repairToolCalls(msg *schema.Message, tools []*schema.ToolInfo) {
	for i := range msg.ToolCalls {
		fn := &msg.ToolCalls[i].Function
		if fixed, changed := repairArguments(fn.Arguments); changed {
			fn.Arguments = fixed
		}
		if fixed, changed := coerceArguments(fn.Arguments, toolNamed(tools, fn.Name)); changed {
			fn.Arguments = fixed
		}
	}
}

// toolNamed is the tool called name among tools, or nil.
func toolNamed(tools []*schema.ToolInfo, name string) *schema.ToolInfo {
	for _, t := range tools {
		if t != nil && t.Name == name {
			return t
		}
	}
	return nil
}

// maxArgumentRetries bounds how often a forced tool call whose arguments
// do not fit its schema goes back to the model with what is wrong.
const maxArgumentRetries = 2

// badCalls lists, per tool call of msg whose arguments check refuses, what
// is wrong; nil when every call passes (or there is no check).
func badCalls(msg *schema.Message, check ArgumentCheck) map[string]string {
	if check == nil {
		return nil
	}
	var bad map[string]string
	for _, tc := range msg.ToolCalls {
		if err := check(tc.Function.Name, tc.Function.Arguments); err != nil {
			if bad == nil {
				bad = map[string]string{}
			}
			bad[tc.ID] = err.Error()
		}
	}
	return bad
}

// retryInput is in followed by the model's reply and, as each call's tool
// answer, what was wrong with its arguments: the model sees its mistake
// the way it sees a tool's error, and calls again.
func retryInput(in []*schema.Message, reply *schema.Message, bad map[string]string) []*schema.Message {
	out := append(append([]*schema.Message(nil), in...), reply)
	for _, tc := range reply.ToolCalls {
		text := "Not run: another call in the same reply had invalid arguments; call again."
		if p, ok := bad[tc.ID]; ok {
			text = fmt.Sprintf("Error: the arguments of %s could not be read: %s. Call %s again with corrected arguments.", tc.Function.Name, p, tc.Function.Name)
		}
		out = append(out, schema.ToolMessage(text, tc.ID, schema.WithToolName(tc.Function.Name)))
	}
	return out
}

// parseObject returns s as compact JSON if it is (or can be repaired into) a
// JSON object.
func parseObject(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false
	}
	if !json.Valid([]byte(s)) {
		fixed, err := jsonrepair.Repair(s)
		if err != nil {
			return "", false
		}
		s = fixed
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &obj); err != nil || obj == nil {
		return "", false
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		return "", false
	}
	return buf.String(), true
}

// extractJSONObject finds the JSON object a model wrote as text: inside a
// ``` fence if there is one, else the first balanced {...} that parses, else
// a truncated object repaired.
func extractJSONObject(content string) (string, bool) {
	for _, block := range fencedBlocks(content) {
		if obj, ok := parseObject(block); ok {
			return obj, true
		}
	}
	spans := braceSpans(content)
	for _, span := range spans {
		if json.Valid([]byte(span)) {
			if obj, ok := parseObject(span); ok {
				return obj, true
			}
		}
	}
	for _, span := range spans {
		if obj, ok := parseObject(span); ok && obj != "{}" {
			return obj, true
		}
	}
	if i := strings.IndexByte(content, '{'); i >= 0 && len(spans) == 0 {
		if obj, ok := parseObject(content[i:]); ok && obj != "{}" {
			return obj, true
		}
	}
	return "", false
}

// fencedBlocks returns the bodies of the Markdown code fences in s, without
// their info strings ("json").
func fencedBlocks(s string) []string {
	var blocks []string
	for {
		start := strings.Index(s, "```")
		if start < 0 {
			return blocks
		}
		rest := s[start+3:]
		nl := strings.IndexByte(rest, '\n')
		if nl < 0 {
			return blocks
		}
		body := rest[nl+1:]
		end := strings.Index(body, "```")
		if end < 0 {
			// An unterminated fence: the model was cut off; take the rest.
			return append(blocks, body)
		}
		blocks = append(blocks, body[:end])
		s = body[end+3:]
	}
}

// braceSpans returns the top-level balanced {...} spans of s, skipping braces
// inside JSON strings.
func braceSpans(s string) []string {
	var spans []string
	depth, start := 0, -1
	inString, escaped := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if depth > 0 && inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			if depth > 0 {
				inString = true
			}
		case '{':
			if depth == 0 {
				start = i
			}
			depth++
		case '}':
			if depth > 0 {
				depth--
				if depth == 0 {
					spans = append(spans, s[start:i+1])
				}
			}
		}
	}
	return spans
}

// toolShape is what matching needs to know about a tool's parameters.
type toolShape struct {
	name     string
	props    map[string]bool
	required []string
}

func shapeOf(t *schema.ToolInfo) toolShape {
	sh := toolShape{name: t.Name, props: map[string]bool{}}
	js, err := t.ParamsOneOf.ToJSONSchema()
	if err != nil || js == nil {
		return sh
	}
	if js.Properties != nil {
		for p := js.Properties.Oldest(); p != nil; p = p.Next() {
			sh.props[p.Key] = true
		}
	}
	sh.required = js.Required
	return sh
}

// unwrapNamedCall recognises {"name": tool, "arguments": {...}} (and the
// "tool"/"parameters"/"args"/"input" spellings) naming one of tools, as local
// models print their calls when they cannot emit real ones.
func unwrapNamedCall(obj map[string]json.RawMessage, tools []*schema.ToolInfo) (name, args string, ok bool) {
	for _, nameKey := range []string{"name", "tool", "tool_name", "function"} {
		raw, found := obj[nameKey]
		if !found {
			continue
		}
		var n string
		if json.Unmarshal(raw, &n) != nil {
			continue
		}
		known := false
		for _, t := range tools {
			if t.Name == n {
				known = true
				break
			}
		}
		if !known {
			continue
		}
		for _, argsKey := range []string{"arguments", "parameters", "args", "input"} {
			a, found := obj[argsKey]
			if !found {
				continue
			}
			var s string
			if json.Unmarshal(a, &s) == nil { // arguments given as a JSON string
				if o, ok := parseObject(s); ok {
					return n, o, true
				}
				continue
			}
			if o, ok := parseObject(string(a)); ok {
				return n, o, true
			}
		}
		if len(obj) == 1 {
			return n, "{}", true
		}
	}
	return "", "", false
}

// chooseTool picks the tool whose parameters best match the object's keys:
// all required parameters present first, then the most required parameters
// present, then the most known parameters present, then the fewest unknown
// keys. It reports false when no tool matches any key or two tools tie.
func chooseTool(obj map[string]json.RawMessage, tools []*schema.ToolInfo) (string, bool) {
	type score struct{ complete, reqHit, propHit, unknown int }
	better := func(a, b score) bool {
		if a.complete != b.complete {
			return a.complete > b.complete
		}
		if a.reqHit != b.reqHit {
			return a.reqHit > b.reqHit
		}
		if a.propHit != b.propHit {
			return a.propHit > b.propHit
		}
		return a.unknown < b.unknown
	}
	best, bestName, tie := score{}, "", false
	for _, t := range tools {
		sh := shapeOf(t)
		var s score
		for k := range obj {
			if sh.props[k] {
				s.propHit++
			} else {
				s.unknown++
			}
		}
		s.complete = 1
		for _, r := range sh.required {
			if _, ok := obj[r]; ok {
				s.reqHit++
			} else {
				s.complete = 0
			}
		}
		if s.propHit == 0 && s.reqHit == 0 {
			continue
		}
		switch {
		case bestName == "" || better(s, best):
			best, bestName, tie = s, t.Name, false
		case !better(best, s):
			tie = true
		}
	}
	return bestName, bestName != "" && !tie
}

// recoverToolCall turns a forced tool call that the model wrote as JSON text
// into a real tool call. With one tool the object goes to it; with several,
// to the tool whose parameters best match the object's keys.
func recoverToolCall(content string, tools []*schema.ToolInfo) (schema.ToolCall, bool) {
	if len(tools) == 0 {
		return schema.ToolCall{}, false
	}
	text, ok := extractJSONObject(content)
	if !ok {
		return schema.ToolCall{}, false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &obj) != nil {
		return schema.ToolCall{}, false
	}

	name, args, ok := unwrapNamedCall(obj, tools)
	if !ok {
		args = text
		if len(tools) == 1 {
			name, ok = tools[0].Name, true
		} else {
			name, ok = chooseTool(obj, tools)
		}
	}
	if !ok {
		return schema.ToolCall{}, false
	}
	return schema.ToolCall{
		ID:   fmt.Sprintf("call_recovered_%d", recoveredCallSeq.Add(1)),
		Type: "function",
		Function: schema.FunctionCall{
			Name:      name,
			Arguments: args,
		},
	}, true
}
