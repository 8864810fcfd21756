package session

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisConfig configures OpenRedisBackend.
type RedisConfig struct {
	// URL is the server: redis://[user:password@]host:port/db, or
	// rediss:// for TLS, with go-redis's query options allowed. Required
	// unless Client is set.
	URL string
	// Client is an existing connection (a client, ring or cluster) to use
	// instead of URL; the backend's Close leaves it open. Optional.
	Client redis.UniversalClient
	// Prefix starts every key the backend writes, so several deployments
	// can share a server. Optional; empty means "sift:".
	Prefix string
	// TTL makes checkpoints and metadata expire that long after their last
	// write. Optional; 0 keeps them until they are deleted.
	TTL time.Duration
}

// OpenRedisBackend connects to Redis and returns a backend keeping each
// checkpoint under the key <prefix>checkpoint:<id>, each session's Meta as
// JSON under <prefix>session:<id>, and the session ids in the sorted set
// <prefix>sessions (scored by creation time). Every command touches one key,
// so it works with Redis Cluster too. It checks that the server answers
// before returning.
func OpenRedisBackend(ctx context.Context, cfg RedisConfig) (*Backend, error) {
	if cfg.Prefix == "" {
		cfg.Prefix = redisPrefixDefault
	}
	if cfg.TTL < 0 {
		return nil, fmt.Errorf("open Redis store: the TTL %v is negative; use 0 for no expiry", cfg.TTL)
	}
	client, owned := cfg.Client, false
	name := "redis (given client)"
	if client == nil {
		if cfg.URL == "" {
			return nil, errors.New("open Redis store: give RedisConfig.URL (redis://host:port/db) or a Client")
		}
		opts, err := redis.ParseURL(cfg.URL)
		if err != nil {
			return nil, fmt.Errorf("open Redis store: %w: %w", ErrBadStoreURL, err)
		}
		client, owned = redis.NewClient(opts), true
		name = cfg.URL
		if u, err := url.Parse(cfg.URL); err == nil {
			name = u.Redacted()
		}
	}
	if err := client.Ping(ctx).Err(); err != nil {
		if owned {
			_ = client.Close()
		}
		return nil, fmt.Errorf("open Redis store %s: %w; check that redis-server is running there and the password is right", name, err)
	}
	c := &redisConn{client: client, owned: owned, prefix: cfg.Prefix, ttl: cfg.TTL}
	return &Backend{
		Checkpoints: &redisStore{redisConn: c},
		Sessions:    &redisRegistry{redisConn: c},
		Claims:      &redisClaims{redisConn: c},
		Memory:      &redisMemory{redisConn: c},
		URL:         name + " (prefix " + cfg.Prefix + ")",
		Redis:       client,
		RedisPrefix: cfg.Prefix,
	}, nil
}

// redisConn is the connection and key scheme a Redis backend's store and
// registry share.
type redisConn struct {
	client redis.UniversalClient
	// owned is set when the backend made client and so must close it.
	owned  bool
	prefix string
	ttl    time.Duration
	closed closeOnce
}

// Close closes the client when the backend opened it.
func (c *redisConn) Close() error {
	return c.closed.do(func() error {
		if c.owned {
			return c.client.Close()
		}
		return nil
	})
}

func (c *redisConn) checkpointKey(id string) string { return c.prefix + "checkpoint:" + id }
func (c *redisConn) sessionKey(id string) string    { return c.prefix + "session:" + id }
func (c *redisConn) indexKey() string               { return c.prefix + "sessions" }

// redisStore keeps each checkpoint as a string value.
type redisStore struct {
	*redisConn
}

// Get implements adk.CheckPointStore.
func (s *redisStore) Get(ctx context.Context, id string) ([]byte, bool, error) {
	if err := checkCall(ctx, id); err != nil {
		return nil, false, checkpointOp("read", id, err)
	}
	data, err := s.client.Get(ctx, s.checkpointKey(id)).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, false, nil
	case err != nil:
		return nil, false, checkpointOp("read", id, ctxErr(ctx, err))
	}
	return data, true, nil
}

// Set implements adk.CheckPointStore. Redis replaces a value in one step,
// so a reader never sees half a checkpoint.
func (s *redisStore) Set(ctx context.Context, id string, data []byte) error {
	if err := checkCall(ctx, id); err != nil {
		return checkpointOp("save", id, err)
	}
	if data == nil {
		data = []byte{}
	}
	if err := s.client.Set(ctx, s.checkpointKey(id), data, s.ttl).Err(); err != nil {
		return checkpointOp("save", id, ctxErr(ctx, err))
	}
	return nil
}

// Delete implements Store.
func (s *redisStore) Delete(ctx context.Context, id string) error {
	if err := checkCall(ctx, id); err != nil {
		return checkpointOp("delete", id, err)
	}
	if err := s.client.Del(ctx, s.checkpointKey(id)).Err(); err != nil {
		return checkpointOp("delete", id, ctxErr(ctx, err))
	}
	return nil
}
