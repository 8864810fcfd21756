package session

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/sift-agent/sift/memory"
)

// MemoryDir is the directory under the sessions root where the file
// backend keeps what Sift remembers (memory.Entry), one 0600 JSON file per
// entry. Its name starts with '.', so it is never a session's.
const MemoryDir = ".memory"

// OpenFileMemory is the memory store of the file backend rooted at root:
// <root>/.memory/<id>.json, each written atomically and private to its
// owner (an entry holds the person's words and an answer's report).
func OpenFileMemory(root string) memory.Store {
	return &fileMemory{dir: filepath.Join(root, MemoryDir)}
}

// memoryOp names a memory operation on id and its error.
func memoryOp(op, id string, err error) error {
	if id == "" {
		return fmt.Errorf("%s memory: %w", op, err)
	}
	return fmt.Errorf("%s memory entry %s: %w", op, id, err)
}

// memoryCall fails when ctx is done or id is not an entry's ID.
func memoryCall(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return memory.ValidateID(id)
}

// entriesNewestFirst orders entries as memory.Store.List returns them.
func entriesNewestFirst(es []memory.Entry) []memory.Entry {
	slices.SortStableFunc(es, func(a, b memory.Entry) int {
		return cmp.Or(b.Created.Compare(a.Created), strings.Compare(a.ID, b.ID))
	})
	return es
}

// fileMemory keeps each entry in <dir>/<id>.json.
type fileMemory struct {
	dir string
}

func (m *fileMemory) Put(ctx context.Context, e memory.Entry) error {
	if err := memoryCall(ctx, e.ID); err != nil {
		return memoryOp("save", e.ID, err)
	}
	data, err := json.Marshal(e)
	if err != nil {
		return memoryOp("save", e.ID, err)
	}
	if err := writeAtomic(ctx, m.dir, e.ID+".json", data, 0o600); err != nil {
		return memoryOp("save", e.ID, err)
	}
	return nil
}

func (m *fileMemory) Get(ctx context.Context, id string) (memory.Entry, error) {
	if err := memoryCall(ctx, id); err != nil {
		return memory.Entry{}, memoryOp("read", id, err)
	}
	data, err := os.ReadFile(filepath.Join(m.dir, id+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return memory.Entry{}, memoryOp("read", id, memory.ErrNotFound)
	}
	if err != nil {
		return memory.Entry{}, memoryOp("read", id, err)
	}
	var e memory.Entry
	if err := json.Unmarshal(data, &e); err != nil {
		return memory.Entry{}, memoryOp("read", id, fmt.Errorf("%w; forget it with sift memory forget %s", err, id))
	}
	return e, nil
}

func (m *fileMemory) List(ctx context.Context) ([]memory.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, memoryOp("list", "", err)
	}
	des, err := os.ReadDir(m.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, memoryOp("list", "", err)
	}
	var out []memory.Entry
	for _, de := range des {
		id, ok := strings.CutSuffix(de.Name(), ".json")
		if !ok || !de.Type().IsRegular() || memory.ValidateID(id) != nil {
			continue // a partial write, or not an entry
		}
		e, err := m.Get(ctx, id)
		if errors.Is(err, memory.ErrNotFound) {
			continue // forgotten meanwhile
		}
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return entriesNewestFirst(out), nil
}

func (m *fileMemory) Delete(ctx context.Context, id string) error {
	if err := memoryCall(ctx, id); err != nil {
		return memoryOp("forget", id, err)
	}
	err := os.Remove(filepath.Join(m.dir, id+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return memoryOp("forget", id, memory.ErrNotFound)
	}
	if err != nil {
		return memoryOp("forget", id, err)
	}
	syncDir(m.dir)
	return nil
}

// sqliteMemory keeps entries in the memory table.
type sqliteMemory struct {
	*sqliteConn
}

func (m *sqliteMemory) Put(ctx context.Context, e memory.Entry) error {
	if err := memoryCall(ctx, e.ID); err != nil {
		return memoryOp("save", e.ID, err)
	}
	data, err := json.Marshal(e)
	if err != nil {
		return memoryOp("save", e.ID, err)
	}
	_, err = m.db.ExecContext(ctx, `INSERT INTO memory (id, created_at, entry) VALUES (?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, entry = excluded.entry`, e.ID, e.Created.UnixNano(), string(data))
	if err != nil {
		return memoryOp("save", e.ID, err)
	}
	return nil
}

func (m *sqliteMemory) Get(ctx context.Context, id string) (memory.Entry, error) {
	if err := memoryCall(ctx, id); err != nil {
		return memory.Entry{}, memoryOp("read", id, err)
	}
	var data string
	err := m.db.QueryRowContext(ctx, `SELECT entry FROM memory WHERE id = ?`, id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return memory.Entry{}, memoryOp("read", id, memory.ErrNotFound)
	}
	if err != nil {
		return memory.Entry{}, memoryOp("read", id, err)
	}
	var e memory.Entry
	if err := json.Unmarshal([]byte(data), &e); err != nil {
		return memory.Entry{}, memoryOp("read", id, err)
	}
	return e, nil
}

func (m *sqliteMemory) List(ctx context.Context) ([]memory.Entry, error) {
	rows, err := m.db.QueryContext(ctx, `SELECT entry FROM memory`)
	if err != nil {
		return nil, memoryOp("list", "", err)
	}
	defer rows.Close()
	var out []memory.Entry
	for rows.Next() {
		var data string
		if err := rows.Scan(&data); err != nil {
			return nil, memoryOp("list", "", err)
		}
		var e memory.Entry
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			return nil, memoryOp("list", "", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, memoryOp("list", "", err)
	}
	return entriesNewestFirst(out), nil
}

func (m *sqliteMemory) Delete(ctx context.Context, id string) error {
	if err := memoryCall(ctx, id); err != nil {
		return memoryOp("forget", id, err)
	}
	res, err := m.db.ExecContext(ctx, `DELETE FROM memory WHERE id = ?`, id)
	if err != nil {
		return memoryOp("forget", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return memoryOp("forget", id, memory.ErrNotFound)
	}
	return nil
}

// redisMemory keeps entries as JSON in the hash <prefix>memory, one field
// per entry: one key, so it works with Redis Cluster; never expired by
// the backend's TTL (the person forgets entries themselves).
type redisMemory struct {
	*redisConn
}

func (m *redisMemory) key() string { return m.prefix + "memory" }

func (m *redisMemory) Put(ctx context.Context, e memory.Entry) error {
	if err := memoryCall(ctx, e.ID); err != nil {
		return memoryOp("save", e.ID, err)
	}
	data, err := json.Marshal(e)
	if err != nil {
		return memoryOp("save", e.ID, err)
	}
	if err := m.client.HSet(ctx, m.key(), e.ID, data).Err(); err != nil {
		return memoryOp("save", e.ID, err)
	}
	return nil
}

func (m *redisMemory) Get(ctx context.Context, id string) (memory.Entry, error) {
	if err := memoryCall(ctx, id); err != nil {
		return memory.Entry{}, memoryOp("read", id, err)
	}
	data, err := m.client.HGet(ctx, m.key(), id).Bytes()
	if errors.Is(err, redis.Nil) {
		return memory.Entry{}, memoryOp("read", id, memory.ErrNotFound)
	}
	if err != nil {
		return memory.Entry{}, memoryOp("read", id, err)
	}
	var e memory.Entry
	if err := json.Unmarshal(data, &e); err != nil {
		return memory.Entry{}, memoryOp("read", id, err)
	}
	return e, nil
}

func (m *redisMemory) List(ctx context.Context) ([]memory.Entry, error) {
	all, err := m.client.HGetAll(ctx, m.key()).Result()
	if err != nil {
		return nil, memoryOp("list", "", err)
	}
	out := make([]memory.Entry, 0, len(all))
	for _, data := range all {
		var e memory.Entry
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			return nil, memoryOp("list", "", err)
		}
		out = append(out, e)
	}
	return entriesNewestFirst(out), nil
}

func (m *redisMemory) Delete(ctx context.Context, id string) error {
	if err := memoryCall(ctx, id); err != nil {
		return memoryOp("forget", id, err)
	}
	n, err := m.client.HDel(ctx, m.key(), id).Result()
	if err != nil {
		return memoryOp("forget", id, err)
	}
	if n == 0 {
		return memoryOp("forget", id, memory.ErrNotFound)
	}
	return nil
}
