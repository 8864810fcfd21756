package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/trajectory"
)

// TestCheckedInRecordingsReplay replays every recording under
// testdata/recordings/ against the current code: a change to a prompt, a
// tool or the agent graph that alters what the agents ask shows up here
// as the first diverging request. Recordings are made with `make
// recordings` (from the scripted demos).
func TestCheckedInRecordingsReplay(t *testing.T) {
	dirs, err := filepath.Glob("testdata/recordings/*/" + ManifestFile)
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no recordings under testdata/recordings (%v)", err)
	}
	for _, m := range dirs {
		dir := filepath.Dir(m)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			rec, err := OpenRecording(dir)
			if err != nil {
				t.Fatal(err)
			}
			replayExpectSame(t, rec)
		})
	}
}

// TestOpenAIShapedRecordingReplays replays the demo recording written the
// way a capture from a real provider looks: OpenAI chat-completions
// exchanges with headers.
func TestOpenAIShapedRecordingReplays(t *testing.T) {
	rec, err := OpenRecording("testdata/recordings/demo")
	if err != nil {
		t.Fatal(err)
	}
	var lines []byte
	for _, r := range rec.Records {
		b, err := json.Marshal(openAIExchangeOf(r))
		if err != nil {
			t.Fatal(err)
		}
		lines = append(append(lines, b...), '\n')
	}
	if rec.Records, err = trajectory.Read(bytes.NewReader(lines)); err != nil {
		t.Fatal(err)
	}
	replayExpectSame(t, rec)
}

func replayExpectSame(t *testing.T, rec *Recording) {
	t.Helper()
	res, err := Replay(context.Background(), rec, ReplayOptions{Config: replayConfig(t)})
	if err != nil {
		t.Fatal(err)
	}
	if qs := rec.Manifest.Questions(); len(res.Questions) != len(qs) {
		t.Errorf("replayed %d questions, recorded %d: %q", len(res.Questions), len(qs), qs)
	}
	if !res.Same() {
		for _, d := range res.Divergences {
			t.Errorf("divergence: %s", d)
		}
		for _, c := range res.Changes {
			t.Errorf("change: %s", c)
		}
		if res.Error != "" {
			t.Errorf("run failed: %s", res.Error)
		}
		t.Log("if the change is intended, re-record with `make recordings`")
	}
}

// openAIExchangeOf writes a record as a captured OpenAI exchange.
func openAIExchangeOf(r trajectory.Record) map[string]any {
	msg := func(m trajectory.Message) map[string]any {
		out := map[string]any{"role": m.Role, "content": m.Content}
		if m.ToolCallID != "" {
			out["tool_call_id"] = m.ToolCallID
		}
		if len(m.ToolCalls) > 0 {
			out["content"] = nil
			var calls []map[string]any
			for _, tc := range m.ToolCalls {
				calls = append(calls, map[string]any{"id": tc.ID, "type": "function", "function": map[string]any{"name": tc.Name, "arguments": tc.Arguments}})
			}
			out["tool_calls"] = calls
		}
		return out
	}
	var msgs []map[string]any
	for _, m := range r.Request {
		msgs = append(msgs, msg(m))
	}
	req := map[string]any{"model": "gpt-4o-mini", "messages": msgs}
	var tools []map[string]any
	for _, d := range r.ToolDefs {
		fn := map[string]any{"name": d.Name, "description": d.Description}
		if len(d.Parameters) > 0 {
			fn["parameters"] = d.Parameters
		}
		tools = append(tools, map[string]any{"type": "function", "function": fn})
	}
	if len(tools) > 0 {
		req["tools"] = tools
		if r.ToolChoiceForced {
			req["tool_choice"] = "required"
		}
	}
	return map[string]any{
		"agent":    r.Agent,
		"headers":  map[string]string{"Authorization": llm.Redacted},
		"request":  req,
		"response": map[string]any{"choices": []any{map[string]any{"message": msg(*r.Response)}}, "usage": map[string]int{"prompt_tokens": 100, "completion_tokens": 10}},
	}
}

// TestReplayKeepsTheRecordedDateAndLocale replays the demo recording as if
// it had been made on another day, in a session with a locale, on a
// machine whose LANG names another: the prompts' date note must be the
// recorded one, or every recording diverges the day after it was made.
// Every system prompt carries the date note but the replanner's, which
// resolves no dates (the planner and the code agent do).
func TestReplayKeepsTheRecordedDateAndLocale(t *testing.T) {
	rec, err := OpenRecording("testdata/recordings/demo")
	if err != nil {
		t.Fatal(err)
	}
	day := rec.Records[0].Time.Format("2006-01-02") + " (" + rec.Records[0].Time.Weekday().String() + ")"
	then := time.Date(2024, 2, 15, 9, 30, 0, 0, time.UTC)
	replanners := 0
	for i := range rec.Records {
		rec.Records[i].Time = then.Add(time.Duration(i) * time.Second)
		for j, m := range rec.Records[i].Request {
			if m.Role != "system" {
				continue
			}
			if strings.HasPrefix(m.Content, "You are Sift's replanner") {
				replanners++
				if strings.Contains(m.Content, day) || strings.Contains(m.Content, "## Today") {
					t.Fatalf("record %d: the replanner's system prompt has a date note, which this test does not expect", i)
				}
				continue
			}
			if !strings.Contains(m.Content, day) {
				t.Fatalf("record %d: system prompt has no date note %q", i, day)
			}
			m.Content = strings.Replace(m.Content, day, "2024-02-15 (Thursday)", 1)
			m.Content = regexp.MustCompile(`(## Today\n[^\n]*?time zone [^,.]+)(, locale [A-Za-z0-9-]+)?\.`).ReplaceAllString(m.Content, "$1, locale pt-BR.")
			rec.Records[i].Request[j] = m
		}
	}
	if replanners == 0 || replanners == len(rec.Records) {
		t.Fatalf("%d of %d records are the replanner's: want some, and others with the date note", replanners, len(rec.Records))
	}
	t.Setenv("LANG", "de_DE.UTF-8")
	replayExpectSame(t, rec)
}
