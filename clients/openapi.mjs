// A client generated at run time from a real sift serve's
// /v1/openapi.json (openapi-client-axios) calls every operation by its
// operationId, and each answer's status must be one the document lists
// for that operation. It creates a session, runs a built-in analysis,
// downloads the report and every file under out/, and checks the 4xx
// answers the document promises (malformed ids, limit=0, limit=abc,
// parallel 0).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { OpenAPIClientAxios } from 'openapi-client-axios';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const base = process.env.SIFT_API_URL;
const definition = await (await fetch(`${base}/v1/openapi.json`)).json();

// Each JSON answer is validated against the schema the document gives
// for its operation and status.
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('int64', true);
ajv.addFormat('binary', true);
ajv.addSchema(structuredClone(definition), 'openapi.json');
const pointer = (...parts) => parts.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
function responseSchema(method, path, status) {
  let res = definition.paths[path][method].responses[status];
  let at = `#/${pointer('paths', path, method, 'responses', status)}`;
  if (res.$ref) {
    at = res.$ref;
    res = definition.components.responses[res.$ref.split('/').pop()];
  }
  return res.content?.['application/json'] ? `openapi.json${at}/${pointer('content', 'application/json', 'schema')}` : null;
}
let validated = 0;
const api = new OpenAPIClientAxios({
  definition,
  withServer: { url: base },
  axiosConfigDefaults: {
    validateStatus: () => true, responseType: 'text', transformResponse: [(d) => d],
    // The document's arrays in the query are form, exploded (status=a&status=b),
    // not axios's default status[]=a.
    paramsSerializer: { indexes: null },
  },
});
const client = await api.init();
const doc = api.definition;

const called = new Set();
let checks = 0;
// call runs an operation and checks its status against the document.
async function call(operationId, want, ...args) {
  const res = await client[operationId](...args);
  called.add(operationId);
  const op = api.getOperation(operationId);
  assert.ok(op, `no operation ${operationId}`);
  assert.ok(String(res.status) in op.responses, `${operationId} answered ${res.status}, which the document does not list (it lists ${Object.keys(op.responses)})`);
  assert.equal(res.status, want, `${operationId}(${JSON.stringify(args[0] ?? null)}): ${res.status} ${res.data}`);
  const ct = res.headers['content-type'] || '';
  if (ct.startsWith('application/json')) {
    const ref = responseSchema(op.method, op.path, String(res.status));
    assert.ok(ref, `${operationId} ${res.status} answered JSON, which the document does not say`);
    const validate = ajv.getSchema(ref) || ajv.compile({ $ref: ref });
    assert.ok(validate(JSON.parse(res.data)), `${operationId} ${res.status}: the answer does not match its schema: ${ajv.errorsText(validate.errors)}\n${res.data}`);
    validated++;
  }
  if (res.status >= 400) {
    const body = JSON.parse(res.data);
    assert.ok(body.error?.code && body.error?.message, `${operationId} ${res.status}: error body ${res.data}`);
  }
  checks++;
  return { status: res.status, data: ct.startsWith('application/json') ? JSON.parse(res.data) : res.data, headers: res.headers };
}

await call('getOpenAPI', 200);
await call('getHealth', 200);
await call('getReadiness', 200);
const metrics = await call('getMetrics', 200);
assert.match(metrics.data, /sift_sse_clients/);
const config = await call('getConfig', 200);
assert.equal(typeof config.data.max_runs, 'number');

const form = new FormData();
form.append('file', new Blob([await readFile(process.env.SIFT_SALES_CSV)], { type: 'text/csv' }), 'sales.csv');
const created = await call('createSession', 201, null, form);
const id = created.data.id;
assert.equal(created.data.status, 'created');

await call('listSessions', 200, { limit: 5, status: ['created'] });
await call('listSessions', 400, { limit: 0 });
await call('listSessions', 400, { limit: 'abc' });
await call('listSessions', 400, { status: ['sleeping'] });
await call('listSessions', 400, { 'status[]': 'created' });
await call('getSession', 200, id);
await call('getSession', 400, 'not an id');
await call('getSession', 404, '01900000-0000-7000-8000-000000000000');
await call('streamEvents', 204, id);
await call('startRun', 400, id, { question: 'monthly revenue trend', parallel: 0 });
await call('startRun', 400, id, { question: 'monthly revenue trend', colour: 'red' });
const run = await call('startRun', 202, id, { question: 'monthly revenue trend', mode: 'template', parallel: 1 });
assert.equal(run.data.id, id);

// The whole stream, as text: it ends after the done event.
const stream = await call('streamEvents', 200, id);
const frames = stream.data.split('\n\n').filter((f) => f.includes('data: '));
const last = JSON.parse(frames.at(-1).split('\n').find((l) => l.startsWith('data: ')).slice(6));
assert.equal(last.kind, 'done', 'the stream ends with done');
assert.ok(!/^event:/m.test(stream.data), 'no event: field');
// Each data line is an Event, as the document says.
const validEvent = ajv.compile({ $ref: 'openapi.json#/components/schemas/Event' });
for (const f of frames) {
  const data = JSON.parse(f.split('\n').find((l) => l.startsWith('data: ')).slice(6));
  assert.ok(validEvent(data), `event ${JSON.stringify(data)} does not match Event: ${ajv.errorsText(validEvent.errors)}`);
  validated++;
}
await call('streamEvents', 204, { id, 'Last-Event-ID': last.seq });

const done = await call('getSession', 200, id);
assert.equal(done.data.status, 'done');
const outs = done.data.files.filter((f) => f.startsWith('out/'));
assert.ok(outs.length > 0, `files under out/: ${done.data.files}`);
const report = await call('getFile', 200, { id, path: 'report.md' });
assert.match(report.data, /Trend/);
// The document's {path} is one parameter: the client encodes its
// slashes (out%2F...), as every generated client does.
for (const path of outs) await call('getFile', 200, { id, path });
// Any name the workspace can hold downloads through the generated client
// (it encodes spaces, non-ASCII and slashes alike) and through the
// session's file_urls: files written into the session's out/ as code
// would write them.
const { mkdir, writeFile } = await import('node:fs/promises');
const odd = ['out/revenue by region.csv', 'out/收入.csv', 'out/100% done.csv', 'out/sub dir/a+b.csv'];
for (const path of odd) {
  await mkdir(`${process.env.SIFT_API_SESSIONS}/${id}/${path.split('/').slice(0, -1).join('/')}`, { recursive: true });
  await writeFile(`${process.env.SIFT_API_SESSIONS}/${id}/${path}`, `name,${path}\n`);
}
const listed = await call('getSession', 200, id);
for (const path of odd) {
  assert.ok(listed.data.files.includes(path), `${path} not listed: ${listed.data.files}`);
  const got = await call('getFile', 200, { id, path });
  assert.equal(got.data, `name,${path}\n`, `${path} downloaded wrong`);
  const url = listed.data.file_urls[listed.data.files.indexOf(path)];
  const raw = await fetch(new URL(url, base));
  assert.equal(raw.status, 200, `${url}: ${raw.status}`);
  assert.equal(await raw.text(), `name,${path}\n`, `${url} downloaded wrong`);
}
await call('getFile', 403, { id, path: 'input/sales.csv' });
await call('getFile', 404, { id, path: 'out/nothing.csv' });
// A table artifact a page at a time, as the web app's viewer reads it.
for (const path of odd) {
  const page = await call('getFileTable', 200, { id, path, page: 1, page_size: 10 });
  const t = page.data;
  assert.deepEqual(t.columns, ['name', path], `${path}: columns ${t.columns}`);
  assert.equal(t.row_count, 0, `${path}: row_count ${t.row_count}`);
}
await call('getFileTable', 400, { id, path: odd[0], page: 2 });
await call('getFileTable', 403, { id, path: 'input/sales.csv' });
await call('getFileTable', 404, { id, path: 'out/nothing.csv' });

// What the server remembers: the built-in's answer, listed, edited and
// forgotten; the facts about the session's data.
const remembered = await call('listMemory', 200);
assert.ok(Array.isArray(remembered.data.entries ?? remembered.data), `listMemory: ${JSON.stringify(remembered.data)}`);
const ofSession = await call('listMemory', 200, { session: id });
assert.ok(Array.isArray(ofSession.data.entries), `listMemory of a session: ${JSON.stringify(ofSession.data)}`);
await call('editMemory', 400, 'not an id', { answer: 'yes' });
await call('editMemory', 404, 'f-00000000000000000000', { answer: 'yes' });
await call('forgetMemory', 400, 'not an id');
await call('forgetMemory', 404, 'a-00000000000000000000');
// Refresh and fork: refused for a session that is not there, and a fork
// at a step the session does not have.
const refreshForm = new FormData();
refreshForm.append('file', new Blob([await readFile(process.env.SIFT_SALES_CSV)], { type: 'text/csv' }), 'sales.csv');
await call('refreshSession', 404, '01900000-0000-7000-8000-000000000000', refreshForm);
await call('forkSession', 404, '01900000-0000-7000-8000-000000000000', { at: 1 });
await call('forkSession', 400, id, { at: 99 });
// Compare: the session with itself moves no number; with a session that
// is not there, 404.
const same = await call('compareSessions', 200, { id, with: id });
assert.equal(same.data.changes.length, 0, `compareSessions with itself: ${JSON.stringify(same.data.changes)}`);
assert.ok(same.data.kept > 0, `compareSessions with itself kept ${same.data.kept} numbers`);
await call('compareSessions', 404, { id, with: '01900000-0000-7000-8000-000000000000' });

await call('answerInterrupt', 409, id, { action: 'approve' });
await call('pauseSession', 409, id);
await call('resumeSession', 409, id);
await call('deleteSession', 204, id);
await call('getSession', 404, id);
await call('deleteSession', 400, 'not an id');

const all = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId).filter(Boolean));
assert.deepEqual(all.filter((o) => !called.has(o)), [], 'every operation called');
console.log(`openapi-client-axios: ${all.length} operations, ${checks} calls, every status documented, ${validated} JSON answers valid against their schemas`);
