package sqldb

import (
	"sync"
	"time"
)

// resultCache remembers the results of read queries for a while, keyed by
// source and normalised SQL, so an agent asking the same thing twice in a
// session does not run it twice.
type resultCache struct {
	ttl time.Duration
	now func() time.Time

	mu      sync.Mutex
	entries map[string]cacheEntry
}

type cacheEntry struct {
	res *Result
	at  time.Time
}

// newResultCache returns a cache whose entries live for ttl; ttl < 0 turns
// it off.
func newResultCache(ttl time.Duration, now func() time.Time) *resultCache {
	return &resultCache{ttl: ttl, now: now, entries: map[string]cacheEntry{}}
}

// get returns a copy of the cached result for key, marked as cached, or
// nil when there is none or it expired.
func (c *resultCache) get(key string) *Result {
	if c.ttl < 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return nil
	}
	if c.now().Sub(e.at) >= c.ttl {
		delete(c.entries, key)
		return nil
	}
	r := *e.res
	r.Cached = true
	r.CachedAt = e.at
	return &r
}

// put stores res under key, and drops expired entries on the way.
func (c *resultCache) put(key string, res *Result) {
	if c.ttl < 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	for k, e := range c.entries {
		if now.Sub(e.at) >= c.ttl {
			delete(c.entries, k)
		}
	}
	r := *res
	c.entries[key] = cacheEntry{res: &r, at: now}
}
