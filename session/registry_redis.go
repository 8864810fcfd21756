package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// redisListBatch is how many sessions List reads per round trip.
const redisListBatch = 500

// redisRegistry keeps each session's Meta as JSON under
// <prefix>session:<id> and indexes the ids in <prefix>sessions.
type redisRegistry struct {
	*redisConn
}

// Put implements Registry. The metadata key gets the backend's TTL; the
// index entry outlives it and List drops it once the key expired.
func (r *redisRegistry) Put(ctx context.Context, m Meta) error {
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
	// Metadata first: an id in the index without metadata is dropped by
	// List, while metadata missing from the index would never be listed.
	if err := r.client.Set(ctx, r.sessionKey(m.ID), data, r.ttl).Err(); err != nil {
		return fmt.Errorf("put session %s: %w", m.ID, ctxErr(ctx, err))
	}
	score := float64(m.Created.UnixMilli())
	if err := r.client.ZAdd(ctx, r.indexKey(), redis.Z{Score: score, Member: m.ID}).Err(); err != nil {
		return fmt.Errorf("put session %s: index it: %w", m.ID, ctxErr(ctx, err))
	}
	return nil
}

// TxPutter is a Registry whose Put can carry other writes on the same
// Redis in one MULTI/EXEC transaction: the Redis registry. A worker of
// the run queue records a run's final status and removes its queue
// entry together (runqueue.Queue.DoneIn), so neither happens without the
// other.
type TxPutter interface {
	// PutWith stores m as Put does, with what also queues on the
	// transaction, all applied together or not at all.
	PutWith(ctx context.Context, m Meta, also func(redis.Pipeliner)) error
}

// PutWith implements TxPutter.
func (r *redisRegistry) PutWith(ctx context.Context, m Meta, also func(redis.Pipeliner)) error {
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
	_, err = r.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, r.sessionKey(m.ID), data, r.ttl)
		p.ZAdd(ctx, r.indexKey(), redis.Z{Score: float64(m.Created.UnixMilli()), Member: m.ID})
		also(p)
		return nil
	})
	if err != nil {
		return fmt.Errorf("put session %s: %w", m.ID, ctxErr(ctx, err))
	}
	return nil
}

// Get implements Registry.
func (r *redisRegistry) Get(ctx context.Context, id string) (Meta, error) {
	if err := checkCall(ctx, id); err != nil {
		return Meta{}, fmt.Errorf("get session %s: %w", id, err)
	}
	data, err := r.client.Get(ctx, r.sessionKey(id)).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return Meta{}, fmt.Errorf("get session %s: %w; check the id (sift sessions list shows the sessions); with a TTL it may have expired", id, ErrSessionNotFound)
	case err != nil:
		return Meta{}, fmt.Errorf("get session %s: %w", id, ctxErr(ctx, err))
	}
	var m Meta
	if err := json.Unmarshal(data, &m); err != nil {
		return Meta{}, fmt.Errorf("get session %s: its stored metadata is not valid JSON: %w; delete the session", id, err)
	}
	return m, nil
}

// List implements Registry. It reads every indexed session (filtering
// happens here, not in Redis), in batches of pipelined GETs. Ids whose
// metadata expired are removed from the index on the way; metadata that
// is not valid JSON is left out.
func (r *redisRegistry) List(ctx context.Context, f Filter) ([]Meta, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	ids, err := r.client.ZRange(ctx, r.indexKey(), 0, -1).Result()
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", ctxErr(ctx, err))
	}
	var all []Meta
	var gone []any
	for start := 0; start < len(ids); start += redisListBatch {
		batch := ids[start:min(start+redisListBatch, len(ids))]
		pipe := r.client.Pipeline()
		cmds := make([]*redis.StringCmd, len(batch))
		for i, id := range batch {
			cmds[i] = pipe.Get(ctx, r.sessionKey(id))
		}
		// Exec reports the first failed command, redis.Nil included;
		// each command is checked below instead.
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			return nil, fmt.Errorf("list sessions: %w", ctxErr(ctx, err))
		}
		for i, cmd := range cmds {
			data, err := cmd.Bytes()
			if errors.Is(err, redis.Nil) {
				gone = append(gone, batch[i])
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("list sessions: %w", ctxErr(ctx, err))
			}
			var m Meta
			if json.Unmarshal(data, &m) != nil {
				continue
			}
			all = append(all, m)
		}
	}
	if len(gone) > 0 {
		// Only tidying: a failure leaves stale ids that the next List
		// drops again.
		_ = r.client.ZRem(ctx, r.indexKey(), gone...).Err()
	}
	return selectMetas(all, f), nil
}

// Delete implements Registry: it removes the metadata, the checkpoint and
// the index entry. Workspaces (on shared storage) are not touched.
func (r *redisRegistry) Delete(ctx context.Context, id string) error {
	if err := checkCall(ctx, id); err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	pipe := r.client.Pipeline()
	meta := pipe.Del(ctx, r.sessionKey(id))
	ckpt := pipe.Del(ctx, r.checkpointKey(id))
	index := pipe.ZRem(ctx, r.indexKey(), id)
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("delete session %s: %w", id, ctxErr(ctx, err))
	}
	if meta.Val()+ckpt.Val()+index.Val() == 0 {
		return fmt.Errorf("delete session %s: %w; check the id (sift sessions list shows the sessions)", id, ErrSessionNotFound)
	}
	return nil
}
