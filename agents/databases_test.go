package agents

import (
	"context"
	"strings"
	"testing"

	"github.com/sift-agent/sift/generic"
	"github.com/sift-agent/sift/model/scripted"
	"github.com/sift-agent/sift/tools/sqldb"
)

// TestFilesSQLOnlyWhenTheDataWarrantsIt: a small CSV gets one data context
// (its preview) and no SQL tools; from SIFT_FILES_SQL_FROM on, the
// executor and the code agent get the SQL tools, and the data context
// names the files' views in one line instead of a second schema.
func TestFilesSQLOnlyWhenTheDataWarrantsIt(t *testing.T) {
	py := pythonOrSkip(t)
	for _, tc := range []struct {
		from    string
		wantSQL bool
	}{{"", false}, {"0", true}} {
		t.Run("from="+tc.from, func(t *testing.T) {
			t.Setenv(filesSQLFromEnv, tc.from)
			script := scripted.New(threeStepScript(false)...)
			s, err := New(Config{Models: Models{Default: script.Model()}, SessionsRoot: t.TempDir(), Python: py})
			if err != nil {
				t.Fatal(err)
			}
			var done generic.Event
			for e := range s.Run(context.Background(), Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}}) {
				done = e
			}
			if done.Err != nil {
				t.Fatalf("run failed: %v", done.Err)
			}
			for i, r := range script.Requests() {
				names := map[string]bool{}
				for _, ti := range r.Tools {
					names[ti.Name] = true
				}
				sys := r.Messages[0].Content
				if delegates := names["python"] || names[nameCodeAgent]; names[sqldb.SQLQueryName] != (delegates && tc.wantSQL) {
					t.Errorf("request %d offers %v; want sql_query: %v", i, names, delegates && tc.wantSQL)
				}
				if strings.Contains(sys, "BIGINT") {
					t.Errorf("request %d describes the CSV twice (preview and SQL schema):\n%s", i, sys)
				}
				if strings.Contains(sys, "## Data") && strings.Contains(sys, "Source files holds the input files as views: input/sales.csv → sales.") != tc.wantSQL {
					t.Errorf("request %d: the files source line must be there only with SQL (%v):\n%s", i, tc.wantSQL, sys)
				}
			}
		})
	}
}
