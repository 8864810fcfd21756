package agents

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
)

type bodySpy struct {
	mu     sync.Mutex
	bodies [][]byte
}

func (s *bodySpy) RoundTrip(r *http.Request) (*http.Response, error) {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	s.mu.Lock()
	s.bodies = append(s.bodies, b)
	s.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

// reportRequest runs a one-step analysis that draws a chart, through the
// real OpenAI client, and returns the report writer's request body.
func reportRequest(t *testing.T, images bool) map[string]any {
	t.Helper()
	code := "import pandas as pd\nimport matplotlib.pyplot as plt\ns = pd.read_csv('input/sales.csv').groupby('region')['revenue'].sum()\ns.plot(kind='bar', title='Revenue by region')\nplt.savefig('out/by_region.png')\nprint(s.to_string())"
	script := scripted.New(
		call(toolCreatePlan, steps("Revenue by region with a bar chart")),
		call("python", map[string]string{"code": code}),
		echoToolResult("Totals:\n"),
		call(toolSubmitResult, map[string]any{"answer": "North sells most: 150."}),
		text("# Revenue\n\nNorth sells most: 150 [step 1].\n\n![Revenue by region](out/by_region.png)"),
	)
	srv := scripted.NewServer(script)
	t.Cleanup(srv.Close)
	spy := &bodySpy{}
	m, err := llm.New(context.Background(), llm.Endpoint{BaseURL: srv.URL + "/v1", APIKey: "k", Model: "scripted"}, llm.WithTransport(spy))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Models: Models{Default: m, Images: map[string]bool{"report": images}}, SessionsRoot: t.TempDir(), Python: pythonOrSkip(t), CodeTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	if done := evs[len(evs)-1]; done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	var last map[string]any
	if err := json.Unmarshal(spy.bodies[len(spy.bodies)-1], &last); err != nil {
		t.Fatal(err)
	}
	return last
}

func TestReportWriterSeesTheChartsWhenItsModelTakesImages(t *testing.T) {
	body := reportRequest(t, true)
	msgs := body["messages"].([]any)
	user := msgs[len(msgs)-1].(map[string]any)
	parts, ok := user["content"].([]any)
	// by_region.png and the figure the kernel saved itself.
	if !ok || len(parts) != 3 {
		t.Fatalf("the report request's user content must be [text, image_url, image_url], got %d parts", len(parts))
	}
	txt := parts[0].(map[string]any)
	if txt["type"] != "text" || !strings.Contains(txt["text"].(string), "## Charts attached") || !strings.Contains(txt["text"].(string), "out/by_region.png") {
		t.Errorf("the text part must say which charts are attached: %v", txt)
	}
	img := parts[1].(map[string]any)
	url, _ := img["image_url"].(map[string]any)["url"].(string)
	if img["type"] != "image_url" || !strings.HasPrefix(url, "data:image/png;base64,iVBOR") {
		t.Errorf("the chart must go as an image_url data URI of the PNG, got type %v url %.40q", img["type"], url)
	}
}

func TestReportWriterSendsNoImagesByDefault(t *testing.T) {
	body := reportRequest(t, false)
	raw, _ := json.Marshal(body)
	if strings.Contains(string(raw), "image_url") {
		t.Error("a model not marked as taking images must get no image")
	}
}
