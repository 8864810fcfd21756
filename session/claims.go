package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// Sentinel errors of Claims.
var (
	// ErrClaimed means another owner holds an unexpired claim on the
	// session: another process runs it, or has it queued.
	ErrClaimed = errors.New("session claimed by another owner")
	// ErrClaimLost means the owner no longer holds the claim it renews:
	// it expired (and perhaps another owner took it) or was released.
	ErrClaimLost = errors.New("session claim lost")
)

// Claims are short leases on sessions, kept in a backend's shared storage,
// so that every process working on the same sessions (a sift run, resume
// or chat turn, sift serve, several servers behind a load balancer) runs
// each session at most once at a time, and any of them can ask the one
// running it to pause. A claim expires ttl after its last Acquire or
// Renew, so the sessions of a process that died are free again soon after;
// a claim whose holder process is known to have ended (Owner.Gone: it ran
// on this machine and is dead, a zombie, or its pid was reused) is free at
// once. Implementations are safe for concurrent use, and by several
// processes sharing the backend.
type Claims interface {
	// Acquire takes the claim on id for h (h.ID names the owner) for ttl.
	// It fails with a *ClaimedError (ErrClaimed) naming the holder while
	// another owner holds an unexpired claim whose process is not known
	// to have ended; such a claim is taken over, by exactly one of those
	// who try at once. Acquiring a claim h.ID already holds renews it.
	Acquire(ctx context.Context, id string, h Holder, ttl time.Duration) error
	// Renew extends owner's claim on id to ttl from now and reports
	// whether someone asked for a pause (RequestPause) since it was
	// acquired. It fails with ErrClaimLost when owner does not hold an
	// unexpired claim.
	Renew(ctx context.Context, id, owner string, ttl time.Duration) (pause bool, err error)
	// Release gives up owner's claim on id; releasing a claim owner does
	// not hold is not an error.
	Release(ctx context.Context, id, owner string) error
	// RequestPause asks the holder of id's claim to pause the session
	// (its next Renew says so). It reports false when nobody holds it.
	RequestPause(ctx context.Context, id string) (held bool, err error)
}

// Holder is who holds a session's claim, as Acquire is given it and
// ClaimedError reports it.
type Holder struct {
	// ID tells owners apart: Acquire by the same ID renews, Renew and
	// Release take it. Required.
	ID string `json:"owner"`
	// Process is the process holding the claim, so that a claim left by a
	// process that ended is free at once. Optional: a claim without one
	// lasts until it expires.
	Process *Owner `json:"process,omitempty"`
	// What names the holder for people: "sift resume", "sift serve".
	// Optional.
	What string `json:"what,omitempty"`
	// Since is when the claim was taken; Acquire sets it.
	Since time.Time `json:"since,omitzero"`
}

// String names the holder for people: "sift resume (pid 1234 on host)".
func (h Holder) String() string {
	what := h.What
	if what == "" {
		what = "another process"
	}
	if h.Process != nil {
		what += " (" + h.Process.String() + ")"
	}
	return what
}

// gone reports whether h's process is known to have ended.
func (h Holder) gone() bool { return h.Process.Gone() }

// ClaimedError is Acquire's refusal: another owner holds the claim.
type ClaimedError struct {
	// Holder is who holds it, and since when.
	Holder Holder
}

// Error says who holds the claim and since when.
func (e *ClaimedError) Error() string {
	msg := fmt.Sprintf("%s: %s holds it", ErrClaimed, e.Holder)
	if !e.Holder.Since.IsZero() {
		msg += " since " + e.Holder.Since.UTC().Format(time.DateTime) + " UTC"
	}
	return msg + "; wait for it to end, or stop it"
}

// Unwrap makes errors.Is(err, ErrClaimed) hold.
func (e *ClaimedError) Unwrap() error { return ErrClaimed }

// claimed is the error Acquire returns for a claim held as cur says.
func claimed(cur Holder) error { return &ClaimedError{Holder: cur} }

// checkHolder refuses a Holder without an ID.
func checkHolder(h Holder) error {
	if h.ID == "" {
		return errors.New("the holder has no ID; give Holder.ID")
	}
	return nil
}

// claimOp wraps err for a claim operation on id.
func claimOp(op, id string, err error) error {
	return fmt.Errorf("%s the claim on session %s: %w", op, id, err)
}

// claimRecord is a claim as the file backend stores it.
type claimRecord struct {
	Holder
	Expires time.Time `json:"expires"`
	Pause   bool      `json:"pause,omitempty"`
}

// fileClaims keeps each claim in <root>/.claims/<id>.json, read and
// written under an exclusive flock of <root>/.claims/.lock, so processes
// sharing the directory on one machine take turns; the directory goes
// away when its last claim does. Times come from the clock on ctx
// (WithClock).
type fileClaims struct {
	root string
}

func (c *fileClaims) dir() string { return filepath.Join(c.root, ".claims") }

// update runs fn on id's claim (nil when there is none or it expired)
// under the lock, and stores what fn returns (nil removes it).
func (c *fileClaims) update(ctx context.Context, op, id string, fn func(now time.Time, cur *claimRecord) (*claimRecord, error)) error {
	if err := checkCall(ctx, id); err != nil {
		return claimOp(op, id, err)
	}
	lock, err := c.lock()
	if err != nil {
		return claimOp(op, id, err)
	}
	defer lock.Close()
	defer func() { _ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) }()
	// Before the unlock: the directory goes once it holds no claim.
	defer c.tidy()

	now := clockFrom(ctx)()
	path := filepath.Join(c.dir(), id+".json")
	var cur *claimRecord
	switch b, err := os.ReadFile(path); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return claimOp(op, id, err)
	default:
		var r claimRecord
		// A damaged record is treated as no claim: it is rewritten below.
		if json.Unmarshal(b, &r) == nil && r.Expires.After(now) {
			cur = &r
		}
	}
	next, err := fn(now, cur)
	if err != nil {
		return claimOp(op, id, err)
	}
	if next == nil {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return claimOp(op, id, err)
		}
		return nil
	}
	if next == cur {
		return nil
	}
	b, _ := json.Marshal(next)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, SessionFileMode); err != nil {
		return claimOp(op, id, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return claimOp(op, id, err)
	}
	return nil
}

// mkdirAll is os.MkdirAll; a test replaces it to lose the race with a
// tidy on demand.
var mkdirAll = os.MkdirAll

// lockName is the file whose flock guards the claims directory.
const lockName = ".lock"

// lock creates the claims directory and its lock file when missing and
// returns the lock file, exclusively locked. A lock taken on a file that
// tidy removed meanwhile is no lock: then it tries again.
func (c *fileClaims) lock() (*os.File, error) {
	path := filepath.Join(c.dir(), lockName)
	for {
		if err := mkdirAll(c.dir(), 0o700); err != nil {
			// MkdirAll's mkdir found the directory another process had
			// just made, and that process's tidy removed it before
			// MkdirAll looked again: the directory is simply gone
			// again, so go round and make it.
			if fi, serr := os.Lstat(c.dir()); errors.Is(err, fs.ErrExist) && (serr != nil || fi.IsDir()) {
				continue
			}
			return nil, err
		}
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, SessionFileMode)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed by tidy between the two calls
		}
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			_ = f.Close()
			return nil, err
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return f, nil
		}
		_ = f.Close()
		if err1 != nil {
			return nil, err1
		}
	}
}

// tidy removes the claims directory, under the lock, once it holds no
// claim: a sessions directory nobody runs anything in has nothing but
// sessions.
func (c *fileClaims) tidy() {
	entries, err := os.ReadDir(c.dir())
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Name() != lockName {
			return
		}
	}
	if os.Remove(filepath.Join(c.dir(), lockName)) == nil {
		_ = os.Remove(c.dir())
	}
}

// Acquire implements Claims: under the lock, a free or expired claim, one
// whose process ended, or h's own is taken.
func (c *fileClaims) Acquire(ctx context.Context, id string, h Holder, ttl time.Duration) error {
	if err := checkHolder(h); err != nil {
		return claimOp("take", id, err)
	}
	return c.update(ctx, "take", id, func(now time.Time, cur *claimRecord) (*claimRecord, error) {
		if cur != nil && cur.ID == h.ID {
			next := *cur
			next.Expires = now.Add(ttl)
			return &next, nil
		}
		if cur != nil && !cur.gone() {
			return nil, claimed(cur.Holder)
		}
		h.Since = now.UTC()
		return &claimRecord{Holder: h, Expires: now.Add(ttl)}, nil
	})
}

// Renew implements Claims.
func (c *fileClaims) Renew(ctx context.Context, id, owner string, ttl time.Duration) (bool, error) {
	var pause bool
	err := c.update(ctx, "renew", id, func(now time.Time, cur *claimRecord) (*claimRecord, error) {
		if cur == nil || cur.ID != owner {
			return cur, ErrClaimLost
		}
		pause = cur.Pause
		next := *cur
		next.Expires = now.Add(ttl)
		return &next, nil
	})
	return pause, err
}

// Release implements Claims.
func (c *fileClaims) Release(ctx context.Context, id, owner string) error {
	return c.update(ctx, "release", id, func(_ time.Time, cur *claimRecord) (*claimRecord, error) {
		if cur != nil && cur.ID != owner {
			return cur, nil
		}
		return nil, nil
	})
}

// RequestPause implements Claims.
func (c *fileClaims) RequestPause(ctx context.Context, id string) (bool, error) {
	held := false
	err := c.update(ctx, "pause", id, func(_ time.Time, cur *claimRecord) (*claimRecord, error) {
		if cur == nil {
			return nil, nil
		}
		held = true
		next := *cur
		next.Pause = true
		return &next, nil
	})
	return held, err
}

// sqliteClaims keeps claims in the claims table; expiry times come from
// the clock on ctx (WithClock).
type sqliteClaims struct {
	*sqliteConn
}

// Acquire implements Claims: one upsert that takes a free or expired
// claim, or renews owner's own; a claim whose process ended is then taken
// over by a second upsert that holds only while that dead owner still
// holds it, so of several who try at once exactly one wins.
func (c *sqliteClaims) Acquire(ctx context.Context, id string, h Holder, ttl time.Duration) error {
	if err := checkCall(ctx, id); err != nil {
		return claimOp("take", id, err)
	}
	if err := checkHolder(h); err != nil {
		return claimOp("take", id, err)
	}
	now := clockFrom(ctx)()
	h.Since = now.UTC()
	holder, _ := json.Marshal(h)
	steal := ""
	for range 2 {
		res, err := c.db.ExecContext(ctx, `INSERT INTO claims (id, owner, expires, pause, holder) VALUES (?, ?, ?, 0, ?)
ON CONFLICT (id) DO UPDATE SET
	pause = CASE WHEN claims.owner = excluded.owner THEN claims.pause ELSE 0 END,
	holder = CASE WHEN claims.owner = excluded.owner THEN claims.holder ELSE excluded.holder END,
	owner = excluded.owner, expires = excluded.expires
WHERE claims.owner = excluded.owner OR claims.expires <= ? OR claims.owner = ?`, id, h.ID, now.Add(ttl).UnixNano(), string(holder), now.UnixNano(), steal)
		if err != nil {
			return claimOp("take", id, ctxErr(ctx, err))
		}
		if n, err := res.RowsAffected(); err == nil && n > 0 {
			return nil
		}
		cur, err := c.holder(ctx, id)
		if err != nil {
			return claimOp("take", id, err)
		}
		if steal != "" || !cur.gone() {
			return claimOp("take", id, claimed(cur))
		}
		steal = cur.ID
	}
	return claimOp("take", id, ErrClaimed)
}

// holder reads who holds id's claim.
func (c *sqliteClaims) holder(ctx context.Context, id string) (Holder, error) {
	var owner, raw string
	err := c.db.QueryRowContext(ctx, `SELECT owner, holder FROM claims WHERE id = ?`, id).Scan(&owner, &raw)
	if err != nil {
		return Holder{}, ctxErr(ctx, err)
	}
	var h Holder
	// A record from before holders were kept names only its owner.
	_ = json.Unmarshal([]byte(raw), &h)
	h.ID = owner
	return h, nil
}

// Renew implements Claims.
func (c *sqliteClaims) Renew(ctx context.Context, id, owner string, ttl time.Duration) (bool, error) {
	if err := checkCall(ctx, id); err != nil {
		return false, claimOp("renew", id, err)
	}
	now := clockFrom(ctx)()
	var pause bool
	err := c.db.QueryRowContext(ctx, `UPDATE claims SET expires = ? WHERE id = ? AND owner = ? AND expires > ? RETURNING pause`,
		now.Add(ttl).UnixNano(), id, owner, now.UnixNano()).Scan(&pause)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, claimOp("renew", id, ErrClaimLost)
	case err != nil:
		return false, claimOp("renew", id, ctxErr(ctx, err))
	}
	return pause, nil
}

// Release implements Claims.
func (c *sqliteClaims) Release(ctx context.Context, id, owner string) error {
	if err := checkCall(ctx, id); err != nil {
		return claimOp("release", id, err)
	}
	if _, err := c.db.ExecContext(ctx, `DELETE FROM claims WHERE id = ? AND owner = ?`, id, owner); err != nil {
		return claimOp("release", id, ctxErr(ctx, err))
	}
	return nil
}

// RequestPause implements Claims.
func (c *sqliteClaims) RequestPause(ctx context.Context, id string) (bool, error) {
	if err := checkCall(ctx, id); err != nil {
		return false, claimOp("pause", id, err)
	}
	res, err := c.db.ExecContext(ctx, `UPDATE claims SET pause = 1 WHERE id = ? AND expires > ?`, id, clockFrom(ctx)().UnixNano())
	if err != nil {
		return false, claimOp("pause", id, ctxErr(ctx, err))
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// redisClaims keeps each claim as the hash <prefix>claim:<id> (owner,
// pause, holder as JSON) that Redis expires itself; every change is one script on one
// key, so it is atomic and works with Redis Cluster.
type redisClaims struct {
	*redisConn
}

func (c *redisClaims) key(id string) string { return c.prefix + "claim:" + id }

var (
	// ARGV: owner, ttl, holder, the dead owner to take over from (or "").
	// It answers 1 when taken, else the holder's JSON and owner.
	redisAcquire = redis.NewScript(`
local cur = redis.call('HGET', KEYS[1], 'owner')
if cur and cur ~= ARGV[1] and cur ~= ARGV[4] then
	return {redis.call('HGET', KEYS[1], 'holder') or '', cur}
end
if cur ~= ARGV[1] then
	redis.call('DEL', KEYS[1])
	redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'pause', '0', 'holder', ARGV[3])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`)
	redisRenew = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return -1 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return tonumber(redis.call('HGET', KEYS[1], 'pause'))`)
	redisRelease = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`)
	redisPause = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'pause', '1')
return 1`)
)

// Acquire implements Claims; a claim whose process ended is taken over by
// a second script that holds only while that dead owner still holds it.
func (c *redisClaims) Acquire(ctx context.Context, id string, h Holder, ttl time.Duration) error {
	if err := checkCall(ctx, id); err != nil {
		return claimOp("take", id, err)
	}
	if err := checkHolder(h); err != nil {
		return claimOp("take", id, err)
	}
	h.Since = clockFrom(ctx)().UTC()
	holder, _ := json.Marshal(h)
	steal := ""
	for range 2 {
		res, err := redisAcquire.Run(ctx, c.client, []string{c.key(id)}, h.ID, ttl.Milliseconds(), string(holder), steal).Result()
		if err != nil {
			return claimOp("take", id, ctxErr(ctx, err))
		}
		held, ok := res.([]any)
		if !ok {
			return nil
		}
		var cur Holder
		if len(held) == 2 {
			raw, _ := held[0].(string)
			_ = json.Unmarshal([]byte(raw), &cur)
			cur.ID, _ = held[1].(string)
		}
		if steal != "" || !cur.gone() {
			return claimOp("take", id, claimed(cur))
		}
		steal = cur.ID
	}
	return claimOp("take", id, ErrClaimed)
}

// Renew implements Claims.
func (c *redisClaims) Renew(ctx context.Context, id, owner string, ttl time.Duration) (bool, error) {
	if err := checkCall(ctx, id); err != nil {
		return false, claimOp("renew", id, err)
	}
	n, err := redisRenew.Run(ctx, c.client, []string{c.key(id)}, owner, ttl.Milliseconds()).Int()
	if err != nil {
		return false, claimOp("renew", id, ctxErr(ctx, err))
	}
	if n < 0 {
		return false, claimOp("renew", id, ErrClaimLost)
	}
	return n == 1, nil
}

// Release implements Claims.
func (c *redisClaims) Release(ctx context.Context, id, owner string) error {
	if err := checkCall(ctx, id); err != nil {
		return claimOp("release", id, err)
	}
	if err := redisRelease.Run(ctx, c.client, []string{c.key(id)}, owner).Err(); err != nil {
		return claimOp("release", id, ctxErr(ctx, err))
	}
	return nil
}

// RequestPause implements Claims.
func (c *redisClaims) RequestPause(ctx context.Context, id string) (bool, error) {
	if err := checkCall(ctx, id); err != nil {
		return false, claimOp("pause", id, err)
	}
	n, err := redisPause.Run(ctx, c.client, []string{c.key(id)}).Int()
	if err != nil {
		return false, claimOp("pause", id, ctxErr(ctx, err))
	}
	return n == 1, nil
}
