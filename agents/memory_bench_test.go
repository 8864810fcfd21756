package agents

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
)

// memoryBenchModel plays every role of a small analysis, from what each
// request shows (so the same script serves runs that ask and runs that
// are answered from memory): the planner plans one step, the code agent
// asks whether refunds count as negative revenue, then computes, the
// replanner submits, the report writer writes.
func memoryBenchModel(req scripted.Request) (*schema.Message, error) {
	last := req.Messages[len(req.Messages)-1]
	tools := make([]string, len(req.Tools))
	for i, t := range req.Tools {
		tools[i] = t.Name
	}
	switch {
	case req.Agent == "report":
		return scripted.Text("# Net revenue\n\nThe net revenue is 250 [step 1]."), nil
	case slices.Contains(tools, toolSubmitResult):
		return scripted.ToolCall(toolSubmitResult, `{"answer": "250"}`), nil
	case slices.Contains(tools, toolCreatePlan):
		return scripted.ToolCall(toolCreatePlan, `{"steps":[{"index":1,"description":"Sum the revenue net of refunds"}]}`), nil
	case last.Role == schema.Tool && strings.Contains(last.Content, "answered"):
		return scripted.ToolCall("python", `{"code": "print(250)"}`), nil
	case last.Role == schema.Tool:
		return scripted.Text("Result: " + last.Content), nil
	}
	return scripted.ToolCall("ask_user", `{"question": "Do refunds count as negative revenue?"}`), nil
}

// memoryCost is what one question cost: model calls, tokens, and the
// questions the person had to answer.
type memoryCost struct{ calls, tokens, asked int }

// askCounting runs req to its end on s, answering every question the run
// asks, and adds up what it cost.
func askCounting(b *testing.B, s *Sift, req Request) memoryCost {
	b.Helper()
	var c memoryCost
	add := func(evs []event.Event) event.Event {
		done := evs[len(evs)-1]
		if done.Err != nil {
			b.Fatalf("%q failed: %v", req.Question, done.Err)
		}
		if u := done.Usage; u != nil {
			c.calls += u.Calls
			c.tokens += u.PromptTokens + u.CompletionTokens
		}
		return done
	}
	done := add(collectB(s.Run(context.Background(), req)))
	for done.Interrupt != nil {
		c.asked++
		done = add(collectB(s.Resume(context.Background(), done.Session, map[string]any{done.Interrupt.ID: AnswerText("yes, as negative revenue")})))
	}
	return c
}

func collectB(seq func(func(event.Event) bool)) []event.Event {
	var evs []event.Event
	for e := range seq {
		evs = append(evs, e)
	}
	return evs
}

// BenchmarkMemory prints the model calls, tokens and questions to the
// person of three questions on one file — a first question, the same
// question again, and a second question that needs the same clarification
// — with memory off and on, side by side (make bench-memory).
func BenchmarkMemory(b *testing.B) {
	py := pythonOrSkip(b)
	csv := salesCSV(b)
	questions := []struct{ label, q string }{
		{"first question", "What is the net revenue?"},
		{"same question again", "what is the net revenue"},
		{"second question, same data", "What is the revenue net of refunds?"},
	}
	for range b.N {
		costs := map[bool][]memoryCost{}
		for _, on := range []bool{false, true} {
			script := scripted.NewResponder(memoryBenchModel)
			s, err := New(Config{
				Models: Models{
					Planner: script.ModelFor("planner"), Executor: script.ModelFor("executor"),
					Code: script.ModelFor("code"), Report: script.ModelFor("report"),
					Names: map[string]string{"default": "gpt-4.1"},
				},
				SessionsRoot: b.TempDir(), Python: py, CodeTimeout: time.Minute, NoMemory: !on,
			})
			if err != nil {
				b.Fatal(err)
			}
			for _, q := range questions {
				costs[on] = append(costs[on], askCounting(b, s, Request{Mode: ModePlan, Question: q.q, Files: []string{csv}}))
			}
		}
		tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "question\tcalls off\ttokens off\tasked off\tcalls on\ttokens on\tasked on\t")
		var total [2]memoryCost
		for i, q := range questions {
			off, on := costs[false][i], costs[true][i]
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t\n", q.label, off.calls, off.tokens, off.asked, on.calls, on.tokens, on.asked)
			total[0].calls, total[0].tokens, total[0].asked = total[0].calls+off.calls, total[0].tokens+off.tokens, total[0].asked+off.asked
			total[1].calls, total[1].tokens, total[1].asked = total[1].calls+on.calls, total[1].tokens+on.tokens, total[1].asked+on.asked
		}
		fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%d\t%d\t%d\t\n", total[0].calls, total[0].tokens, total[0].asked, total[1].calls, total[1].tokens, total[1].asked)
		_ = tw.Flush()
		b.ReportMetric(float64(total[0].calls), "calls-off")
		b.ReportMetric(float64(total[1].calls), "calls-on")
		b.ReportMetric(float64(total[0].tokens), "tokens-off")
		b.ReportMetric(float64(total[1].tokens), "tokens-on")
	}
}
