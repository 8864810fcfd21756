// The eventsource package (the WHATWG EventSource for Node) follows a run
// of a real sift serve to its end: every event arrives as a message with
// its kind in the data, ids increase, and after the done event the one
// reconnect EventSource makes gets 204 and it stops (no reconnect storm).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { EventSource } from 'eventsource';

const base = process.env.SIFT_API_URL;
const csv = await readFile(process.env.SIFT_SALES_CSV);

const form = new FormData();
form.append('file', new Blob([csv], { type: 'text/csv' }), 'sales.csv');
let res = await fetch(`${base}/v1/sessions`, { method: 'POST', body: form });
assert.equal(res.status, 201, 'create session');
const { id } = await res.json();
res = await fetch(`${base}/v1/sessions/${id}/runs`, {
  method: 'POST', headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ question: 'monthly revenue trend', mode: 'template' }),
});
assert.equal(res.status, 202, 'start run');

// Every connection EventSource opens, with its answer's status.
const connections = [];
const es = new EventSource(`${base}/v1/sessions/${id}/events`, {
  fetch: async (url, init) => {
    const r = await fetch(url, init);
    connections.push({ status: r.status, lastEventId: new Headers(init.headers).get('last-event-id') });
    return r;
  },
});
const kinds = [];
let lastId = 0;
const named = [];
for (const name of ['error', 'done', 'session', 'queued']) {
  // A listener for an SSE event name sees nothing: no event is named.
  if (name !== 'error') es.addEventListener(name, () => named.push(name));
}
await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`no end after 2 minutes; kinds so far: ${kinds}`)), 120_000);
  es.onmessage = (m) => {
    const ev = JSON.parse(m.data);
    kinds.push(ev.kind);
    if (m.lastEventId !== '') {
      const n = Number(m.lastEventId);
      assert.ok(n > lastId, `ids increase: ${n} after ${lastId}`);
      assert.equal(ev.seq, n, 'the SSE id is the event seq');
      lastId = n;
    }
  };
  es.onerror = () => {
    // The stream ended: EventSource reconnects unless the answer was 204.
    if (es.readyState === EventSource.CLOSED) {
      clearTimeout(timer);
      resolve();
    }
  };
});
assert.equal(kinds[0], 'session', `first kind: ${kinds}`);
assert.equal(kinds.at(-1), 'done', `last kind: ${kinds}`);
assert.deepEqual(named, [], 'no event has an SSE event name');
assert.deepEqual(connections.map((c) => c.status), [200, 204], 'one stream, then one reconnect answered 204');
assert.equal(connections[1].lastEventId, String(lastId), 'the reconnect sent the last id');
console.log(`eventsource: ${kinds.length} events (${[...new Set(kinds)].join(', ')}), connections ${connections.map((c) => c.status).join(', ')}`);
