package scripted

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/cloudwego/eino/schema"
	"github.com/google/jsonschema-go/jsonschema"
)

// File is a script as written in JSON, for the sift command's --script flag
// and the offline demo:
//
//	{"name": "...", "replies": [
//	  {"tool_calls": [{"name": "create_plan", "arguments": {...}}]},
//	  {"content": "Result:\n{{last_tool_result}}"},
//	  {"status": 429, "retry_after": "1"}
//	]}
//
// Text (content and string values inside arguments) may use placeholders,
// filled from the request each reply answers, so a script can report what
// the code it ran actually printed:
//   - {{last_tool_result}}: the content of the last tool message;
//   - {{section:TITLE}}: the body of the "## TITLE" section of the last user
//     message;
//   - {{line:PREFIX}}: the rest of the last line in the conversation that
//     starts with PREFIX.
//
// A placeholder with nothing to fill it becomes "(none)".
//
// The format is versioned ("version": 1, the default) and described by the
// JSON Schema in Schema (script.schema.json beside this file); LoadFile
// validates a file against it and names the reply that does not fit.
type File struct {
	// SchemaRef is the "$schema" an editor may use; it is not read.
	SchemaRef string      `json:"$schema,omitempty"`
	Version   int         `json:"version,omitempty"`
	Name      string      `json:"name"`
	Replies   []FileReply `json:"replies"`
}

// FormatVersion is the script format's version this package reads.
const FormatVersion = 1

//go:embed script.schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of a script file.
func Schema() []byte { return append([]byte(nil), schemaJSON...) }

var resolvedSchema = sync.OnceValues(func() (*jsonschema.Resolved, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(schemaJSON, &s); err != nil {
		return nil, err
	}
	return s.Resolve(nil)
})

// validate checks data against the script schema.
func validate(data []byte) error {
	rs, err := resolvedSchema()
	if err != nil {
		return fmt.Errorf("the embedded script schema does not load: %w", err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return rs.Validate(v)
}

// FileReply is one reply of a File.
type FileReply struct {
	Content    string         `json:"content,omitempty"`
	ToolCalls  []FileToolCall `json:"tool_calls,omitempty"`
	Status     int            `json:"status,omitempty"`
	RetryAfter string         `json:"retry_after,omitempty"`
	Error      string         `json:"error,omitempty"`
}

// FileToolCall is one tool call of a FileReply; Arguments is any JSON value.
type FileToolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// LoadFile reads a JSON script file.
func LoadFile(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read script: %w", err)
	}
	var f File
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("script %s is not a valid script file (the format: docs/scripted-model.md): %w", path, err)
	}
	if f.Version != 0 && f.Version != FormatVersion {
		return nil, fmt.Errorf("script %s is format version %d; this Sift reads version %d (docs/scripted-model.md)", path, f.Version, FormatVersion)
	}
	if len(f.Replies) == 0 {
		return nil, fmt.Errorf("script %s has no replies", path)
	}
	if err := validate(data); err != nil {
		return nil, fmt.Errorf("script %s does not fit the script format (docs/scripted-model.md, llm/scripted/script.schema.json): %w", path, err)
	}
	replies := make([]Reply, len(f.Replies))
	for i, fr := range f.Replies {
		r, err := fr.reply()
		if err != nil {
			return nil, fmt.Errorf("script %s, reply %d: %w", path, i+1, err)
		}
		replies[i] = r
	}
	return New(replies...), nil
}

func (fr FileReply) reply() (Reply, error) {
	switch {
	case fr.Status != 0:
		return Reply{Status: fr.Status, RetryAfter: fr.RetryAfter, Err: errorOrNil(fr.Error)}, nil
	case fr.Error != "":
		return Reply{Err: errorOrNil(fr.Error)}, nil
	case fr.Content == "" && len(fr.ToolCalls) == 0:
		return Reply{}, fmt.Errorf("a reply needs content, tool_calls, status or error")
	}
	for _, tc := range fr.ToolCalls {
		if tc.Name == "" {
			return Reply{}, fmt.Errorf("a tool call has no name")
		}
	}
	return Reply{file: &fr, Func: func(req Request) (*schema.Message, error) {
		msg := &schema.Message{Role: schema.Assistant, Content: fill(fr.Content, req)}
		for i, tc := range fr.ToolCalls {
			args := string(tc.Arguments)
			if args == "" {
				args = "{}"
			}
			if filled, err := fillJSON(args, req); err == nil {
				args = filled
			}
			msg.ToolCalls = append(msg.ToolCalls, schema.ToolCall{
				Index:    intPtr(i),
				Type:     "function",
				Function: schema.FunctionCall{Name: tc.Name, Arguments: args},
			})
		}
		return msg, nil
	}}, nil
}

func intPtr(i int) *int { return &i }

func errorOrNil(s string) error {
	if s == "" {
		return nil
	}
	return fmt.Errorf("%s", s)
}

var placeholder = regexp.MustCompile(`\{\{(last_tool_result|section:[^}]+|line:[^}]+)\}\}`)

// fill replaces placeholders in s with text from the request.
func fill(s string, req Request) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		key := m[2 : len(m)-2]
		var v string
		switch {
		case key == "last_tool_result":
			for i := len(req.Messages) - 1; i >= 0; i-- {
				if req.Messages[i].Role == schema.Tool {
					v = req.Messages[i].Content
					break
				}
			}
		case strings.HasPrefix(key, "section:"):
			v = section(lastUser(req), strings.TrimPrefix(key, "section:"))
		case strings.HasPrefix(key, "line:"):
			v = lastLine(req, strings.TrimPrefix(key, "line:"))
		}
		if strings.TrimSpace(v) == "" {
			return "(none)"
		}
		return strings.TrimSpace(v)
	})
}

// fillJSON fills placeholders inside every string of a JSON value.
func fillJSON(args string, req Request) (string, error) {
	var v any
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		return "", err
	}
	var walk func(any) any
	walk = func(x any) any {
		switch t := x.(type) {
		case string:
			return fill(t, req)
		case []any:
			for i := range t {
				t[i] = walk(t[i])
			}
		case map[string]any:
			for k := range t {
				t[k] = walk(t[k])
			}
		}
		return x
	}
	out, err := json.Marshal(walk(v))
	return string(out), err
}

func lastUser(req Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == schema.User {
			return req.Messages[i].Content
		}
	}
	return ""
}

// section returns the body of the "## title" section of a Markdown text.
func section(text, title string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "## ") {
			if in {
				break
			}
			in = strings.TrimSpace(strings.TrimPrefix(line, "## ")) == title
			continue
		}
		if in {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

func lastLine(req Request, prefix string) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		lines := strings.Split(req.Messages[i].Content, "\n")
		for j := len(lines) - 1; j >= 0; j-- {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(lines[j]), prefix); ok {
				return rest
			}
		}
	}
	return ""
}
