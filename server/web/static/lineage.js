// Analyses that live on: on a finished session the page offers to
// refresh it on new data (no model), to fork it from a chosen step with
// that step, the plan from it, or the answer to its question changed,
// and to compare its report with another's side by side. app.js says
// which session is open and its status (the sift:session-status event);
// everything else comes from the API.

import { api, APIError } from './api.js';
import { h } from './run.js';
import { renderMarkdown } from './markdown.js';

const state = { id: '', status: '', session: null, loading: null, open: '', others: [] };
let ui = null;

const finished = (s) => s === 'done' || s === 'failed';

function build() {
  const bar = document.querySelector('#session .session-bar');
  if (!bar) return null;
  const b = {
    bar: h('div', { id: 'lineage', class: 'lineage', role: 'group', 'aria-label': 'This analysis on new data, from a step, or against another', hidden: '' }),
    origin: h('p', { id: 'lineage-origin', class: 'lineage-origin muted', hidden: '' }),
    refresh: h('button', { type: 'button', id: 'refresh-open', class: 'small', 'aria-controls': 'lineage-panel', 'aria-expanded': 'false' }, 'Refresh on new data'),
    fork: h('button', { type: 'button', id: 'fork-open', class: 'small', 'aria-controls': 'lineage-panel', 'aria-expanded': 'false' }, 'Fork from a step'),
    compare: h('button', { type: 'button', id: 'compare-open', class: 'small', 'aria-controls': 'lineage-panel', 'aria-expanded': 'false' }, 'Compare'),
    panel: h('section', { id: 'lineage-panel', class: 'lineage-panel', 'aria-live': 'polite', hidden: '' }),
  };
  b.bar.append(b.origin, h('div', { class: 'lineage-actions' }, b.refresh, b.fork, b.compare));
  bar.after(b.bar, b.panel);
  b.refresh.addEventListener('click', () => toggle('refresh', refreshForm));
  b.fork.addEventListener('click', () => toggle('fork', forkForm));
  b.compare.addEventListener('click', () => toggle('compare', compareForm));
  return b;
}

async function toggle(name, render) {
  if (state.open === name) { close(); return; }
  state.open = name;
  // The forms need the session's plan and record.
  await state.loading;
  if (state.open !== name) return;
  for (const k of ['refresh', 'fork', 'compare']) ui[k].setAttribute('aria-expanded', String(k === name));
  ui.panel.replaceChildren(render());
  ui.panel.hidden = false;
  ui.panel.querySelector('input, select, textarea, button')?.focus();
}

function close() {
  state.open = '';
  for (const k of ['refresh', 'fork', 'compare']) ui[k].setAttribute('aria-expanded', 'false');
  ui.panel.hidden = true;
  ui.panel.replaceChildren();
}

function errorLine(form) {
  let p = form.querySelector('.lineage-error');
  if (!p) {
    p = h('p', { class: 'lineage-error', role: 'alert' });
    form.querySelector('.form-actions').before(p);
  }
  return p;
}

function actions(go, label) {
  const cancel = h('button', { type: 'button', class: 'ghost' }, 'Cancel');
  cancel.addEventListener('click', close);
  return h('div', { class: 'form-actions' }, cancel, h('button', { type: 'submit', class: 'primary', id: go }, label));
}

// openNew shows the session a refresh or fork made.
function openNew(id) {
  close();
  location.hash = `#s=${encodeURIComponent(id)}`;
}

// --- refresh -------------------------------------------------------------------

function refreshForm() {
  const files = h('input', { type: 'file', id: 'refresh-files', multiple: '' });
  const mapping = h('pre', { id: 'refresh-mapping', class: 'refresh-mapping', hidden: '' });
  const dbs = state.session?.databases?.length;
  const form = h('form', { id: 'refresh-form', class: 'lineage-form', novalidate: '' },
    h('h3', {}, 'Refresh on new data'),
    h('p', { class: 'hint' }, 'Runs this analysis\'s cells and queries again on the new data, with no model, and says which numbers moved.'),
    h('label', { for: 'refresh-files' }, 'New data files'),
    files,
    h('p', { class: 'hint' }, dbs ? 'One for each input, matched by name. Choose none to query the same databases again as they are now.' : 'One for each input of this session, matched by name.'),
    mapping,
    actions('refresh-go', 'Refresh'));
  let approve = false;
  let modelMapping = null;
  files.addEventListener('change', () => { approve = false; modelMapping = null; mapping.hidden = true; form.querySelector('#refresh-go').textContent = 'Refresh'; });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const go = form.querySelector('#refresh-go');
    const err = errorLine(form);
    err.textContent = '';
    go.disabled = true;
    try {
      const acc = await api.refresh(state.id, [...files.files], approve, modelMapping);
      openNew(acc.id);
    } catch (x) {
      if (x instanceof APIError && x.code === 'needs_approval') {
        // The columns were renamed: show the mapping, and refresh with it
        // only when the person approves it.
        mapping.textContent = x.message;
        mapping.hidden = false;
        approve = true;
        modelMapping = x.body?.refresh?.model_mapping || null;
        go.textContent = 'Approve the mapping and refresh';
      } else {
        err.textContent = x.message;
      }
    } finally {
      go.disabled = false;
    }
  });
  return form;
}

// --- fork --------------------------------------------------------------------------

const forkKinds = [
  { value: 'step', label: 'This step', field: 'The step\'s new description' },
  { value: 'plan', label: 'The plan from this step', field: 'The steps from here, one a line' },
  { value: 'answer', label: 'My answer to its question', field: 'Your new answer to the question this step asked' },
];

function forkForm() {
  const steps = state.session?.plan?.steps || [];
  const select = h('select', { id: 'fork-step' });
  for (const s of steps) select.append(h('option', { value: String(s.index) }, `${s.index}. ${s.description}`));
  const kinds = h('fieldset', { class: 'fork-kinds' }, h('legend', {}, 'Change'));
  for (const k of forkKinds) {
    const input = h('input', { type: 'radio', name: 'fork-kind', value: k.value, id: `fork-kind-${k.value}` });
    if (k.value === 'step') input.checked = true;
    kinds.append(h('label', { class: 'check', for: `fork-kind-${k.value}` }, input, ` ${k.label}`));
  }
  const label = h('label', { for: 'fork-text', id: 'fork-text-label' });
  const text = h('textarea', { id: 'fork-text', rows: '3', class: 'grow' });
  const form = h('form', { id: 'fork-form', class: 'lineage-form', novalidate: '' },
    h('h3', {}, 'Fork from a step'),
    h('p', { class: 'hint' }, 'A new session goes on from the point before this step: the steps before it are kept as they finished and not run again.'),
    h('label', { for: 'fork-step' }, 'Step'), select, kinds, label, text,
    actions('fork-go', 'Fork'));
  const kind = () => form.querySelector('input[name=fork-kind]:checked').value;
  const fill = () => {
    const at = Number(select.value);
    const k = forkKinds.find((x) => x.value === kind());
    label.textContent = k.field;
    if (k.value === 'step') text.value = steps.find((s) => s.index === at)?.description || '';
    else if (k.value === 'plan') text.value = steps.filter((s) => s.index >= at).map((s) => s.description).join('\n');
    else text.value = '';
  };
  select.addEventListener('change', fill);
  kinds.addEventListener('change', fill);
  fill();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const go = form.querySelector('#fork-go');
    const err = errorLine(form);
    err.textContent = '';
    const req = { at: Number(select.value) };
    const value = text.value.trim();
    if (kind() === 'plan') req.plan = value.split('\n').map((l) => l.trim()).filter(Boolean);
    else if (value) req[kind()] = value;
    if (kind() !== 'step' && !value) {
      err.textContent = kind() === 'plan' ? 'Give at least one step.' : 'Give your new answer.';
      text.setAttribute('aria-invalid', 'true');
      text.focus();
      return;
    }
    go.disabled = true;
    try {
      const acc = await api.fork(state.id, req);
      openNew(acc.id);
    } catch (x) {
      err.textContent = x.message;
    } finally {
      go.disabled = false;
    }
  });
  return form;
}

// --- compare -----------------------------------------------------------------------

function compareForm() {
  const select = h('select', { id: 'compare-with' });
  const result = h('div', { id: 'compare-result', class: 'compare-result' });
  const form = h('form', { id: 'compare-form', class: 'lineage-form', novalidate: '' },
    h('h3', {}, 'Compare with another session'),
    h('label', { for: 'compare-with' }, 'With'), select,
    actions('compare-go', 'Compare'));
  const wrap = h('div', {}, form, result);
  fillCompareChoices(select).catch((x) => { errorLine(form).textContent = x.message; });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const err = errorLine(form);
    err.textContent = '';
    if (!select.value) { err.textContent = 'No other finished session to compare with yet.'; return; }
    try {
      // The earlier session is the one the numbers were: a session's
      // parent, else the older of the two.
      const other = select.value;
      const o = state.others.find((x) => x.id === other);
      const earlier = other === state.session?.parent || (o?.parent !== state.id && o && new Date(o.created) < new Date(state.session?.created));
      const c = earlier ? await api.compare(other, state.id) : await api.compare(state.id, other);
      showComparison(result, c, state.id);
    } catch (x) {
      err.textContent = x.message;
    }
  });
  return wrap;
}

// fillCompareChoices offers the session this one came from, those made
// from it, then the other finished sessions.
async function fillCompareChoices(select) {
  const s = state.session;
  const all = ((await api.sessions())?.sessions || []).filter((o) => o.id !== state.id && o.status === 'done');
  state.others = all;
  const option = (o, why) => h('option', { value: o.id }, `${why}${o.question || o.id}`);
  const parent = all.find((o) => o.id === s?.parent);
  if (parent) select.append(option(parent, `the session it was ${s.origin === 'fork' ? 'forked' : 'refreshed'} from: `));
  for (const o of all.filter((o) => o.parent === state.id)) select.append(option(o, `its ${o.origin || 'copy'}: `));
  for (const o of all.filter((o) => o.id !== s?.parent && o.parent !== state.id)) select.append(option(o, ''));
}

function signed(v) {
  const s = Math.abs(v).toLocaleString('en-US', { maximumFractionDigits: Math.abs(v) >= 100 ? 1 : 2 });
  return (v < 0 ? '−' : '+') + s;
}

function change(c) {
  const d = c.new_value - c.old_value;
  let s = signed(d) + (c.percent ? ' pts' : '');
  if (c.old_value !== 0) s += ` (${signed((100 * d) / Math.abs(c.old_value))}%)`;
  return s;
}

function side(r, title) {
  const head = h('h4', {}, title);
  const meta = h('p', { class: 'muted compare-meta' }, r.question || '', ' · ', h('a', { href: `#s=${encodeURIComponent(r.session)}` }, r.session.slice(0, 13) + '…'));
  const md = h('div', { class: 'md' });
  md.append(renderMarkdown(r.report));
  return h('article', { class: 'compare-side', 'aria-label': title }, head, meta, md);
}

function showComparison(el, c, open) {
  const moved = c.changes.length;
  const summary = moved
    ? `${moved} ${moved === 1 ? 'number' : 'numbers'} moved; ${c.kept} did not.`
    : `No number moved (${c.kept} found in both reports).`;
  const parts = [h('p', { class: 'compare-summary' }, summary)];
  if (moved) {
    const tbody = h('tbody');
    for (const ch of c.changes) {
      const tr = h('tr', { class: 'compare-change' }, h('td', { class: 'num' }, ch.old), h('td', { class: 'num' }, ch.new),
        h('td', { class: `num ${ch.new_value > ch.old_value ? 'up' : 'down'}` }, change(ch)), h('td', { class: 'compare-line' }, ch.where));
      tbody.append(tr);
    }
    parts.push(h('div', { class: 'table-wrap' }, h('table', { class: 'compare-changes' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'was'), h('th', { scope: 'col' }, 'now'), h('th', { scope: 'col' }, 'change'), h('th', { scope: 'col' }, 'line'))), tbody)));
  }
  const only = c.only_left.length + c.only_right.length;
  if (only) parts.push(h('p', { class: 'hint' }, `${only} ${only === 1 ? 'line' : 'lines'} with numbers are in one report only, and are not compared.`));
  const title = (r, when) => `${when}${r.session === open ? ' (this session)' : ''}`;
  parts.push(h('div', { class: 'compare-sides' }, side(c.left, title(c.left, 'Before')), side(c.right, title(c.right, 'After'))));
  el.replaceChildren(...parts);
  el.scrollIntoView({ block: 'nearest' });
}

// --- the open session ------------------------------------------------------------

async function update({ id, status }) {
  ui ||= build();
  if (!ui) return;
  const changed = id !== state.id;
  if (changed) { close(); state.session = null; }
  const was = state.status;
  state.id = id;
  state.status = status;
  const canFork = finished(status) || status === 'paused';
  ui.bar.hidden = !id || !(status === 'done' || canFork);
  ui.refresh.hidden = status !== 'done';
  ui.compare.hidden = status !== 'done';
  ui.fork.hidden = !canFork;
  if (!id || ui.bar.hidden || (!changed && was === status && state.session)) return;
  let loaded;
  state.loading = new Promise((r) => { loaded = r; });
  try {
    const s = await api.session(id);
    if (state.id !== id) return;
    state.session = s;
    ui.fork.hidden = !canFork || !(s.plan?.steps?.length);
    ui.origin.replaceChildren();
    if (s.parent) {
      ui.origin.append(`${s.origin === 'fork' ? 'Forked' : 'Refreshed'} from `,
        h('a', { href: `#s=${encodeURIComponent(s.parent)}`, id: 'lineage-parent' }, 'this session'), '.');
    }
    ui.origin.hidden = !s.parent;
  } catch { /* the page's own notice says what failed */ } finally {
    loaded();
  }
}

document.addEventListener('sift:session-status', (e) => { update(e.detail); });
