package agents

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/sqldb"
	"github.com/sift-agent/sift/tools/sqldb/bigcsv"
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
			var done event.Event
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
				// The system message, and the code agent's data message
				// after it.
				var sys string
				for _, m := range r.Messages {
					if m.Role == schema.System || m.Role == schema.User && strings.HasPrefix(m.Content, prompt.DataHeading) {
						sys += m.Content + "\n"
					}
				}
				if delegates := names["python"] || names[tree.NameCodeAgent]; names[sqldb.SQLQueryName] != (delegates && tc.wantSQL) {
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

// TestDataContextTellsTheSizeOfLargeInputs: an input past bigFileBytes is
// named in the data context with its size, and the agents are told to
// aggregate it with SQL before pandas; a small one is not named.
func TestDataContextTellsTheSizeOfLargeInputs(t *testing.T) {
	ctx := context.Background()
	ws, err := session.Create(ctx, t.TempDir(), session.NewID())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bigcsv.Write(ws.Path("input/big.csv"), bigFileBytes+1); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ws.Path("input/small.csv"), []byte("region,amount\nnorth,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(ws.Root, "input", "big.csv"))
	if err != nil {
		t.Fatal(err)
	}
	r := &run{ws: ws}
	r.addFilesSource(ctx, []string{"input/big.csv", "input/small.csv"})
	defer r.closeDatabases()
	text := r.databaseContext(ctx, "revenue per month")
	for _, want := range []string{
		"Aggregate in SQL (GROUP BY, filters) before bringing rows into Python.",
		fmt.Sprintf("Large inputs: input/big.csv (%.1f MiB).", float64(st.Size())/(1<<20)),
		"Do not load them whole into pandas (the sandbox's memory is limited): aggregate them with sql_query first",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the data context lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "small.csv (") {
		t.Errorf("a small input is named as large:\n%s", text)
	}
}
