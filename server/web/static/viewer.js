// The file viewer: a session's artifact opened in place, in a modal dialog,
// with its download link beside it. A CSV, TSV or workbook shows as a paged
// table (the server reads the page: a 100,000-row file costs the page 50
// rows), an image large, report.html in a sandboxed frame that runs
// none of its own (its links open the session's files here: reportlinks.js). Whatever a file holds is text here: cells go in through
// textContent, an SVG only ever as an <img>.

import { formatCell, h, scrollCue } from './run.js';
import { framed, keepLinksInSession } from './reportlinks.js';

const TABLE = /\.(csv|tsv|xlsx|xlsm)$/i;
const IMAGE = /\.(png|jpe?g|gif|webp|svg)$/i;
const REPORT = /^report(-\d+)?\.html$/;
const NUMERIC = /^[-+]?(\d[\d,]*\.?\d*|\.\d+)(e[-+]?\d+)?%?$/i;

// viewable says whether a workspace path opens in the viewer.
export function viewable(path) {
  return TABLE.test(path) || IMAGE.test(path) || REPORT.test(path);
}

// Viewer owns the dialog. ctx: { table(path, sheet, page) -> Promise<page>,
// url(path) -> Promise<object URL>, text(path) -> Promise<string>,
// download(path, a), session() -> id }.
export class Viewer {
  constructor(ctx) {
    this.ctx = ctx;
    this.title = h('h2', { id: 'viewer-title', class: 'viewer-title', tabindex: '-1' });
    this.download = h('a', { class: 'viewer-download button-like' }, 'Download');
    this.closeButton = h('button', { type: 'button', class: 'ghost small viewer-close', 'aria-label': 'Close' }, '✕');
    this.body = h('div', { class: 'viewer-body' });
    this.dialog = h('dialog', { id: 'viewer', class: 'viewer', 'aria-labelledby': 'viewer-title' },
      h('div', { class: 'viewer-head' }, this.title, this.download, this.closeButton), this.body);
    document.body.append(this.dialog);
    this.closeButton.addEventListener('click', () => this.dialog.close());
    // A click on the backdrop (outside the dialog's box) closes it too.
    this.dialog.addEventListener('click', (e) => { if (e.target === this.dialog) this.dialog.close(); });
    this.dialog.addEventListener('close', () => {
      // The close event comes a task after close(): a file opened in
      // between (a link clicked right after Escape) is left as it is.
      if (this.dialog.open) return;
      this.token = null;
      this.body.replaceChildren();
      const back = this.opener;
      this.opener = null;
      if (back?.isConnected) back.focus();
    });
  }

  // open shows path, and gives the focus back to opener when closed. The
  // focus goes to the close button, or to the title when fromKey says the
  // file was asked for by a key whose events may not all be in yet.
  open(path, opener, fromKey) {
    const token = {};
    this.token = token;
    this.opener = opener || document.activeElement;
    this.title.textContent = path.split('/').pop();
    this.title.title = path;
    const dl = h('a', { class: 'viewer-download' }, 'Download');
    this.ctx.download(path, dl);
    this.download.replaceWith(dl);
    this.download = dl;
    this.body.replaceChildren(h('p', { class: 'muted viewer-loading', role: 'status' }, 'Loading…'));
    this.dialog.dataset.kind = TABLE.test(path) ? 'table' : IMAGE.test(path) ? 'image' : 'report';
    if (!this.dialog.open) this.dialog.showModal();
    (fromKey ? this.title : this.closeButton).focus();
    const live = () => this.token === token;
    if (TABLE.test(path)) this.showTable(path, live);
    else if (IMAGE.test(path)) this.showImage(path, live);
    else this.showReport(path, live);
  }

  // follow opens a file a report links to: in the viewer when it shows
  // in place, else as a download. Enter on a link in report.html opens the
  // file on its keydown, in the frame's own process, which then cannot
  // hold back the key's keypress: that keypress lands where the focus is
  // by then, and on the close button it closed the file just opened. So
  // the focus goes to the title, where a keypress does nothing.
  follow(path) {
    if (viewable(path)) {
      this.open(path, this.opener, true);
      return;
    }
    const a = h('a', { hidden: '' });
    this.ctx.download(path, a);
    this.body.append(a);
    a.click();
  }

  // cannot says the file cannot be shown, why, and offers the download.
  cannot(why) {
    const dl = h('a', {}, 'Download it');
    this.ctx.download(this.title.title, dl);
    this.body.replaceChildren(h('div', { class: 'viewer-error', role: 'alert' },
      h('strong', {}, 'This file cannot be shown here'),
      h('p', {}, why),
      h('p', {}, dl, ' to open it with another program.')));
  }

  async showImage(path, live) {
    try {
      const url = await this.ctx.url(path);
      if (!live()) return;
      const img = h('img', { class: 'viewer-image', alt: path.split('/').pop() });
      img.addEventListener('error', () => { if (live()) this.cannot('It is not an image this browser can draw.'); }, { once: true });
      img.src = url;
      this.body.replaceChildren(h('div', { class: 'viewer-image-box' }, img));
    } catch (err) {
      if (live()) this.cannot(err.message);
    }
  }

  async showReport(path, live) {
    try {
      const html = await this.ctx.text(path);
      if (!live()) return;
      // allow-scripts alone: an origin of its own, no popups, forms or
      // top navigation; the page's policy (which the blob: document takes
      // on) lets it run reportframe.js and nothing else, so its links
      // stay in the session (reportlinks.js).
      const own = URL.createObjectURL(new Blob([framed(html)], { type: 'text/html' }));
      const frame = h('iframe', { class: 'viewer-frame', sandbox: 'allow-scripts', referrerpolicy: 'no-referrer', title: `Report ${path}` });
      keepLinksInSession(frame, this.ctx.session(), (p) => { if (live()) this.follow(p); });
      frame.addEventListener('load', () => {
        frame.dataset.loaded = '';
        URL.revokeObjectURL(own);
      }, { once: true });
      frame.src = own;
      this.body.replaceChildren(frame);
    } catch (err) {
      if (live()) this.cannot(err.message);
    }
  }

  // showTable shows a page of a table file: sheet tabs for a workbook,
  // the header kept in sight, 50 rows, next and previous.
  showTable(path, live) {
    const tabs = h('div', { class: 'sheet-tabs', role: 'tablist', 'aria-label': 'Sheets', hidden: '' });
    const table = h('table', { class: 'viewer-table' });
    const wrap = h('div', { class: 'viewer-table-wrap', tabindex: '0' }, table);
    const note = h('p', { class: 'muted viewer-note', role: 'status' });
    const prev = h('button', { type: 'button', class: 'small', 'data-page': 'prev' }, '← Previous');
    const next = h('button', { type: 'button', class: 'small', 'data-page': 'next' }, 'Next →');
    const where = h('span', { class: 'viewer-where', 'aria-live': 'polite' });
    const pager = h('div', { class: 'viewer-pager' }, prev, where, next);
    let shown = null;
    let sheet = '';
    const load = async (page) => {
      prev.disabled = next.disabled = true;
      where.textContent = 'Loading…';
      let t;
      try {
        t = await this.ctx.table(path, sheet, page);
      } catch (err) {
        if (!live()) return;
        if (shown && err.status !== 422) { // a page failed, not the file
          where.textContent = `Could not load page ${page}: ${err.message}`;
          prev.disabled = shown.page <= 1;
          next.disabled = shown.page >= shown.page_count;
          return;
        }
        this.cannot(err.message);
        return;
      }
      if (!live()) return;
      if (!shown) this.body.replaceChildren(tabs, wrap, pager, note);
      shown = t;
      sheet = t.sheet || '';
      renderTabs(t);
      renderRows(t);
      wrap.scrollTop = 0;
    };
    const renderTabs = (t) => {
      const sheets = t.sheets || [];
      tabs.hidden = sheets.length < 2;
      if (tabs.childElementCount === sheets.length) {
        for (const b of tabs.children) {
          const on = b.dataset.sheet === t.sheet;
          b.setAttribute('aria-selected', String(on));
          b.tabIndex = on ? 0 : -1;
        }
        return;
      }
      tabs.replaceChildren();
      for (const name of sheets) {
        const b = h('button', { type: 'button', role: 'tab', class: 'sheet-tab', 'data-sheet': name }, name);
        b.setAttribute('aria-selected', String(name === t.sheet));
        b.tabIndex = name === t.sheet ? 0 : -1;
        b.addEventListener('click', () => { if (sheet !== name) { sheet = name; load(1); } });
        tabs.append(b);
      }
    };
    // Arrow keys move between the sheet tabs, as in any tab list.
    tabs.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
      const all = [...tabs.children];
      const k = all.indexOf(document.activeElement);
      if (k < 0) return;
      const to = all[(k + (e.key === 'ArrowRight' ? 1 : all.length - 1)) % all.length];
      to.focus();
      to.click();
    });
    const renderRows = (t) => {
      table.replaceChildren();
      const head = table.createTHead().insertRow();
      head.append(h('th', { scope: 'col', class: 'rownum' }, '#'));
      // A column whose cells on this page are all numbers is right-aligned,
      // its header too.
      const numeric = t.columns.map((_, k) => t.rows.some((r) => r[k].trim() !== '') &&
        t.rows.every((r) => r[k].trim() === '' || NUMERIC.test(r[k].trim())));
      t.columns.forEach((c, k) => head.append(h('th', { scope: 'col', class: numeric[k] ? 'num' : '' }, c)));
      const body = table.createTBody();
      const first = (t.page - 1) * t.page_size;
      t.rows.forEach((r, k) => {
        const tr = body.insertRow();
        tr.append(h('th', { scope: 'row', class: 'rownum' }, String(first + k + 1)));
        r.forEach((c, k) => {
          const td = tr.insertCell();
          td.textContent = c;
          if (numeric[k]) td.className = 'num';
          // A column the built-in gave a format reads as in the report;
          // the file's value is the tooltip.
          const f = t.formats && t.formats[k];
          if (f && formatCell(f, c) !== c) {
            td.textContent = formatCell(f, c);
            td.title = c;
          }
          // A cell wider than its column ends in "…": the whole of it is
          // its tooltip.
          if (c.length > 60) td.title = c;
        });
      });
      const n = t.row_count;
      const count = `${n.toLocaleString('en-US')}${t.row_count_exact ? '' : '+'}`;
      where.textContent = n === 0 ? 'No rows under the header'
        : `Rows ${(first + 1).toLocaleString('en-US')}–${(first + t.rows.length).toLocaleString('en-US')} of ${count} · page ${t.page} of ${t.page_count.toLocaleString('en-US')}`;
      prev.disabled = t.page <= 1;
      next.disabled = t.page >= t.page_count;
      const notes = [];
      if (t.column_count > t.columns.length) notes.push(`Showing ${t.columns.length} of ${t.column_count} columns.`);
      if (t.cut_cells) notes.push(`${t.cut_cells} long cell${t.cut_cells === 1 ? ' is' : 's are'} cut short here; the download has ${t.cut_cells === 1 ? 'it' : 'them'} in full.`);
      if (t.sheet) notes.push('Formulas are not calculated: a cell shows the value the workbook saved.');
      note.textContent = notes.join(' ');
      note.hidden = notes.length === 0;
    };
    prev.addEventListener('click', () => { if (shown && shown.page > 1) load(shown.page - 1); });
    next.addEventListener('click', () => { if (shown && shown.page < shown.page_count) load(shown.page + 1); });
    scrollCue(wrap);
    load(1);
  }
}
