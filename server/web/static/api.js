// The /v1 API as the page uses it: JSON calls with the bearer token, files
// as blobs, and the event stream read with fetch (so the token travels in a
// header and a reconnect sends Last-Event-ID, which EventSource cannot do
// with a token).

const TOKEN_KEY = 'sift-token';

let askToken = async () => { throw new Error('this server needs an access token'); };

// setTokenPrompt installs the function that asks the person for a token
// when the server answers 401; it resolves with the token.
export function setTokenPrompt(fn) { askToken = fn; }

function token() { return sessionStorage.getItem(TOKEN_KEY) || ''; }

function withAuth(headers = {}) {
  const t = token();
  return t ? { ...headers, Authorization: `Bearer ${t}` } : headers;
}

// APIError is a failed call, with the server's code and message.
export class APIError extends Error {
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    // body is the whole error answer, for what some errors carry beside
    // the error (a refresh's 409 needs_approval carries its plan).
    this.body = body;
  }
}

async function errorOf(res) {
  let code = 'http_' + res.status;
  let message = `${res.status} ${res.statusText}`;
  let body;
  try {
    body = await res.json();
    if (body && body.error) {
      code = body.error.code || code;
      message = body.error.message || message;
    }
  } catch { /* not JSON: keep the status line */ }
  return new APIError(res.status, code, message, body);
}

// call fetches path (relative to the page, so the app works wherever the
// service is mounted), asking for a token and retrying on 401.
async function call(path, init = {}) {
  for (let tries = 0; ; tries++) {
    const res = await fetch(path, { ...init, headers: withAuth(init.headers) });
    if (res.status !== 401 || tries >= 5) {
      if (!res.ok) throw await errorOf(res);
      return res;
    }
    const err = await errorOf(res);
    const t = await askToken(tries > 0 ? err.message : '');
    sessionStorage.setItem(TOKEN_KEY, t);
  }
}

async function json(path, init) {
  const res = await call(path, init);
  if (res.status === 204) return null;
  return res.json();
}

function post(path, body) {
  return json(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
}

// upload posts a form with XMLHttpRequest, the one browser API that
// reports upload progress; it resolves with the finished request.
function upload(path, form, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    for (const [k, v] of Object.entries(withAuth())) xhr.setRequestHeader(k, v);
    xhr.upload.addEventListener('progress', (e) => { if (e.lengthComputable) onProgress?.(e.loaded, e.total); });
    xhr.addEventListener('load', () => resolve(xhr));
    xhr.addEventListener('error', () => reject(new Error('the upload failed: the server could not be reached')));
    xhr.addEventListener('abort', () => reject(new Error('the upload was cancelled')));
    xhr.send(form);
  });
}

function xhrError(xhr) {
  let code = 'http_' + xhr.status;
  let message = `${xhr.status} ${xhr.statusText}`;
  try {
    const body = JSON.parse(xhr.responseText);
    if (body && body.error) {
      code = body.error.code || code;
      message = body.error.message || message;
    }
  } catch { /* not JSON: keep the status line */ }
  return new APIError(xhr.status, code, message);
}

const sessionPath = (id) => `v1/sessions/${encodeURIComponent(id)}`;

// filePath is the URL of a workspace file (plan.md, report.*, out/...).
export function filePath(id, path) {
  return `${sessionPath(id)}/files/${path.split('/').map(encodeURIComponent).join('/')}`;
}

export const api = {
  config: () => json('v1/config'),
  sessions: () => json('v1/sessions'),
  session: (id) => json(sessionPath(id)),
  // create uploads files (File objects) and names of server data sources;
  // onProgress(sent, total) follows the upload.
  async create(files, dataDirs, databases, onProgress) {
    const form = new FormData();
    for (const f of files) form.append('file', f, f.name);
    for (const d of dataDirs) form.append('data_dir', d);
    for (const d of databases) form.append('database', d);
    for (let tries = 0; ; tries++) {
      const res = await upload('v1/sessions', form, onProgress);
      if (res.status !== 401 || tries >= 5) {
        if (res.status < 200 || res.status >= 300) throw xhrError(res);
        return JSON.parse(res.responseText);
      }
      const t = await askToken(tries > 0 ? xhrError(res).message : '');
      sessionStorage.setItem(TOKEN_KEY, t);
    }
  },
  run: (id, req) => post(`${sessionPath(id)}/runs`, req),
  answer: (id, answer) => post(`${sessionPath(id)}/answers`, answer),
  pause: (id) => post(`${sessionPath(id)}/pause`),
  resume: (id) => post(`${sessionPath(id)}/resume`),
  remove: (id) => json(sessionPath(id), { method: 'DELETE' }),
  // The facts Sift remembers about a session's data (facts.js).
  facts: (id) => json(`v1/memory?session=${encodeURIComponent(id)}`),
  editFact: (id, answer) => json(`v1/memory/${encodeURIComponent(id)}`, {
    method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ answer }),
  }),
  forgetFact: (id) => json(`v1/memory/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  // refresh runs a finished session again on new files (File objects;
  // none: the same databases); approve applies a mapping of renamed
  // columns, which otherwise comes back as a 409 needs_approval.
  // modelMapping is that 409's refresh.model_mapping, sent back so the
  // server applies the mapping the person saw, whichever server runs it.
  async refresh(id, files, approve, modelMapping) {
    const form = new FormData();
    for (const f of files) form.append('file', f, f.name);
    if (approve && modelMapping && modelMapping.length) form.append('mapping', JSON.stringify(modelMapping));
    return json(`${sessionPath(id)}/refresh${approve ? '?approve=true' : ''}`, { method: 'POST', body: form });
  },
  fork: (id, req) => post(`${sessionPath(id)}/fork`, req),
  compare: (id, other) => json(`${sessionPath(id)}/compare?${new URLSearchParams({ with: other })}`),
  // table reads one page of a CSV, TSV or workbook file (a workbook's
  // sheet by name, the first when ''; pageSize rows, the server's 50 when
  // not given).
  table(id, path, sheet, page, pageSize) {
    const q = new URLSearchParams({ page: String(page) });
    if (pageSize) q.set('page_size', String(pageSize));
    if (sheet) q.set('sheet', sheet);
    return json(`${sessionPath(id)}/tables/${path.split('/').map(encodeURIComponent).join('/')}?${q}`);
  },
  // blob fetches a workspace file.
  async blob(id, path) {
    const res = await call(filePath(id, path));
    return res.blob();
  },
};

// streamEvents reads the session's events after seq `after` and calls
// onEvent(seq, event) for each, in order. It reconnects (with Last-Event-ID)
// when the connection drops, and returns when the server ends the stream
// (after a done event with no run going on) or signal aborts.
export async function streamEvents(id, after, onEvent, signal, onQueued) {
  let last = after;
  let failures = 0;
  let lastKind = '';
  while (!signal.aborted) {
    try {
      const headers = { Accept: 'text/event-stream' };
      if (last > 0) headers['Last-Event-ID'] = String(last);
      const res = await call(`${sessionPath(id)}/events`, { headers, signal, cache: 'no-store' });
      // 204: no run is going on and nothing came after `last`.
      if (res.status === 204) return last;
      const ended = await readSSE(res.body, (frame) => {
        failures = 0;
        // Every event is a plain message; its kind is in the data.
        const ev = JSON.parse(frame.data);
        if (ev.kind === 'queued') {
          onQueued?.(ev);
          return;
        }
        const seq = frame.id === null ? NaN : Number(frame.id);
        if (Number.isFinite(seq) && seq <= last) return; // seen already
        if (Number.isFinite(seq)) last = seq;
        lastKind = ev.kind;
        onEvent(seq, ev);
      });
      // The server ends the stream after a done event; a stream that
      // ends anywhere else was cut, and is picked up again below.
      if (ended && lastKind === 'done') return last;
      failures++;
      if (failures > 8) throw new Error('the event stream keeps closing before the run ends; reload the page to try again');
    } catch (err) {
      if (signal.aborted) return last;
      if (err instanceof APIError && err.status < 500) throw err;
      failures++;
      if (failures > 8) throw err;
    }
    // The connection dropped mid-run: wait a little, longer each time,
    // then pick up after the last event seen.
    await new Promise((r) => setTimeout(r, Math.min(500 * 2 ** failures, 8000)));
  }
  return last;
}

// readSSE parses a text/event-stream body, calling onFrame for each event
// (a frame with data: the priming frame, retry and id only, is not one);
// it resolves true when the server closed the stream cleanly.
async function readSSE(body, onFrame) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  let frame = { id: null, event: '', data: [] };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return true;
    buf += value;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      let line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        if (frame.data.length) onFrame({ id: frame.id, event: frame.event || 'message', data: frame.data.join('\n') });
        frame = { id: null, event: '', data: [] };
        continue;
      }
      if (line.startsWith(':')) continue; // heartbeat comment
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let val = colon < 0 ? '' : line.slice(colon + 1);
      if (val.startsWith(' ')) val = val.slice(1);
      if (field === 'data') frame.data.push(val);
      else if (field === 'event') frame.event = val;
      else if (field === 'id') frame.id = val;
    }
  }
}
