package understanding

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/tools/templates"
)

// ask reads the question as Sift's built-ins do (templates.Understand), and when the reading is complete
// matches and runs the built-in through op, on the engine Run would choose (DuckDB wherever it reads the file).
// Runs of the same built-in with the same parameters on the same file are made once (their table is the same).
func (e *Evaluator) ask(ctx context.Context, fp *preview.FilePreview, question string) asked {
	files := []*preview.FilePreview{fp}
	r, ok, why := templates.Understand(question, files)
	a := asked{reading: mirror(r), ok: ok, why: why}
	if !ok {
		return a
	}
	m := templates.MatchRequest(question, files)
	if !m.OK() {
		a.err = fmt.Errorf("Understand accepted the question but MatchRequest refused it: %s", m.AbsentNote())
		return a
	}
	a.reading, a.analysis = mirror(m.Reading), m.Template
	key, _ := json.Marshal([]any{m.File, m.Template, m.Params, m.Reading})
	if ran, ok := e.ran[string(key)]; ok {
		a.table, a.err, a.duckdbErr = ran.table, ran.err, ran.duckdbErr
		return a
	}
	defer func() { e.ran[string(key)] = a }()
	op := e.op
	// The engine a person's run takes (templates.EngineFor); pandas only where DuckDB fails, reported apart.
	engine := templates.EngineFor(m.Template, m.File, m.Params.Encoding)
	res, err := templates.RunWith(ctx, op, m.File, m, templates.RunOptions{Lang: templates.LangOf(question), Engine: engine})
	if err != nil && engine == templates.EngineDuckDB && ctx.Err() == nil {
		// Run falls back to pandas where DuckDB cannot read the file (EngineAuto); DuckDB's failure is reported apart.
		a.duckdbErr = err.Error()
		res, err = templates.RunWith(ctx, op, m.File, m, templates.RunOptions{Lang: templates.LangOf(question), Engine: templates.EnginePandas})
	}
	if err != nil {
		a.err = err
		return a
	}
	if res.Table != nil {
		b, _ := json.Marshal(res.Table)
		a.table = &Table{}
		_ = json.Unmarshal(b, a.table)
	}
	return a
}

// mirror converts the parser's reading into this package's copy of it.
func mirror(r templates.Reading) Reading {
	var out Reading
	b, _ := json.Marshal(r)
	_ = json.Unmarshal(b, &out)
	return out
}
