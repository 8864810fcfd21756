// Runs inside report.html in the file viewer's frame (sandboxed: scripts
// only, an origin of its own), and does one thing: a click on a link is
// not followed by the frame but told to the app, which opens the
// session's file in the viewer or a web page in a new tab
// (reportlinks.js decides). An anchor within the report scrolls it.
'use strict';
(function () {
  function follow(e) {
    var a = e.target && e.target.closest ? e.target.closest('a[href], area[href]') : null;
    if (!a) return;
    var href = a.getAttribute('href') || '';
    if (href.charAt(0) === '#') return;
    e.preventDefault();
    if (e.type === 'click') window.parent.postMessage({ kind: 'sift-report-link', href: href }, '*');
  }
  document.addEventListener('click', follow);
  document.addEventListener('auxclick', follow);
  window.parent.postMessage({ kind: 'sift-report-ready' }, '*');
})();
