package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
)

// updateCapture re-captures testdata/recordings/openai-followup (make
// recordings does it).
var updateCapture = flag.Bool("update-capture", false, "re-capture "+captureDir+" from the real OpenAI client against the scripted model server")

const (
	captureDir = "testdata/recordings/openai-followup"
	// captureKey is the API key the capture is made with; the exported
	// recording must not contain it.
	captureKey = "sk-capture-7f3a9c2e5b1d8f4a6c0e"
)

// TestOpenAICapturedRecording checks the recording captured on the wire
// from the real OpenAI client (Sift's provider code, talking HTTP to the
// scripted model server), as a capture from a real provider looks: two
// questions of one session (a question and its follow-up), OpenAI
// chat-completions requests and responses with their headers, no agent
// names, the key redacted. TestCheckedInRecordingsReplay replays it.
// Re-capture it with: go test ./eval -run TestOpenAICapturedRecording
// -update-capture (or make recordings).
func TestOpenAICapturedRecording(t *testing.T) {
	if *updateCapture {
		captureOpenAIRecording(t, captureDir)
	}
	raw, err := os.ReadFile(filepath.Join(captureDir, "trajectory.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(captureKey)) || !bytes.Contains(raw, []byte(`"Authorization":"`+llm.Redacted)) {
		t.Errorf("the captured Authorization header is not redacted")
	}
	for i, line := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		var ex struct {
			Agent   string `json:"agent"`
			Request struct {
				Model string `json:"model"`
				Tools []struct {
					Function struct {
						Parameters json.RawMessage `json:"parameters"`
					} `json:"function"`
				} `json:"tools"`
			} `json:"request"`
			Response struct {
				Object string `json:"object"`
			} `json:"response"`
		}
		if err := json.Unmarshal(line, &ex); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if ex.Agent != "" || ex.Request.Model != "gpt-4o-mini" || ex.Response.Object != "chat.completion" {
			t.Errorf("line %d is not a wire capture: agent %q, model %q, response object %q", i+1, ex.Agent, ex.Request.Model, ex.Response.Object)
		}
		for _, tl := range ex.Request.Tools {
			if len(tl.Function.Parameters) < 20 {
				t.Errorf("line %d: a tool without its JSON schema: %s", i+1, tl.Function.Parameters)
			}
		}
	}
	rec, err := OpenRecording(captureDir)
	if err != nil {
		t.Fatal(err)
	}
	if qs := rec.Manifest.Questions(); len(qs) != 2 || len(rec.Records) != 6 {
		t.Errorf("capture: questions %q, %d calls; want 2 questions, 6 calls", qs, len(rec.Records))
	}
}

// captureOpenAIRecording runs two questions of one session with the real
// OpenAI client against the scripted model server, through a proxy that
// writes each HTTP exchange as it went over the wire, and exports the
// session with that capture as its trajectory.
func captureOpenAIRecording(t *testing.T, dir string) {
	ctx := context.Background()
	questions := []struct{ q, code, answer string }{
		{"What is the total revenue?", `import pandas as pd
df = pd.read_csv("input/sales.csv")
print(f"total revenue: {df.revenue.sum():.2f}")
`, "The total revenue is {{line:total revenue: }}."},
		{"And the average revenue per order?", `import pandas as pd
df = pd.read_csv("input/sales.csv")
print(f"average order: {df.revenue.mean():.2f} over {len(df)} orders")
`, "The average revenue per order is {{line:average order: }}."},
	}
	var file scripted.File
	for _, q := range questions {
		args, _ := json.Marshal(map[string]string{"code": q.code})
		file.Replies = append(file.Replies,
			scripted.FileReply{ToolCalls: []scripted.FileToolCall{{Name: "python", Arguments: args}}},
			scripted.FileReply{Content: q.answer},
			scripted.FileReply{Content: "# Answer\n\n{{section:Answer submitted}}"})
	}
	scriptPath := filepath.Join(t.TempDir(), "script.json")
	b, _ := json.Marshal(file)
	if err := os.WriteFile(scriptPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := scripted.LoadFile(scriptPath)
	if err != nil {
		t.Fatal(err)
	}
	server := scripted.NewServer(script)
	defer server.Close()

	var (
		mu      sync.Mutex
		capture bytes.Buffer
	)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, server.URL+r.URL.Path, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if !json.Valid(out) {
			t.Errorf("capture: the reply is not one JSON object (a streamed reply?): %.200s", out)
		}
		line, _ := json.Marshal(map[string]any{
			"headers":  map[string]string{"Authorization": r.Header.Get("Authorization")},
			"request":  json.RawMessage(body),
			"response": json.RawMessage(out),
		})
		mu.Lock()
		capture.Write(append(line, '\n'))
		mu.Unlock()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		w.Write(out)
	}))
	defer proxy.Close()

	m, err := llm.New(ctx, llm.Endpoint{BaseURL: proxy.URL + "/v1", APIKey: captureKey, Model: "gpt-4o-mini"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := replayConfig(t)
	cfg.Models = agents.Models{Default: m, Names: map[string]string{"default": "gpt-4o-mini"}}
	s, err := agents.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var ws string
	for i, q := range questions {
		req := agents.Request{Mode: agents.ModeQuick, Question: q.q, Yes: true, SessionID: filepath.Base(ws)}
		if i == 0 {
			req.Files, req.SessionID = []string{"../examples/data/sales.csv"}, ""
		}
		for e := range s.Run(ctx, req) {
			if e.Kind == event.Done {
				if e.Err != nil {
					t.Fatalf("question %d: %v", i+1, e.Err)
				}
				ws = e.Path
			}
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "trajectory.jsonl"), capture.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := OpenRecording(ws)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := Export(rec, dir, ExportOptions{Inputs: true, Secrets: []string{captureKey}}); err != nil {
		t.Fatal(err)
	}
}
