package mcpserver

import (
	"context"
	"encoding/csv"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/operator"
)

// salesCSV is the example data the tests analyse.
var salesCSV = filepath.Join("..", "examples", "data", "sales.csv")

// testEnv is a server over a data directory holding sales.csv.
type testEnv struct {
	srv      *Server
	data     string // the allowed directory
	sessions string
}

// newEnv builds a server allowing one directory with a copy of sales.csv;
// mutate adjusts the config.
func newEnv(t *testing.T, mutate func(*Config)) *testEnv {
	t.Helper()
	py, err := operator.FindPython(context.Background(), "")
	if err != nil {
		t.Skipf("needs Python with pandas and matplotlib (CI installs them): %v", err)
	}
	data := t.TempDir()
	b, err := os.ReadFile(salesCSV)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "sales.csv"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	sessions := t.TempDir()
	cfg := Config{Sift: agents.Config{SessionsRoot: sessions, Python: py, CodeTimeout: time.Minute}, Allow: []string{data}, Logger: slog.New(slog.DiscardHandler)}
	if mutate != nil {
		mutate(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &testEnv{srv: srv, data: data, sessions: sessions}
}

// progressLog collects the progress notifications a client receives.
type progressLog struct {
	mu   sync.Mutex
	msgs []string
	done chan struct{}
	once sync.Once
}

func newProgressLog() *progressLog { return &progressLog{done: make(chan struct{})} }

func (p *progressLog) handle(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	p.mu.Lock()
	p.msgs = append(p.msgs, fmt.Sprintf("%v %g %s", req.Params.ProgressToken, req.Params.Progress, req.Params.Message))
	p.mu.Unlock()
	if req.Params.Message == "done" || req.Params.Message == "failed" {
		p.once.Do(func() { close(p.done) })
	}
}

// wait returns the notifications once the last one ("done" or "failed")
// arrived; notifications are delivered apart from the call's answer.
func (p *progressLog) wait(t *testing.T) []string {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		t.Error("no final progress notification arrived")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.msgs)
}

// connect joins a client to the server over in-process transports.
func connect(t *testing.T, srv *Server, progress *progressLog) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	return clientOver(t, ct, progress)
}

// clientOver connects a test client over any transport.
func clientOver(t *testing.T, tr mcp.Transport, progress *progressLog) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{}
	if progress != nil {
		opts.ProgressNotificationHandler = progress.handle
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sift-test", Version: "1"}, opts).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls a tool and returns its text and whether it is an error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, progressToken any) (string, bool) {
	t.Helper()
	p := &mcp.CallToolParams{Name: name, Arguments: args}
	if progressToken != nil {
		p.SetProgressToken(progressToken)
	}
	res, err := cs.CallTool(context.Background(), p)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// regionTotals sums sales.csv's revenue by region, from the file itself,
// largest first.
func regionTotals(t *testing.T) (regions []string, totals map[string]float64) {
	t.Helper()
	f, err := os.Open(salesCSV)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	ri, vi := slices.Index(rows[0], "region"), slices.Index(rows[0], "revenue")
	totals = map[string]float64{}
	for _, r := range rows[1:] {
		v, err := strconv.ParseFloat(r[vi], 64)
		if err != nil {
			t.Fatal(err)
		}
		if _, seen := totals[r[ri]]; !seen {
			regions = append(regions, r[ri])
		}
		totals[r[ri]] += v
	}
	slices.SortFunc(regions, func(a, b string) int {
		switch {
		case totals[a] > totals[b]:
			return -1
		case totals[a] < totals[b]:
			return 1
		}
		return 0
	})
	return regions, totals
}

// forPeople formats an amount of 100 or more as the built-in analyses
// print it: thousands separators, whole numbers without decimals, others
// with one.
func forPeople(v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if v == float64(int64(v)) {
		s = strconv.FormatInt(int64(v), 10)
	}
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	return b.String()
}
