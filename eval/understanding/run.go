package understanding

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/preview"
)

// Config says where the evaluation's inputs are and how it runs.
type Config struct {
	// Tables is the directory of the shipped tables (testdata/tables).
	Tables string
	// Python is the interpreter the built-ins run in (see operator.FindPython); required.
	Python string
	// Progress, when set, gets one line per question.
	Progress io.Writer
	// Timeout bounds each built-in run. Optional; default 2 minutes.
	Timeout time.Duration
}

// asked is what Sift made of one question.
type asked struct {
	reading  Reading
	ok       bool
	why      string
	analysis string
	table    *Table
	err      error
	// duckdbErr is the DuckDB engine's failure on a question pandas then answered.
	duckdbErr string
}

// Evaluator runs questions on one shared workspace and kernel, so hundreds of questions take minutes.
type Evaluator struct {
	cfg      Config
	root     string
	op       *operator.KernelOperator
	previews map[string]*preview.FilePreview
	// ran caches built-in runs by file, template and parameters.
	ran map[string]asked
}

// NewEvaluator copies the tables into a fresh workspace's input/ and starts a kernel over it.
func NewEvaluator(cfg Config) (*Evaluator, error) {
	if cfg.Python == "" {
		return nil, errors.New("understanding evaluation: no Python given; install python3-pandas (make python-deps)")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 2 * time.Minute
	}
	root, err := os.MkdirTemp("", "sift-understanding-")
	if err != nil {
		return nil, fmt.Errorf("understanding evaluation: workspace: %w", err)
	}
	entries, err := os.ReadDir(cfg.Tables)
	if err != nil {
		os.RemoveAll(root)
		return nil, fmt.Errorf("understanding evaluation: tables: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(root, "input"), 0o755); err != nil {
		os.RemoveAll(root)
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(cfg.Tables, e.Name()))
		if err == nil {
			err = os.WriteFile(filepath.Join(root, "input", e.Name()), data, 0o644)
		}
		if err != nil {
			os.RemoveAll(root)
			return nil, fmt.Errorf("understanding evaluation: copy %s: %w", e.Name(), err)
		}
	}
	op, err := operator.NewKernelOperator(operator.KernelConfig{Root: root, Python: cfg.Python, Timeout: cfg.Timeout,
		ExtraEnv: []string{"MPLCONFIGDIR=" + filepath.Join(root, ".mpl")}})
	if err != nil {
		os.RemoveAll(root)
		return nil, fmt.Errorf("understanding evaluation: kernel: %w", err)
	}
	return &Evaluator{cfg: cfg, root: root, op: op, previews: map[string]*preview.FilePreview{}, ran: map[string]asked{}}, nil
}

// Close stops the kernel and removes the workspace.
func (e *Evaluator) Close() error {
	err := e.op.Close()
	return errors.Join(err, os.RemoveAll(e.root))
}

func (e *Evaluator) preview(ctx context.Context, table string) (*preview.FilePreview, error) {
	if p, ok := e.previews[table]; ok {
		return p, nil
	}
	p, err := preview.File(ctx, filepath.Join(e.root, "input", table), preview.Options{BaseDir: e.root})
	if err != nil {
		return nil, fmt.Errorf("preview %s: %w", table, err)
	}
	e.previews[table] = p
	return p, nil
}

// Run asks every question and scores it. It fails only when the evaluation cannot run at all (a table that
// does not preview); a question whose built-in fails is an outcome with Err.
func (e *Evaluator) Run(ctx context.Context, name string, qs []Question) (Report, error) {
	rep := Report{Name: name}
	for i, q := range qs {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		fp, err := e.preview(ctx, q.Table)
		if err != nil {
			return rep, fmt.Errorf("understanding evaluation: %s: %w", q.ID, err)
		}
		start := time.Now()
		a := e.ask(ctx, fp, q.Question)
		o := score(q, a, fp)
		rep.Outcomes = append(rep.Outcomes, o)
		if e.cfg.Progress != nil {
			fmt.Fprintf(e.cfg.Progress, "%3d/%d %-22s %-9s %5.1fs %s\n", i+1, len(qs), q.ID, verdict(o), time.Since(start).Seconds(), q.Question)
		}
	}
	return rep, nil
}

func verdict(o Outcome) string {
	switch {
	case o.Right:
		return "right"
	case o.Answered:
		return "WRONG"
	case o.Err != "":
		return "failed"
	case o.Question.CanAnswer():
		return "refused"
	}
	return "refused ok"
}

func score(q Question, a asked, fp *preview.FilePreview) Outcome {
	o := Outcome{Question: q, Reading: a.reading, Table: a.table, Why: a.why, DuckDBErr: a.duckdbErr}
	switch {
	case !a.ok:
		return o
	case a.err != nil:
		o.Err = a.err.Error()
		return o
	}
	o.Answered = true
	if !q.CanAnswer() {
		return o
	}
	o.Diffs = CompareReading(q, keptValues(a.reading, fp))
	analysis := a.analysis
	if a.reading.Analysis != "" {
		analysis = a.reading.Analysis
	}
	var want Reading
	_ = json.Unmarshal(q.Reading, &want)
	prefix := analysis == "topn" && (want.N == 0 || want.N == 1 && a.reading.N == 0)
	o.Diffs = append(o.Diffs, CompareTable(analysis, q.Answer, a.table, prefix)...)
	o.Right = len(o.Diffs) == 0
	return o
}

// Floors are what the evaluation requires per language (en, zh) on the main questions: precision at the
// issue's target, 99%, and coverage at what every set met in both languages when the floor was last raised
// (2 December 2026: the lowest was the fresh set's English, 91.3%; main en 92.2%, zh 98.8%), to be raised as
// it improves; the coverage target is CoverageTarget.
var Floors = struct{ Precision, Coverage float64 }{Precision: 0.99, Coverage: 0.91}

// CoverageTarget is the coverage the issue asks for; reported, not enforced.
const CoverageTarget = 0.85

// Check lists the languages whose precision or coverage is below Floors; empty when all pass.
func Check(r Report) []string {
	var out []string
	for _, lang := range []string{"en", "zh"} {
		s := r.ByLang()[lang]
		if s == nil {
			out = append(out, fmt.Sprintf("%s: no questions in %s", r.Name, lang))
			continue
		}
		if s.Precision() < Floors.Precision {
			out = append(out, fmt.Sprintf("%s %s: precision %.1f%% (%d right of %d answered) is below %.0f%%", r.Name, lang, 100*s.Precision(), s.Right, s.Answered, 100*Floors.Precision))
		}
		if s.Coverage() < Floors.Coverage {
			out = append(out, fmt.Sprintf("%s %s: coverage %.1f%% (%d of %d answerable) is below the floor %.0f%%", r.Name, lang, 100*s.Coverage(), s.RightOfAnswerable, s.Answerable, 100*Floors.Coverage))
		}
	}
	return out
}

// keptValues is reading r with each exclusion (op "!=", "excluding Japan") written as the values it keeps
// ("=" Europe, USA), as the questions' expected readings write it: only where the preview lists every
// value of the column and the column has no missing value, so that both keep the same rows.
func keptValues(r Reading, fp *preview.FilePreview) Reading {
	if len(fp.Sheets) != 1 {
		return r
	}
	s := fp.Sheets[0]
	fs := slices.Clone(r.Filters)
	for i, f := range fs {
		if f.Op != "!=" {
			continue
		}
		k := slices.IndexFunc(s.Columns, func(c preview.Column) bool { return c.Name == f.Column })
		if k < 0 || k >= len(s.Stats) {
			continue
		}
		st := s.Stats[k]
		if st.DistinctCapped || st.Missing > 0 || len(st.Values) != st.Distinct {
			continue
		}
		var kept []string
		for _, v := range st.Values {
			if !slices.Contains(f.Values, v) {
				kept = append(kept, v)
			}
		}
		fs[i] = Filter{Column: f.Column, Op: "=", Values: kept}
	}
	r.Filters = fs
	return r
}
