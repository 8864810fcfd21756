package native

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sift-agent/sift/eval"
	"github.com/sift-agent/sift/llm/scripted"
)

// Name is the native suite's name.
const Name = "sift-native"

// Write writes the native suite into dir: the data under data/, one
// script per question under scripts/, and suite.json (see eval.LoadSuite).
// The questions run on the quick path: the code agent runs the Python of
// the script, answers with what it printed ({{last_tool_result}}), and the
// report writer quotes the answer.
func Write(dir string) (*eval.Suite, error) {
	d := generate()
	if err := d.write(filepath.Join(dir, "data")); err != nil {
		return nil, fmt.Errorf("write the native suite's data: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
		return nil, err
	}
	suite := &eval.Suite{Name: Name, Dir: dir}
	for _, sp := range specs {
		script := scripted.File{Name: "native suite: " + sp.id, Replies: []scripted.FileReply{
			{ToolCalls: []scripted.FileToolCall{{Name: "python", Arguments: mustJSON(map[string]string{"code": sp.python})}}},
			{Content: "Computed with Python:\n{{last_tool_result}}"},
			{Content: "# " + sp.question + "\n\n{{section:Answer submitted}}"},
		}}
		rel := filepath.Join("scripts", sp.id+".json")
		b, err := json.MarshalIndent(script, "", " ")
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, rel), b, 0o644); err != nil {
			return nil, err
		}
		q := eval.Question{ID: sp.id, Category: sp.category, Question: sp.question, Mode: "quick", Script: filepath.ToSlash(rel), Expected: sp.expect(d), Artifacts: sp.artifacts}
		for _, f := range sp.files {
			q.Files = append(q.Files, "data/"+f)
		}
		suite.Questions = append(suite.Questions, q)
	}
	b, err := json.MarshalIndent(suite, "", " ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "suite.json"), b, 0o644); err != nil {
		return nil, err
	}
	return suite, nil
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
