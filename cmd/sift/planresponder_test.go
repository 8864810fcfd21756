package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/scripted"
)

var todoStep = regexp.MustCompile(`(?m)^\d+\. \[todo\] (.+)$`)

// planStep is one step a planResponder plays: what the plan calls it, the
// Python its code agent runs, and the steps (from 1) it needs.
type planStep struct {
	desc, code string
	needs      []int
}

// planResponder plays a plan-execute session through the scripted model
// server, where requests do not name their agent: the tools offered tell
// them apart. It answers from what each request shows, so steps side by
// side, or sessions interleaved across processes, may ask in any order.
// steps gives the session's steps from a request (its question may set
// them); the answer and the report, under the heading title, are the
// figures the steps' cells printed.
func planResponder(title string, figures *regexp.Regexp, steps func(scripted.Request) []planStep) func(scripted.Request) (*schema.Message, error) {
	return func(req scripted.Request) (*schema.Message, error) {
		call := func(name string, args any) *schema.Message {
			b, _ := json.Marshal(args)
			return scripted.ToolCall(name, string(b))
		}
		offered := func(name string) bool {
			return slices.ContainsFunc(req.Tools, func(t *schema.ToolInfo) bool { return t.Name == name })
		}
		all := steps(req)
		last := req.Messages[len(req.Messages)-1]
		plan := func(descs []string) *schema.Message {
			var planned []map[string]any
			for i, s := range all {
				if slices.Contains(descs, s.desc) {
					planned = append(planned, map[string]any{"index": i + 1, "description": s.desc, "needs": append([]int{}, s.needs...)})
				}
			}
			return call("create_plan", map[string]any{"steps": planned})
		}
		switch {
		case offered("create_plan") && !offered("submit_result"):
			var descs []string
			for _, s := range all {
				descs = append(descs, s.desc)
			}
			return plan(descs), nil
		case offered("submit_result"):
			var todo []string
			for _, m := range todoStep.FindAllStringSubmatch(last.Content, -1) {
				todo = append(todo, m[1])
			}
			if len(todo) > 0 {
				return plan(todo), nil
			}
			return call("submit_result", map[string]any{"answer": strings.Join(figures.FindAllString(last.Content, -1), "; ")}), nil
		case offered("python"):
			if last.Role == schema.Tool {
				return scripted.Text("Done. Output:\n" + last.Content), nil
			}
			// The task is the code agent's last user message that is
			// not the data message (which comes first, after the system
			// prompt); the latest step it names is the one to run.
			var task string
			for _, m := range req.Messages {
				if m.Role == schema.User && !strings.HasPrefix(m.Content, "## Data") {
					task = m.Content
				}
			}
			for i := len(all) - 1; i >= 0; i-- {
				if strings.Contains(task, all[i].desc) {
					return call("python", map[string]string{"code": all[i].code}), nil
				}
			}
			return nil, fmt.Errorf("code request for no known step: %q", task)
		}
		figs := figures.FindAllString(last.Content, -1)
		slices.Sort(figs)
		return scripted.Text("# " + title + "\n\n" + strings.Join(slices.Compact(figs), "\n") + "\n"), nil
	}
}
