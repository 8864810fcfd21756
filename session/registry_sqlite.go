package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// sqliteRegistry keeps session metadata in the sessions table, as JSON
// beside indexed status and times.
type sqliteRegistry struct {
	*sqliteConn
}

// Put implements Registry.
func (r *sqliteRegistry) Put(ctx context.Context, m Meta) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("put session %s: %w", m.ID, err)
	}
	m, err := stamp(ctx, m, r.Get)
	if err != nil {
		return err
	}
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("put session %s: encode: %w", m.ID, err)
	}
	_, err = r.db.ExecContext(ctx, `INSERT INTO sessions (id, status, created_at, updated_at, meta) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET status = excluded.status, created_at = excluded.created_at,
			updated_at = excluded.updated_at, meta = excluded.meta`,
		m.ID, string(m.Status), m.Created.UnixNano(), m.Updated.UnixNano(), string(data))
	if err != nil {
		return fmt.Errorf("put session %s: %w", m.ID, ctxErr(ctx, err))
	}
	return nil
}

// Get implements Registry.
func (r *sqliteRegistry) Get(ctx context.Context, id string) (Meta, error) {
	if err := checkCall(ctx, id); err != nil {
		return Meta{}, fmt.Errorf("get session %s: %w", id, err)
	}
	var data string
	err := r.db.QueryRowContext(ctx, `SELECT meta FROM sessions WHERE id = ?`, id).Scan(&data)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Meta{}, fmt.Errorf("get session %s: %w; check the id (sift sessions list shows the sessions)", id, ErrSessionNotFound)
	case err != nil:
		return Meta{}, fmt.Errorf("get session %s: %w", id, ctxErr(ctx, err))
	}
	var m Meta
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		return Meta{}, fmt.Errorf("get session %s: its stored metadata is not valid JSON: %w; delete the session", id, err)
	}
	return m, nil
}

// List implements Registry. Rows whose metadata is not valid JSON are left
// out; Get on their id says so.
func (r *sqliteRegistry) List(ctx context.Context, f Filter) ([]Meta, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var where []string
	var args []any
	if len(f.Status) > 0 {
		marks := make([]string, len(f.Status))
		for i, s := range f.Status {
			marks[i] = "?"
			args = append(args, string(s))
		}
		where = append(where, "status IN ("+strings.Join(marks, ", ")+")")
	}
	if !f.UpdatedBefore.IsZero() {
		where = append(where, "updated_at < ?")
		args = append(args, f.UpdatedBefore.UnixNano())
	}
	query := `SELECT meta FROM sessions`
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	query += " ORDER BY created_at DESC, id DESC"
	if f.Limit > 0 {
		query += " LIMIT ?"
		args = append(args, f.Limit)
	}
	rows, err := r.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", ctxErr(ctx, err))
	}
	defer rows.Close()
	out := []Meta{}
	for rows.Next() {
		var data string
		if err := rows.Scan(&data); err != nil {
			return nil, fmt.Errorf("list sessions: %w", ctxErr(ctx, err))
		}
		var m Meta
		if json.Unmarshal([]byte(data), &m) != nil {
			continue
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", ctxErr(ctx, err))
	}
	return out, nil
}

// Delete implements Registry: it removes the session's row and its
// checkpoint in one transaction. The workspace directory is not touched.
func (r *sqliteRegistry) Delete(ctx context.Context, id string) (err error) {
	if err := checkCall(ctx, id); err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete session %s: %w", id, ctxErr(ctx, err))
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	var n int64
	for _, table := range []string{"sessions", "checkpoints"} {
		res, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE id = ?`, id)
		if err != nil {
			return fmt.Errorf("delete session %s: %w", id, ctxErr(ctx, err))
		}
		k, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("delete session %s: %w", id, err)
		}
		n += k
	}
	if n == 0 {
		return fmt.Errorf("delete session %s: %w; check the id (sift sessions list shows the sessions)", id, ErrSessionNotFound)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("delete session %s: %w", id, ctxErr(ctx, err))
	}
	return nil
}
