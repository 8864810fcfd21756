package tree

import (
	"context"
	"errors"
	"io"
	"sort"
	"strings"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/numcheck"
	"github.com/sift-agent/sift/params"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/session"
)

// reportAgent writes report.md and report.html from the run's results: one
// model call for the narrative, then Sift makes sure every chart and data
// file appears in it.
type reportAgent struct {
	model model.ToolCallingChatModel
	// checker is the replanner's model, asked once to correct a result
	// whose numbers no output holds. Optional.
	checker model.ToolCallingChatModel
	// outputs are the run's tool replies, evidence for the answer check.
	outputs *ToolOutputs
	// images: the model accepts images, and is shown the run's charts.
	images bool
	// stream: the report is streamed, each piece of text sent as a
	// message delta while it is written.
	stream bool
	// tail is what ends every system prompt: house rules and the date.
	tail   func(context.Context) string
	budget *BudgetGuard
}

func (a *reportAgent) Name(context.Context) string { return NameReport }
func (a *reportAgent) Description(context.Context) string {
	return "writes the final report from the step results"
}

func (a *reportAgent) Run(ctx context.Context, _ *adk.AgentInput, _ ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return around(func(gen *adk.AsyncGenerator[*adk.AgentEvent]) {
		if paused, _ := params.Paused.Get(ctx); paused {
			return // the report is written when the run finishes
		}
		ctx, endSpan := llm.StartAgent(ctx, NameReport)
		defer endSpan(nil)
		view := viewOf(ctx)
		workdir, _ := params.Workdir.Get(ctx)
		artifacts := ListArtifacts(workdir)
		ev := runEvidence(workdir, view, a.outputs)
		outcome := report.OutcomeFor(view.Plan)
		berr := a.budget.check(false)
		a.checkAnswer(ctx, gen, view, ev, berr == nil && !outcome.NoneSucceeded())
		var md, note string
		var err error
		switch {
		case berr != nil:
			// No model call past a budget: the report is assembled from
			// the results, and says what is missing.
			note = report.BudgetNote(view.Plan, berr)
			md = report.Fallback(view.Plan, artifacts, note)
		case outcome.NoneSucceeded():
			// Nothing was computed: a model's report could only present
			// its own text as findings, so Sift writes the report.
			note = report.NoResultNote(report.Chinese(view.Plan))
			md = report.Fallback(report.WithoutResult(view.Plan), artifacts, note)
		default:
			msgs := withHouseRules(prompt.Report(view, artifacts), a.tail(ctx))
			if a.images {
				msgs = prompt.WithCharts(msgs, workdir, artifacts)
			}
			var msg *schema.Message
			if msg, err = a.write(ctx, gen, msgs); err != nil {
				note = report.WriterFailedNote(view.Plan, err)
				md = report.Fallback(view.Plan, artifacts, note)
			} else {
				md = report.WithUncomputed(report.Complete(msg.Content, view.Plan, artifacts), outcome)
			}
		}
		var files []string
		if view.Plan != nil && view.Plan.Result != nil {
			files = view.Plan.Result.Files
		}
		md, unwritten, missing := report.WithoutUnwritten(workdir, md, files, report.Chinese(view.Plan))
		md, _ = markReport(md, ev, append(outcome.SiftText(), note, unwritten)...)
		// The answer hands back only files that exist.
		if err := treeOwner(ctx, gen, view.Plan).DropUnwritten(missing); err != nil {
			gen.Send(&adk.AgentEvent{Err: err})
		}
		// A report over nothing computed or cut short by a budget does
		// not replace an earlier question's answer in report.md.
		path, werr := report.Save(workdir, view.Plan.QuestionNumber(), md, berr == nil && !outcome.NoneSucceeded(), session.Derived)
		if werr != nil {
			gen.Send(&adk.AgentEvent{Err: werr})
			return
		}
		gen.Send(siftEvent(event.Event{Kind: event.Report, Agent: NameReport, Path: path, Text: md}))
		if err != nil {
			gen.Send(&adk.AgentEvent{Err: err})
		}
	})
}

// write asks the model for the report. Streamed, each piece of its text
// reaches the caller as it comes, as a message delta of the report agent;
// the finished report event still follows.
func (a *reportAgent) write(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], msgs []*schema.Message) (*schema.Message, error) {
	if !a.stream {
		return a.model.Generate(ctx, msgs)
	}
	sr, err := a.model.Stream(ctx, msgs)
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	var chunks []*schema.Message
	for {
		chunk, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		chunks = append(chunks, chunk)
		if chunk.Content != "" {
			gen.Send(siftEvent(event.Event{Kind: event.Message, Agent: NameReport, Text: chunk.Content, Delta: true}))
		}
	}
	if len(chunks) == 0 {
		return nil, errors.New("the report stream ended without text")
	}
	return schema.ConcatMessages(chunks)
}

// checkAnswer checks the submitted result's numbers against the run's
// outputs; with correct, unsupported numbers go back once to the
// replanner's model. The result kept, with its unverified numbers, is
// recorded in the plan.
func (a *reportAgent) checkAnswer(ctx context.Context, gen *adk.AsyncGenerator[*adk.AgentEvent], view prompt.View, ev *numcheck.Set, correct bool) {
	fp := view.Plan
	if fp == nil || fp.Result == nil {
		return
	}
	m := a.checker
	if !correct {
		m = nil
	}
	res, bad, err := checkResult(ctx, m, view, ev, a.tail(ctx))
	if err != nil {
		gen.Send(siftEvent(event.Event{Kind: event.Message, Agent: NameReport, Text: "warning: the answer's numbers could not be corrected: " + err.Error()}))
	}
	changed := res != fp.Result
	res.Unverified = bad
	own := treeOwner(ctx, gen, fp)
	own.Checked(res)
	if len(bad) > 0 {
		gen.Send(siftEvent(event.Event{Kind: event.Message, Agent: NameReport, Text: "answer check: no step output holds " + strings.Join(bad, ", ") + "; marked in the report"}))
	}
	if changed || len(bad) > 0 {
		if err := own.Save(); err != nil {
			gen.Send(&adk.AgentEvent{Err: err})
		}
	}
}

// ListArtifacts lists files under out/, workspace-relative and sorted.
func ListArtifacts(workdir string) []string {
	snap := snapshotFiles(workdir, "out")
	out := make([]string, 0, len(snap))
	for p := range snap {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
