package understanding

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Outcome is what happened to one question.
type Outcome struct {
	Question Question
	// Answered: a built-in produced an answer (the reading was complete and the analysis ran).
	Answered bool
	// Right: answered with the expected reading and numbers (never true for a question to refuse).
	Right bool
	// Reading is the parser's reading (the partial one when it refused).
	Reading Reading
	// Table is the built-in's answer table.
	Table *Table
	// Why is the parser's explanation when it refused.
	Why string
	// Diffs say how an answer differed from the expected one.
	Diffs []string
	// Err is a run that failed after the parser accepted the question (not counted as an answer).
	Err string
	// DuckDBErr is the DuckDB engine's failure on a question the pandas engine then answered.
	DuckDBErr string
}

// Score is precision and coverage over some questions.
type Score struct {
	Questions, Answerable, Answered, Right, Wrong, RightOfAnswerable int
}

// Add counts one outcome.
func (s *Score) Add(o Outcome) {
	s.Questions++
	if o.Question.CanAnswer() {
		s.Answerable++
		if o.Right {
			s.RightOfAnswerable++
		}
	}
	if o.Answered {
		s.Answered++
		if o.Right {
			s.Right++
		} else {
			s.Wrong++
		}
	}
}

// Precision is right answers among answers given (1 when none was given).
func (s Score) Precision() float64 {
	if s.Answered == 0 {
		return 1
	}
	return float64(s.Right) / float64(s.Answered)
}

// Coverage is answerable questions answered right among answerable questions.
func (s Score) Coverage() float64 {
	if s.Answerable == 0 {
		return 1
	}
	return float64(s.RightOfAnswerable) / float64(s.Answerable)
}

// Report is a scored questions file.
type Report struct {
	Name     string
	Outcomes []Outcome
}

// ByLang scores the outcomes per language, plus "all".
func (r Report) ByLang() map[string]*Score {
	out := map[string]*Score{"all": {}}
	for _, o := range r.Outcomes {
		if out[o.Question.Lang] == nil {
			out[o.Question.Lang] = &Score{}
		}
		out[o.Question.Lang].Add(o)
		out["all"].Add(o)
	}
	return out
}

// ByTable scores the outcomes per table.
func (r Report) ByTable() map[string]*Score {
	out := map[string]*Score{}
	for _, o := range r.Outcomes {
		if out[o.Question.Table] == nil {
			out[o.Question.Table] = &Score{}
		}
		out[o.Question.Table].Add(o)
	}
	return out
}

func keys(m map[string]*Score) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if (ks[i] == "all") != (ks[j] == "all") {
			return ks[j] == "all"
		}
		return ks[i] < ks[j]
	})
	return ks
}

// Write prints the scores per language and per table, then the wrong answers, the refused answerable
// questions and the failed runs.
func (r Report) Write(w io.Writer) {
	fmt.Fprintf(w, "== %s: %d questions\n\n", r.Name, len(r.Outcomes))
	table := func(title string, m map[string]*Score) {
		fmt.Fprintf(w, "%-38s %9s %10s %8s %6s %6s %9s %8s\n", title, "questions", "answerable", "answered", "right", "wrong", "precision", "coverage")
		for _, k := range keys(m) {
			s := m[k]
			fmt.Fprintf(w, "%-38s %9d %10d %8d %6d %6d %8.1f%% %7.1f%%\n", k, s.Questions, s.Answerable, s.Answered, s.Right, s.Wrong, 100*s.Precision(), 100*s.Coverage())
		}
		fmt.Fprintln(w)
	}
	table("language", r.ByLang())
	table("table", r.ByTable())
	var wrong, refused, failed []Outcome
	for _, o := range r.Outcomes {
		switch {
		case o.Answered && !o.Right:
			wrong = append(wrong, o)
		case o.Err != "":
			failed = append(failed, o)
		case !o.Answered && o.Question.CanAnswer():
			refused = append(refused, o)
		}
	}
	fmt.Fprintf(w, "-- wrong answers (%d)\n", len(wrong))
	for _, o := range wrong {
		what := strings.Join(o.Diffs, "; ")
		if !o.Question.CanAnswer() {
			what = "answered a question to refuse (" + o.Question.Why + ")"
		}
		fmt.Fprintf(w, "%s [%s] %q: %s\n", o.Question.ID, o.Question.Table, o.Question.Question, what)
	}
	fmt.Fprintf(w, "\n-- answerable questions refused (%d)\n", len(refused))
	for _, o := range refused {
		fmt.Fprintf(w, "%s [%s] %q: %s\n", o.Question.ID, o.Question.Table, o.Question.Question, oneLine(o.Why))
	}
	fmt.Fprintf(w, "\n-- runs that failed after the reading was accepted (%d)\n", len(failed))
	for _, o := range failed {
		fmt.Fprintf(w, "%s [%s] %q: %s\n", o.Question.ID, o.Question.Table, o.Question.Question, oneLine(o.Err))
	}
	var duck []Outcome
	for _, o := range r.Outcomes {
		if o.DuckDBErr != "" {
			duck = append(duck, o)
		}
	}
	if len(duck) > 0 {
		fmt.Fprintf(w, "\n-- the DuckDB engine failed where pandas answered (%d)\n", len(duck))
		for _, o := range duck {
			fmt.Fprintf(w, "%s [%s] %q: %s\n", o.Question.ID, o.Question.Table, o.Question.Question, oneLine(o.DuckDBErr))
		}
	}
	fmt.Fprintln(w)
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
