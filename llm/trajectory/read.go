package trajectory

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Read reads a recording, one JSON object per line, in either
// of two shapes:
//   - Sift's own Record (a session's trajectory.jsonl);
//   - an OpenAI chat-completions exchange captured from a real provider:
//     {"agent": "...", "headers": {...}, "request": {"model": ..., "messages":
//     [...], "tools": [...], "tool_choice": ...}, "response": {"choices":
//     [{"message": {...}}], "usage": {...}}}; "agent", "step" and "turn"
//     (the question of the session, from 1) are optional.
//
// Blank lines are skipped. A line that is neither says which line and why.
func Read(r io.Reader) ([]Record, error) {
	var out []Record
	if _, err := Scan(r, false, func(rec Record) { out = append(out, rec) }); err != nil {
		return nil, err
	}
	return out, nil
}

// Scan calls fn with each record of a recording (see
// Read), in order, without holding them all. With skipDamaged, a
// line that is not a record (one cut short when the process died mid-write)
// is skipped and counted in damaged instead of ending the read, as a
// session's usage is read; without it such a line is an error, as a replay
// reads. A read error ends the scan either way.
func Scan(r io.Reader, skipDamaged bool, fn func(Record)) (damaged int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<28)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		rec, err := parseRecord(line)
		if err != nil {
			if skipDamaged {
				damaged++
				continue
			}
			return damaged, fmt.Errorf("recording line %d: %w", n, err)
		}
		fn(rec)
	}
	if err := sc.Err(); err != nil {
		return damaged, fmt.Errorf("read recording: %w", err)
	}
	return damaged, nil
}

// Load reads the recording file at path (see Read).
func Load(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open recording: %w", err)
	}
	defer f.Close()
	recs, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return recs, nil
}

func parseRecord(line []byte) (Record, error) {
	var probe struct {
		Request json.RawMessage `json:"request"`
	}
	if err := json.Unmarshal(line, &probe); err != nil {
		return Record{}, fmt.Errorf("not JSON: %w", err)
	}
	req := bytes.TrimSpace(probe.Request)
	switch {
	case len(req) == 0:
		return Record{}, fmt.Errorf(`no "request": a recording line is a Sift trajectory record or an OpenAI chat-completions exchange`)
	case req[0] == '[' || string(req) == "null":
		// A record written with no messages has a null request.
		var rec Record
		if err := json.Unmarshal(line, &rec); err != nil {
			return Record{}, fmt.Errorf("not a Sift trajectory record: %w", err)
		}
		return rec, nil
	case req[0] == '{':
		return parseOpenAIExchange(line)
	}
	return Record{}, fmt.Errorf(`"request" is neither a list of messages nor an OpenAI request object`)
}

// openAIExchange is one captured chat-completions call.
type openAIExchange struct {
	Agent   string `json:"agent"`
	Step    int    `json:"step"`
	Turn    int    `json:"turn"`
	Request struct {
		Model      string          `json:"model"`
		Stream     bool            `json:"stream"`
		Messages   []openAIMessage `json:"messages"`
		Tools      []openAITool    `json:"tools"`
		ToolChoice json.RawMessage `json:"tool_choice"`
	} `json:"request"`
	Response *struct {
		Choices []struct {
			Message openAIMessage `json:"message"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens        int `json:"prompt_tokens"`
			CompletionTokens    int `json:"completion_tokens"`
			PromptTokensDetails *struct {
				CachedTokens int `json:"cached_tokens"`
			} `json:"prompt_tokens_details"`
		} `json:"usage"`
	} `json:"response"`
	Error json.RawMessage `json:"error"`
}

type openAIMessage struct {
	Role             string          `json:"role"`
	Name             string          `json:"name"`
	Content          json.RawMessage `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	ToolCallID       string          `json:"tool_call_id"`
	ToolCalls        []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

type openAITool struct {
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

func parseOpenAIExchange(line []byte) (Record, error) {
	var ex openAIExchange
	if err := json.Unmarshal(line, &ex); err != nil {
		return Record{}, fmt.Errorf("not an OpenAI chat-completions exchange: %w", err)
	}
	rec := Record{Agent: ex.Agent, Step: ex.Step, Turn: ex.Turn, Model: ex.Request.Model, Stream: ex.Request.Stream}
	for _, m := range ex.Request.Messages {
		tm, err := m.trajectory()
		if err != nil {
			return Record{}, err
		}
		rec.Request = append(rec.Request, tm)
	}
	for _, t := range ex.Request.Tools {
		f := t.Function
		rec.Tools = append(rec.Tools, f.Name)
		def := Tool{Name: f.Name, Description: f.Description}
		if p := bytes.TrimSpace(f.Parameters); len(p) > 0 && string(p) != "null" {
			def.Parameters = sortedJSON(p)
		}
		rec.ToolDefs = append(rec.ToolDefs, def)
	}
	if tc := bytes.TrimSpace(ex.Request.ToolChoice); len(tc) > 0 {
		rec.ToolChoiceForced = string(tc) == `"required"` || tc[0] == '{'
	}
	if ex.Response != nil {
		if len(ex.Response.Choices) > 0 {
			m, err := ex.Response.Choices[0].Message.trajectory()
			if err != nil {
				return Record{}, err
			}
			rec.Response = &m
		}
		if u := ex.Response.Usage; u != nil {
			rec.Usage = &Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
			if u.PromptTokensDetails != nil {
				rec.Usage.CachedTokens = u.PromptTokensDetails.CachedTokens
			}
		}
	}
	if e := bytes.TrimSpace(ex.Error); len(e) > 0 && string(e) != "null" {
		rec.Error = string(e)
	}
	return rec, nil
}

// trajectory converts an OpenAI message; content is a string, null, or a
// list of parts.
func (m openAIMessage) trajectory() (Message, error) {
	tm := Message{Role: m.Role, Name: m.Name, ReasoningContent: m.ReasoningContent, ToolCallID: m.ToolCallID}
	c := bytes.TrimSpace(m.Content)
	switch {
	case len(c) == 0 || string(c) == "null":
	case c[0] == '"':
		if err := json.Unmarshal(c, &tm.Content); err != nil {
			return tm, fmt.Errorf("message content: %w", err)
		}
	case c[0] == '[':
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(c, &parts); err != nil {
			return tm, fmt.Errorf("message content parts: %w", err)
		}
		for _, p := range parts {
			if strings.Contains(p.Type, "image") {
				tm.Parts = append(tm.Parts, "[image]")
			} else {
				tm.Parts = append(tm.Parts, p.Text)
			}
		}
	default:
		return tm, fmt.Errorf("message content is neither text nor a list of parts")
	}
	for _, tc := range m.ToolCalls {
		tm.ToolCalls = append(tm.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return tm, nil
}
