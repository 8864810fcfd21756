// A small Markdown renderer for reports, building DOM nodes only: every
// piece of text goes in through textContent, so nothing a model or a tool
// wrote can become markup. It covers what Sift's reports use: headings,
// paragraphs, lists, tables, fenced code, quotes, rules, and inline
// emphasis, code, links and images.

// renderMarkdown returns a DocumentFragment. opts.image(path, img) and
// opts.link(path, a) handle workspace-relative targets (out/..., report.*);
// other links open only when they are http(s).
export function renderMarkdown(text, opts = {}) {
  const frag = document.createDocumentFragment();
  const lines = String(text).replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  const isBlank = (l) => /^\s*$/.test(l);
  const isTableSep = (l) => /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(l);
  const startsBlock = (l, next) =>
    /^(#{1,6})\s/.test(l) || /^\s*```/.test(l) || /^\s*([-*+]|\d+[.)])\s+/.test(l) ||
    /^\s*>/.test(l) || /^\s*([-*_])(\s*\1){2,}\s*$/.test(l) ||
    (l.includes('|') && next !== undefined && isTableSep(next));

  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) { i++; continue; }

    let m;
    if ((m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line))) {
      // Reports sit inside the page under its own headings: shift them down.
      const level = Math.min(6, m[1].length + 2);
      frag.append(el(`h${level}`, inline(m[2], opts)));
      i++;
      continue;
    }
    if (/^\s*```/.test(line)) {
      const lang = line.replace(/^\s*```/, '').trim();
      const body = [];
      i++;
      while (i < lines.length && !/^\s*```\s*$/.test(lines[i])) body.push(lines[i++]);
      i++;
      const code = document.createElement('code');
      code.textContent = body.join('\n');
      if (lang) code.dataset.lang = lang;
      frag.append(el('pre', [code]));
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      frag.append(document.createElement('hr'));
      i++;
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && isTableSep(lines[i + 1])) {
      const rows = [];
      const head = cells(line);
      const align = cells(lines[i + 1]).map((c) =>
        c.endsWith(':') ? 'right' : c.startsWith(':') ? 'left' : '');
      i += 2;
      while (i < lines.length && lines[i].includes('|') && !isBlank(lines[i])) rows.push(cells(lines[i++]));
      frag.append(table(head, rows, align, opts));
      continue;
    }
    if (/^\s*>/.test(line)) {
      const body = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) body.push(lines[i++].replace(/^\s*>\s?/, ''));
      frag.append(el('blockquote', [renderMarkdown(body.join('\n'), opts)]));
      continue;
    }
    if ((m = /^\s*([-*+]|\d+[.)])\s+/.exec(line))) {
      const ordered = /\d/.test(m[1]);
      const list = document.createElement(ordered ? 'ol' : 'ul');
      if (ordered && parseInt(m[1], 10) !== 1) list.start = parseInt(m[1], 10);
      while (i < lines.length) {
        const item = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(lines[i]);
        if (!item) break;
        let text = item[2];
        i++;
        // Continuation lines of the same item are indented.
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^\s*([-*+]|\d+[.)])\s+/.test(lines[i])) {
          text += ' ' + lines[i++].trim();
        }
        list.append(el('li', inline(text, opts)));
      }
      frag.append(list);
      continue;
    }
    const para = [];
    while (i < lines.length && !isBlank(lines[i]) && !(para.length && startsBlock(lines[i], lines[i + 1]))) {
      para.push(lines[i++].trim());
    }
    frag.append(el('p', inline(para.join('\n'), opts)));
  }
  return frag;
}

function cells(line) {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  return s.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

function table(head, rows, align, opts) {
  const t = document.createElement('table');
  const thead = t.createTHead().insertRow();
  head.forEach((h, k) => {
    const th = document.createElement('th');
    th.scope = 'col';
    th.append(...inline(h, opts));
    thead.append(th);
  });
  const tbody = t.createTBody();
  for (const r of rows) {
    const tr = tbody.insertRow();
    head.forEach((_, k) => {
      const td = tr.insertCell();
      td.append(...inline(r[k] ?? '', opts));
      if (align[k]) td.style.textAlign = align[k];
      else if (/^[-+]?[\d,.]+%?$/.test(r[k] ?? '')) td.classList.add('num');
    });
  }
  const wrap = el('div', [t], 'table-wrap');
  opts.scrollCue?.(wrap);
  return wrap;
}

// inline turns one paragraph's text into nodes.
function inline(text, opts) {
  const out = [];
  // Underscores emphasise only at word edges: file names such as
  // out/monthly_revenue.csv stay as written.
  const re = /(!\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\))|(\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\))|(`([^`]+)`)|(\*\*([^*]+)\*\*|(?<![\w])__([^_]+)__(?![\w]))|(\*([^*\s][^*]*)\*|(?<![\w])_([^_\s][^_]*)_(?![\w]))|(\n)/g;
  let last = 0;
  let m;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    last = re.lastIndex;
    if (m[1]) out.push(image(m[2], m[3], opts));
    else if (m[4]) out.push(link(m[5], m[6], opts));
    else if (m[7]) out.push(el('code', [document.createTextNode(m[8])]));
    else if (m[9]) out.push(el('strong', inline(m[10] ?? m[11], opts)));
    else if (m[12]) out.push(el('em', inline(m[13] ?? m[14], opts)));
    else if (m[15]) out.push(document.createElement('br'));
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

const external = (href) => /^https?:\/\//i.test(href);
const workspace = (href) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('/') && !href.startsWith('#');

function image(alt, src, opts) {
  const img = document.createElement('img');
  img.alt = alt;
  img.loading = 'lazy';
  if (workspace(src) && opts.image) opts.image(src, img);
  // Images from elsewhere are not loaded: the page's policy forbids them,
  // and a report should not call out to third parties when opened.
  return img;
}

function link(text, href, opts) {
  const a = document.createElement('a');
  a.textContent = text;
  if (workspace(href) && opts.link) {
    opts.link(href, a);
  } else if (external(href)) {
    a.href = href;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
  } else {
    return document.createTextNode(text);
  }
  return a;
}

function el(tag, children, className) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  e.append(...children);
  return e;
}
