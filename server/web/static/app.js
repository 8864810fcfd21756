// Sift's web app: start an analysis, follow it live, answer it, read the
// report. The page keeps no state the server does not have: reload it (or
// open #s=ID) and the session's event log rebuilds the view.

import { api, APIError, setTokenPrompt, streamEvents } from './api.js';
import { RunView, h, autoGrow, scrollCue } from './run.js';
import { Viewer, viewable } from './viewer.js';
import { FactsPanel } from './facts.js';

const $ = (id) => document.getElementById(id);
const facts = new FactsPanel($('facts'));

const state = {
  config: null,
  id: '',          // the open session
  lastSeq: 0,      // the last event seen of it
  run: null,       // the RunView events go to
  stream: null,    // AbortController of the event stream
  status: '',
  blobs: new Map(), // path -> Promise<object URL>, for the open session
};

// --- token ---------------------------------------------------------------

setTokenPrompt((problem) => new Promise((resolve) => {
  const dialog = $('token-dialog');
  const input = $('token');
  const err = $('token-error');
  err.hidden = !problem;
  err.textContent = problem ? `That token was refused: ${problem}` : '';
  input.value = '';
  const done = () => {
    const t = input.value.trim();
    if (!t) { input.focus(); return; }
    $('token-form').removeEventListener('submit', onSubmit);
    dialog.close();
    resolve(t);
  };
  const onSubmit = (e) => { e.preventDefault(); done(); };
  $('token-form').addEventListener('submit', onSubmit);
  dialog.addEventListener('cancel', (e) => e.preventDefault(), { once: true });
  if (!dialog.open) dialog.showModal();
  input.focus();
}));

// --- notices ---------------------------------------------------------------

function notice(message) {
  const n = $('notice');
  n.textContent = message;
  n.hidden = !message;
}

function fail(err) {
  console.error(err);
  notice(err instanceof APIError ? err.message : `Something went wrong: ${err.message}`);
}

// --- meter -------------------------------------------------------------------

function showUsage(u) {
  if (!u) return;
  const tokens = (u.prompt_tokens || 0) + (u.completion_tokens || 0);
  $('meter-calls').textContent = `${u.calls || 0} model call${u.calls === 1 ? '' : 's'}`;
  $('meter-tokens').textContent = `${tokens.toLocaleString('en-US')} tokens${u.estimated ? ' (estimated)' : ''}`;
  let cost = `$${(u.cost || 0).toFixed(u.cost && u.cost < 0.01 ? 4 : 2)}`;
  if (u.unpriced) cost += ` (${u.unpriced} call${u.unpriced === 1 ? '' : 's'} unpriced)`;
  $('meter-cost').textContent = cost;
  $('meter').title = `prompt ${u.prompt_tokens || 0}, completion ${u.completion_tokens || 0}` +
    (u.cached_tokens ? `, cached ${u.cached_tokens}` : '');
}

// --- config ------------------------------------------------------------------

async function loadConfig() {
  try {
    state.config = await api.config();
  } catch (err) {
    if (err instanceof APIError && err.status === 404) return; // an older server
    throw err;
  }
  const c = state.config || {};
  const note = $('model-note');
  note.hidden = false;
  note.textContent = c.model
    ? `Model: ${c.model_name || 'configured'}`
    : 'No model: built-in analyses only';
  note.title = c.model ? '' :
    'Without a model Sift runs its built-in analyses (profile, trend, top-N, correlation, ...). Questions that need planning or code need a model.';
  const hint = $('question-hint');
  hint.hidden = !!c.model;
  hint.textContent = c.model ? '' :
    'No model is configured, so Sift answers with its built-in analyses: try “monthly revenue trend”, “profile this data”, “top 10 products by revenue” or “pivot revenue by region and product”. Ctrl+Enter asks.';
  const list = $('source-list');
  list.replaceChildren();
  const add = (kind, name) => {
    const id = `src-${kind}-${name}`;
    const box = h('input', { type: 'checkbox', id, 'data-kind': kind, value: name });
    list.append(h('label', { class: 'check', for: id }, box, ` ${name}`, h('span', { class: 'muted' }, kind === 'database' ? ' (database)' : ' (folder)')));
  };
  for (const d of c.data_dirs || []) add('data_dir', d);
  for (const d of c.databases || []) add('database', d);
  $('sources').hidden = list.childElementCount === 0;
}

// --- sessions list -----------------------------------------------------------

// statusWords is a status as the person reads it: "waiting" alone does
// not say that it waits for them.
function statusWords(status) {
  return { waiting: 'waiting for you', created: 'not asked yet' }[status] || status;
}

async function loadSessions() {
  const sessions = (await api.sessions())?.sessions || [];
  const ul = $('session-list');
  ul.replaceChildren();
  for (const s of sessions) {
    const a = h('a', { href: `#s=${encodeURIComponent(s.id)}`, class: 'session-link' });
    a.append(h('span', { class: 'session-q' }, s.question || 'No question yet'),
      h('span', { class: `badge small status-${s.status}` }, statusWords(s.status)));
    const files = inputNames(s);
    if (files.length) a.append(h('span', { class: 'session-files muted' }, files.join(', ')));
    if (s.updated || s.created) {
      const t = new Date(s.updated || s.created);
      a.append(h('time', { datetime: t.toISOString(), class: 'muted' }, t.toLocaleString()));
    }
    if (s.id === state.id) a.setAttribute('aria-current', 'page');
    ul.append(h('li', {}, a));
  }
  $('session-empty').hidden = sessions.length > 0;
}

// inputNames are a session's data, by name: files, folders, databases.
function inputNames(s) {
  return [...(s.inputs || []).map((p) => p.split('/').pop()), ...(s.data_dirs || []), ...(s.databases || [])];
}

// The list and the open session's header stay live: sessions started in
// another tab appear, statuses change, while this tab is visible.
const POLL_MS = 4000;

function poll() {
  if (document.hidden) return;
  loadSessions().catch(() => {});
  if (state.id && !state.stream && !['waiting'].includes(state.status)) {
    // No event stream is open: the session may have been resumed or
    // asked again elsewhere, even in a run that has already ended (its
    // events are ones this page has not seen).
    api.session(state.id).then((s) => {
      if (!state.id || s.id !== state.id || state.stream) return;
      showInputs(s);
      const live = s.status === 'running' || s.status === 'queued';
      if (live && s.status !== state.status) {
        setStatus(s.status);
        follow();
      } else if ((s.last_event_id || 0) > state.lastSeq) {
        follow();
      }
    }).catch(() => {});
  }
}

function showInputs(s) {
  const inputs = inputNames(s);
  $('inputs').textContent = inputs.length ? `Data: ${inputs.join(', ')}` : '';
}

// --- the open session ----------------------------------------------------------

function setStatus(status, detail = '') {
  state.status = status;
  const b = $('status');
  // The header's title is the session's first question: a failed
  // follow-up under it says whose failure it is.
  const followup = $('runs').childElementCount > 1;
  b.textContent = detail || (status === 'failed' && followup ? 'follow-up failed' : statusWords(status));
  b.className = `badge status-${status}`;
  const live = status === 'running' || status === 'queued';
  // A queued run has not started: there is nothing to pause yet (the
  // server says so).
  $('pause').hidden = status !== 'running';
  $('pause').disabled = false;
  $('resume').hidden = status !== 'paused';
  // A run says it paused a moment before it ends: until its done event
  // the server refuses a resume ("already has a run going on").
  $('resume').disabled = !!state.stream && !state.ended;
  $('followup-form').hidden = live || status === 'waiting' || status === 'paused';
  $('delete').disabled = live;
  // The sessions list says the same as the header at once, not at its
  // next refresh.
  // lineage.js offers refresh, fork and compare on a finished session.
  document.dispatchEvent(new CustomEvent('sift:session-status', { detail: { id: state.id, status } }));
  const badge = document.querySelector('.session-link[aria-current="page"] .badge');
  if (badge) {
    badge.textContent = statusWords(status);
    badge.className = `badge small status-${status}`;
  }
}

// fileURL resolves a workspace path to an object URL, fetching it once with
// the token (images and links cannot send the Authorization header).
function fileURL(path) {
  path = path.replace(/^\.\//, '');
  let p = state.blobs.get(path);
  if (!p) {
    const id = state.id;
    p = api.blob(id, path).then((b) => URL.createObjectURL(b));
    p.catch(() => state.blobs.delete(path));
    state.blobs.set(path, p);
  }
  return p;
}

// downloadLink makes a a link that downloads the workspace file path.
function downloadLink(path, a) {
  path = path.replace(/^\.\//, '');
  a.href = '#';
  a.dataset.path = path;
  a.setAttribute('download', path.split('/').pop());
  a.addEventListener('click', async (e) => {
    if (a.dataset.ready) return; // the object URL is in place: download it
    e.preventDefault();
    try {
      a.href = await fileURL(path);
      a.dataset.ready = '1';
      a.click();
    } catch (err) { fail(err); }
  });
}

// viewer is the file viewer of the open session, made when first used.
let theViewer = null;
function viewer() {
  theViewer ??= new Viewer({
    table: (path, sheet, page) => api.table(state.id, path, sheet, page),
    url: fileURL,
    download: downloadLink,
    text: (path) => api.blob(state.id, path).then((b) => b.text()),
    session: () => state.id,
  });
  return theViewer;
}

const viewContext = () => ({
  modelless: state.config ? !state.config.model : false,
  image(path, img) {
    img.dataset.path = path;
    fileURL(path).then((url) => { img.src = url; }).catch((err) => {
      img.alt = `${img.alt} (could not load: ${err.message})`;
      img.classList.add('broken');
    });
  },
  // link opens what the viewer shows in place (tables, images, the
  // report), and downloads anything else.
  link(path, a) {
    path = path.replace(/^\.\//, '');
    if (!viewable(path)) {
      downloadLink(path, a);
      return;
    }
    a.href = '#';
    a.dataset.path = path;
    a.dataset.view = '';
    a.addEventListener('click', (e) => {
      e.preventDefault();
      viewer().open(path, a);
    });
  },
  download: downloadLink,
  table: (path, sheet, page, size) => api.table(state.id, path, sheet, page, size),
  answer: async (body) => {
    await api.answer(state.id, body);
    follow();
  },
  onStatus: (s) => {
    setStatus(s);
    if (s !== 'running') loadSessions().catch(() => {});
    if (s !== 'running' && s !== 'queued') facts.show(state.id).catch(() => {});
  },
  onUsage: showUsage,
  ask: (q) => askFollowupText(q),
});

function onEvent(seq, ev) {
  state.lastSeq = Number.isFinite(seq) ? seq : state.lastSeq;
  if (ev.kind === 'done') state.ended = true;
  else if (ev.kind === 'session') state.ended = false;
  // Every run opens with a session event: a follow-up gets a view of its
  // own, a resume goes on in the view of the run it resumes.
  // A run that waited in the queue starts in the view that showed it
  // waiting.
  const resumable = state.run && (['waiting', 'paused'].includes(state.run.status) || state.run.starting);
  if (!state.run || (ev.kind === 'session' && !resumable)) {
    state.run = new RunView($('runs'), viewContext());
  }
  if (ev.kind === 'session') state.run.starting = false;
  state.run.handle(ev);
  // The session is named by its first question (the server's record holds
  // the latest one).
  if (ev.kind === 'plan' && ev.plan?.question && $('runs').firstElementChild === state.run.root) {
    $('session-title').textContent = ev.plan.question;
  }
  // A run's own title repeats the session's: show it only for follow-ups.
  state.run.title.hidden = state.run.title.textContent === $('session-title').textContent;
}

// follow streams the open session's events from the last one seen.
function follow() {
  state.stream?.abort();
  const ctl = new AbortController();
  state.stream = ctl;
  state.ended = false;
  const id = state.id;
  streamEvents(id, state.lastSeq, onEvent, ctl.signal, (q) => {
    // A follow-up waits in a view of its own; a resume, in the view of
    // the run it goes on with.
    if (!state.run || ['done', 'failed'].includes(state.run.status)) {
      state.run = new RunView($('runs'), viewContext());
    }
    state.run.starting = true;
    state.run.queued(q.position);
    setStatus('queued', `queued: #${q.position}`);
  })
    .catch((err) => { if (state.id === id) fail(err); })
    .finally(() => {
      if (state.stream !== ctl) return;
      state.stream = null;
      $('resume').disabled = false;
    });
}

function resetSession() {
  if (theViewer?.dialog.open) theViewer.dialog.close();
  state.stream?.abort();
  state.stream = null;
  for (const p of state.blobs.values()) p.then((u) => URL.revokeObjectURL(u)).catch(() => {});
  state.blobs.clear();
  state.run = null;
  state.lastSeq = 0;
  $('runs').replaceChildren();
  $('session-title').textContent = '';
  $('inputs').textContent = '';
  facts.clear();
  showUsage({ calls: 0 });
}

async function openSession(id) {
  if (state.id !== id) {
    resetSession();
    state.id = id;
  }
  $('start').hidden = true;
  $('session').hidden = false;
  closeDrawer();
  const s = await api.session(id);
  $('session-title').textContent = s.question || '';
  showInputs(s);
  setStatus(s.status);
  if (s.usage) showUsage(s.usage);
  for (const a of document.querySelectorAll('.session-link')) {
    if (a.getAttribute('href') === `#s=${encodeURIComponent(id)}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (s.status !== 'created') follow();
  facts.show(id).catch(fail);
  $('main').focus({ preventScroll: true });
}

function showStart() {
  resetSession();
  state.id = '';
  $('session').hidden = true;
  $('start').hidden = false;
  // The question box takes the focus unless the person already moved it
  // into the form: the sessions list loads after the form is usable, and
  // taking the focus then sent a key meant for a data box to the question.
  setTimeout(() => { if (!$('start').contains(document.activeElement)) $('question').focus(); }, 0);
}

// --- routing ---------------------------------------------------------------------

function route() {
  notice('');
  const m = /^#s=(.+)$/.exec(location.hash);
  if (m) openSession(decodeURIComponent(m[1])).catch(fail);
  else showStart();
}

// --- forms -------------------------------------------------------------------------

const chosen = [];

// staged is the session the chosen files were uploaded to, before any
// question: { id, files (the File objects it holds), previews, examples }.
let staged = null;
let uploading = null;

// refused are the chosen files the server refused (the notice says why):
// the list marks them until they are removed.
const refused = new Set();

function renderChosen() {
  const ul = $('file-list');
  ul.replaceChildren();
  chosen.forEach((f, k) => {
    const remove = h('button', { type: 'button', class: 'ghost small', 'aria-label': `Remove ${f.name}` }, '✕');
    remove.addEventListener('click', () => { chosen.splice(k, 1); refused.delete(f); renderChosen(); stageUpload(); });
    const li = h('li', {}, h('span', {}, f.name), h('span', { class: 'muted' }, ` ${size(f.size)}`));
    if (refused.has(f)) {
      li.classList.add('refused');
      li.append(h('span', { class: 'why' }, 'refused'));
    }
    li.append(remove);
    ul.append(li);
  });
  $('pick').textContent = chosen.length ? 'Add files' : 'Choose files';
}

// size shows bytes in the unit the server's limits use (KiB, MiB).
function size(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

function limitMiB(n) {
  return n % (1024 * 1024) === 0 ? `${n / 1024 / 1024} MiB` : size(n);
}

// tooBig says what is wrong with the chosen files before they are sent,
// by the server's own limits; '' when they fit.
function tooBig(files) {
  const c = state.config || {};
  if (c.max_files && files.length > c.max_files) {
    return `That is ${files.length} files; this server takes at most ${c.max_files} per analysis. Remove some.`;
  }
  const total = files.reduce((n, f) => n + f.size, 0);
  if (c.max_upload_bytes && total > c.max_upload_bytes) {
    return `These files come to ${size(total)}, more than this server's limit of ${limitMiB(c.max_upload_bytes)} per analysis: remove some, or ask whoever runs it to raise --max-upload.`;
  }
  return '';
}

function addFiles(files) {
  for (const f of files) {
    if (!chosen.some((c) => c.name === f.name && c.size === f.size)) chosen.push(f);
  }
  renderChosen();
  stageUpload();
}

function showProgress(sent, total) {
  const box = $('upload');
  box.hidden = false;
  $('upload-progress').value = total ? sent / total : 0;
  $('upload-label').textContent = `Uploading… ${size(sent)} of ${size(total)}`;
}

// stageUpload sends the chosen files as soon as they are chosen, so the
// page can show the data at a glance and suggest questions; the question
// then runs in that session. An earlier upload of other files is dropped.
async function stageUpload() {
  const old = staged;
  staged = null;
  renderGlance(null);
  if (old) api.remove(old.id).catch(() => {});
  notice('');
  if (!chosen.length) return null;
  const problem = tooBig(chosen);
  if (problem) {
    notice(problem);
    return null;
  }
  const files = [...chosen];
  const mine = (async () => {
    showProgress(0, files.reduce((n, f) => n + f.size, 0));
    try {
      const s = await api.create(files, [], [], showProgress);
      if (uploading !== mine) { api.remove(s.id).catch(() => {}); return null; }
      staged = { id: s.id, files, previews: s.previews || [], examples: s.examples || [] };
      renderGlance(staged);
      return staged;
    } catch (err) {
      // A refusal (a file by cause, the limit) is an answer, not a fault:
      // the file it names is marked in the list.
      if (uploading === mine && err instanceof APIError) {
        notice(err.message);
        const named = files.filter((f) => err.message.startsWith(f.name) || err.message.includes(` ${f.name} `));
        if (named.length) {
          for (const f of named) refused.add(f);
          renderChosen();
        }
      } else if (uploading === mine) fail(err);
      return null;
    } finally {
      if (uploading === mine) { $('upload').hidden = true; uploading = null; }
    }
  })();
  uploading = mine;
  return mine;
}

// renderGlance shows each uploaded file's tables: their sheets, columns
// with types, and first rows; and questions to try.
function renderGlance(st) {
  const box = $('glance');
  box.replaceChildren();
  box.hidden = !st;
  $('examples').hidden = true;
  if (!st) return;
  box.append(h('h3', {}, 'Your data'));
  for (const p of st.previews) {
    const sheets = p.sheets || [];
    const head = h('p', { class: 'glance-file' }, h('strong', {}, p.name), h('span', { class: 'muted' }, ` · ${size(p.size || 0)}`));
    if (sheets.length > 1) head.append(h('span', { class: 'muted' }, ` · sheets: ${sheets.map((s) => s.name).join(', ')}`));
    box.append(head);
    for (const sh of sheets.slice(0, 3)) {
      if (sheets.length > 1) box.append(h('p', { class: 'label muted' }, sh.name));
      box.append(sheetTable(sh));
    }
    if (!sheets.length && p.lines?.length) {
      const pre = h('pre', { class: 'result' });
      pre.textContent = p.lines.slice(0, 5).join('\n');
      box.append(pre);
    }
  }
  const list = $('example-list');
  list.replaceChildren();
  for (const q of st.examples) {
    const b = h('button', { type: 'button', class: 'chip' }, q);
    b.addEventListener('click', () => {
      $('question').value = q;
      $('question').dispatchEvent(new Event('input'));
      $('question').focus();
    });
    list.append(b);
  }
  $('examples').hidden = st.examples.length === 0;
}

function sheetTable(sh) {
  const t = h('table', { class: 'glance-table' });
  const head = t.createTHead().insertRow();
  for (const c of sh.columns || []) {
    head.append(h('th', { scope: 'col' }, c.name, h('span', { class: 'type muted' }, c.type || '')));
  }
  const body = t.createTBody();
  for (const r of sh.rows || []) {
    const tr = body.insertRow();
    (sh.columns || []).forEach((c, k) => {
      const td = tr.insertCell();
      td.textContent = r[k] ?? '';
      if (['int', 'float', 'number'].includes(c.type)) td.className = 'num';
    });
  }
  const n = sh.row_count || 0;
  t.createCaption().textContent = `${(sh.rows || []).length} of ${sh.row_count_exact ? '' : 'about '}${n.toLocaleString('en-US')} row${n === 1 ? '' : 's'}, ${(sh.columns || []).length} columns`;
  const wrap = h('div', { class: 'table-wrap' }, t);
  scrollCue(wrap);
  return wrap;
}

async function startAnalysis(e) {
  e.preventDefault();
  const question = $('question').value.trim();
  const sources = [...document.querySelectorAll('#source-list input:checked')];
  if (!question) {
    $('question').setAttribute('aria-invalid', 'true');
    notice('Write a question first.');
    $('question').focus();
    return;
  }
  if (!chosen.length && !sources.length) {
    notice('Choose at least one data file (or data the server offers).');
    $('files').focus();
    return;
  }
  $('question').removeAttribute('aria-invalid');
  notice('');
  const problem = tooBig(chosen);
  if (problem) {
    notice(problem);
    return;
  }
  const ask = $('ask');
  ask.disabled = true;
  ask.textContent = 'Uploading…';
  let created = null;
  try {
    let s = uploading ? await uploading : staged;
    const same = s && s.files.length === chosen.length && s.files.every((f, k) => f === chosen[k]);
    if (!same || sources.length) {
      // Data sources, or files changed since: one upload with everything.
      if (s) api.remove(s.id).catch(() => {});
      staged = null;
      showProgress(0, chosen.reduce((n, f) => n + f.size, 0));
      s = await api.create(chosen,
        sources.filter((i) => i.dataset.kind === 'data_dir').map((i) => i.value),
        sources.filter((i) => i.dataset.kind === 'database').map((i) => i.value), showProgress);
    }
    created = s.id;
    await api.run(s.id, { question, mode: $('mode').value, review_plan: $('review').checked });
    created = null;
    staged = null;
    chosen.length = 0;
    refused.clear();
    renderChosen();
    renderGlance(null);
    $('question').value = '';
    location.hash = `s=${encodeURIComponent(s.id)}`;
    loadSessions().catch(() => {});
  } catch (err) {
    // A session made for a question that was then refused is of no use.
    if (created && (!staged || staged.id !== created)) api.remove(created).catch(() => {});
    fail(err);
  } finally {
    $('upload').hidden = true;
    ask.disabled = false;
    ask.textContent = 'Ask';
  }
}

// askFollowupText asks q in the open session, as if typed.
function askFollowupText(q) {
  $('followup').value = q;
  $('followup-form').requestSubmit();
}

async function askFollowup(e) {
  e.preventDefault();
  const q = $('followup').value.trim();
  if (!q) { $('followup').focus(); return; }
  const btn = $('followup-ask');
  btn.disabled = true;
  try {
    await api.run(state.id, { question: q, review_plan: $('followup-review').checked });
    $('followup').value = '';
    notice('');
    setStatus('running');
    follow();
  } catch (err) {
    fail(err);
  } finally {
    btn.disabled = false;
  }
}

// --- drawer (the sessions list on narrow screens) --------------------------------------

function closeDrawer() {
  document.body.classList.remove('drawer-open');
  $('sessions-toggle').setAttribute('aria-expanded', 'false');
}

function wire() {
  $('start-form').addEventListener('submit', startAnalysis);
  $('followup-form').addEventListener('submit', askFollowup);
  $('files').addEventListener('change', (e) => { addFiles(e.target.files); e.target.value = ''; });
  const drop = $('drop');
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => { e.preventDefault(); drop.classList.remove('over'); addFiles(e.dataTransfer.files); });
  // Ctrl/Cmd+Enter sends a question from its text box.
  for (const id of ['question', 'followup']) {
    $(id).addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) e.target.form.requestSubmit();
    });
  }
  $('pause').addEventListener('click', async () => {
    $('pause').disabled = true;
    try {
      await api.pause(state.id);
      $('status').textContent = 'pausing at the next step…';
    } catch (err) { fail(err); $('pause').disabled = false; }
  });
  $('resume').addEventListener('click', async () => {
    try {
      await api.resume(state.id);
      setStatus('running');
      follow();
    } catch (err) { fail(err); }
  });
  $('delete').addEventListener('click', async () => {
    if (!confirm('Delete this session, its files and its report?')) return;
    try {
      await api.remove(state.id);
      location.hash = '';
      loadSessions().catch(() => {});
    } catch (err) { fail(err); }
  });
  $('new-session').addEventListener('click', () => { location.hash = ''; closeDrawer(); showStart(); });
  $('home').addEventListener('click', (e) => { e.preventDefault(); location.hash = ''; showStart(); });
  $('sessions-toggle').addEventListener('click', () => {
    const open = document.body.classList.toggle('drawer-open');
    $('sessions-toggle').setAttribute('aria-expanded', String(open));
    if (open) loadSessions().catch(fail);
  });
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') closeDrawer(); });
  window.addEventListener('hashchange', route);
  for (const id of ['question', 'followup']) autoGrow($(id));
  setInterval(poll, POLL_MS);
  document.addEventListener('visibilitychange', poll);
}

async function main() {
  wire();
  try {
    await loadConfig();
    await loadSessions();
  } catch (err) {
    fail(err);
  }
  route();
}

main();
