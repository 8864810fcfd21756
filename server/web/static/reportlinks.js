// Links inside report.html, shown in the viewer's frame, stay inside the
// session: a link to one of the session's files opens it in the viewer,
// a link to the web opens in a new tab, an anchor scrolls the report, and
// nothing else is followed — the frame never navigates (a relative link
// means nothing from a blob: URL), the app is never navigated away, and a
// path out of the workspace (another session's files, the server's) is
// not reached.

// DELIVERABLE is what the files endpoint serves (session.CheckDeliverable):
// the plan, the reports, and files under out/, no element hidden.
const DELIVERABLE = /^(plan\.md|report(-\d+)?\.(md|html)|out\/(?!\.)[^/]+(\/(?!\.)[^/]+)*)$/;

// reportTarget says where a link of the report, href as written, goes
// for the session id: { file: path } for one of its files, { web: url },
// { anchor: true }, or null when it is followed nowhere.
export function reportTarget(href, id) {
  href = (href || '').trim();
  if (href === '') return null;
  if (href.startsWith('#')) return { anchor: true };
  if (/^https?:\/\//i.test(href)) return { web: href };
  let p = href;
  // The files endpoint's own URL, as file_urls hold them, is the session's
  // file only when it names this session.
  const api = p.match(/^(?:\.?\/)?(?:.*\/)?v1\/sessions\/([^/?#]+)\/files\/([^?#]+)$/);
  if (api) {
    if (safeDecode(api[1]) !== id) return null;
    p = api[2];
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(p) || p.startsWith('/') || p.startsWith('\\')) {
    return null; // another scheme, or the server's root: not the session's
  }
  p = p.split(/[?#]/)[0];
  const els = [];
  for (const raw of p.split('/')) {
    const el = safeDecode(raw);
    if (el === null || el.includes('/') || el.includes('\\')) return null;
    if (el === '' || el === '.') continue;
    if (el === '..') {
      if (els.length === 0) return null; // out of the workspace
      els.pop();
      continue;
    }
    els.push(el);
  }
  const path = els.join('/');
  return DELIVERABLE.test(path) ? { file: path } : null;
}

function safeDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

// framed is the report's HTML with reportframe.js added, the one script
// the frame runs. It comes first in the head, before the report's own
// policy (no scripts at all), which then holds for everything after it;
// the page's policy, which a blob: document takes on, allows no script
// but the app's own files anyway. It tells this page which link was
// clicked; the frame itself goes nowhere.
export function framed(html) {
  const src = new URL('reportframe.js', document.baseURI).href;
  const tag = `<script src=${JSON.stringify(src)}></script>`;
  const head = html.match(/<head(\s[^>]*)?>/i);
  if (head) return html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length);
  return tag + html;
}

// keepLinksInSession takes the links the report in frame reports clicked
// (reportframe.js) and sends each where reportTarget says: open(path) for
// the session id's files, a new tab for the web, nowhere else. Only
// messages from that frame are heard, and only while it is shown.
export function keepLinksInSession(frame, id, open) {
  const hear = (e) => {
    if (!frame.isConnected) {
      window.removeEventListener('message', hear);
      return;
    }
    if (e.source !== frame.contentWindow) return;
    if (e.data?.kind === 'sift-report-ready') frame.dataset.links = 'kept';
    if (e.data?.kind !== 'sift-report-link' || typeof e.data.href !== 'string') return;
    const to = reportTarget(e.data.href, id);
    if (to?.file) open(to.file);
    else if (to?.web) window.open(to.web, '_blank', 'noopener,noreferrer');
  };
  window.addEventListener('message', hear);
}
