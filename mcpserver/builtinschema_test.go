package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sift-agent/sift/tools/templates"
)

// TestBuiltinAnalysisNamesComeFromTheCatalog: run_builtin_analysis names
// the catalog's analyses, so a new built-in reaches MCP clients with no
// edit here.
func TestBuiltinAnalysisNamesComeFromTheCatalog(t *testing.T) {
	env := newEnv(t, nil)
	cs := connect(t, env.srv, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if tl.Name != "run_builtin_analysis" {
			continue
		}
		raw, err := json.Marshal(tl.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		a := s.Properties["analysis"]
		if !strings.Contains(a.Description, strings.Join(templates.Names(), ", ")) {
			t.Errorf("analysis description %q does not list the catalog", a.Description)
		}
		return
	}
	t.Fatal("no run_builtin_analysis tool")
}
