package prompt

import (
	"fmt"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/tools/templates"
)

// Limits that keep prompts lean: the report sees results nearly whole, the
// agents that see them after every step see them shortened.
const (
	recentResultChars = 6000
	olderResultChars  = 600
	// gistChars bounds each finished step's result in the executor's
	// prompt (see renderGists).
	gistChars = 200
	// replanLatestChars and replanOlderChars bound the finished steps'
	// results in the replanner's prompt: the latest one's, then each
	// earlier one's (see renderReplanProgress).
	replanLatestChars = 1500
	replanOlderChars  = 400
)

// View is everything a prompt may show about the run so far.
type View struct {
	Question    string
	DataContext string
	Inputs      []string
	Plan        *plans.FullPlan
	// Verbatim shows every earlier result whole.
	Verbatim bool
	// Feedback is the person's reason for rejecting the last plan.
	Feedback string
	// Step is the index of the step a branch runs, 0 outside branches
	// (the current step is then the plan's first unfinished one).
	Step int
	// Remembered are the facts the person gave in earlier sessions on the
	// same data, one line each; empty when there are none.
	Remembered string
	// Examples are code that worked before on the same data, for the
	// code agent (see memory.Examples); empty when there is none.
	Examples string
}

// rememberedTitle heads the facts from earlier sessions in every agent's
// run context.
const rememberedTitle = "What the person told Sift before about this data (use it; do not ask again)"

// examplesTitle heads the code that worked in earlier sessions on the
// same data, in the code agent's run context.
const examplesTitle = "Code that worked before on this data (examples from earlier sessions: reuse what fits the current step, check column names against the Data section)"

// current is the step being executed.
func (v View) Current() *plans.StepState {
	if v.Step > 0 {
		for i := range v.Plan.Steps {
			if v.Plan.Steps[i].Index == v.Step {
				return &v.Plan.Steps[i]
			}
		}
	}
	return v.Plan.Current()
}

// Every agent's request is ordered for providers' prefix caches: the
// system message holds what is fixed for the whole run — the role's prompt,
// then the run context (see runContext) — and is byte-identical on every
// call of one agent in a run; the user message holds what changes (plan
// state, results, the current step). Tool definitions, which providers put
// before the messages, are fixed per agent too. The code agent's data comes
// in a user message after its system message, because it changes: the
// files' description until a cell has loaded data, then what the kernel
// holds (see CodeDataMessage).

// runContext is the stable part of a request after the role's prompt: the
// question, the session's earlier questions and answers, and the data
// (the full data context with data, else the input files). Facts fixed for
// the whole run that every agent should see (such as today's date) belong
// here, not in the changing part.
func runContext(v View, data bool) string {
	var b strings.Builder
	Section(&b, "Question", v.Question)
	Section(&b, "Earlier in this session", renderEarlier(v.Plan))
	Section(&b, rememberedTitle, v.Remembered)
	if data {
		Section(&b, "Data", v.dataContext())
	} else {
		Section(&b, "Input files", v.inputFiles())
	}
	return strings.TrimSpace(b.String())
}

// stableSystem is a role's system message: its prompt, then the run
// context.
func stableSystem(prompt, context string) *schema.Message {
	if context == "" {
		return schema.SystemMessage(prompt)
	}
	return schema.SystemMessage(prompt + "\n\n" + context)
}

// Planner is the planner's request; builtIns: the run offers the
// built-in analyses, and the planner may write steps that run one.
func Planner(v View, builtIns bool) []*schema.Message {
	prompt := PlannerText
	if builtIns {
		prompt = plannerRules + fmt.Sprintf(PlannerTemplateRule, strings.Join(templates.Names(), ", ")) + LanguageRule
	}
	task := "Make the plan."
	if v.Feedback != "" {
		var b strings.Builder
		Section(&b, "The person rejected the previous plan", renderPlanStatus(v.Plan)+"\nTheir feedback: "+v.Feedback+"\nMake a new plan that follows it.")
		task = strings.TrimSpace(b.String())
	}
	return []*schema.Message{stableSystem(prompt, runContext(v, true)), schema.UserMessage(task)}
}

// Executor gives the executor the input files, not the data
// context: the planner's steps name the files and columns, and the code
// agent, which does the data work, sees the data context.
func Executor(v View, offer Offer) []*schema.Message {
	var b strings.Builder
	Section(&b, "Plan", renderPlanStatus(v.Plan))
	finished := renderGists(v.Plan)
	if v.Verbatim {
		finished = AllResults(v.Plan)
	}
	Section(&b, "Finished steps", finished)
	if cur := v.Current(); cur != nil {
		Section(&b, "Current step", fmt.Sprintf("Step %d: %s", cur.Index, cur.Description))
	}
	return []*schema.Message{stableSystem(offer.Prompt(), runContext(v, false)), schema.UserMessage(strings.TrimSpace(b.String()))}
}

// CodeContext is the part of the code agent's system message fixed for
// the run: the person's question (the language to answer in, and what a
// step is for) and a follow-up's earlier questions and answers.
func CodeContext(v View) string {
	var b strings.Builder
	Section(&b, "Question", v.Question)
	Section(&b, "Earlier in this session", renderEarlier(v.Plan))
	Section(&b, rememberedTitle, v.Remembered)
	Section(&b, examplesTitle, v.Examples)
	return strings.TrimSpace(b.String())
}

// Replanner shows the plan with each finished step's result under it (see
// renderReplanProgress).
func Replanner(v View) []*schema.Message {
	var b strings.Builder
	Section(&b, "Plan", renderReplanProgress(v.Plan, v.Verbatim))
	return []*schema.Message{stableSystem(replannerPrompt, runContext(v, false)), schema.UserMessage(strings.TrimSpace(b.String()))}
}

// CodeData is what the code agent is told about the data.
type CodeData struct {
	// Context is the run's data context: the input files' description
	// (and the SQL part, when there are databases).
	Context string
	// Inputs are the input files, workspace-relative.
	Inputs []string
	// Kernel names what the Python kernel holds (operator.Kernel.State);
	// "" when it holds nothing yet or keeps nothing between calls.
	Kernel string
}

// render is the code agent's Data Section: once a cell has loaded data,
// what the kernel holds and the input files by name (the preview tool
// shows one in full) instead of their description again; before that, the
// data context. The SQL part stays in both: it says how to query.
func (d CodeData) render() string {
	files, sql := SplitSQLContext(d.Context)
	if strings.TrimSpace(d.Kernel) == "" {
		return strings.TrimSpace(files + sql)
	}
	var b strings.Builder
	b.WriteString(kernelHeading)
	b.WriteString(strings.TrimSpace(d.Kernel) + "\n")
	if len(d.Inputs) > 0 {
		b.WriteString("\nInput files (preview shows one): " + strings.Join(d.Inputs, ", ") + "\n")
	}
	if sql != "" {
		b.WriteString("\n" + strings.TrimLeft(sql, "\n"))
	}
	return strings.TrimSpace(b.String())
}

// CodeAgent gives the code agent its prompt as the system message,
// fixed for the whole run, then the data (see CodeDataMessage), then the
// executor's request. The prompt says what carries over between python
// calls in the given mode.
func CodeAgent(mode operator.PythonMode, context string, data CodeData, request []*schema.Message) []*schema.Message {
	prompt := codeAgentPrompt
	if mode == operator.PythonProcess {
		prompt = codeAgentProcessPrompt
	}
	msgs := []*schema.Message{stableSystem(prompt, context)}
	if m := CodeDataMessage(mode, data); m != nil {
		msgs = append(msgs, m)
	}
	return append(msgs, request...)
}

// DataHeading starts the code agent's data message.
const DataHeading = "## Data\n"

// kernelHeading starts a data message that says what the kernel holds.
const kernelHeading = "The Python kernel holds (reuse it; do not reload the files):\n"

// ShowsKernel reports whether m is a data message that says what the
// Python kernel holds (rather than the files' description).
func ShowsKernel(m *schema.Message) bool {
	return m != nil && strings.HasPrefix(m.Content, DataHeading+kernelHeading)
}

// CodeDataMessage is the code agent's data message (see CodeData.render),
// a user message of its own so that it can change as the kernel fills
// while the system message before it stays byte for byte the same; in
// process mode nothing carries over between calls, so the kernel's state
// is not shown. Nil when there is nothing to say.
func CodeDataMessage(mode operator.PythonMode, data CodeData) *schema.Message {
	if mode == operator.PythonProcess {
		data.Kernel = ""
	}
	text := data.render()
	if text == "" {
		return nil
	}
	return schema.UserMessage(DataHeading + text)
}

func Report(v View, artifacts []string) []*schema.Message {
	var b strings.Builder
	Section(&b, "Question", v.Question)
	if r := v.Plan.Result; r != nil {
		var a strings.Builder
		a.WriteString(r.Answer)
		for _, f := range r.Findings {
			a.WriteString("\n- " + f)
		}
		Section(&b, "Answer submitted", a.String())
	}
	Section(&b, "Steps and results", AllResults(v.Plan))
	Section(&b, "Steps that computed nothing", report.OutcomeOf(v.Plan).Failures())
	Section(&b, "Input files", strings.Join(v.Inputs, "\n"))
	Section(&b, "Files produced", strings.Join(artifacts, "\n"))
	return []*schema.Message{schema.SystemMessage(reportPrompt), schema.UserMessage(strings.TrimSpace(b.String()))}
}

func (v View) dataContext() string {
	if strings.TrimSpace(v.DataContext) == "" {
		return v.inputFiles()
	}
	return v.DataContext
}

func (v View) inputFiles() string {
	if len(v.Inputs) == 0 {
		return "(no input files)"
	}
	return strings.Join(v.Inputs, "\n")
}

func Section(b *strings.Builder, title, body string) {
	if strings.TrimSpace(body) == "" {
		return
	}
	fmt.Fprintf(b, "## %s\n%s\n\n", title, strings.TrimSpace(body))
}

// renderEarlier shows a follow-up's earlier questions and answers; their
// steps and files appear with the finished steps, and the Python kernel
// still holds what they loaded.
func renderEarlier(p *plans.FullPlan) string {
	if p == nil || len(p.Earlier) == 0 {
		return ""
	}
	var b strings.Builder
	for _, e := range p.Earlier {
		fmt.Fprintf(&b, "- Q: %s\n", e.Question)
		if e.Result != nil {
			fmt.Fprintf(&b, "  A: %s\n", Shorten(e.Result.Answer, olderResultChars))
			if len(e.Result.Files) > 0 {
				fmt.Fprintf(&b, "  Files: %s\n", strings.Join(e.Result.Files, ", "))
			}
		}
	}
	b.WriteString("Their steps are done: build on their results and files (and the variables still in the Python kernel) instead of redoing them.")
	return b.String()
}

// renderPlanStatus is the one-line-per-step checklist the agents see.
func renderPlanStatus(p *plans.FullPlan) string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	for _, s := range p.Steps {
		fmt.Fprintf(&b, "%d. [%s] %s\n", s.Index, s.Status, s.Description)
	}
	return b.String()
}

// renderGists shows each finished step on one line: the head of its result
// with runs of white space (a printed table's padding) folded, and its
// files. The executor gets this instead of the results: it writes the
// current step's request, for which an earlier step's gist and files are
// enough (the plan above names each step's work, and the code agent is told
// what the kernel holds); the replanner, which adapts the plan to the
// results, sees them whole.
func renderGists(p *plans.FullPlan) string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	for _, s := range p.Steps {
		if s.Status != plans.StatusDone && s.Status != plans.StatusFailed {
			continue
		}
		gist := []rune(strings.Join(strings.Fields(s.Summary), " "))
		if len(gist) > gistChars {
			gist = append(gist[:gistChars], '…')
		}
		fmt.Fprintf(&b, "- Step %d (%s): %s", s.Index, s.Status, string(gist))
		if len(s.Files) > 0 {
			b.WriteString(" Files: " + strings.Join(s.Files, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// renderReplanProgress is the replanner's view of the run: the plan's
// checklist, each finished step's line followed by its result and its
// files (the line already says the step's index and status, so the result
// is not headed again). Results are cut at line ends, head and tail (a failed
// step's error ends it): the latest finished one within
// replanLatestChars, each earlier one within replanOlderChars. The
// replanner sees every result again after each later step, and had the
// earlier ones in full when they were the latest; a step's full result
// stays in its record and plan.md, and the report sees it. Verbatim keeps
// them as the report sees them.
func renderReplanProgress(p *plans.FullPlan, verbatim bool) string {
	if p == nil {
		return ""
	}
	latest := -1
	for i, s := range p.Steps {
		if hasResult(s) {
			latest = i
		}
	}
	var b strings.Builder
	for i, s := range p.Steps {
		fmt.Fprintf(&b, "%d. [%s] %s\n", s.Index, s.Status, s.Description)
		if !hasResult(s) {
			continue
		}
		summary := Shorten(s.Summary, recentResultChars)
		if !verbatim {
			limit := replanOlderChars
			if i == latest {
				limit = replanLatestChars
			}
			summary = ShortenLines(s.Summary, limit)
		}
		if summary != "" {
			b.WriteString(summary + "\n")
		}
		if files := unnamedFiles(s.Files, summary); len(files) > 0 {
			b.WriteString("Files: " + strings.Join(files, ", ") + "\n")
		}
		if i < len(p.Steps)-1 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// hasResult reports whether a step has a result to show: done or failed.
func hasResult(s plans.StepState) bool {
	return s.Status == plans.StatusDone || s.Status == plans.StatusFailed
}

// unnamedFiles are the files of a step that its result, as shown, does not
// already name: the model is not told them twice.
func unnamedFiles(files []string, shown string) []string {
	var out []string
	for _, f := range files {
		if !strings.Contains(shown, f) {
			out = append(out, f)
		}
	}
	return out
}

// AllResults shows every step, finished or not, for the report.
func AllResults(p *plans.FullPlan) string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	for _, s := range p.Steps {
		writeResult(&b, s, recentResultChars)
	}
	return b.String()
}

func writeResult(b *strings.Builder, s plans.StepState, limit int) {
	fmt.Fprintf(b, "### Step %d (%s): %s\n", s.Index, s.Status, s.Description)
	writeResultBody(b, s, limit)
}

// writeResultBody writes a step's result within limit runes, then its files.
func writeResultBody(b *strings.Builder, s plans.StepState, limit int) {
	if s.Summary != "" {
		b.WriteString(Shorten(s.Summary, limit))
		b.WriteString("\n")
	}
	if len(s.Files) > 0 {
		b.WriteString("Files: " + strings.Join(s.Files, ", ") + "\n")
	}
	b.WriteString("\n")
}

// Shorten keeps the head and tail of s within limit runes.
func Shorten(s string, limit int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) <= limit {
		return string(r)
	}
	head := limit * 2 / 3
	tail := limit - head
	return string(r[:head]) + fmt.Sprintf("\n[... %d characters cut ...]\n", len(r)-limit) + string(r[len(r)-tail:])
}

// ShortenLines keeps whole lines from the head and tail of s within limit
// runes, two thirds from the head, and says how many lines it cut; a line
// too long to keep whole is cut by Shorten.
func ShortenLines(s string, limit int) string {
	s = strings.TrimSpace(s)
	if len([]rune(s)) <= limit {
		return s
	}
	lines := strings.Split(s, "\n")
	head, used := 0, 0
	for head < len(lines) && used+len([]rune(lines[head]))+1 <= limit*2/3 {
		used += len([]rune(lines[head])) + 1
		head++
	}
	tail := len(lines)
	for tail > head && used+len([]rune(lines[tail-1]))+1 <= limit {
		used += len([]rune(lines[tail-1])) + 1
		tail--
	}
	if head == 0 && tail == len(lines) {
		return Shorten(s, limit)
	}
	kept := append(append([]string{}, lines[:head]...), fmt.Sprintf("[... %d lines cut ...]", tail-head))
	return strings.Join(append(kept, lines[tail:]...), "\n")
}

// SQLContextHead starts the data context's part about SQL.
const SQLContextHead = "\n\n### SQL\n\n"

// SplitSQLContext splits a data context into its part about the input
// files and its part about SQL ("" without databases).
func SplitSQLContext(dc string) (files, sql string) {
	if i := strings.Index(dc, SQLContextHead); i >= 0 {
		return dc[:i], dc[i:]
	}
	return dc, ""
}
