package agents

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/dustin/go-humanize/english"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/memory"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/report"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools"
	"github.com/sift-agent/sift/tools/sqldb"
)

// MemoryAgent is the agent name of the messages Sift's memory sends: an
// answer given from memory, a similar question answered before, the
// facts recalled for the run.
const MemoryAgent = "memory"

// memoryStore is where the instance remembers: its backend's memory, else
// the file memory under the sessions root; nil when memory is off.
func (s *Sift) memoryStore() memory.Store {
	switch {
	case s.cfg.NoMemory:
		return nil
	case s.store.Memory != nil:
		return s.store.Memory
	}
	return session.OpenFileMemory(s.cfg.SessionsRoot)
}

// Memory is what the instance remembers (see package memory), for listing
// and forgetting; nil when Config.NoMemory turned memory off.
func (s *Sift) Memory() memory.Store { return s.memoryStore() }

// memoryWarning tells the caller that memory failed; the run goes on
// without it.
func (r *run) memoryWarning(what string, err error) {
	r.emit(event.Event{Kind: event.Message, Agent: MemoryAgent, Text: fmt.Sprintf("warning: %s: %v; the run goes on without memory", what, err)})
}

// dataSources are the identities of the run's data: its input files (by
// schema and content) and its databases (by address and tables), worked
// out once per run. ok is false when there is no data, or a source
// could not be fingerprinted (memory is then left out of the run).
func (r *run) dataSources(ctx context.Context, inputs []string) (memory.Sources, bool) {
	if r.memSources != nil {
		return r.memSources, len(r.memSources) > 0
	}
	var out memory.Sources
	sums := r.inputSums()
	for _, in := range inputs {
		s, err := memory.FilePreviewed(ctx, r.ws.Path(in), sums[in], r.schemaPreview(ctx, in))
		if err != nil {
			r.memoryWarning("could not fingerprint "+in, err)
			return nil, false
		}
		out = append(out, s)
	}
	dbs, err := databaseSources(ctx, r.sources)
	if err != nil {
		r.memoryWarning("could not read the tables", err)
		return nil, false
	}
	out = append(out, dbs...)
	r.memSources = out
	return out, len(out) > 0
}

// inputSums are the SHA-256 sums the workspace recorded as it copied its
// inputs in, by workspace-relative path, for the inputs still of the
// recorded size and time (an input's copy is read-only): the fingerprint
// then needs no second read of the file.
func (r *run) inputSums() map[string]string {
	recs, err := r.ws.InputRecords()
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, rec := range recs {
		if st, err := os.Stat(r.ws.Path(rec.Path)); err == nil && st.Size() == rec.Size && st.ModTime().Equal(rec.ModTime) {
			out[rec.Path] = rec.SHA256
		}
	}
	return out
}

// databaseSources are the identities of the databases among srcs (by
// address and tables); the files source, fingerprinted as files, is left
// out.
func databaseSources(ctx context.Context, srcs *sqldb.Sources) (memory.Sources, error) {
	if srcs == nil {
		return nil, nil
	}
	var out memory.Sources
	for _, db := range srcs.All() {
		if db.Dialect() == sqldb.DuckDB {
			continue
		}
		sch, err := db.Schema(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", db.URL(), err)
		}
		names := make([]string, len(sch.Tables))
		for i, t := range sch.Tables {
			names[i] = t.Name
		}
		out = append(out, memory.Database(db.URL(), names))
	}
	return out, nil
}

// answerSettings are what, beside the question and the data, decides the
// run's answer (memory.Settings). ok is false when an answer cannot be
// reused safely: a model is configured but unnamed, so a change of
// model could not be told.
func (r *run) answerSettings() (memory.Settings, bool) {
	route := string(r.mode())
	if r.req.Template != "" {
		route += ":" + r.req.Template
	}
	if r.sift.cfg.Verbatim {
		route += ":verbatim"
	}
	st := memory.Settings{Route: route, Version: codeVersion()}
	if !r.sift.hasModel() {
		return st, true
	}
	names := r.sift.cfg.Models.Names
	for _, role := range []string{"planner", "executor", "code", "report"} {
		name := names[role]
		if name == "" {
			name = names["default"]
		}
		if name == "" {
			return st, false
		}
		st.Models = append(st.Models, role+"="+name)
	}
	return st, true
}

// codeVersion is the version of Sift's code and prompts an answer was
// computed with: the prompts' version, and the module's version or VCS
// revision when the build records one.
func codeVersion() string {
	v := "prompts " + prompt.Version
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v += "; sift " + info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
			v += "; " + s.Key + "=" + s.Value
		}
	}
	return v
}

// cacheable reports whether the run may answer from, and add to, the
// answer cache: a question of its own (not a follow-up, whose answer
// depends on the earlier questions; not a conversation's turn), no plan
// review to wait for, memory on.
func (r *run) cacheable() bool {
	return r.sift.memoryStore() != nil && r.lent == nil && !r.req.ReviewPlan && (r.plan == nil || len(r.plan.Earlier) == 0)
}

// cachedAnswer looks the question up in the answer cache: the answer an
// earlier finished session gave to the same question (normalised) on the
// same data (content hashes) with the same settings. A miss with a
// similar question answered on the same data says so, as a suggestion.
func (r *run) cachedAnswer(ctx context.Context, inputs []string) (memory.Entry, bool) {
	if !r.cacheable() {
		return memory.Entry{}, false
	}
	srcs, ok := r.dataSources(ctx, inputs)
	settings, named := r.answerSettings()
	if !ok || !named || !srcs.Hashed() {
		return memory.Entry{}, false
	}
	store := r.sift.memoryStore()
	e, err := store.Get(ctx, memory.AnswerID(r.req.Question, srcs, settings))
	if err == nil && !r.req.Fresh {
		// The earlier session must still be there, finished.
		if m, err := r.sift.store.Sessions.Get(ctx, e.Session); err == nil && m.Status == session.StatusDone {
			return e, true
		}
	}
	if r.req.Fresh {
		return memory.Entry{}, false
	}
	all, err := store.List(ctx)
	if err != nil {
		r.memoryWarning("could not read the memory", err)
		return memory.Entry{}, false
	}
	if sim, ok := r.similar(ctx, all, srcs, settings); ok {
		r.emit(event.Event{Kind: event.Message, Agent: MemoryAgent, Text: fmt.Sprintf(
			"A similar question was answered on the same data in session %s on %s: %q (answer: %s). It is not the same question, so this run computes its own answer; ask that question to have its answer at once.",
			sim.Session, sim.Created.Format(time.DateOnly), sim.Question, firstLine(sim.Answer))})
	}
	return memory.Entry{}, false
}

// similar finds the answer to a question like the run's on the same data
// with the same settings: by embeddings when the instance has an
// embedder (falling back to words when it fails), else by words.
func (r *run) similar(ctx context.Context, all []memory.Entry, srcs memory.Sources, settings memory.Settings) (memory.Entry, bool) {
	if emb := r.embedder(); emb != nil {
		e, ok, err := memory.SimilarEmbedded(ctx, emb, all, r.req.Question, srcs, settings)
		if err == nil {
			return e, ok
		}
		r.emit(event.Event{Kind: event.Message, Agent: MemoryAgent, Text: fmt.Sprintf("warning: could not compare the question with earlier ones by embeddings (%v); compared word by word instead", err)})
	}
	return memory.Similar(all, r.req.Question, srcs, settings)
}

// embedder is the instance's embedder (Config.Embedder), nil when it has
// none, with its calls metered in the run's usage under
// llm.EmbeddingsAgent and recorded in the trajectory, as model calls are.
func (r *run) embedder() llm.Embedder {
	if r.sift.cfg.Embedder == nil {
		return nil
	}
	return llm.MeterEmbeddings(r.sift.cfg.Embedder, r.meter, r.trajectory, r.sift.cfg.Prices)
}

// firstLine is s up to its first line break, shortened to 200 bytes.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// fromMemoryNote heads a report answered from the answer cache.
func fromMemoryNote(e memory.Entry) string {
	return fmt.Sprintf("> **Answered from memory**: the same question on the same data (same content), with the same model and settings, was answered in session %s on %s; no model was called. To compute it again, ask with --fresh (API: \"fresh\": true).",
		e.Session, e.Created.Format(time.DateOnly))
}

// answerFromMemory ends the run with the answer of an earlier session
// (see cachedAnswer): its report, headed by where it came from, and the
// files it made, copied into this session. No model is called.
func (r *run) answerFromMemory(ctx context.Context, e memory.Entry) {
	r.fromMemory = e.Session
	r.emit(event.Event{Kind: event.Message, Agent: MemoryAgent, Text: fmt.Sprintf(
		"Answered from memory: session %s answered this question on %s, on the same data with the same settings; no model is called. Ask with --fresh to compute it again.",
		e.Session, e.Created.Format(time.DateOnly))})
	copied := r.copyDeliverables(e.Session)
	own := r.ownPlan(ctx)
	own.Checked(&plans.SubmitResult{Answer: e.Answer, Files: copied})
	if err := own.Save(); err != nil {
		r.fail(err)
		return
	}
	md := fromMemoryNote(e) + "\n\n" + strings.TrimSpace(e.Report) + "\n"
	path, err := report.Save(r.ws.Root, r.plan.QuestionNumber(), md, true, session.Derived)
	if err != nil {
		r.fail(err)
		return
	}
	r.emit(event.Event{Kind: event.Report, Path: path, Text: md})
	r.done(nil)
}

// maxCopiedBytes bounds the files copied from the session an answer came
// from.
const maxCopiedBytes = 64 << 20

// copyDeliverables copies the files under out/ of session id into this
// session's out/ (read beneath the other workspace, as every session
// path), so the report's links and charts work here too. It returns the
// files copied.
func (r *run) copyDeliverables(id string) []string {
	from, err := session.Open(r.sift.cfg.SessionsRoot, id)
	if err != nil {
		return nil
	}
	var copied []string
	left := int64(maxCopiedBytes)
	for _, rel := range from.Deliverables() {
		if !strings.HasPrefix(rel, "out/") {
			continue
		}
		f, err := from.OpenDeliverable(rel)
		if err != nil {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(f, left+1))
		_ = f.Close()
		if err != nil || int64(len(data)) > left {
			break
		}
		left -= int64(len(data))
		if r.ws.WriteFile(rel, data, session.Derived) == nil {
			copied = append(copied, rel)
		}
	}
	return copied
}

// rememberAnswer adds the run's answer to the answer cache, for the same
// question on the same data with the same settings: md is its report,
// before the usage section.
func (r *run) rememberAnswer(ctx context.Context, md string) {
	if r.fromMemory != "" || !r.cacheable() || r.plan == nil || r.plan.Result == nil || strings.TrimSpace(md) == "" {
		return
	}
	inputs, err := r.ws.Inputs()
	if err != nil {
		return
	}
	srcs, ok := r.dataSources(ctx, inputs)
	settings, named := r.answerSettings()
	if !ok || !named || !srcs.Hashed() {
		return
	}
	q := r.plan.Question
	if q == "" {
		q = r.req.Question
	}
	e := memory.NewAnswer(q, r.plan.Result.Answer, md, srcs, settings, r.ws.ID, time.Now())
	if err := r.sift.memoryStore().Put(context.WithoutCancel(ctx), e); err != nil {
		r.memoryWarning("could not remember the answer", err)
	}
}

// rememberFacts keeps what the person told the run in answers (the
// answer to the question it waits on, or an edit or rejection of its
// plan) as facts about the run's data, for later sessions on it.
func (r *run) rememberFacts(ctx context.Context, meta session.Meta, answers map[string]any) {
	store := r.sift.memoryStore()
	if store == nil || meta.Pending == nil {
		return
	}
	var origin, question, said string
	switch a := answers[meta.Pending.ID].(type) {
	case *tools.Answer:
		origin, question = memory.OriginQuestion, askedQuestion(meta.Pending.Prompt)
		said = strings.TrimSpace(a.Text)
		if a.Choice > 0 && a.Choice <= len(meta.Pending.Choices) {
			said = strings.TrimSpace(meta.Pending.Choices[a.Choice-1] + " " + said)
		}
	case *event.PlanDecision:
		origin, question = memory.OriginPlan, meta.Question
		switch a.Action {
		case event.PlanEdit:
			said = "the steps are " + strings.Join(a.Steps, "; ")
		case event.PlanReject:
			said = strings.TrimSpace(a.Feedback)
		}
	}
	if said == "" || question == "" {
		return
	}
	inputs, err := r.ws.Inputs()
	if err != nil {
		return
	}
	srcs, ok := r.dataSources(ctx, inputs)
	if !ok {
		return
	}
	f := memory.NewFact(origin, question, said, srcs, r.ws.ID, time.Now())
	if err := store.Put(context.WithoutCancel(ctx), f); err != nil {
		r.memoryWarning("could not remember your answer", err)
	}
}

// askedQuestion is the question of a pending question's prompt, without
// the why and the reason it was asked again (tools.Question.SiftInterrupt).
func askedQuestion(prompt string) string {
	q, _, _ := strings.Cut(prompt, "\n(Why: ")
	q, _, _ = strings.Cut(q, "\n(Asked again: ")
	return strings.TrimSpace(q)
}

// recallFacts readies what the person told earlier sessions about the
// run's data: the facts for the agents' context (newest first, at most
// memory.DefaultTokens), said in an event, and the answers for ask_user.
func (r *run) recallFacts(ctx context.Context, inputs []string) {
	store := r.sift.memoryStore()
	if store == nil {
		return
	}
	srcs, ok := r.dataSources(ctx, inputs)
	if !ok {
		return
	}
	all, err := store.List(ctx)
	if err != nil {
		r.memoryWarning("could not read the memory", err)
		return
	}
	facts := slices.DeleteFunc(memory.Facts(all, srcs, r.ws.ID), func(f memory.Entry) bool {
		return f.Origin == memory.OriginQuestion && r.answeredByFork(f.Question)
	})
	if len(facts) == 0 {
		return
	}
	text, shown := memory.Render(facts, memory.DefaultTokens)
	r.remembered, r.facts = text, shown
	if r.plan != nil {
		// A resumed question keeps what it used before it stopped.
		for _, u := range r.plan.Remembered {
			r.noteUsed(u)
		}
	}
	for _, f := range shown {
		r.noteUsed(usedFact(f, false))
	}
	r.emit(event.Event{Kind: event.Message, Agent: MemoryAgent, Text: fmt.Sprintf("Sift remembers %s you gave about this data, shown to the agents (change one with sift memory edit ID \"new text\", forget one with sift memory forget ID):\n%s",
		english.Plural(len(shown), "fact", ""), text)})
}

// recall answers ask_user's question from the facts, when the person
// already answered it in an earlier session on the same data.
func (r *run) recall(question string) (string, bool) {
	if r.answeredByFork(question) {
		return "The person answered: " + r.forkAnswer.Answer, true
	}
	f, ok := memory.Recall(r.facts, question)
	if !ok {
		return "", false
	}
	r.noteUsed(usedFact(f, true))
	return fmt.Sprintf("The person answered this before: %s (%s; memory entry %s). Go on with that answer, and say in your result that it came from what the person said then.", f.Answer, f.Said(), f.ID), true
}

// usedFact is the fact f as plan.md and the report list it; answered:
// it answered an agent's question.
func usedFact(f memory.Entry, answered bool) plans.Remembered {
	u := plans.Remembered{ID: f.ID, Question: f.Question, Answer: f.Answer, PlanEdit: f.Origin == memory.OriginPlan, Said: f.Created, Session: f.Session, Answered: answered}
	if !f.Edited.IsZero() {
		u.Said, u.Edited = f.Edited, true
	}
	return u
}

// noteUsed adds u to the facts the question used (see keepRemembered).
func (r *run) noteUsed(u plans.Remembered) {
	r.usedMu.Lock()
	defer r.usedMu.Unlock()
	fp := plans.FullPlan{Remembered: r.used}
	fp.Remember(u)
	r.used = fp.Remembered
}

// keepRemembered records in the plan the facts the question used, so
// plan.md and the report say which, with when the person said them. It
// runs as the question ends or stops to wait: the tree owns the plan
// while it runs (a resumed one from its checkpoint's copy).
func (r *run) keepRemembered() {
	r.usedMu.Lock()
	used := slices.Clone(r.used)
	r.usedMu.Unlock()
	if len(used) == 0 || r.plan == nil || r.ws == nil {
		return
	}
	for _, u := range used {
		r.plan.Remember(u)
	}
	if err := r.ownPlan(context.Background()).Save(); err != nil {
		r.memoryWarning("could not note the facts used in plan.md", err)
	}
}

// questionReport is this question's report as the agents or a built-in
// wrote it (before the usage section); "" when there is none.
func (r *run) questionReport() string {
	if r.reportPath == "" || r.plan == nil {
		return ""
	}
	md, err := os.ReadFile(r.ws.Path(report.QuestionReportFile(r.plan.QuestionNumber())))
	if err != nil {
		return ""
	}
	return string(md)
}

// FactsAbout are the facts about the data sources, newest first: those a
// question on them is shown, whichever session they were given in. nil
// when memory is off.
func (s *Sift) FactsAbout(ctx context.Context, sources memory.Sources) ([]memory.Entry, error) {
	store := s.memoryStore()
	if store == nil || len(sources) == 0 {
		return nil, nil
	}
	all, err := store.List(ctx)
	if err != nil {
		return nil, err
	}
	return memory.Facts(all, sources, ""), nil
}

// SessionFacts are the facts about the data of session id (FactsAbout),
// its own among them: the data as its last run worked it out
// (session.Meta.Sources), else its input files as they are now. nil when
// memory is off; an unknown session fails with session.ErrSessionNotFound.
func (s *Sift) SessionFacts(ctx context.Context, id string) ([]memory.Entry, error) {
	if s.memoryStore() == nil {
		return nil, nil
	}
	m, err := s.store.Sessions.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	var srcs memory.Sources
	for _, src := range m.Sources {
		srcs = append(srcs, memory.Source{ID: src})
	}
	if len(srcs) == 0 && len(m.Inputs) > 0 {
		ws, err := session.Open(s.cfg.SessionsRoot, id)
		if err != nil {
			return nil, err
		}
		for _, in := range m.Inputs {
			src, err := memory.File(ctx, ws.Path(in))
			if err != nil {
				return nil, err
			}
			srcs = append(srcs, src)
		}
	}
	return s.FactsAbout(ctx, srcs)
}
