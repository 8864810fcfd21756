package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	// The pure-Go SQLite driver, registered as "sqlite".
	_ "modernc.org/sqlite"
)

// SQLiteConfig configures OpenSQLiteBackend.
type SQLiteConfig struct {
	// Path is the database file. Required. It and its directory are
	// created when missing.
	Path string
	// BusyTimeout is how long a write waits while another connection or
	// process writes before it fails. Optional; defaults to 5 seconds.
	BusyTimeout time.Duration
}

// sqliteSchema creates the tables on first use; it is safe to run again.
const sqliteSchema = `
CREATE TABLE IF NOT EXISTS checkpoints (
	id         TEXT PRIMARY KEY,
	data       BLOB NOT NULL,
	updated_at INTEGER NOT NULL -- Unix nanoseconds
);
CREATE TABLE IF NOT EXISTS sessions (
	id         TEXT PRIMARY KEY,
	status     TEXT NOT NULL,
	created_at INTEGER NOT NULL, -- Unix nanoseconds
	updated_at INTEGER NOT NULL, -- Unix nanoseconds
	meta       TEXT NOT NULL     -- Meta as JSON
);
CREATE INDEX IF NOT EXISTS sessions_by_created ON sessions (created_at DESC, id DESC);
CREATE TABLE IF NOT EXISTS memory (
	id         TEXT PRIMARY KEY,
	created_at INTEGER NOT NULL, -- Unix nanoseconds
	entry      TEXT NOT NULL     -- memory.Entry as JSON
);
CREATE TABLE IF NOT EXISTS claims (
	id      TEXT PRIMARY KEY,
	owner   TEXT NOT NULL,
	expires INTEGER NOT NULL, -- Unix nanoseconds
	pause   INTEGER NOT NULL DEFAULT 0,
	holder  TEXT NOT NULL DEFAULT '' -- Holder as JSON
);
`

// sqliteMigrations bring a database made by an earlier version up to
// sqliteSchema; each fails harmlessly (duplicate column) once applied.
var sqliteMigrations = []string{
	`ALTER TABLE claims ADD COLUMN holder TEXT NOT NULL DEFAULT ''`,
}

// OpenSQLiteBackend opens (creating when missing) the SQLite database at
// cfg.Path and returns a backend keeping checkpoints in its checkpoints
// table and metadata in its sessions table. The database runs in WAL mode,
// so readers (sift list) never block the writer; several processes may
// share the file.
func OpenSQLiteBackend(ctx context.Context, cfg SQLiteConfig) (*Backend, error) {
	if cfg.Path == "" {
		return nil, errors.New("open SQLite store: the database path is empty; give SQLiteConfig.Path, e.g. sift.db")
	}
	if cfg.BusyTimeout <= 0 {
		cfg.BusyTimeout = 5 * time.Second
	}
	path, err := filepath.Abs(cfg.Path)
	if err != nil {
		return nil, fmt.Errorf("open SQLite store %s: %w", cfg.Path, err)
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("open SQLite store %s: %w: the path has '?' or '#', which SQLite would read as options; rename the file", path, ErrBadStoreURL)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open SQLite store %s: make its directory: %w", path, err)
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", cfg.BusyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	// NORMAL is durable across process crashes in WAL mode; only a power
	// loss can lose the last commits, never corrupt the database.
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open SQLite store %s: %w", path, err)
	}
	if _, err := db.ExecContext(ctx, sqliteSchema); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open SQLite store %s: create tables: %w; check that the file is a SQLite database and writable", path, err)
	}
	for _, m := range sqliteMigrations {
		if _, err := db.ExecContext(ctx, m); err != nil && !strings.Contains(err.Error(), "duplicate column") {
			_ = db.Close()
			return nil, fmt.Errorf("open SQLite store %s: update tables: %w", path, err)
		}
	}
	c := &sqliteConn{db: db}
	return &Backend{
		Checkpoints: &sqliteStore{sqliteConn: c},
		Sessions:    &sqliteRegistry{sqliteConn: c},
		Claims:      &sqliteClaims{sqliteConn: c},
		Memory:      &sqliteMemory{sqliteConn: c},
		URL:         "sqlite:" + path,
	}, nil
}

// sqliteConn is the database a SQLite backend's store and registry share.
type sqliteConn struct {
	db     *sql.DB
	closed closeOnce
}

// Close closes the database.
func (c *sqliteConn) Close() error { return c.closed.do(c.db.Close) }

// sqliteStore keeps checkpoints in the checkpoints table.
type sqliteStore struct {
	*sqliteConn
}

// Get implements adk.CheckPointStore.
func (s *sqliteStore) Get(ctx context.Context, id string) ([]byte, bool, error) {
	if err := checkCall(ctx, id); err != nil {
		return nil, false, checkpointOp("read", id, err)
	}
	var data []byte
	err := s.db.QueryRowContext(ctx, `SELECT data FROM checkpoints WHERE id = ?`, id).Scan(&data)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, false, nil
	case err != nil:
		return nil, false, checkpointOp("read", id, ctxErr(ctx, err))
	}
	if data == nil {
		data = []byte{}
	}
	return data, true, nil
}

// Set implements adk.CheckPointStore.
func (s *sqliteStore) Set(ctx context.Context, id string, data []byte) error {
	if err := checkCall(ctx, id); err != nil {
		return checkpointOp("save", id, err)
	}
	if data == nil {
		data = []byte{}
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO checkpoints (id, data, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`,
		id, data, clockFrom(ctx)().UnixNano())
	if err != nil {
		return checkpointOp("save", id, ctxErr(ctx, err))
	}
	return nil
}

// Delete implements Store.
func (s *sqliteStore) Delete(ctx context.Context, id string) error {
	if err := checkCall(ctx, id); err != nil {
		return checkpointOp("delete", id, err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM checkpoints WHERE id = ?`, id); err != nil {
		return checkpointOp("delete", id, ctxErr(ctx, err))
	}
	return nil
}

// ctxErr returns the context's error when ctx ended (the driver's own
// "interrupted" error then hides it), else err.
func ctxErr(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("%w (%w)", cerr, err)
	}
	return err
}
