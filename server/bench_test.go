package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/operator"
)

// roleModel answers each agent role at once, from what it is asked rather
// than from a queue, so many sessions can share it: the planner plans one
// step, the replanner submits, the code agent answers in words (no
// Python), and the report is one line. With no search provider a step
// goes straight to the code agent; an executor, where one runs, hands the
// step to it.
// hold, when set, is waited on by the code agent: the step "runs long".
// spent adds up the time every call took, the hold included: the model's
// share of a run's wall time, which the framework's time leaves out.
type roleModel struct {
	role  string
	tools []*schema.ToolInfo
	hold  <-chan struct{}
	spent *atomic.Int64
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
	start := time.Now()
	defer func() { m.spent.Add(int64(time.Since(start))) }()
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

func roleModels(hold <-chan struct{}, spent *atomic.Int64) agents.Models {
	return agents.Models{
		Planner:  &roleModel{role: "planner", spent: spent},
		Executor: &roleModel{role: "executor", spent: spent},
		Code:     &roleModel{role: "code", hold: hold, spent: spent},
		Report:   &roleModel{role: "report", spent: spent},
	}
}

// streamEnd is what a benchClient saw of its run: when the run's done
// event was made and how many steps finished.
type streamEnd struct {
	err   error
	done  time.Time
	steps int
}

// benchClient reads one event stream and records, for each event, how
// long after the event's time it arrived.
func benchClient(url string, ready chan<- struct{}, lat chan<- time.Duration, ends chan<- streamEnd) {
	resp, err := http.Get(url)
	if err != nil {
		ends <- streamEnd{err: err}
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	signalled := false
	var end streamEnd
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
		switch e.Kind {
		case "step_finished":
			end.steps++
		case "done":
			end.done = e.Time
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
	if end.done.IsZero() {
		end.err = fmt.Errorf("the stream of %s ended without a done event", url)
	}
	ends <- end
}

// frameworkPerStep is the framework's own time per step, in ms: the runs'
// wall time, from the ask to the done event, less the time spent in the
// model, over the steps they finished.
func frameworkPerStep(wall, model time.Duration, steps int) float64 {
	return float64(wall-model) / float64(time.Millisecond) / float64(max(steps, 1))
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
// from their creation to their arrival at each client. Its framework time
// per step is the run's, less the model's, while the server (and the 200
// clients, in this process) stream it.
func BenchmarkSSEFanout(b *testing.B) {
	const clients = 200
	var all []time.Duration
	var perStep []float64
	for b.Loop() {
		hold := make(chan struct{})
		var spent atomic.Int64
		cfg := testConfig(b, nil)
		cfg.Sift.Models = roleModels(hold, &spent)
		cfg.Sift.PythonMode = operator.PythonProcess // no kernel warming up: no Python at all
		ts := startServer(b, cfg)
		id := ts.createSession()
		start := time.Now()
		ts.ask(id, map[string]any{"question": "x", "mode": "plan"})
		ready, ends := make(chan struct{}, clients), make(chan streamEnd, clients)
		lat := make(chan time.Duration, clients*64)
		for range clients {
			go benchClient(ts.http.URL+"/v1/sessions/"+id+"/events", ready, lat, ends)
		}
		for range clients {
			<-ready
		}
		close(hold)
		var end streamEnd
		for range clients {
			if end = <-ends; end.err != nil {
				b.Fatal(end.err)
			}
		}
		perStep = append(perStep, frameworkPerStep(end.done.Sub(start), time.Duration(spent.Load()), end.steps))
		close(lat)
		for d := range lat {
			all = append(all, d)
		}
	}
	b.ReportMetric(float64(percentile(all, 0.5).Microseconds()), "p50-µs")
	b.ReportMetric(float64(percentile(all, 0.99).Microseconds()), "p99-µs")
	b.ReportMetric(float64(len(all))/float64(b.N), "deliveries/op")
	b.ReportMetric(avg(perStep), "ms-framework/step")
}

// BenchmarkConcurrentSessions: 20 sessions run at once with instant
// models (no Python is run). It reports the heap each session holds while
// all are in their step, the wall time of a whole run, and the
// framework's own time per step: that wall time less the time spent in
// the model (the held step's wait included), for the workspace, event
// log, agents, checkpoints and reports of 20 runs sharing the machine.
// Python runs per call (none are made), so no kernel warms up beside them.
func BenchmarkConcurrentSessions(b *testing.B) {
	const sessions = 20
	var perSession, runTime, perStep []float64
	for b.Loop() {
		hold := make(chan struct{})
		var spent atomic.Int64
		cfg := testConfig(b, nil)
		cfg.MaxRuns = sessions
		cfg.Sift.Models = roleModels(hold, &spent)
		cfg.Sift.PythonMode = operator.PythonProcess // no kernel warming up: no Python at all
		ts := startServer(b, cfg)
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		ids := make([]string, sessions)
		ready := make(chan struct{}, sessions)
		lat := make(chan time.Duration, sessions*64)
		ends := make([]chan streamEnd, sessions)
		asked := make([]time.Time, sessions)
		start := time.Now()
		for i := range ids {
			ids[i] = ts.createSession()
			ends[i] = make(chan streamEnd, 1)
			asked[i] = time.Now()
			ts.ask(ids[i], map[string]any{"question": "x", "mode": "plan"})
			go benchClient(ts.http.URL+"/v1/sessions/"+ids[i]+"/events", ready, lat, ends[i])
		}
		for range sessions {
			<-ready
		}
		runtime.GC()
		var during runtime.MemStats
		runtime.ReadMemStats(&during)
		perSession = append(perSession, float64(during.HeapAlloc-min(before.HeapAlloc, during.HeapAlloc))/sessions)
		close(hold)
		var wall time.Duration
		steps := 0
		for i := range ids {
			end := <-ends[i]
			if end.err != nil {
				b.Fatal(end.err)
			}
			wall += end.done.Sub(asked[i])
			steps += end.steps
		}
		runTime = append(runTime, float64(time.Since(start).Milliseconds())/sessions)
		perStep = append(perStep, frameworkPerStep(wall, time.Duration(spent.Load()), steps))
	}
	b.ReportMetric(avg(perSession)/1024, "KiB-heap/session")
	b.ReportMetric(avg(runTime), "ms-wall-total/session")
	b.ReportMetric(avg(perStep), "ms-framework/step")
}

func avg(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(max(len(v), 1))
}
