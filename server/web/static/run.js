// RunView shows one run of a session (a first question, a follow-up, with
// its resumes) as its events arrive: the plan as a checklist, each step's
// tool calls and code, charts and tables, the questions it asks, errors,
// and the report. Text from the model and tools only ever goes in through
// textContent.

import { renderMarkdown } from './markdown.js';

const STATUS_LABEL = { todo: 'to do', doing: 'running', done: 'done', failed: 'failed', skipped: 'skipped' };
const IMAGE = /\.(png|jpe?g|gif|svg|webp)$/i;
const TABLE = /\.(csv|tsv)$/i;
const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });

export class RunView {
  // ctx: { image(path, img), link(path, a), blob(path), answer(body) -> Promise,
  //        onStatus(status, detail), onUsage(usage), modelless: bool }
  constructor(parent, ctx) {
    this.ctx = ctx;
    this.steps = new Map();
    this.calls = new Map();
    this.artifacts = new Set();
    this.live = null;
    this.status = 'running';
    this.pending = null;
    // A run's usage is counted per stretch (the first, then each resume
    // after an answer or a pause): the meter shows their sum.
    this.usageBefore = null;
    this.usageNow = null;

    this.root = h('article', { class: 'run' });
    this.title = h('h3', { class: 'run-q' });
    this.planBox = h('section', { class: 'plan-box', 'aria-label': 'Plan' });
    this.planList = h('ol', { class: 'plan' });
    this.planBox.append(this.planList);
    this.activity = h('div', { class: 'activity' });
    this.interruptBox = h('div', { class: 'interrupt-box' });
    this.errors = h('div', { class: 'errors' });
    this.report = h('section', { class: 'report', hidden: '' });
    this.root.append(this.title, this.planBox, this.activity, this.interruptBox, this.errors, this.report);
    parent.append(this.root);
  }

  handle(ev) {
    if (this.pending && !['done', 'usage', 'interrupt'].includes(ev.kind)) this.clearInterrupt();
    switch (ev.kind) {
      case 'session':
        if (this.usageNow) {
          this.usageBefore = addUsage(this.usageBefore, this.usageNow);
          this.usageNow = null;
        }
        this.setStatus('running');
        break;
      case 'plan':
        this.renderPlan(ev.plan);
        break;
      case 'step_started':
      case 'step_finished':
        this.updateStep(ev.step);
        this.usage(ev.usage);
        break;
      case 'tool_call':
        this.addCall(ev);
        break;
      case 'tool_result':
        this.addResult(ev);
        break;
      case 'message':
        this.addMessage(ev);
        break;
      case 'artifact':
        if (ev.step) this.updateStep(ev.step);
        this.addArtifact(ev.path, ev.step?.index);
        break;
      case 'report':
        this.renderReport(ev.text || '');
        break;
      case 'interrupt':
        this.showInterrupt(ev.interrupt);
        this.setStatus('waiting');
        break;
      case 'paused':
        this.setStatus('paused');
        break;
      case 'usage':
        this.usage(ev.usage);
        break;
      case 'error':
        this.addError(ev.text || 'the run failed');
        break;
      case 'done':
        if (ev.plan) this.renderPlan(ev.plan);
        this.usage(ev.usage);
        for (const f of ev.plan?.result?.files || []) this.addDownload(f);
        if (ev.interrupt) {
          if (!this.pending) this.showInterrupt(ev.interrupt);
          this.setStatus('waiting');
        } else if (ev.text === 'paused' || this.status === 'paused') {
          this.setStatus('paused');
        } else if (ev.text) {
          if (!this.errors.childElementCount) this.addError(ev.text);
          this.setStatus('failed');
        } else {
          this.setStatus('done');
        }
        break;
    }
  }

  usage(u) {
    if (!u) return;
    this.usageNow = u;
    this.ctx.onUsage(addUsage(this.usageBefore, u));
  }

  setStatus(status) {
    this.status = status;
    this.root.dataset.status = status;
    this.ctx.onStatus(status);
  }

  // --- the plan ---------------------------------------------------------

  renderPlan(plan) {
    if (!plan) return;
    if (plan.question) this.title.textContent = plan.question;
    if (!this.earlier) {
      // A follow-up's plan keeps the steps earlier questions finished: the
      // views of those runs show them in full, this one only names them.
      this.earlier = new Set((plan.earlier?.length ? plan.steps || [] : [])
        .filter((s) => s.status === 'done' || s.status === 'failed').map((s) => s.index));
    }
    const steps = plan.steps || [];
    const seen = new Set();
    for (const s of steps) {
      this.updateStep(s);
      seen.add(s.index);
    }
    for (const [index, view] of this.steps) {
      if (!seen.has(index) && steps.length) {
        view.li.remove();
        this.steps.delete(index);
      }
    }
    this.planBox.hidden = steps.length === 0 || this.pending?.kind === 'plan_review';
  }

  step(index) {
    let view = this.steps.get(index);
    if (view) return view;
    const tick = h('span', { class: 'tick', 'aria-hidden': 'true' });
    const label = h('span', { class: 'sr-only' });
    const desc = h('p', { class: 'desc' });
    // A long summary (a step's printed output) shows three lines until the
    // person opens it.
    const summary = h('p', { class: 'summary', tabindex: '0', 'data-open': 'false', title: 'Show all' });
    const toggle = () => summary.setAttribute('data-open', String(summary.getAttribute('data-open') !== 'true'));
    summary.addEventListener('click', toggle);
    summary.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggle(); } });
    const count = h('span', { class: 'count' });
    const sumEl = h('summary', {}, 'Work', count);
    const log = h('div', { class: 'log' });
    const work = h('details', { class: 'work', hidden: '' }, sumEl, log);
    const artifacts = h('div', { class: 'artifacts' });
    const filesSum = h('summary', {}, 'Charts and tables');
    const files = h('details', { class: 'files', open: '', hidden: '' }, filesSum, artifacts);
    const body = h('div', { class: 'step-body' }, desc, summary, files, work);
    const li = h('li', { class: 'step', 'data-index': String(index) }, tick, label, body);
    view = { li, label, desc, summary, work, log, count, artifacts, files, filesSum, calls: 0, touched: false };
    // A toggle the page did not ask for is the person's: keep it.
    work.addEventListener('toggle', () => { if (work.open !== view.autoOpen) view.touched = true; });
    // Keep the list in step order even when steps arrive out of order.
    const after = [...this.steps.keys()].filter((k) => k > index).sort((a, b) => a - b)[0];
    this.planList.insertBefore(li, after === undefined ? null : this.steps.get(after).li);
    this.steps.set(index, view);
    return view;
  }

  updateStep(s) {
    if (!s || !s.index) return;
    const view = this.step(s.index);
    if (this.earlier?.has(s.index)) {
      view.li.classList.add('earlier');
      view.li.dataset.status = s.status;
      view.label.textContent = `Step ${s.index}, from an earlier question: `;
      view.desc.textContent = s.description || '';
      view.summary.hidden = true;
      return;
    }
    const status = s.status || 'todo';
    view.li.dataset.status = status;
    view.label.textContent = `Step ${s.index}, ${STATUS_LABEL[status] || status}: `;
    view.desc.textContent = s.description || '';
    view.summary.textContent = s.summary || '';
    view.summary.hidden = !s.summary;
    if (status === 'doing') view.li.setAttribute('aria-current', 'step');
    else view.li.removeAttribute('aria-current');
    // The running step shows its work; a finished one folds it away,
    // unless the person opened or closed it themselves.
    if (!view.touched) {
      view.autoOpen = status === 'doing';
      view.work.open = view.autoOpen;
    }
    for (const f of s.files || []) this.addArtifact(f, s.index);
  }

  // logFor is where an event's details go: its step's log, or the run's
  // activity for the planner, report writer and routes without steps.
  logFor(ev) {
    const index = ev.step?.index;
    if (!index) return this.activity;
    const view = this.step(index);
    view.work.hidden = false;
    return view.log;
  }

  addCall(ev) {
    const log = this.logFor(ev);
    const index = ev.step?.index;
    if (index) {
      const view = this.step(index);
      view.calls++;
      view.count.textContent = ` · ${view.calls} tool call${view.calls === 1 ? '' : 's'}`;
    }
    const head = h('p', { class: 'call-head' },
      h('span', { class: 'tool' }, ev.tool || 'tool'),
      ev.agent ? h('span', { class: 'agent muted' }, ` by ${ev.agent}`) : '');
    const entry = h('div', { class: 'call' }, head);
    entry.append(...argsView(ev.tool, ev.args));
    log.append(entry);
    if (ev.tool_call_id) this.calls.set(ev.tool_call_id, entry);
    this.live = null;
  }

  addResult(ev) {
    const entry = (ev.tool_call_id && this.calls.get(ev.tool_call_id)) || null;
    const out = h('pre', { class: 'result' });
    out.textContent = ev.text || '(no output)';
    const wrap = h('div', { class: 'result-wrap' }, h('p', { class: 'label muted' }, 'Result'), out);
    if (entry) entry.append(wrap);
    else this.logFor(ev).append(h('div', { class: 'call' }, h('p', { class: 'call-head' }, h('span', { class: 'tool' }, ev.tool || 'tool')), wrap));
  }

  addMessage(ev) {
    const log = this.logFor(ev);
    const key = `${ev.agent || ''}/${ev.step?.index || 0}`;
    if (ev.delta) {
      if (!this.live || this.live.key !== key || !this.live.el.isConnected) {
        this.live = { key, el: h('p', { class: 'message' }), text: '' };
        if (ev.agent) this.live.el.dataset.agent = ev.agent;
        log.append(this.live.el);
      }
      this.live.text += ev.text || '';
      this.live.el.textContent = this.live.text;
      return;
    }
    if (this.live && this.live.key === key && this.live.el.isConnected) {
      // The whole message after its deltas: it replaces them.
      this.live.el.textContent = ev.text || this.live.text;
      this.live = null;
      return;
    }
    const p = h('p', { class: 'message' });
    p.textContent = ev.text || '';
    log.append(p);
  }

  addArtifact(path, index) {
    if (!path || this.artifacts.has(path) || this.earlier?.has(index)) return;
    this.artifacts.add(path);
    let box = this.activity;
    if (index) {
      const view = this.step(index);
      view.files.hidden = false;
      box = view.artifacts;
    }
    const name = path.split('/').pop();
    if (IMAGE.test(path)) {
      const img = h('img', { alt: `Chart ${name}`, class: 'chart' });
      this.ctx.image(path, img);
      const a = h('a', {}, name);
      this.ctx.link(path, a);
      // Charts come first: they say more at a glance than their tables.
      const firstTable = box.querySelector(':scope > .table-fig, :scope > .file');
      box.insertBefore(h('figure', {}, img, h('figcaption', {}, a)), firstTable);
    } else if (TABLE.test(path)) {
      const fig = h('figure', { class: 'table-fig' });
      const a = h('a', {}, name);
      this.ctx.link(path, a);
      fig.append(h('figcaption', {}, a));
      box.append(fig);
      this.ctx.blob(path).then((b) => b.text()).then((text) => {
        fig.insertBefore(csvTable(text, path.toLowerCase().endsWith('.tsv') ? '\t' : ','), fig.firstChild);
      }).catch(() => {});
    } else {
      const a = h('a', {}, name);
      this.ctx.link(path, a);
      box.append(h('p', { class: 'file' }, a));
    }
    this.addDownload(path);
  }

  // --- report and files ------------------------------------------------

  ensureReportHead() {
    if (this.reportBody) return;
    this.reportBody = h('div', { class: 'md' });
    this.downloads = h('ul', { class: 'downloads' });
    this.report.append(
      h('h3', {}, 'Report'),
      this.reportBody,
      h('h4', {}, 'Files'),
      this.downloads,
    );
  }

  renderReport(text) {
    this.ensureReportHead();
    this.report.hidden = false;
    this.reportBody.replaceChildren(renderMarkdown(text, { image: this.ctx.image, link: this.ctx.link }));
    // The report shows the charts and tables again, in its story: fold the
    // steps' copies away so the page does not repeat itself.
    for (const view of this.steps.values()) {
      view.files.open = false;
      view.filesSum.textContent = 'Charts and tables of this step';
    }
    this.addDownload('report.md');
    this.addDownload('report.html');
  }

  addDownload(path) {
    this.ensureReportHead();
    if ([...this.downloads.children].some((li) => li.dataset.path === path)) return;
    const a = h('a', {}, path);
    this.ctx.link(path, a);
    this.downloads.append(h('li', { 'data-path': path }, a));
  }

  addError(text) {
    const box = h('div', { class: 'error', role: 'alert' });
    const p = h('pre', { class: 'error-text' });
    p.textContent = text;
    box.append(h('strong', {}, this.ctx.modelless && /model/i.test(text)
      ? 'This needs a model' : 'The run stopped with an error'), p);
    if (this.ctx.modelless && /model/i.test(text)) {
      box.append(h('p', { class: 'muted' },
        'This server has no model configured, so only the built-in analyses run. Ask for one of them (for example “monthly revenue trend”, “profile this data”, “top 10 products by revenue”), or start sift serve with a model (--model, --base-url, SIFT_API_KEY).'));
    }
    this.errors.append(box);
  }

  // --- questions for the person ----------------------------------------

  showInterrupt(it) {
    if (!it) return;
    this.clearInterrupt();
    this.pending = it;
    const box = h('section', { class: 'interrupt', 'aria-labelledby': `q-${it.id}` });
    const title = h('h4', { id: `q-${it.id}` });
    const prompt = h('p', { class: 'prompt' });
    prompt.textContent = it.prompt || '';
    box.append(title, prompt);
    const status = h('p', { class: 'muted sent', role: 'status' });
    const send = async (body, form) => {
      for (const b of form.querySelectorAll('button, input, textarea')) b.disabled = true;
      status.textContent = 'Sending…';
      try {
        await this.ctx.answer({ interrupt_id: it.id, ...body });
        status.textContent = 'Answered; the run goes on.';
      } catch (err) {
        status.textContent = `Could not send the answer: ${err.message}`;
        for (const b of form.querySelectorAll('button, input, textarea')) b.disabled = false;
      }
    };
    if (it.kind === 'plan_review') {
      title.textContent = 'Review the plan';
      box.append(planEditor(it.plan || { steps: [] }, send));
      this.planBox.hidden = true;
    } else if (it.kind === 'approval') {
      title.textContent = 'Approval needed';
      box.append(approvalForm(send));
    } else {
      title.textContent = 'A question for you';
      box.append(questionForm(it.choices || [], send));
    }
    box.append(status);
    this.interruptBox.append(box);
    const first = box.querySelector('button.primary') || box.querySelector('button, textarea');
    if (first) first.focus({ preventScroll: false });
  }

  clearInterrupt() {
    this.pending = null;
    this.interruptBox.replaceChildren();
    this.planBox.hidden = this.steps.size === 0;
  }
}

// addUsage sums the meter's fields of two usages (a may be null).
function addUsage(a, b) {
  if (!a) return b;
  const out = { estimated: !!(a.estimated || b.estimated) };
  for (const k of ['calls', 'prompt_tokens', 'completion_tokens', 'cached_tokens', 'cost', 'unpriced']) {
    out[k] = (a[k] || 0) + (b[k] || 0);
  }
  return out;
}

// planEditor edits the steps in place: approve as is, approve the edited
// steps, or reject with feedback for the planner.
function planEditor(plan, send) {
  const form = h('form', { class: 'plan-edit' });
  const list = h('ol', { class: 'edit-steps' });
  const original = (plan.steps || []).map((s) => s.description);
  const approve = h('button', { type: 'submit', class: 'primary', 'data-action': 'approve' }, 'Approve plan');
  const texts = () => [...list.querySelectorAll('textarea')].map((t) => t.value.trim()).filter(Boolean);
  const changed = () => {
    const now = texts();
    return now.length !== original.length || now.some((t, k) => t !== original[k]);
  };
  const refresh = () => { approve.textContent = changed() ? 'Approve edited plan' : 'Approve plan'; };
  const addRow = (text) => {
    const n = list.childElementCount + 1;
    const ta = h('textarea', { rows: '2', 'aria-label': `Step ${n}` });
    ta.value = text;
    ta.addEventListener('input', refresh);
    const remove = h('button', { type: 'button', class: 'ghost small', 'aria-label': `Remove step ${n}` }, 'Remove');
    const li = h('li', {}, ta, remove);
    remove.addEventListener('click', () => { li.remove(); renumber(); refresh(); });
    list.append(li);
  };
  const renumber = () => {
    [...list.children].forEach((li, k) => {
      li.querySelector('textarea').setAttribute('aria-label', `Step ${k + 1}`);
      li.querySelector('button').setAttribute('aria-label', `Remove step ${k + 1}`);
    });
  };
  original.forEach(addRow);
  const add = h('button', { type: 'button', class: 'ghost small' }, 'Add a step');
  add.addEventListener('click', () => { addRow(''); refresh(); list.lastChild.querySelector('textarea').focus(); });

  const feedback = h('textarea', { id: 'reject-feedback', rows: '2', placeholder: 'What should the plan do instead?' });
  const reject = h('button', { type: 'button', class: 'danger', 'data-action': 'reject' }, 'Reject with feedback');
  const rejectBox = h('div', { class: 'reject' },
    h('label', { for: 'reject-feedback' }, 'Or reject it, and say why'), feedback, reject);

  form.append(list, h('div', { class: 'form-actions' }, add, approve), rejectBox);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const steps = texts();
    if (steps.length === 0) {
      feedback.focus();
      return;
    }
    send(changed() ? { action: 'edit', steps } : { action: 'approve' }, form);
  });
  reject.addEventListener('click', () => {
    if (!feedback.value.trim()) {
      feedback.setAttribute('aria-invalid', 'true');
      feedback.focus();
      return;
    }
    send({ action: 'reject', feedback: feedback.value.trim() }, form);
  });
  return form;
}

function questionForm(choices, send) {
  const form = h('form', { class: 'question' });
  if (choices.length) {
    const row = h('div', { class: 'choices', role: 'group', 'aria-label': 'Choices' });
    for (const c of choices) {
      const b = h('button', { type: 'button', class: 'choice' }, c);
      b.addEventListener('click', () => send({ answer: c }, form));
      row.append(b);
    }
    form.append(row);
  }
  const input = h('textarea', { id: 'answer-text', rows: '2' });
  form.append(
    h('label', { for: 'answer-text' }, choices.length ? 'Or answer in your own words' : 'Your answer'),
    input,
    h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary' }, 'Send answer')),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!input.value.trim()) { input.focus(); return; }
    send({ answer: input.value.trim() }, form);
  });
  return form;
}

function approvalForm(send) {
  const form = h('form', { class: 'approval' });
  const reason = h('input', { id: 'deny-reason', type: 'text', placeholder: 'optional' });
  const approve = h('button', { type: 'submit', class: 'primary' }, 'Approve');
  const deny = h('button', { type: 'button', class: 'danger' }, 'Deny');
  form.append(
    h('div', { class: 'form-actions' }, approve),
    h('label', { for: 'deny-reason' }, 'Reason, if you deny'), reason,
    h('div', { class: 'form-actions' }, deny),
  );
  form.addEventListener('submit', (e) => { e.preventDefault(); send({ action: 'approve' }, form); });
  deny.addEventListener('click', () => send({ action: 'deny', reason: reason.value.trim() }, form));
  return form;
}

// argsView shows a tool call's arguments: code as code, a request to a
// sub-agent as text, anything else as formatted JSON.
function argsView(tool, args) {
  if (!args) return [];
  let obj;
  try { obj = JSON.parse(args); } catch { return [pre(args, 'args')]; }
  if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
    const code = typeof obj.code === 'string' ? obj.code : typeof obj.sql === 'string' ? obj.sql : null;
    if (code !== null) {
      const p = pre(code, 'code');
      p.firstChild.dataset.lang = typeof obj.code === 'string' ? 'python' : 'sql';
      return [p];
    }
    const keys = Object.keys(obj);
    if (keys.length === 1 && typeof obj[keys[0]] === 'string') {
      const p = h('p', { class: 'request' });
      p.textContent = obj[keys[0]];
      return [p];
    }
  }
  return [pre(JSON.stringify(obj, null, 2), 'args')];
}

function pre(text, className) {
  const code = h('code');
  code.textContent = text;
  return h('pre', { class: className }, code);
}

// csvTable previews the first rows of a CSV or TSV artifact.
function csvTable(text, sep, limit = 25) {
  const rows = parseDelimited(text, sep);
  const t = h('table');
  if (rows.length) {
    const head = t.createTHead().insertRow();
    for (const c of rows[0]) head.append(h('th', { scope: 'col' }, c));
    const body = t.createTBody();
    for (const r of rows.slice(1, limit + 1)) {
      const tr = body.insertRow();
      for (const c of r) {
        const td = tr.insertCell();
        td.textContent = c;
        if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(c.trim())) {
          // Long floats from pandas read badly: show them rounded, keep the
          // exact value in the tooltip.
          td.className = 'num';
          td.textContent = NUMBER.format(Number(c));
          if (td.textContent !== c) td.title = c;
        }
      }
    }
    if (rows.length - 1 > limit) {
      t.createCaption().textContent = `First ${limit} of ${rows.length - 1} rows`;
    }
  }
  return h('div', { class: 'table-wrap' }, t);
}

function parseDelimited(text, sep) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (quoted) {
      if (c === '"' && text[k + 1] === '"') { cell += '"'; k++; }
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === sep) { row.push(cell); cell = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[k + 1] === '\n') k++;
      row.push(cell); rows.push(row); row = []; cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

// h builds an element: attributes, then children (strings become text).
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) {
    if (c === '' || c === null || c === undefined) continue;
    e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return e;
}
