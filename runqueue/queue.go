// Package runqueue is the durable run queue of a Sift deployment on several
// machines: every run, resume and answered question is an entry of a Redis
// stream read through one consumer group, so any worker with a free slot
// takes the next one. A worker holds a lease on each entry it works (the
// entry is pending for it in the group, and it renews the entry's idle
// time); when a worker dies, its entries are taken over by another worker
// once their lease has expired (XPENDING with IDLE, then XCLAIM, which
// only one worker can win). A worker that drains hands its entries back
// as new ones (Requeue). Nothing here is a protocol of its own: Redis's
// stream, consumer group and pending entries list are the queue, the
// lease and the takeover.
//
// The queue repairs itself when Redis loses its data (a restart without
// persistence, FLUSHALL, a failover to an empty replica): the first call
// that finds the stream or the group missing makes them again and tells
// Config.Repaired, so the caller can put back the entries that were lost
// (the queue itself cannot know them). A worker whose entry is gone is
// told so (ErrEntryGone), not that another worker took it.
package runqueue

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Sentinel errors of the queue.
var (
	// ErrBusy means the session already has an entry queued or being
	// worked: one run of a session at a time.
	ErrBusy = errors.New("the session already has a run queued or going on")
	// ErrLeaseLost means this worker no longer holds the entry: its lease
	// expired and another worker took it over, or it was done already.
	ErrLeaseLost = errors.New("the lease on the run was lost to another worker")
	// ErrEntryGone means the entry is no longer in the queue at all, and
	// no worker holds it: Redis lost it (a restart without persistence,
	// FLUSHALL) or it was removed. The run it stood for goes on; the
	// caller adds it again (Add) so that it is not lost.
	ErrEntryGone = errors.New("the run's queue entry is gone from Redis")
)

// QueueObserver hears what the queue and its workers do, for metrics. The
// server's metrics implement it; NopObserver ignores everything.
type QueueObserver interface {
	// QueueWait is how long an entry waited from Add (or Requeue) until
	// a worker took it.
	QueueWait(d time.Duration)
	// Takeover counts a run taken over by another worker: its lease
	// expired (the worker died) or its worker handed it back (drain).
	Takeover()
	// WorkerRun counts a run worked by the named worker.
	WorkerRun(worker string)
	// SetQueueDepth gives the function that reads the queue's depth (the
	// entries no worker has taken yet), to call when metrics are read.
	SetQueueDepth(depth func() (int64, error))
}

// NopObserver is a QueueObserver that ignores everything.
type NopObserver struct{}

// QueueWait does nothing.
func (NopObserver) QueueWait(time.Duration) {}

// Takeover does nothing.
func (NopObserver) Takeover() {}

// WorkerRun does nothing.
func (NopObserver) WorkerRun(string) {}

// SetQueueDepth does nothing.
func (NopObserver) SetQueueDepth(func() (int64, error)) {}

// Config configures a Queue.
type Config struct {
	// Client is the Redis connection. Required.
	Client redis.UniversalClient
	// Prefix starts the queue's keys: <prefix>{runq} (the stream) and
	// <prefix>{runq}:sessions (session to entry). Optional; "sift:".
	Prefix string
	// Consumer names this worker in the consumer group. Required to take
	// entries (Next); an API-only process may leave it empty.
	Consumer string
	// Lease is how long an entry stays with a worker that stops renewing
	// it before another worker may take it over. Optional; 30s.
	Lease time.Duration
	// Repaired, when set, is called (on the caller's goroutine) each time
	// this process found the queue's stream or consumer group missing
	// and made them again: Redis lost its data, and with it the entries
	// that were queued or being worked. Optional.
	Repaired func()
}

// DefaultLease is Config.Lease's default.
const DefaultLease = 30 * time.Second

// group is the consumer group every worker reads through.
const group = "workers"

// Queue is a run queue on Redis. It is safe for concurrent use, and by
// many processes sharing the Redis server.
type Queue struct {
	cfg      Config
	stream   string
	sessions string
}

// Entry is one queued run, as a worker took it.
type Entry struct {
	// ID is the stream entry's ID.
	ID string
	// Session is the session the run is of.
	Session string
	// Payload is what Add was given: how to run it.
	Payload []byte
	// Enqueued is when it was added (or handed back).
	Enqueued time.Time
	// HandedBackBy names the worker that handed it back when it drained;
	// empty for an entry added by Add.
	HandedBackBy string
	// TakenFrom names the worker whose lease on it expired, when this
	// worker took it over; empty otherwise.
	TakenFrom string
}

// New returns the queue and makes sure its stream and consumer group exist.
func New(ctx context.Context, cfg Config) (*Queue, error) {
	if cfg.Client == nil {
		return nil, errors.New("run queue: give Config.Client, a Redis connection")
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "sift:"
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	q := &Queue{cfg: cfg, stream: cfg.Prefix + "{runq}", sessions: cfg.Prefix + "{runq}:sessions"}
	if _, err := q.ensure(ctx); err != nil {
		return nil, err
	}
	return q, nil
}

// ensure makes the stream and the consumer group when they are missing,
// reporting whether it made the group. The group reads from the
// stream's start, so entries added after a loss and before the group
// came back (an API's Add makes the stream alone) are not skipped.
func (q *Queue) ensure(ctx context.Context) (bool, error) {
	err := q.cfg.Client.XGroupCreateMkStream(ctx, q.stream, group, "0").Err()
	if isBusyGroup(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("run queue: create the consumer group on %s: %w; check that the Redis server answers and is version 6.2 or later", q.stream, err)
	}
	return true, nil
}

// repair makes the stream and group again after err said they were
// missing, and tells Config.Repaired when this process made them.
func (q *Queue) repair(ctx context.Context, err error) error {
	if !isNoGroup(err) {
		return err
	}
	made, eerr := q.ensure(ctx)
	if eerr != nil {
		return fmt.Errorf("%w (and remaking it: %w)", err, eerr)
	}
	if made && q.cfg.Repaired != nil {
		q.cfg.Repaired()
	}
	return nil
}

func isBusyGroup(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), "BUSYGROUP")
}

// isNoGroup reports whether err says the stream or the group is missing:
// Redis answers NOGROUP for either (XREADGROUP, XPENDING, XCLAIM, XACK),
// and "no such key" to XINFO on a missing stream.
func isNoGroup(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.HasPrefix(msg, "NOGROUP") || strings.Contains(msg, "no such key")
}

// Check reports whether the queue can be used now: Redis answers and the
// stream and group exist (made again here when Redis lost them). The
// error says what is wrong, for a readiness probe.
func (q *Queue) Check(ctx context.Context) error {
	err := q.cfg.Client.XInfoGroups(ctx, q.stream).Err()
	if err == nil {
		return nil
	}
	if rerr := q.repair(ctx, err); rerr != nil {
		return fmt.Errorf("the run queue in Redis cannot be used: %w", rerr)
	}
	return nil
}

// Lease is how long an entry stays with a worker that stopped renewing it.
func (q *Queue) Lease() time.Duration { return q.cfg.Lease }

// addScript adds an entry unless the session has one (KEYS: stream,
// sessions; ARGV: session, payload, enqueued, handed back by).
var addScript = redis.NewScript(`
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return false end
local id = redis.call('XADD', KEYS[1], '*', 'session', ARGV[1], 'payload', ARGV[2], 'enqueued', ARGV[3], 'from', ARGV[4])
redis.call('HSET', KEYS[2], ARGV[1], id)
return id`)

// Add queues a run of session with payload. It fails with ErrBusy when
// the session has an entry queued or being worked.
func (q *Queue) Add(ctx context.Context, session string, payload []byte) (string, error) {
	res, err := addScript.Run(ctx, q.cfg.Client, []string{q.stream, q.sessions}, session, payload, nowMillis(), "").Result()
	if errors.Is(err, redis.Nil) {
		return "", ErrBusy
	}
	if err != nil {
		return "", fmt.Errorf("queue a run of session %s: %w", session, err)
	}
	return res.(string), nil
}

// Active reports whether session has an entry queued or being worked.
func (q *Queue) Active(ctx context.Context, session string) (bool, error) {
	return q.cfg.Client.HExists(ctx, q.sessions, session).Result()
}

// Depth is how many entries no worker has taken yet.
func (q *Queue) Depth(ctx context.Context) (int64, error) {
	n, err := q.cfg.Client.XLen(ctx, q.stream).Result()
	if err != nil {
		return 0, err
	}
	p, err := q.cfg.Client.XPending(ctx, q.stream, group).Result()
	if err != nil {
		return 0, q.repairOr(ctx, err)
	}
	return max(n-p.Count, 0), nil
}

// Next takes the next entry for this worker: first one whose worker's
// lease has expired (a takeover; TakenFrom says whose), else a new one,
// waiting up to block for one to come. It returns nil, nil when none
// came.
func (q *Queue) Next(ctx context.Context, block time.Duration) (*Entry, error) {
	if q.cfg.Consumer == "" {
		return nil, errors.New("run queue: this process has no Config.Consumer name; it cannot take runs")
	}
	if e, err := q.takeExpired(ctx); e != nil || err != nil {
		return e, err
	}
	res, err := q.cfg.Client.XReadGroup(ctx, &redis.XReadGroupArgs{
		Group: group, Consumer: q.cfg.Consumer, Streams: []string{q.stream, ">"}, Count: 1, Block: block,
	}).Result()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		if rerr := q.repair(ctx, err); rerr != nil {
			return nil, fmt.Errorf("take a run from the queue: %w", rerr)
		}
		return nil, nil
	}
	for _, s := range res {
		for _, m := range s.Messages {
			return entryOf(m), nil
		}
	}
	return nil, nil
}

// takeExpired takes over one entry whose lease has expired. XCLAIM with
// the same minimum idle time makes exactly one of the workers that try
// win it.
func (q *Queue) takeExpired(ctx context.Context) (*Entry, error) {
	pend, err := q.cfg.Client.XPendingExt(ctx, &redis.XPendingExtArgs{
		Stream: q.stream, Group: group, Idle: q.cfg.Lease, Start: "-", End: "+", Count: 8,
	}).Result()
	if err != nil {
		if rerr := q.repair(ctx, err); rerr != nil {
			return nil, fmt.Errorf("look for runs whose worker's lease expired: %w", rerr)
		}
		return nil, nil
	}
	for _, p := range pend {
		msgs, err := q.cfg.Client.XClaim(ctx, &redis.XClaimArgs{
			Stream: q.stream, Group: group, Consumer: q.cfg.Consumer, MinIdle: q.cfg.Lease, Messages: []string{p.ID},
		}).Result()
		if err != nil {
			return nil, fmt.Errorf("take over run %s: %w", p.ID, err)
		}
		for _, m := range msgs {
			if m.Values == nil {
				continue // deleted meanwhile
			}
			e := entryOf(m)
			e.TakenFrom = p.Consumer
			return e, nil
		}
		// Another worker won it.
	}
	return nil, nil
}

func entryOf(m redis.XMessage) *Entry {
	e := &Entry{ID: m.ID}
	e.Session, _ = m.Values["session"].(string)
	if p, ok := m.Values["payload"].(string); ok {
		e.Payload = []byte(p)
	}
	if ms, err := strconv.ParseInt(fmt.Sprint(m.Values["enqueued"]), 10, 64); err == nil {
		e.Enqueued = time.UnixMilli(ms)
	}
	e.HandedBackBy, _ = m.Values["from"].(string)
	return e
}

// ownsScript is the check every lease operation starts with: the entry
// (ARGV[2]) is pending for this consumer (ARGV[3]) in the group (ARGV[1]).
const ownsScript = `
local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1)
if #p == 0 or p[1][2] ~= ARGV[3] then return 0 end
`

// renewScript resets the entry's idle time if this worker holds it; it
// answers -1 when the entry is pending for nobody and gone from the
// stream (Redis lost it), 0 when another worker holds it.
var renewScript = redis.NewScript(`
local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1)
if #p == 0 then
  if #redis.call('XRANGE', KEYS[1], ARGV[2], ARGV[2]) == 0 then return -1 end
  return 0
end
if p[1][2] ~= ARGV[3] then return 0 end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[3], 0, ARGV[2], 'JUSTID')
return 1`)

// Renew extends this worker's lease on e. It fails with ErrLeaseLost
// when another worker has taken e over, and with ErrEntryGone when
// Redis lost e (the stream, the group or the entry is gone): then the
// run is nobody else's, and goes on.
func (q *Queue) Renew(ctx context.Context, e *Entry) error {
	n, err := renewScript.Run(ctx, q.cfg.Client, []string{q.stream}, group, e.ID, q.cfg.Consumer).Int()
	if err != nil {
		if isNoGroup(err) {
			if rerr := q.repair(ctx, err); rerr != nil {
				return fmt.Errorf("renew the lease on the run of session %s: %w", e.Session, rerr)
			}
			return ErrEntryGone
		}
		return fmt.Errorf("renew the lease on the run of session %s: %w", e.Session, err)
	}
	switch n {
	case 0:
		return ErrLeaseLost
	case -1:
		return ErrEntryGone
	}
	return nil
}

// doneScript removes the entry and the session's mark if this worker
// holds it (KEYS: stream, sessions; ARGV: group, id, consumer, session).
var doneScript = redis.NewScript(ownsScript + `
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
if redis.call('HGET', KEYS[2], ARGV[4]) == ARGV[2] then redis.call('HDEL', KEYS[2], ARGV[4]) end
return 1`)

// Done removes e from the queue: its run has ended (done, failed,
// waiting for the person, or paused by the person). It fails with
// ErrLeaseLost when another worker has taken e over.
func (q *Queue) Done(ctx context.Context, e *Entry) error {
	n, err := doneScript.Run(ctx, q.cfg.Client, []string{q.stream, q.sessions}, group, e.ID, q.cfg.Consumer, e.Session).Int()
	if err != nil {
		if rerr := q.repairOr(ctx, err); rerr != nil {
			return fmt.Errorf("remove the run of session %s from the queue: %w", e.Session, rerr)
		}
		return ErrLeaseLost
	}
	if n == 0 {
		return ErrLeaseLost
	}
	return nil
}

// requeueScript replaces the entry by a new one at the queue's end, for
// another worker (KEYS: stream, sessions; ARGV: group, id, consumer,
// session, payload, enqueued, from).
var requeueScript = redis.NewScript(ownsScript + `
local id = redis.call('XADD', KEYS[1], '*', 'session', ARGV[4], 'payload', ARGV[5], 'enqueued', ARGV[6], 'from', ARGV[7])
redis.call('HSET', KEYS[2], ARGV[4], id)
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
return 1`)

// Requeue hands e back to the queue with payload (how to go on with it),
// as a new entry another worker takes: a draining worker's runs. It
// fails with ErrLeaseLost when another worker has taken e over.
func (q *Queue) Requeue(ctx context.Context, e *Entry, payload []byte) error {
	n, err := requeueScript.Run(ctx, q.cfg.Client, []string{q.stream, q.sessions}, group, e.ID, q.cfg.Consumer, e.Session, payload, nowMillis(), q.cfg.Consumer).Int()
	if err != nil {
		if rerr := q.repairOr(ctx, err); rerr != nil {
			return fmt.Errorf("hand the run of session %s back to the queue: %w", e.Session, rerr)
		}
		// The entry went with the group: queue the run as a new one.
		if _, err := q.Add(ctx, e.Session, payload); err != nil && !errors.Is(err, ErrBusy) {
			return err
		}
		return nil
	}
	if n == 0 {
		return ErrLeaseLost
	}
	return nil
}

// repairOr repairs the queue when err says it lost its group and
// returns nil then; other errors come back as they are.
func (q *Queue) repairOr(ctx context.Context, err error) error {
	if !isNoGroup(err) {
		return err
	}
	return q.repair(ctx, err)
}

func nowMillis() string { return strconv.FormatInt(time.Now().UnixMilli(), 10) }

// DoneIn queues Done's removal of e on pipe, a MULTI/EXEC transaction
// of the caller's (redis.Client.TxPipelined), so that it happens with
// the caller's other writes in one step or not at all: a worker records
// a run's final status and removes its entry together, and no worker
// can take over a run whose status says it ended. The removal does
// nothing when e is no longer this worker's.
func (q *Queue) DoneIn(ctx context.Context, pipe redis.Pipeliner, e *Entry) {
	doneInScript.Eval(ctx, pipe, []string{q.stream, q.sessions}, group, e.ID, q.cfg.Consumer, e.Session)
}

// doneInScript is doneScript that answers 0 rather than fail when the
// group is gone, so that the status write it goes with is not reported
// as failed when it was made.
var doneInScript = redis.NewScript(`
local ok, p = pcall(redis.call, 'XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1)
if not ok or #p == 0 or p[1][2] ~= ARGV[3] then return 0 end
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
if redis.call('HGET', KEYS[2], ARGV[4]) == ARGV[2] then redis.call('HDEL', KEYS[2], ARGV[4]) end
return 1`)
