package tree

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/sift-agent/sift/internal/golden"

	"github.com/sift-agent/sift/tools/sqldb"
)

// checkGolden and render are the shared golden-file helpers.
var (
	checkGolden = golden.Check
)

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
