package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/sift-agent/sift/tools/mcp"
)

// sseRetryServer plays the MCP conformance suite's sse-retry scenario
// (SEP-1699): a tools/call answered with an SSE stream that sends only a
// priming event (an id and "retry: 500") and closes 50 ms later; the
// result comes on the GET stream the client opens to resume.
type sseRetryServer struct {
	mu          sync.Mutex
	closedAt    time.Time
	getAt       time.Time
	lastEventID string
	pendingID   json.RawMessage
}

const sseRetryMS = 500

func (s *sseRetryServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Mcp-Session-Id", "session-1")
	if r.Method == http.MethodGet {
		s.mu.Lock()
		s.getAt, s.lastEventID = time.Now(), r.Header.Get("Last-Event-ID")
		pending := s.pendingID
		s.pendingID = nil
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "id: event-2\nretry: %d\ndata: \n\n", sseRetryMS)
		if pending != nil {
			res := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"resumed"}]}}`, pending)
			fmt.Fprintf(w, "event: message\nid: event-3\ndata: %s\n\n", res)
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		return
	}
	body, _ := io.ReadAll(r.Body)
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal(body, &msg)
	switch {
	case msg.Method == "initialize":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-03-26","serverInfo":{"name":"sse-retry","version":"1"},"capabilities":{"tools":{}}}}`, msg.ID)
	case msg.Method == "tools/list":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"reconnect","description":"closes its stream","inputSchema":{"type":"object"}}]}}`, msg.ID)
	case msg.Method == "tools/call":
		s.mu.Lock()
		s.pendingID = msg.ID
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "id: event-1\nretry: %d\ndata: \n\n", sseRetryMS)
		w.(http.Flusher).Flush()
		time.Sleep(50 * time.Millisecond)
		s.mu.Lock()
		s.closedAt = time.Now()
		s.mu.Unlock()
	case msg.ID == nil:
		w.WriteHeader(http.StatusAccepted)
	default:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, msg.ID)
	}
}

// TestHTTPToolCallResumesAfterTheServerClosesItsStream: a tool call whose
// response stream the server closes before the result (it asked for a
// reconnection after "retry" ms) is answered on the stream the client
// resumes, with Last-Event-ID, no sooner than the server asked (the
// conformance suite's sse-retry scenario). The call used to fail: the
// client did not reconnect at all.
func TestHTTPToolCallResumesAfterTheServerClosesItsStream(t *testing.T) {
	s := &sseRetryServer{}
	hs := httptest.NewServer(s)
	t.Cleanup(hs.Close)
	ts, _ := connect(t, mcp.ServerConfig{Name: "retry", URL: hs.URL, CallTimeout: 20 * time.Second})
	if p := ts.Problems(); len(p) != 0 {
		t.Fatalf("problems: %v", p)
	}
	out, err := find(t, ts, "retry_reconnect").InvokableRun(context.Background(), `{}`)
	if err != nil || out != "resumed" {
		t.Fatalf("call = %q, %v; want the result from the resumed stream", out, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastEventID == "" {
		t.Error("the client resumed without Last-Event-ID")
	}
	if wait := s.getAt.Sub(s.closedAt); wait < (sseRetryMS-50)*time.Millisecond {
		t.Errorf("the client reconnected %v after the stream closed, before the server's retry of %d ms", wait, sseRetryMS)
	}
}
