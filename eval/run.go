package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/session"
)

// Options configures Run.
type Options struct {
	// Config is the Sift configuration each question runs with (sessions
	// root, Python, sandbox, models).
	Config agents.Config
	// Scripted plays each question's own Script as the model, offline
	// (native suites); Config.Models is then ignored.
	Scripted bool
	// Mode is the route of questions that name none. Optional; auto.
	Mode agents.Mode
	// Jobs is how many questions run at once. Optional; 1.
	Jobs int
	// Budget bounds each question's run; a question that reaches it fails
	// as FailBudget.
	Budget agents.Budget
	// ResultPath is the JSON results file, rewritten after every question.
	// When it exists (an interrupted run), its finished questions are kept
	// and not run again. Optional; without it nothing is saved.
	ResultPath string
	// Model labels the results (which model or version was scored).
	Model string
	// Progress, when set, is called after each question finishes.
	Progress func(QuestionResult)
}

// Results are a scored suite, as saved in the JSON results file.
type Results struct {
	Suite   string    `json:"suite"`
	Model   string    `json:"model,omitempty"`
	Started time.Time `json:"started"`
	Updated time.Time `json:"updated"`
	// Questions are in suite order; unfinished questions are absent.
	Questions []QuestionResult `json:"questions"`
	Summary   Summary          `json:"summary"`
}

// QuestionResult is one question's score and cost.
type QuestionResult struct {
	ID       string `json:"id"`
	Category string `json:"category,omitempty"`
	Correct  bool   `json:"correct"`
	// Kind is why the answer is not correct; "" when it is.
	Kind    FailureKind `json:"kind,omitempty"`
	Answers []SubAnswer `json:"answers"`
	// Answer is the run's answer text, clipped.
	Answer string `json:"answer,omitempty"`
	Error  string `json:"error,omitempty"`
	// Calls, tokens and cost of the question's model calls.
	Calls            int     `json:"calls"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Cost             float64 `json:"cost_usd"`
	WallMS           int64   `json:"wall_ms"`
	// Session is the workspace the question ran in.
	Session string `json:"session,omitempty"`
}

// Summary aggregates the questions.
type Summary struct {
	Questions   int     `json:"questions"`
	Correct     int     `json:"correct"`
	Accuracy    float64 `json:"accuracy"`
	SubAnswers  int     `json:"sub_answers"`
	SubCorrect  int     `json:"sub_correct"`
	SubAccuracy float64 `json:"sub_accuracy"`
	// Failures counts the questions by failure kind.
	Failures map[FailureKind]int `json:"failures,omitempty"`
	// ByCategory is the accuracy of each category.
	ByCategory       map[string]*Tally `json:"by_category,omitempty"`
	Calls            int               `json:"calls"`
	PromptTokens     int               `json:"prompt_tokens"`
	CompletionTokens int               `json:"completion_tokens"`
	Cost             float64           `json:"cost_usd"`
	WallMS           int64             `json:"wall_ms"`
}

// Tally counts correct questions of a group.
type Tally struct {
	Questions int     `json:"questions"`
	Correct   int     `json:"correct"`
	Accuracy  float64 `json:"accuracy"`
}

// summarize recomputes the summary from the questions.
func (r *Results) summarize() {
	s := Summary{Failures: map[FailureKind]int{}, ByCategory: map[string]*Tally{}}
	for _, q := range r.Questions {
		s.Questions++
		cat := q.Category
		if cat == "" {
			cat = "-"
		}
		t := s.ByCategory[cat]
		if t == nil {
			t = &Tally{}
			s.ByCategory[cat] = t
		}
		t.Questions++
		if q.Correct {
			s.Correct++
			t.Correct++
		} else {
			s.Failures[q.Kind]++
		}
		for _, a := range q.Answers {
			s.SubAnswers++
			if a.OK {
				s.SubCorrect++
			}
		}
		s.Calls += q.Calls
		s.PromptTokens += q.PromptTokens
		s.CompletionTokens += q.CompletionTokens
		s.Cost += q.Cost
		s.WallMS += q.WallMS
	}
	s.Accuracy = ratio(s.Correct, s.Questions)
	s.SubAccuracy = ratio(s.SubCorrect, s.SubAnswers)
	for _, t := range s.ByCategory {
		t.Accuracy = ratio(t.Correct, t.Questions)
	}
	r.Summary = s
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// LoadResults reads a JSON results file.
func LoadResults(path string) (*Results, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Results
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s is not an eval results file: %w", path, err)
	}
	return &r, nil
}

// Run asks every question of suite that ResultPath does not already hold,
// scores the answers and returns all results. Cancelling ctx stops the
// questions in flight; those are not saved, so running again with the same
// ResultPath goes on where it stopped.
func Run(ctx context.Context, suite *Suite, opts Options) (*Results, error) {
	res := &Results{Suite: suite.Name, Model: opts.Model, Started: time.Now().UTC()}
	done := map[string]bool{}
	if opts.ResultPath != "" {
		old, err := LoadResults(opts.ResultPath)
		switch {
		case err == nil && old.Suite != suite.Name:
			return nil, fmt.Errorf("%s holds results of suite %q, not %q: choose another results file", opts.ResultPath, old.Suite, suite.Name)
		case err == nil:
			res = old
			if opts.Model != "" {
				res.Model = opts.Model
			}
			for _, q := range old.Questions {
				done[q.ID] = true
			}
		case !errors.Is(err, os.ErrNotExist):
			return nil, err
		}
	}
	jobs := max(opts.Jobs, 1)
	todo := make(chan Question)
	var (
		mu      sync.Mutex
		saveErr error
		wg      sync.WaitGroup
	)
	order := map[string]int{}
	for i, q := range suite.Questions {
		order[q.ID] = i
	}
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for q := range todo {
				qr, ok := ask(ctx, suite, q, opts)
				if !ok {
					continue // interrupted: asked again next time
				}
				mu.Lock()
				res.Questions = append(res.Questions, qr)
				sort.SliceStable(res.Questions, func(i, j int) bool { return order[res.Questions[i].ID] < order[res.Questions[j].ID] })
				if err := save(res, opts.ResultPath); err != nil && saveErr == nil {
					saveErr = err
				}
				mu.Unlock()
				if opts.Progress != nil {
					opts.Progress(qr)
				}
			}
		}()
	}
feed:
	for _, q := range suite.Questions {
		if done[q.ID] {
			continue
		}
		select {
		case todo <- q:
		case <-ctx.Done():
			break feed
		}
	}
	close(todo)
	wg.Wait()
	res.summarize()
	if saveErr != nil {
		return res, saveErr
	}
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("eval interrupted (run again to go on): %w", err)
	}
	return res, nil
}

// save writes the results atomically.
func save(res *Results, path string) error {
	res.Updated = time.Now().UTC()
	res.summarize()
	if path == "" {
		return nil
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save results: %w", err)
	}
	ws := &session.Workspace{Root: dir}
	return ws.WriteFileAtomic(filepath.Base(path), b)
}

// ask runs one question; ok is false when ctx stopped it.
func ask(ctx context.Context, suite *Suite, q Question, opts Options) (qr QuestionResult, ok bool) {
	qr = QuestionResult{ID: q.ID, Category: q.Category}
	fail := func(err error) (QuestionResult, bool) {
		qr.Kind, qr.Error = FailError, err.Error()
		for _, e := range q.Expected {
			qr.Answers = append(qr.Answers, SubAnswer{Name: e.Name, Expected: e.Value})
		}
		return qr, true
	}
	files, err := suite.Files(q)
	if err != nil {
		return fail(err)
	}
	cfg := opts.Config
	if opts.Scripted {
		if q.Script == "" {
			return fail(fmt.Errorf("question %s has no script to run offline", q.ID))
		}
		script, err := scripted.LoadFile(filepath.Join(suite.Dir, q.Script))
		if err != nil {
			return fail(err)
		}
		cfg.Models = agents.Models{Default: script.Model()}
	}
	mode := opts.Mode
	if q.Mode != "" {
		if mode, err = agents.ParseMode(q.Mode); err != nil {
			return fail(err)
		}
	}
	s, err := agents.New(cfg)
	if err != nil {
		return fail(err)
	}
	start := time.Now()
	var final event.Event
	for e := range s.Run(ctx, agents.Request{Mode: mode, Question: q.Prompt(), Files: files, Budget: opts.Budget, Yes: true}) {
		final = e
	}
	if ctx.Err() != nil {
		return qr, false
	}
	qr.WallMS = time.Since(start).Milliseconds()
	qr.Session = final.Path
	if u := final.Usage; u != nil {
		qr.Calls, qr.PromptTokens, qr.CompletionTokens, qr.Cost = u.Calls, u.PromptTokens, u.CompletionTokens, u.Cost
	}
	answer := ""
	if final.Plan != nil && final.Plan.Result != nil {
		answer = final.Plan.Result.Answer
	}
	qr.Answers, qr.Kind = Score(answer, q.Expected)
	if qr.Kind == FailFormat || qr.Kind == FailNoAnswer {
		// The answer may be in the report rather than the submitted result.
		if report, err := os.ReadFile(filepath.Join(final.Path, "report.md")); err == nil && final.Path != "" {
			answer = answer + "\n" + stripUsage(string(report))
			qr.Answers, qr.Kind = Score(answer, q.Expected)
		}
	}
	for _, a := range q.Artifacts {
		sub := SubAnswer{Name: "file " + a, Expected: "exists", Got: "missing", Found: true}
		if st, err := os.Stat(filepath.Join(final.Path, filepath.FromSlash(a))); err == nil && final.Path != "" && st.Size() > 0 {
			sub.Got, sub.OK = "exists", true
		}
		if !sub.OK && qr.Kind == "" {
			qr.Kind = FailValue
		}
		qr.Answers = append(qr.Answers, sub)
	}
	qr.Answer = clipText(answer, 2000)
	if final.Err != nil {
		qr.Error = final.Err.Error()
		if qr.Kind != "" {
			qr.Kind = FailError
			if errors.Is(final.Err, agents.ErrBudgetExceeded) {
				qr.Kind = FailBudget
			}
		}
	}
	qr.Correct = qr.Kind == ""
	return qr, true
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
