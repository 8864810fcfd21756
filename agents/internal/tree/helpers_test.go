package tree

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/tools/sqldb"
)

// checkGolden compares got with the golden file, first rewriting the file
// when UPDATE_GOLDEN is set; what names the content in the failure.
func checkGolden(t *testing.T, golden, got, what string) {
	t.Helper()
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with UPDATE_GOLDEN=1 to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s changed (-want +got):\n%s", what, diff)
	}
}

// openShop opens a small SQLite database as the run's only source.
func openShop(t testing.TB) (*sqldb.Sources, struct{}) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE orders (id INTEGER PRIMARY KEY, region TEXT NOT NULL, amount REAL NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ss, err := sqldb.OpenSources(context.Background(), []string{"shop=sqlite:" + p}, sqldb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return ss, struct{}{}
}
