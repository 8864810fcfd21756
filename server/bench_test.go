package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents"
)

// roleModel answers each agent role at once, from what it is asked rather
// than from a queue, so many sessions can share it: the planner plans one
// step, the replanner submits, the executor hands the step to the code
// agent, which answers in words (no Python), and the report is one line.
// hold, when set, is waited on by the code agent: the step "runs long".
type roleModel struct {
	role  string
	tools []*schema.ToolInfo
	hold  <-chan struct{}
}

func (m *roleModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	c := *m
	c.tools = tools
	return &c, nil
}

func (m *roleModel) offers(name string) bool {
	return slices.ContainsFunc(m.tools, func(t *schema.ToolInfo) bool { return t.Name == name })
}

func toolCall(name string, args any) *schema.Message {
	b, _ := json.Marshal(args)
	return &schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: "call_" + name, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: string(b)}}}}
}

func (m *roleModel) Generate(ctx context.Context, in []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	last := in[len(in)-1]
	switch {
	case m.offers("submit_result"):
		return toolCall("submit_result", map[string]any{"answer": "42"}), nil
	case m.offers("create_plan"):
		return toolCall("create_plan", steps("Say 42")), nil
	case m.offers("code_agent") && last.Role != schema.Tool:
		return toolCall("code_agent", map[string]string{"request": "say 42"}), nil
	case m.role == "code" && m.hold != nil:
		select {
		case <-m.hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if m.role == "report" {
		return schema.AssistantMessage("# Report\n\n42 [step 1].", nil), nil
	}
	return schema.AssistantMessage("The answer is 42.", nil), nil
}

func (m *roleModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

func roleModels(hold <-chan struct{}) agents.Models {
	return agents.Models{
		Planner:  &roleModel{role: "planner"},
		Executor: &roleModel{role: "executor"},
		Code:     &roleModel{role: "code", hold: hold},
		Report:   &roleModel{role: "report"},
	}
}

// benchClient reads one event stream and records, for each event, how
// long after the event's time it arrived.
func benchClient(url string, ready chan<- struct{}, lat chan<- time.Duration, errs chan<- error) {
	resp, err := http.Get(url)
	if err != nil {
		errs <- err
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	signalled := false
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var e struct {
			Kind string    `json:"kind"`
			Time time.Time `json:"time"`
		}
		if json.Unmarshal([]byte(data), &e) != nil {
			continue
		}
		if e.Kind == "step_started" && !signalled {
			signalled = true
			ready <- struct{}{}
			continue
		}
		if signalled {
			lat <- time.Since(e.Time)
		}
	}
	errs <- nil
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

// BenchmarkSSEFanout: 200 clients follow one run. The run is held in its
// step until every client has caught up; the events after that are timed
// from their creation to their arrival at each client.
func BenchmarkSSEFanout(b *testing.B) {
	const clients = 200
	var all []time.Duration
	for b.Loop() {
		hold := make(chan struct{})
		cfg := testConfig(b, nil)
		cfg.Sift.Models = roleModels(hold)
		ts := startServer(b, cfg)
		id := ts.createSession()
		ts.ask(id, map[string]any{"question": "x", "mode": "plan"})
		ready, errs := make(chan struct{}, clients), make(chan error, clients)
		lat := make(chan time.Duration, clients*64)
		for range clients {
			go benchClient(ts.http.URL+"/v1/sessions/"+id+"/events", ready, lat, errs)
		}
		for range clients {
			<-ready
		}
		close(hold)
		for range clients {
			if err := <-errs; err != nil {
				b.Fatal(err)
			}
		}
		close(lat)
		for d := range lat {
			all = append(all, d)
		}
	}
	b.ReportMetric(float64(percentile(all, 0.5).Microseconds()), "p50-µs")
	b.ReportMetric(float64(percentile(all, 0.99).Microseconds()), "p99-µs")
	b.ReportMetric(float64(len(all))/float64(b.N), "deliveries/op")
}

// BenchmarkConcurrentSessions: 20 sessions run at once with instant
// models (no Python is run). It reports the heap each session holds while
// all are in their step, and the wall time of a whole run, which is the
// framework's own time: workspace, event log, agents, checkpoints,
// reports (the Python kernel warms up in the background, unused).
func BenchmarkConcurrentSessions(b *testing.B) {
	const sessions = 20
	var perSession, runTime []float64
	for b.Loop() {
		hold := make(chan struct{})
		cfg := testConfig(b, nil)
		cfg.MaxRuns = sessions
		cfg.Sift.Models = roleModels(hold)
		ts := startServer(b, cfg)
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		ids := make([]string, sessions)
		ready, errs := make(chan struct{}, sessions), make(chan error, sessions)
		lat := make(chan time.Duration, sessions*64)
		start := time.Now()
		for i := range ids {
			ids[i] = ts.createSession()
			ts.ask(ids[i], map[string]any{"question": "x", "mode": "plan"})
			go benchClient(ts.http.URL+"/v1/sessions/"+ids[i]+"/events", ready, lat, errs)
		}
		for range sessions {
			<-ready
		}
		runtime.GC()
		var during runtime.MemStats
		runtime.ReadMemStats(&during)
		perSession = append(perSession, float64(during.HeapAlloc-min(before.HeapAlloc, during.HeapAlloc))/sessions)
		close(hold)
		for range sessions {
			if err := <-errs; err != nil {
				b.Fatal(err)
			}
		}
		runTime = append(runTime, float64(time.Since(start).Milliseconds())/sessions)
	}
	b.ReportMetric(avg(perSession)/1024, "KiB-heap/session")
	b.ReportMetric(avg(runTime), "ms-wall-total/session")
}

func avg(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(max(len(v), 1))
}
