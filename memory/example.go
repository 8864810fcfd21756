package memory

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sift-agent/sift/llm/tokens"
)

// Languages of an example.
const (
	// LanguagePython: a Python cell the code agent ran.
	LanguagePython = "python"
	// LanguageSQL: the SQL of an answer the SQL analyst gave.
	LanguageSQL = "sql"
)

// MaxExampleBytes bounds the code kept as an example: a longer cell is
// not kept (it would crowd out every other example).
const MaxExampleBytes = 3000

// ExampleTokens bounds the examples shown to the code agent (see
// Examples), in o200k tokens.
const ExampleTokens = 1200

// NewExample is code in language that did task (a plan step's
// description) on the data sources in session. The same task on the same
// data keeps one example, the newest.
func NewExample(language, task, code string, sources Sources, session string, now time.Time) Entry {
	key := digest(append([]string{string(KindExample), language, Normalize(task)}, sources.IDs()...)...)
	return Entry{
		ID: "e-" + key[:idLen], Kind: KindExample, Language: language,
		Sources: sources.IDs(), Names: sources.Names(),
		Question: strings.TrimSpace(task), Answer: strings.TrimSpace(code),
		Session: session, Created: now.UTC(),
	}
}

// Examples are the examples among entries in language about the data
// sources (every source an example was made on is among them), leaving
// out those of session skip, the most like question first (Similarity of
// its task to question, then the newest), rendered for the code agent as
// many as fit in maxTokens; "" when there are none. It returns the
// examples it shows.
func Examples(entries []Entry, language string, sources Sources, question, skip string, maxTokens int) (string, []Entry) {
	ids := sources.IDs()
	type scored struct {
		e     Entry
		score float64
	}
	var cands []scored
	for _, e := range entries {
		if e.Kind == KindExample && e.Language == language && e.Session != skip && e.about(ids) {
			cands = append(cands, scored{e, Similarity(e.Question, question)})
		}
	}
	slices.SortStableFunc(cands, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return b.e.Created.Compare(a.e.Created)
	})
	var b strings.Builder
	var shown []Entry
	used := 0
	for _, c := range cands {
		block := c.e.exampleBlock()
		n := tokens.Text("", block)
		if used+n > maxTokens {
			continue
		}
		used += n
		b.WriteString(block)
		shown = append(shown, c.e)
	}
	return strings.TrimSpace(b.String()), shown
}

// exampleBlock is an example as the code agent reads it: the task, where
// it was done, and the code fenced.
func (e Entry) exampleBlock() string {
	what := "Step"
	if e.Language == LanguageSQL {
		what = "Request"
	}
	return fmt.Sprintf("%s %q (session %s, %s; memory entry %s):\n```%s\n%s\n```\n\n",
		what, e.Question, e.Session, e.Created.Format(time.DateOnly), e.ID, e.Language, e.Answer)
}
