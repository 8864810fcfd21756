// Package understanding scores how well Sift's built-in analyses understand a request: for each question of
// testdata/questions.jsonl (and of the held-out testdata/heldout.jsonl and the fresh set testdata/fresh.jsonl)
// on a real public table, it previews the table, asks templates.Understand for a reading, runs the built-in
// when the reading is complete, and compares the reading's slots and the answer table with the expected ones,
// which testdata's generator (gen.py) computed with pandas. Precision is the share of given answers that are
// right; coverage the share of answerable questions answered right; both per language.
package understanding

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// Question is one line of a questions file.
type Question struct {
	ID       string `json:"id"`
	Lang     string `json:"lang"`
	Table    string `json:"table"`
	Question string `json:"question"`
	// Answerable is true, false, or "partial" (the data answers only part: a built-in must not answer).
	Answerable json.RawMessage `json:"answerable"`
	// Reading holds the slots that must match; Measures, GroupBy, Filters, Grain and Sheet are compared
	// whenever the question is answerable (absent means empty), the others only when given.
	Reading json.RawMessage `json:"reading,omitempty"`
	// Unchecked names reading slots not compared for this question (two readings give the same answer).
	Unchecked []string `json:"unchecked,omitempty"`
	// Answer is the expected answer table, computed with pandas.
	Answer *Table `json:"answer,omitempty"`
	// Why says what the data lacks, for a question that must be refused.
	Why string `json:"why,omitempty"`
}

// CanAnswer reports whether a built-in should answer the question.
func (q Question) CanAnswer() bool { return string(q.Answerable) == "true" }

// Table is an answer table: group keys first, then the measures, in result order.
type Table struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

// LoadQuestions reads a questions file, one JSON object a line.
func LoadQuestions(path string) ([]Question, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load questions: %w", err)
	}
	var out []Question
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var q Question
		if err := json.Unmarshal(line, &q); err != nil {
			return nil, fmt.Errorf("load questions: %s line %d: %w", path, n, err)
		}
		switch {
		case q.ID == "" || q.Table == "" || q.Question == "":
			return nil, fmt.Errorf("load questions: %s line %d: id, table and question are required", path, n)
		case seen[q.ID]:
			return nil, fmt.Errorf("load questions: %s line %d: id %s repeats", path, n, q.ID)
		case q.CanAnswer() && (q.Answer == nil || len(q.Reading) == 0):
			return nil, fmt.Errorf("load questions: %s line %d (%s): an answerable question needs reading and answer; regenerate with gen.py", path, n, q.ID)
		case !q.CanAnswer() && q.Why == "":
			return nil, fmt.Errorf("load questions: %s line %d (%s): a question to refuse needs why", path, n, q.ID)
		}
		seen[q.ID] = true
		out = append(out, q)
	}
	return out, sc.Err()
}
