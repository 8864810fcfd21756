package session

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/redis/go-redis/v9"

	"github.com/sift-agent/sift/memory"
)

// StoreEnv is the environment variable that names the storage URL when none
// is given (see DefaultStoreURL).
const StoreEnv = "SIFT_STORE"

// CheckpointFile and MetaFile are where the file backend keeps a session's
// checkpoint and metadata, inside its workspace <root>/<id>/.
const (
	CheckpointFile = "checkpoint.bin"
	MetaFile       = "session.json"
)

// ErrBadStoreURL means a storage URL has an unknown scheme or a bad part.
var ErrBadStoreURL = errors.New("bad store URL")

// Store keeps the checkpoints the ADK Runner saves on interrupt and loads
// on resume; give it to adk.RunnerConfig.CheckPointStore and run with
// adk.WithCheckPointID(sessionID). Ids follow ValidateID; others fail with
// ErrInvalidID. Every method honours ctx: a cancelled ctx fails with an
// error wrapping ctx.Err() and leaves the stored checkpoint as it was.
// Implementations are safe for concurrent use.
type Store interface {
	adk.CheckPointStore
	// Delete removes the checkpoint id; a missing one is not an error.
	Delete(ctx context.Context, id string) error
	// Close releases the connection the store holds (the file store holds
	// none). Closing twice is not an error.
	Close() error
}

// Backend is one storage place for sessions: its checkpoint store and its
// session registry, sharing one connection (closing either part closes it
// for both). Create it with OpenBackend or one of OpenFileBackend,
// OpenSQLiteBackend and OpenRedisBackend, and Close it when done.
type Backend struct {
	// Checkpoints is the checkpoint store for the ADK Runner.
	Checkpoints Store
	// Sessions is the session registry.
	Sessions Registry
	// Claims are the leases that keep processes sharing the backend from
	// running one session twice. Optional: nil means one process only.
	Claims Claims
	// Memory keeps what Sift remembers between sessions: the person's
	// facts and the answers already computed, per data source (package
	// memory). Every backend has one.
	Memory memory.Store
	// URL names the backend, e.g. "sqlite:/var/lib/sift/sift.db", with any
	// password left out.
	URL string
	// Redis is the connection of a Redis backend, and RedisPrefix the
	// prefix of its keys, for what else a deployment keeps there (the run
	// queue, runqueue). Nil for other backends.
	Redis       redis.UniversalClient
	RedisPrefix string
}

// Close releases the connection the backend's store and registry share.
// Closing twice is not an error.
func (b *Backend) Close() error { return b.Checkpoints.Close() }

// DefaultStoreURL returns the storage URL to use when none is given: the
// value of $SIFT_STORE, else "file:" followed by DefaultRoot().
func DefaultStoreURL() string {
	if u := strings.TrimSpace(os.Getenv(StoreEnv)); u != "" {
		return u
	}
	return "file:" + DefaultRoot()
}

// OpenBackend opens the storage backend that rawURL names:
//
//   - file:DIR — one workspace directory per session under DIR, holding
//     checkpoint.bin and session.json (the default; DIR defaults to
//     DefaultRoot()).
//   - sqlite:PATH — one SQLite database file (WAL mode, busy timeout 5s);
//     sqlite:///abs/path also works.
//   - redis://[user:password@]host:port/db — Redis, optionally with
//     ?prefix=KEYPREFIX (default "sift:") and ?ttl=DURATION (e.g. 720h;
//     default none); rediss:// for TLS. Other query options are go-redis's.
//
// An empty rawURL means DefaultStoreURL(). It fails with an error wrapping
// ErrBadStoreURL when the URL cannot be used, and checks that the backend
// answers before returning.
func OpenBackend(ctx context.Context, rawURL string) (*Backend, error) {
	if strings.TrimSpace(rawURL) == "" {
		rawURL = DefaultStoreURL()
	}
	spec, err := parseStoreURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	switch spec.kind {
	case "file":
		return OpenFileBackend(spec.path)
	case "sqlite":
		return OpenSQLiteBackend(ctx, SQLiteConfig{Path: spec.path})
	default:
		return OpenRedisBackend(ctx, RedisConfig{URL: spec.redisURL, Prefix: spec.prefix, TTL: spec.ttl})
	}
}

// OpenStore opens only the checkpoint store of the backend rawURL names (see
// OpenBackend). Close it when done.
func OpenStore(ctx context.Context, rawURL string) (Store, error) {
	b, err := OpenBackend(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	return b.Checkpoints, nil
}

// storeSpec is a parsed storage URL.
type storeSpec struct {
	kind string // "file", "sqlite" or "redis"
	// path is the directory (file) or database file (sqlite).
	path string
	// redisURL is the URL for go-redis, without Sift's own options.
	redisURL string
	prefix   string
	ttl      time.Duration
}

// redisPrefixDefault is the key prefix of the Redis backend when none is
// given.
const redisPrefixDefault = "sift:"

// parseStoreURL splits a storage URL into its parts; see OpenBackend.
func parseStoreURL(raw string) (storeSpec, error) {
	raw = strings.TrimSpace(raw)
	scheme, rest, ok := strings.Cut(raw, ":")
	if !ok {
		return storeSpec{}, fmt.Errorf("%w: %q has no scheme; use file:DIR, sqlite:PATH or redis://host:port/db", ErrBadStoreURL, raw)
	}
	switch strings.ToLower(scheme) {
	case "file":
		dir := strings.TrimPrefix(rest, "//")
		if dir == "" {
			dir = DefaultRoot()
		}
		return storeSpec{kind: "file", path: dir}, nil
	case "sqlite", "sqlite3":
		path := strings.TrimPrefix(rest, "//")
		if path == "" {
			return storeSpec{}, fmt.Errorf("%w: %q names no database file; use sqlite:PATH, e.g. sqlite:sift.db", ErrBadStoreURL, raw)
		}
		if strings.ContainsAny(path, "?#") {
			return storeSpec{}, fmt.Errorf("%w: the database path %q has '?' or '#', which SQLite would read as options; rename the file", ErrBadStoreURL, path)
		}
		return storeSpec{kind: "sqlite", path: path}, nil
	case "redis", "rediss":
		u, err := url.Parse(raw)
		if err != nil {
			return storeSpec{}, fmt.Errorf("%w: %w; use redis://host:port/db", ErrBadStoreURL, err)
		}
		if u.Host == "" {
			return storeSpec{}, fmt.Errorf("%w: %q names no host; use redis://host:port/db", ErrBadStoreURL, u.Redacted())
		}
		q := u.Query()
		spec := storeSpec{kind: "redis", prefix: redisPrefixDefault}
		if q.Has("prefix") {
			spec.prefix = q.Get("prefix")
			q.Del("prefix")
		}
		if q.Has("ttl") {
			ttl, err := time.ParseDuration(q.Get("ttl"))
			if err != nil || ttl < 0 {
				return storeSpec{}, fmt.Errorf("%w: ttl=%q is not a duration like 720h or 30m", ErrBadStoreURL, q.Get("ttl"))
			}
			spec.ttl = ttl
			q.Del("ttl")
		}
		u.RawQuery = q.Encode()
		spec.redisURL = u.String()
		return spec, nil
	default:
		return storeSpec{}, fmt.Errorf("%w: unknown scheme %q; use file:DIR, sqlite:PATH or redis://host:port/db", ErrBadStoreURL, scheme)
	}
}

// checkpointOp wraps err for a checkpoint operation on id, naming both.
func checkpointOp(op, id string, err error) error {
	return fmt.Errorf("%s checkpoint %s: %w", op, id, err)
}

// checkCall fails when ctx is done or id is not a valid session id, so
// every backend refuses the same calls.
func checkCall(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return ValidateID(id)
}

// closeOnce makes a Close method that runs close only the first time.
type closeOnce struct {
	once sync.Once
	err  error
}

func (c *closeOnce) do(close func() error) error {
	c.once.Do(func() { c.err = close() })
	return c.err
}
