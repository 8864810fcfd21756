// The facts panel: what Sift remembers about the open session's data —
// the person's answers to the agents' questions and their plan edits,
// from this session or any earlier one on the same data (a file by its
// content, a database by its address and tables). Each fact can be
// edited (later questions use the new text) or forgotten. Everything
// shown is text: a fact goes in through textContent.

import { api, APIError } from './api.js';
import { h } from './run.js';

// MAX_BYTES is the server's bound on a fact's text (memory.MaxFactBytes).
const MAX_BYTES = 2000;

// day is the date a fact was said (or last edited) as the plan and the
// report cite it: the UTC date.
const day = (t) => new Date(t).toISOString().slice(0, 10);

// FactsPanel owns its section (the page's #facts): show(id) lists the
// facts of session id, clear() empties it.
export class FactsPanel {
  constructor(section) {
    this.section = section;
    this.count = h('span', { class: 'facts-count badge small' });
    this.list = h('ul', { class: 'facts-list', 'aria-label': 'Facts' });
    this.error = h('p', { class: 'error-text', role: 'alert', hidden: '' });
    const details = h('details', { class: 'facts-details' },
      h('summary', {}, h('h3', { id: 'facts-title' }, 'What Sift remembers about this data'), this.count),
      h('p', { class: 'muted facts-hint' }, 'Sift shows these to the agents of every question on this data, and answers their questions with them instead of asking you again. Edit one to change what you said; forget one to drop it.'),
      this.error, this.list);
    section.replaceChildren(details);
    this.details = details;
    this.id = '';
    this.loading = null;
  }

  clear() {
    this.id = '';
    this.section.hidden = true;
    this.list.replaceChildren();
  }

  // show lists the facts of session id; the panel is hidden while there
  // are none (or memory is off on the server).
  async show(id) {
    this.id = id;
    const loading = {};
    this.loading = loading;
    let res;
    try {
      res = await api.facts(id);
    } catch (err) {
      if (this.loading !== loading) return;
      // An older server, or a session gone: no panel.
      if (err instanceof APIError && (err.status === 404 || err.status === 400)) { this.clear(); return; }
      throw err;
    }
    if (this.loading !== loading || this.id !== id) return;
    // An item being edited is not replaced under the person's hands.
    if (this.list.querySelector('.fact.editing')) return;
    const facts = (res?.entries || []).filter((e) => e.kind === 'fact');
    this.list.replaceChildren(...facts.map((f) => this.item(f)));
    this.render();
  }

  render() {
    const n = this.list.childElementCount;
    this.count.textContent = String(n);
    this.count.setAttribute('aria-label', `${n} fact${n === 1 ? '' : 's'}`);
    this.section.hidden = n === 0 && this.error.hidden;
  }

  fail(err) {
    this.error.textContent = err instanceof APIError ? err.message : `Something went wrong: ${err.message}`;
    this.error.hidden = false;
    this.section.hidden = false;
  }

  // item is one fact: what was asked, what the person said, when and in
  // which session, and its actions.
  item(f) {
    const li = h('li', { class: 'fact', 'data-id': f.id });
    const asked = f.origin === 'plan'
      ? h('p', { class: 'fact-q' }, 'Plan for ', h('q', {}, f.question))
      : h('p', { class: 'fact-q' }, f.question);
    const said = h('p', { class: 'fact-a' }, f.answer);
    const where = f.session === this.id
      ? h('span', {}, 'in this session')
      : h('a', { href: `#s=${encodeURIComponent(f.session)}` }, 'in an earlier session');
    const when = f.edited
      ? h('p', { class: 'fact-when muted' }, `You said so on ${day(f.edited)} (edited; first given `, where, ')')
      : h('p', { class: 'fact-when muted' }, `You said so on ${day(f.created)} `, where);
    const edit = h('button', { type: 'button', class: 'ghost small fact-edit', 'aria-label': `Edit what you said: ${f.question}` }, 'Edit');
    const forget = h('button', { type: 'button', class: 'ghost small danger fact-forget', 'aria-label': `Forget: ${f.question}` }, 'Forget');
    const actions = h('div', { class: 'fact-actions' }, edit, forget);
    li.append(asked, said, when, actions);
    edit.addEventListener('click', () => this.editing(li, f, said, actions));
    forget.addEventListener('click', () => this.confirmForget(li, f, actions));
    return li;
  }

  // editing turns the fact's text into a text box with Save and Cancel.
  editing(li, f, said, actions) {
    li.classList.add('editing');
    const label = h('label', { for: `fact-text-${f.id}`, class: 'sr-only' }, `What you say now: ${f.question}`);
    const box = h('textarea', { id: `fact-text-${f.id}`, class: 'fact-text grow', rows: '2', maxlength: String(MAX_BYTES) });
    box.value = f.answer;
    const why = h('p', { class: 'error-text fact-error', role: 'alert', hidden: '' });
    const save = h('button', { type: 'button', class: 'primary small fact-save' }, 'Save');
    const cancel = h('button', { type: 'button', class: 'ghost small fact-cancel' }, 'Cancel');
    const form = h('div', { class: 'fact-form' }, label, box, why, h('div', { class: 'fact-actions' }, save, cancel));
    said.replaceWith(form);
    actions.hidden = true;
    box.focus();
    const back = (entry) => {
      li.classList.remove('editing');
      const fresh = this.item(entry);
      li.replaceWith(fresh);
      fresh.querySelector('.fact-edit')?.focus();
    };
    cancel.addEventListener('click', () => back(f));
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') { e.preventDefault(); back(f); }
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) save.click();
    });
    save.addEventListener('click', async () => {
      const text = box.value.trim();
      if (!text) {
        why.textContent = 'Say something, or forget the fact instead.';
        why.hidden = false;
        box.focus();
        return;
      }
      if (new TextEncoder().encode(text).length > MAX_BYTES) {
        why.textContent = `At most ${MAX_BYTES} bytes are kept; say it shorter.`;
        why.hidden = false;
        return;
      }
      save.disabled = true;
      try {
        back(await api.editFact(f.id, text));
      } catch (err) {
        why.textContent = err instanceof APIError ? err.message : `Could not save: ${err.message}`;
        why.hidden = false;
        save.disabled = false;
      }
    });
  }

  // confirmForget asks in place before forgetting: a forgotten fact is
  // gone for every session on the data.
  confirmForget(li, f, actions) {
    const yes = h('button', { type: 'button', class: 'danger small fact-forget-yes' }, 'Forget it');
    const no = h('button', { type: 'button', class: 'ghost small fact-forget-no' }, 'Keep it');
    const ask = h('div', { class: 'fact-actions fact-confirm', role: 'group', 'aria-label': 'Forget this fact?' },
      h('span', {}, 'Forget this for every session on this data?'), yes, no);
    actions.replaceWith(ask);
    no.focus();
    no.addEventListener('click', () => { ask.replaceWith(actions); actions.querySelector('.fact-forget')?.focus(); });
    yes.addEventListener('click', async () => {
      yes.disabled = true;
      try {
        await api.forgetFact(f.id);
      } catch (err) {
        // Forgotten elsewhere already: it is gone either way.
        if (!(err instanceof APIError && err.status === 404)) {
          yes.disabled = false;
          this.fail(err);
          return;
        }
      }
      const next = li.nextElementSibling || li.previousElementSibling;
      li.remove();
      this.render();
      (next?.querySelector('.fact-edit') || this.details.querySelector('summary')).focus();
    });
  }
}
