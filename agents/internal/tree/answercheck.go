package tree

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/numcheck"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
)

// Answer checking: every number the final answer and the report state
// should come from something the run computed (a cell's output, a query's
// rows, a template's result, a file under out/). Numbers that do not are
// sent back once to the replanner's model for correction, and those still
// unsupported are marked in the report.

// UnverifiedMark follows each number of the report that no output holds.
const UnverifiedMark = " ⚠"

// maxEvidenceFile bounds how much of one out/ file is read for numbers.
const maxEvidenceFile = 2 << 20

// correctionPrompt asks for the one correction round.
const correctionPrompt = `You are the replanner of Sift, a data-analysis agent. The result you submitted states numbers that appear in no step output (no cell printed them, no query or template returned them, no output file holds them). Call submit_result again with the result corrected: every number must be one the step results below show (rounding is fine); remove or fix the others, and do not add new ones. Keep the files as they were.
` + prompt.LanguageRule

// ToolOutputs keeps what the run's tools returned, as the evidence the
// answer's numbers are checked against. Safe for concurrent use; a nil
// *ToolOutputs records nothing.
type ToolOutputs struct {
	mu    sync.Mutex
	texts []string
}

func (o *ToolOutputs) Add(s string) {
	if o == nil || strings.TrimSpace(s) == "" {
		return
	}
	o.mu.Lock()
	o.texts = append(o.texts, s)
	o.mu.Unlock()
}

func (o *ToolOutputs) all() []string {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.texts...)
}

// recorded records each successful reply of a tool, before any cap.
type recorded struct {
	tool.InvokableTool
	out *ToolOutputs
}

func (t recorded) InvokableRun(ctx context.Context, args string, opts ...tool.Option) (string, error) {
	out, err := t.InvokableTool.InvokableRun(ctx, args, opts...)
	if err == nil {
		t.out.Add(out)
	}
	return out, err
}

// runEvidence gathers the numbers the run's outputs hold: the question and
// data previews (numbers the person gave or the data shows), every cell's
// output in cells.jsonl, every tool reply recorded in this process, and
// the text files under out/.
func runEvidence(workdir string, v prompt.View, outputs *ToolOutputs) *numcheck.Set {
	set := numcheck.NewSet(v.Question, v.DataContext)
	if v.Plan != nil {
		for _, e := range v.Plan.Earlier {
			set.Add(e.Question)
		}
	}
	if workdir != "" {
		cells, _ := operator.ReadCells(workdir)
		for _, c := range cells {
			set.Add(c.Stdout)
		}
		for _, rel := range ListArtifacts(workdir) {
			switch strings.ToLower(filepath.Ext(rel)) {
			case ".csv", ".tsv", ".txt", ".json", ".md":
			default:
				continue
			}
			// Beneath the workspace by descriptor: a link or FIFO code
			// left in out/ is skipped, never followed.
			b, _, err := confined.ReadFile(workdir, rel, maxEvidenceFile)
			if err != nil {
				continue
			}
			set.Add(string(b))
		}
	}
	for _, t := range outputs.all() {
		set.Add(t)
	}
	return set
}

// ResultText is the answer and findings of a result, one per line.
func ResultText(r *plans.SubmitResult) string {
	if r == nil {
		return ""
	}
	return strings.Join(append([]string{r.Answer}, r.Findings...), "\n")
}

// uniqueTexts lists the written form of each number once, in order.
func uniqueTexts(nums []numcheck.Number) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range nums {
		if !seen[n.Text] {
			seen[n.Text] = true
			out = append(out, n.Text)
		}
	}
	return out
}

// checkResult checks the submitted result's numbers against ev; when some
// are unsupported and a model is given, it asks that model once for a
// corrected result. It returns the result to report and the numbers still
// unsupported. A failed correction keeps the first result.
func checkResult(ctx context.Context, m model.ToolCallingChatModel, v prompt.View, ev *numcheck.Set, rules string) (*plans.SubmitResult, []string, error) {
	res := v.Plan.Result
	bad := uniqueTexts(ev.Unsupported(ResultText(res)))
	if len(bad) == 0 || m == nil {
		return res, bad, nil
	}
	fixed, err := correctResult(ctx, m, v, bad, rules)
	if err != nil {
		return res, bad, err
	}
	if len(fixed.Files) == 0 {
		fixed.Files = res.Files
	}
	return fixed, uniqueTexts(ev.Unsupported(ResultText(fixed))), nil
}

// correctResult makes the one correction call: the replanner's model sees
// the question, the step results, its result and the numbers no output
// holds, and must call submit_result again.
func correctResult(ctx context.Context, m model.ToolCallingChatModel, v prompt.View, bad []string, rules string) (*plans.SubmitResult, error) {
	tm, err := m.WithTools([]*schema.ToolInfo{submitResultTool})
	if err != nil {
		return nil, fmt.Errorf("answer check: %w", err)
	}
	prev, _ := json.MarshalIndent(v.Plan.Result, "", "  ")
	var b strings.Builder
	prompt.Section(&b, "Question", v.Question)
	prompt.Section(&b, "Steps and results", prompt.AllResults(v.Plan))
	prompt.Section(&b, "Your result", string(prev))
	prompt.Section(&b, "Numbers found in no output", "- "+strings.Join(bad, "\n- "))
	msg, err := tm.Generate(ctx, withHouseRules([]*schema.Message{schema.SystemMessage(correctionPrompt), schema.UserMessage(strings.TrimSpace(b.String()))}, rules),
		model.WithToolChoice(schema.ToolChoiceForced))
	if err != nil {
		return nil, fmt.Errorf("answer check: %w", err)
	}
	args := msg.Content
	for _, tc := range msg.ToolCalls {
		if tc.Function.Name == ToolSubmitResult {
			args = tc.Function.Arguments
		}
	}
	var res plans.SubmitResult
	if err := json.Unmarshal([]byte(args), &res); err != nil || strings.TrimSpace(res.Answer) == "" {
		return nil, fmt.Errorf("answer check: the corrected result is not a submit_result call (%q)", prompt.Shorten(args, 200))
	}
	return &res, nil
}

// markReport marks the report's numbers that no output holds, and ends it
// with a note listing them; it returns the report and those numbers.
// Numbers inside own (text Sift wrote itself: notes, errors of failed
// steps) or inside a traceback block are not claims and are left alone.
func markReport(md string, ev *numcheck.Set, own ...string) (string, []string) {
	bad := notOwn(md, ev.Unsupported(md), own)
	if len(bad) == 0 {
		return md, nil
	}
	texts := uniqueTexts(bad)
	md = strings.TrimRight(numcheck.Mark(md, bad, UnverifiedMark), "\n")
	md += "\n\n> " + strings.TrimSpace(UnverifiedMark) + " Numbers not found in any step's output (no cell, query, template or output file holds them; check them before use): " + strings.Join(texts, ", ") + "\n"
	return md, texts
}

// notOwn drops the numbers that sit inside one of own's occurrences in md
// or inside a fenced traceback block.
func notOwn(md string, nums []numcheck.Number, own []string) []numcheck.Number {
	type span struct{ from, to int }
	var spans []span
	for _, o := range own {
		o = strings.TrimSpace(o)
		for start := 0; o != "" && start < len(md); {
			i := strings.Index(md[start:], o)
			if i < 0 {
				break
			}
			spans = append(spans, span{start + i, start + i + len(o)})
			start += i + len(o)
		}
	}
	for _, loc := range tracebackFence.FindAllStringIndex(md, -1) {
		spans = append(spans, span{loc[0], loc[1]})
	}
	var out []numcheck.Number
	for _, n := range nums {
		inside := false
		for _, s := range spans {
			if n.Start >= s.from && n.End <= s.to {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, n)
		}
	}
	return out
}

// tracebackFence matches a fenced "traceback" block (see report.TracebackBlock).
var tracebackFence = regexp.MustCompile("(?s)(```+)traceback\n.*?\n```+")
