// Package eval turns recordings and benchmark suites into tests and
// scores: Replay runs a recorded session again against the current code
// (offline, recorded model answers, real Python) and reports where it
// diverges; Export writes a session as a portable, redacted recording; Run
// scores a model on a suite of questions (InfiAgent-DABench or Sift's
// native format) with accuracy, calls, tokens, cost and time per question,
// resumably, with JSON and HTML results and Compare between two results.
package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrBadSuite: a suite file could not be read as a suite.
var ErrBadSuite = errors.New("bad suite")

// Suite is a set of questions with known answers.
type Suite struct {
	// Name names the suite in results.
	Name string `json:"name"`
	// Dir is the directory question files and scripts are relative to.
	Dir string `json:"-"`
	// Questions are asked in order.
	Questions []Question `json:"questions"`
}

// Question is one question of a suite.
type Question struct {
	// ID is unique within the suite.
	ID string `json:"id"`
	// Question is what is asked.
	Question string `json:"question"`
	// Constraints and Format are DABench's extra instructions: how to
	// compute, and the @name[value] answer format.
	Constraints string `json:"constraints,omitempty"`
	Format      string `json:"format,omitempty"`
	// Files are the data files, relative to the suite directory.
	Files []string `json:"files"`
	// Expected are the answers, by name.
	Expected []Expected `json:"expected"`
	// Artifacts are files the run must write (e.g. out/chart.png).
	Artifacts []string `json:"artifacts,omitempty"`
	// Category groups questions in the summary (e.g. "aggregation").
	Category string `json:"category,omitempty"`
	// Mode is the route to run the question with (auto, quick, plan).
	// Optional; the run's default.
	Mode string `json:"mode,omitempty"`
	// Script is a scripted-model script (relative to the suite directory)
	// that answers this question when the suite runs scripted (offline).
	Script string `json:"script,omitempty"`
}

// Expected is one expected answer, written @Name[Value] in the answer.
type Expected struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// Tolerance is the absolute difference allowed between numbers.
	// Optional; by default a number matches when it equals the expected
	// one to the expected one's decimals (34.65 matches 34.6512).
	Tolerance *float64 `json:"tolerance,omitempty"`
	// Exact compares text exactly (after trimming); by default text is
	// compared ignoring case and runs of white space.
	Exact bool `json:"exact,omitempty"`
}

// Prompt is the request sent for q: the question, its constraints and the
// answer format.
func (q Question) Prompt() string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(q.Question))
	if q.Constraints != "" {
		b.WriteString("\n\nConstraints: " + strings.TrimSpace(q.Constraints))
	}
	format := q.Format
	if format == "" && len(q.Expected) > 0 {
		var names []string
		for _, e := range q.Expected {
			names = append(names, "@"+e.Name+"["+e.Name+"]")
		}
		format = strings.Join(names, " ")
	}
	if format != "" {
		b.WriteString("\n\nAnswer format: " + strings.TrimSpace(format))
		b.WriteString("\nEnd the answer with every requested value written exactly as @name[value].")
	}
	return b.String()
}

// LoadSuite reads a suite: a native suite file (JSON, or a directory
// holding suite.json) or InfiAgent-DABench questions (a .jsonl file, or a
// directory holding *questions*.jsonl), whose labels and tables are found
// beside it (see LoadDABench).
func LoadSuite(path string) (*Suite, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadSuite, err)
	}
	if st.IsDir() {
		if _, err := os.Stat(filepath.Join(path, "suite.json")); err == nil {
			return loadNative(filepath.Join(path, "suite.json"))
		}
		qs, _ := filepath.Glob(filepath.Join(path, "*questions*.jsonl"))
		if len(qs) == 1 {
			return LoadDABench(qs[0], "", "")
		}
		return nil, fmt.Errorf("%w: %s holds neither suite.json nor one *questions*.jsonl (DABench)", ErrBadSuite, path)
	}
	if strings.HasSuffix(path, ".jsonl") {
		return LoadDABench(path, "", "")
	}
	return loadNative(path)
}

func loadNative(path string) (*Suite, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadSuite, err)
	}
	s := &Suite{Dir: filepath.Dir(path)}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(s); err != nil {
		return nil, fmt.Errorf("%w: %s is not a native suite (see eval.Suite): %v", ErrBadSuite, path, err)
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return s, s.check()
}

func (s *Suite) check() error {
	if len(s.Questions) == 0 {
		return fmt.Errorf("%w: %s has no questions", ErrBadSuite, s.Name)
	}
	seen := map[string]bool{}
	for i, q := range s.Questions {
		switch {
		case q.ID == "":
			return fmt.Errorf("%w: question %d has no id", ErrBadSuite, i+1)
		case seen[q.ID]:
			return fmt.Errorf("%w: question id %q appears twice", ErrBadSuite, q.ID)
		case strings.TrimSpace(q.Question) == "":
			return fmt.Errorf("%w: question %s has no text", ErrBadSuite, q.ID)
		case len(q.Expected) == 0 && len(q.Artifacts) == 0:
			return fmt.Errorf("%w: question %s has no expected answer", ErrBadSuite, q.ID)
		}
		seen[q.ID] = true
	}
	return nil
}

// daQuestion is a line of DABench's questions file.
type daQuestion struct {
	ID          json.Number `json:"id"`
	Question    string      `json:"question"`
	Concepts    []string    `json:"concepts"`
	Constraints string      `json:"constraints"`
	Format      string      `json:"format"`
	FileName    string      `json:"file_name"`
	Level       string      `json:"level"`
}

// daLabel is a line of DABench's labels file.
type daLabel struct {
	ID            json.Number `json:"id"`
	CommonAnswers [][]string  `json:"common_answers"`
}

// LoadDABench reads InfiAgent-DABench: the questions file (JSONL with id,
// question, constraints, format, file_name), the labels file (JSONL with
// id and common_answers: [[name, value], ...]) and the directory of
// tables. labels defaults to the questions file with "questions" replaced
// by "labels" (da-dev-questions.jsonl → da-dev-labels.jsonl); tables to
// the directory named like it with "tables" (da-dev-tables/), else the
// questions' directory. Questions without a label are left out.
func LoadDABench(questions, labels, tables string) (*Suite, error) {
	base := filepath.Base(questions)
	if labels == "" {
		labels = filepath.Join(filepath.Dir(questions), strings.Replace(base, "questions", "labels", 1))
	}
	if tables == "" {
		tables = filepath.Join(filepath.Dir(questions), strings.Replace(strings.TrimSuffix(base, ".jsonl"), "questions", "tables", 1))
		if st, err := os.Stat(tables); err != nil || !st.IsDir() {
			tables = filepath.Dir(questions)
		}
	}
	var qs []daQuestion
	if err := readJSONL(questions, &qs); err != nil {
		return nil, err
	}
	var ls []daLabel
	if err := readJSONL(labels, &ls); err != nil {
		return nil, fmt.Errorf("%w (DABench labels: give --labels)", err)
	}
	byID := map[string][][]string{}
	for _, l := range ls {
		byID[l.ID.String()] = l.CommonAnswers
	}
	rel, err := filepath.Rel(filepath.Dir(questions), tables)
	if err != nil {
		rel = tables
	}
	s := &Suite{Name: strings.TrimSuffix(base, ".jsonl"), Dir: filepath.Dir(questions)}
	for _, q := range qs {
		answers, ok := byID[q.ID.String()]
		if !ok {
			continue
		}
		sq := Question{ID: q.ID.String(), Question: q.Question, Constraints: q.Constraints, Format: q.Format, Category: q.Level}
		if q.FileName != "" {
			sq.Files = []string{filepath.Join(rel, q.FileName)}
		}
		for _, a := range answers {
			if len(a) != 2 {
				return nil, fmt.Errorf("%w: label of question %s: an answer is not [name, value]", ErrBadSuite, sq.ID)
			}
			sq.Expected = append(sq.Expected, Expected{Name: a[0], Value: a[1]})
		}
		s.Questions = append(s.Questions, sq)
	}
	return s, s.check()
}

// readJSONL decodes every non-blank line of path into a new element of *out.
func readJSONL[T any](path string, out *[]T) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadSuite, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			return fmt.Errorf("%w: %s line %d: %v", ErrBadSuite, path, n, err)
		}
		*out = append(*out, v)
	}
	return sc.Err()
}

// Files returns the absolute paths of q's files, or an error naming the
// first missing one.
func (s *Suite) Files(q Question) ([]string, error) {
	out := make([]string, len(q.Files))
	for i, f := range q.Files {
		p := f
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.Dir, f)
		}
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("question %s: data file %s: %v", q.ID, f, err)
		}
		out[i] = p
	}
	return out, nil
}

// parseNumber reads a number as answers write it: "1,234.5", "12%",
// "$3.50".
func parseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "$")
	s = strings.TrimSuffix(s, "%")
	s = strings.ReplaceAll(s, ",", "")
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return f, err == nil
}
