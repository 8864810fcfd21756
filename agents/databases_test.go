package agents

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/sqldb/bigcsv"
)

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
		fmt.Sprintf("Large inputs: input/big.csv (%.1f MB).", float64(st.Size())/(1<<20)),
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
