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
  // ctx: { image(path, img), link(path, a), download(path, a), table(path, sheet, page, size),
  //        answer(body) -> Promise,
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
    // The live status line: what the run waits for, and for how long.
    this.waits = [];
    this.statusText = h('span', { class: 'status-text' });
    this.statusClock = h('span', { class: 'status-clock' });
    this.statusLine = h('p', { class: 'status-line', role: 'status', hidden: '' }, h('span', { class: 'pulse', 'aria-hidden': 'true' }), this.statusText, ' ', this.statusClock);
    this.next = h('div', { class: 'next', hidden: '' });
    this.root.append(this.title, this.planBox, this.activity, this.statusLine, this.interruptBox, this.errors, this.report, this.next);
    parent.append(this.root);
  }

  // --- the live status line ---------------------------------------------

  // wait shows what the run waits for from since on; key names the wait so
  // its end can take it away (model calls and tools may overlap).
  wait(key, text, since) {
    this.waits = this.waits.filter((w) => w.key !== key);
    this.waits.push({ key, text, since: since ? new Date(since) : new Date() });
    this.showWait();
  }

  unwait(key) {
    this.waits = this.waits.filter((w) => w.key !== key);
    this.showWait();
  }

  showWait() {
    const w = this.waits[this.waits.length - 1];
    const live = w && ['running', 'queued'].includes(this.status);
    this.statusLine.hidden = !live;
    clearInterval(this.clock);
    this.clock = null;
    if (!live) return;
    this.statusText.textContent = `${w.text}…`;
    const tick = () => {
      const s = Math.max(0, Math.round((Date.now() - w.since.getTime()) / 1000));
      this.statusClock.textContent = s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
    };
    tick();
    this.clock = setInterval(tick, 1000);
  }

  // queued shows the run's place in the server's queue.
  queued(position) {
    this.setStatus('queued');
    this.wait('queue', `Waiting in the queue (#${position})`);
  }

  handle(ev) {
    if (this.pending && !['done', 'usage', 'interrupt'].includes(ev.kind)) this.clearInterrupt();
    switch (ev.kind) {
      case 'session':
        this.unwait('queue'); // the run has its slot
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
      case 'model_started':
        this.unwait('queue');
        this.wait(`model:${ev.text}`, ev.text || 'Waiting for the model', ev.call?.started || ev.time);
        break;
      case 'model_finished':
        this.unwait(`model:${ev.text}`);
        this.usage(ev.usage);
        break;
      case 'tool_call':
        this.addCall(ev);
        if (ev.tool === 'python' || ev.tool === 'run_template' || ev.tool === 'sql_query') {
          const what = ev.tool === 'sql_query' ? 'Running SQL' : ev.tool === 'run_template' ? 'Running the analysis' : 'Running Python';
          const n = this.stepOf(ev);
          this.wait(`tool:${ev.tool_call_id}`, n ? `${what} for step ${n}` : what, ev.time);
        }
        break;
      case 'tool_result':
        this.unwait(`tool:${ev.tool_call_id}`);
        this.addResult(ev);
        break;
      case 'message':
        if (ev.agent === 'sift' && INTERNAL.test(ev.text || '')) break; // bookkeeping, not for people
        if (ev.agent === 'report' && ev.delta) { // the report as it is written
          this.draftReport(ev.text || '');
          break;
        }
        if (!ev.delta && isPlanJSON(ev.text)) { // a plan: the checklist or the review shows it
          if (this.live?.el && isPlanJSON(this.live.text)) this.live.el.remove();
          this.live = null;
          break;
        }
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
      case 'takeover': // another worker goes on with the run
        this.addNote(ev.text || 'Another worker goes on with the run.');
        break;
      case 'usage':
        this.usage(ev.usage);
        break;
      case 'error':
        if (STOPPED.test(ev.text || '')) break; // a deliberate stop: done says so
        this.addError(ev.text || 'the run failed');
        break;
      case 'done':
        this.waits = [];
        if (ev.plan) this.renderPlan(ev.plan);
        this.showNext(ev.plan?.result?.next_questions || []);
        this.usage(ev.usage);
        for (const f of ev.plan?.result?.files || []) this.addDownload(f);
        if (ev.interrupt) {
          if (!this.pending) this.showInterrupt(ev.interrupt);
          this.setStatus('waiting');
        } else if (ev.text === 'paused' || this.status === 'paused') {
          this.setStatus('paused');
        } else if (STOPPED.test(ev.text || '')) {
          this.addNote('Stopped. The work done so far is kept; resume to go on.');
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
    this.showWait();
  }

  // showNext offers the questions Sift suggests next, as buttons that ask
  // them.
  showNext(questions) {
    this.next.replaceChildren();
    this.next.hidden = !questions.length || !this.ctx.ask;
    if (this.next.hidden) return;
    const row = h('div', { class: 'chips' });
    for (const q of questions) {
      const b = h('button', { type: 'button', class: 'chip' }, q);
      b.addEventListener('click', () => this.ctx.ask(q));
      row.append(b);
    }
    this.next.append(h('p', { class: 'label muted' }, 'Ask next'), row);
  }

  addNote(text) {
    this.errors.append(h('p', { class: 'note muted', role: 'status' }, text));
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

  // stepOf is the plan step an event belongs to: its own, or, for the
  // work of the agents that run steps, the step running now (events of a
  // resumed step may come without one).
  stepOf(ev) {
    if (ev.step?.index) return ev.step.index;
    return ['executor', 'code_agent', 'web_researcher'].includes(ev.agent) ? this.doing || 0 : 0;
  }

  updateStep(s) {
    if (!s || !s.index) return;
    if (s.status === 'doing') this.doing = s.index;
    else if (this.doing === s.index) this.doing = 0;
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
    view.summary.textContent = plainSummary(s.summary || '');
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
    const index = this.stepOf(ev);
    if (!index) return this.activity;
    const view = this.step(index);
    view.work.hidden = false;
    return view.log;
  }

  addCall(ev) {
    const log = this.logFor(ev);
    const index = this.stepOf(ev);
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
    const text = stripHints(ev.text || '');
    // A step's output once: the code agent's reply and the step's result
    // repeat what its Python printed.
    const index = this.stepOf(ev);
    const seen = this.outputs ??= new Map();
    const earlier = seen.get(index) || [];
    const key = text.trim();
    if (key && earlier.some((t) => t.includes(key) || key.includes(t))) {
      if (entry) entry.append(h('p', { class: 'label muted' }, 'Output shown above'));
      return;
    }
    if (key) seen.set(index, [...earlier, key]);
    const wrap = h('div', { class: 'result-wrap' }, ...resultView(text));
    if (entry) entry.append(wrap);
    else this.logFor(ev).append(h('div', { class: 'call' }, h('p', { class: 'call-head' }, h('span', { class: 'tool' }, ev.tool || 'tool')), wrap));
  }

  // repeats says text only repeats an output the step already shows.
  repeats(ev, text) {
    const key = stripHints(text || '').trim();
    const shown = this.outputs?.get(this.stepOf(ev)) || [];
    return key !== '' && shown.some((t) => t.includes(key) || key.includes(t));
  }

  addMessage(ev) {
    if (!ev.delta && this.repeats(ev, ev.text)) {
      // The code agent's reply that only repeats its Python's output.
      if (this.live?.el && this.live.key === `${ev.agent || ''}/${this.stepOf(ev)}`) this.live.el.remove();
      this.live = null;
      return;
    }
    const log = this.logFor(ev);
    const key = `${ev.agent || ''}/${this.stepOf(ev)}`;
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
      // The first rows only, read by the server: a 100,000-row file costs
      // the page 25 rows. The link opens the whole of it, paged.
      this.ctx.table(path, '', 1, PREVIEW_ROWS).then((t) => {
        fig.insertBefore(csvTable(t), fig.firstChild);
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
    // No heading over nothing: Files shows with the first file.
    this.filesHead = h('h4', { hidden: '' }, 'Files');
    this.report.append(
      h('h3', {}, 'Report'),
      this.reportBody,
      this.filesHead,
      this.downloads,
    );
  }

  // draftReport shows the report as the model writes it, piece by piece;
  // the finished report replaces it. Charts show once it is finished.
  draftReport(piece) {
    this.ensureReportHead();
    this.report.hidden = false;
    this.report.dataset.writing = '';
    this.draft = (this.draft || '') + piece;
    if (this.draftFrame) return;
    this.draftFrame = requestAnimationFrame(() => {
      this.draftFrame = 0;
      if (this.draft) this.reportBody.replaceChildren(renderMarkdown(this.draft, { link: this.ctx.link, scrollCue }));
    });
  }

  renderReport(text) {
    this.ensureReportHead();
    this.report.hidden = false;
    this.draft = '';
    delete this.report.dataset.writing;
    this.reportBody.replaceChildren(renderMarkdown(text, { image: this.ctx.image, link: this.ctx.link, scrollCue }));
    // The report shows the charts and tables again, in its story: fold the
    // steps' copies away so the page does not repeat itself.
    for (const view of this.steps.values()) {
      view.files.open = false;
      view.filesSum.textContent = 'Charts and tables of this step';
    }
    this.addDownload('plan.md');
    this.addDownload('report.md');
    this.addDownload('report.html');
  }

  addDownload(path) {
    this.ensureReportHead();
    if ([...this.downloads.children].some((li) => li.dataset.path === path)) return;
    const a = h('a', {}, path);
    this.ctx.link(path, a);
    const li = h('li', { 'data-path': path }, a);
    if (a.hasAttribute('data-view') && this.ctx.download) {
      // A file that opens in place keeps its download beside it.
      const dl = h('a', { class: 'download', 'aria-label': `Download ${path}` }, 'download');
      this.ctx.download(path, dl);
      li.append(' · ', dl);
    }
    this.downloads.append(li);
    this.filesHead.hidden = false;
  }

  addError(text) {
    const box = h('div', { class: 'error', role: 'alert' });
    const { title, sentence } = errorByCause(text, this.ctx.modelless);
    box.append(h('strong', {}, title), h('p', { class: 'error-text' }, sentence));
    if (sentence !== text && !/needs a model/.test(title)) {
      // The full text, for whoever runs the server, out of the way.
      const p = h('pre', {});
      p.textContent = plainWords(text);
      box.append(h('details', { class: 'details' }, h('summary', {}, 'Details'), p));
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
    // The prompt without the words the title already says ("Review the
    // plan: approve it, ..." under "Review the plan").
    const said = `${title.textContent}:`;
    let text = it.prompt || '';
    if (text.toLowerCase().startsWith(said.toLowerCase())) {
      text = text.slice(said.length).trim();
      text = text.charAt(0).toUpperCase() + text.slice(1);
    }
    prompt.textContent = text;
    prompt.hidden = !text;
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

// INTERNAL matches the run's own bookkeeping notes (how a follow-up or
// resume rebuilds its Python state): true, but not for the person.
const INTERNAL = /cells\.jsonl|earlier cells?\b|replaying|keeps \d+ earlier step|checkpoint/i;

// STOPPED matches the end of a run someone stopped on purpose.
const STOPPED = /context canceled|interrupted: context|stopped at once/i;

// isPlanJSON says a message is a plan written as JSON (a planner that
// answered in text): the page shows plans as checklists, never raw.
function isPlanJSON(text) {
  const t = (text || '').trim().replace(/^```(json)?\s*|```$/g, '');
  if (!t.startsWith('{')) return false;
  try { return Array.isArray(JSON.parse(t).steps); } catch { return false; }
}

// plainWords takes internal words out of a message shown to a person.
function plainWords(text) {
  return text
    .replace(/\b(run failed|interrupted): /gi, '')
    .replace(/context (canceled|deadline exceeded)/gi, 'stopped')
    .replace(/\s*\(?(from|in) cells\.jsonl\)?/gi, '');
}

// errorByCause turns a run's error into a title and one sentence with the
// fix: the full text goes behind a toggle.
function errorByCause(text, modelless) {
  const t = text || '';
  if (/no model|needs a model|configure a model|ErrNoModel/i.test(t) || (modelless && /model/i.test(t))) {
    return {
      title: 'This question needs a model',
      sentence: 'This server runs only the built-in analyses (trends, top-N, profiles, pivots, correlations); ask one of those, or start sift serve with a model (--model, --base-url, SIFT_API_KEY).',
    };
  }
  if (/is empty|0 bytes|no rows/i.test(t)) return { title: 'The data is empty', sentence: firstSentence(t) };
  if (/binary|not a (data|text) file|not a valid zip|corrupt|password-protected/i.test(t)) {
    return { title: 'A file could not be read', sentence: firstSentence(t) };
  }
  if (/budget|max[-_ ](tokens|cost|time|steps|model calls)/i.test(t)) return { title: 'The run reached its budget', sentence: firstSentence(t) };
  return { title: 'The run stopped with an error', sentence: firstSentence(t) };
}

// firstSentence is the first sentence of text, in plain words.
function firstSentence(text) {
  const plain = plainWords(text).trim();
  const m = /^[\s\S]*?[.!?](\s|$)/.exec(plain);
  const first = (m ? m[0] : plain).trim();
  return first.length > 400 ? `${first.slice(0, 399)}…` : first;
}

// plainSummary is a step's summary without the labels the Python tool
// puts on its output ("stdout:"), which mean nothing to a person.
function plainSummary(text) {
  return text.split('\n').filter((l) => !/^\s*stdout:\s*$/.test(l)).join('\n');
}

// stripHints takes out the hints tools add for the model ("Hint: ...").
function stripHints(text) {
  return text.split('\n').filter((l) => !/^\s*Hint:/.test(l)).join('\n').trimEnd();
}

// resultView shows a tool's output: a traceback as its last line, with the
// whole of it behind a toggle.
function resultView(text) {
  const tb = text.indexOf('Traceback (most recent call last)');
  if (tb < 0) {
    const out = h('pre', { class: 'result' });
    out.textContent = text || '(no output)';
    return [h('p', { class: 'label muted' }, 'Result'), out];
  }
  const lines = text.slice(tb).split('\n').map((l) => l.trimEnd()).filter(Boolean);
  const last = lines[lines.length - 1] || 'Python raised an error';
  const before = text.slice(0, tb).trim();
  const out = [];
  if (before) {
    const pre = h('pre', { class: 'result' });
    pre.textContent = before;
    out.push(h('p', { class: 'label muted' }, 'Result'), pre);
  }
  const full = h('pre', { class: 'result traceback' });
  full.textContent = text.slice(tb);
  out.push(h('p', { class: 'error-text failure' }, last), h('details', { class: 'details' }, h('summary', {}, 'Traceback'), full));
  return out;
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
    const ta = h('textarea', { rows: '1', 'aria-label': `Step ${n}`, class: 'grow' });
    ta.value = text;
    ta.addEventListener('input', refresh);
    autoGrow(ta);
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

  const feedback = h('textarea', { id: 'reject-feedback', rows: '2', class: 'grow', placeholder: 'What should the plan do instead?' });
  autoGrow(feedback);
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

// PREVIEW_ROWS is the rows a step's table artifact shows inline.
const PREVIEW_ROWS = 25;

// csvTable previews the first page of a CSV or TSV artifact, as the
// tables endpoint reads it.
function csvTable(page) {
  const t = h('table');
  const head = t.createTHead().insertRow();
  for (const c of page.columns) head.append(h('th', { scope: 'col' }, c));
  const body = t.createTBody();
  for (const r of page.rows) {
    const tr = body.insertRow();
    r.forEach((c, k) => {
      const td = tr.insertCell();
      td.textContent = c;
      const f = page.formats && page.formats[k];
      if (f && formatCell(f, c) !== c) {
        // The built-in said how this column reads: as in the report.
        td.className = 'num';
        td.textContent = formatCell(f, c);
        td.title = c;
      } else if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(c.trim())) {
        // Long floats from pandas read badly: show them rounded, keep the
        // exact value in the tooltip.
        td.className = 'num';
        td.textContent = NUMBER.format(Number(c));
        if (td.textContent !== c) td.title = c;
      }
    });
  }
  if (page.row_count > page.rows.length) {
    t.createCaption().textContent = `First ${page.rows.length} of ${page.row_count.toLocaleString('en-US')}${page.row_count_exact ? '' : '+'} rows`;
  }
  const wrap = h('div', { class: 'table-wrap' }, t);
  scrollCue(wrap);
  return wrap;
}

// formatCell is numfmt's Format.Cell (the one format a built-in recorded
// for a column, which the tables endpoint sends as formats): a percent is
// the fraction times 100 with its decimals and "%" (0.3697 → 37.0%), an
// integer or a decimal has thousands separators; rounding is half to even
// on the exact value, as Go and Python round. A cell that is no number
// comes back as it is.
export function formatCell(f, text) {
  const t = text.trim();
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return text;
  const v = Number(t);
  if (!Number.isFinite(v)) return text;
  const d = f.kind === 'integer' ? 0 : f.decimals;
  const opts = { minimumFractionDigits: d, maximumFractionDigits: d, roundingMode: 'halfEven' };
  switch (f.kind) {
    case 'percent':
      return new Intl.NumberFormat('en-US', { ...opts, useGrouping: false }).format(100 * v) + '%';
    case 'integer':
    case 'decimal':
      return new Intl.NumberFormat('en-US', opts).format(v);
    default:
      return text;
  }
}

// autoGrow makes a textarea as tall as its text, now and as it is typed
// in (and when it is first shown: a detached textarea has no height yet).
export function autoGrow(ta) {
  const fit = () => {
    if (!ta.isConnected) return;
    ta.style.height = 'auto';
    ta.style.height = `${ta.scrollHeight + 2}px`;
  };
  ta.addEventListener('input', fit);
  // Refit when the width changes (the text wraps anew), not the height
  // (which fit itself sets).
  let width = -1;
  new ResizeObserver(() => {
    if (ta.offsetWidth === width) return;
    width = ta.offsetWidth;
    requestAnimationFrame(fit);
  }).observe(ta);
}

// scrollCue marks a table wrapper that scrolls sideways, so a person on a
// narrow screen knows there is more to the right.
export function scrollCue(wrap) {
  const update = () => {
    const more = wrap.scrollWidth > wrap.clientWidth + 1;
    wrap.classList.toggle('scrolls', more);
    wrap.classList.toggle('at-end', wrap.scrollLeft + wrap.clientWidth >= wrap.scrollWidth - 1);
  };
  wrap.addEventListener('scroll', update, { passive: true });
  new ResizeObserver(update).observe(wrap);
  requestAnimationFrame(update);
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
