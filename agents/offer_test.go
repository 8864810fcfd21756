package agents

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/tools/templates"
	"github.com/sift-agent/sift/tools/web"
)

// noSearch is a search provider that finds nothing: what matters here is
// that one is configured.
type noSearch struct{}

func (noSearch) Name() string { return "none" }
func (noSearch) Search(context.Context, string, int) ([]web.Result, error) {
	return nil, nil
}

// TestExecutorIsOfferedOnlyToolsTheRunCanUse runs one-step plans and
// checks the tools the step's first request offers, and the rules its
// prompt gives for them: web_researcher only with a search provider or a
// URL in the question, the template tools only when a built-in analysis
// could answer the question over the data. Without a web researcher the
// executor could only pass the step on to the code agent, so the step
// goes straight to it: the request is the code agent's.
func TestExecutorIsOfferedOnlyToolsTheRunCanUse(t *testing.T) {
	code := []string{"python", "ask_user", "preview"}
	cases := []struct {
		name, question string
		search         bool
		want           []string
	}{
		{"neither", "Which customers look unusual, and why?", false, code},
		{"a template fits", "Which region sells most?", false, code},
		{"a search provider", "Which customers look unusual, and why?", true, []string{tree.NameCodeAgent, tree.NameWebAgent, "ask_user"}},
		{"a search provider and a template fits", "Which region sells most?", true, []string{tree.NameCodeAgent, tree.NameWebAgent, templates.ToolName, templates.ParamsToolName, "ask_user"}},
		{"a page to read", "Compare our revenue with https://example.org/market.html", false, []string{tree.NameCodeAgent, tree.NameWebAgent, "ask_user"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			script := scripted.New(
				call(toolCreatePlan, steps("Look at input/sales.csv")),
				text("Looked."),
				call(toolSubmitResult, map[string]any{"answer": "Looked."}),
				text("# Report\n\nLooked [step 1]."),
			)
			s := httpSift(t, script, func(cfg *Config) {
				if c.search {
					cfg.Search = noSearch{}
				}
			})
			if done := collect(t, s, Request{Mode: ModePlan, Question: c.question, Files: []string{salesCSV(t)}}); done[len(done)-1].Err != nil {
				t.Fatalf("run failed: %v", done[len(done)-1].Err)
			}
			first := script.Requests()[1]
			var got []string
			for _, ti := range first.Tools {
				got = append(got, ti.Name)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("the step's first request offered %v, want %v", got, c.want)
			}
			for _, req := range script.Requests() {
				if slices.Equal(c.want, code) && offers(req, tree.NameCodeAgent) {
					t.Fatalf("a step that could only go to the code agent went through the executor: %v", req.Tools)
				}
			}
			system := first.Messages[0].Content
			if has := strings.Contains(system, "run_template"); has != slices.Contains(c.want, templates.ToolName) {
				t.Errorf("the prompt's run_template rule is there: %v, the tool offered: %v", has, !has)
			}
			if has := strings.Contains(system, tree.NameWebAgent); has != slices.Contains(c.want, tree.NameWebAgent) {
				t.Errorf("the prompt's web_researcher rule is there: %v, the tool offered: %v", has, !has)
			}
		})
	}
}

// TestResumedRunIsOfferedTheSameTools pauses a run on the executor's
// question and resumes it in a new process: the executor's request after
// the answer offers the same tools as before it (the resumed run previews
// the inputs again to decide), so a resume does not change the tools or
// break the cached prefix. A search provider keeps the executor.
func TestResumedRunIsOfferedTheSameTools(t *testing.T) {
	script := scripted.New(
		call(toolCreatePlan, steps("Look at input/sales.csv")),
		call("ask_user", map[string]any{"question": "Which year?", "choices": []string{"2023", "2024"}}),
		text("Looked at 2024."),
		call(toolSubmitResult, map[string]any{"answer": "Looked."}),
		text("# Report\n\nLooked [step 1]."),
	)
	first, second, root := twoSiftsWith(t, script, func(cfg *Config) { cfg.Search = noSearch{} })
	evs := drain(t, first.Run(context.Background(), Request{Mode: ModePlan, Question: "Which customers look unusual, and why?", Files: []string{salesCSV(t)}}))
	done := evs[len(evs)-1]
	if done.Interrupt == nil || done.Interrupt.Kind != event.InterruptQuestion {
		t.Fatalf("want the run to wait on the question, got %+v (err %v)", done.Interrupt, done.Err)
	}
	answer, err := AnswerFor(event.InterruptQuestion, done.Interrupt.Choices, false, "2", "")
	if err != nil {
		t.Fatal(err)
	}
	evs = drain(t, second.Resume(context.Background(), strings.TrimPrefix(done.Path, root+"/"), map[string]any{done.Interrupt.ID: answer}))
	if done = evs[len(evs)-1]; done.Err != nil || done.Interrupt != nil {
		t.Fatalf("want the run finished, got %v %+v", done.Err, done.Interrupt)
	}
	reqs := script.Requests()
	names := func(r scripted.Request) string {
		var out []string
		for _, ti := range r.Tools {
			out = append(out, ti.Name)
		}
		return strings.Join(out, ",")
	}
	before, after := names(reqs[1]), names(reqs[2])
	want := tree.NameCodeAgent + "," + tree.NameWebAgent + ",ask_user"
	if before != want || after != before {
		t.Errorf("executor's tools before the pause %q, after the resume %q; want %q both times", before, after, want)
	}
}
