package web

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlPage is an HTML document reduced to readable text.
type htmlPage struct {
	// Title is the <title>, or the first heading when there is none.
	Title string
	// Text is the body as text: headings marked with '#', paragraphs apart,
	// list items with '-' or numbers, links as "text (url)".
	Text string
}

// droppedElements hold no readable text: scripts, styles, navigation,
// embedded media and form controls.
var droppedElements = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Nav: true, atom.Svg: true, atom.Math: true, atom.Canvas: true,
	atom.Iframe: true, atom.Object: true, atom.Embed: true, atom.Audio: true,
	atom.Video: true, atom.Button: true, atom.Select: true, atom.Input: true,
	atom.Textarea: true, atom.Head: true, atom.Dialog: true,
}

// paragraphElements are set apart by a blank line.
var paragraphElements = map[atom.Atom]bool{
	atom.P: true, atom.Blockquote: true, atom.Pre: true, atom.Table: true,
	atom.Ul: true, atom.Ol: true, atom.Dl: true, atom.Figure: true,
	atom.Section: true, atom.Article: true, atom.Main: true, atom.Header: true,
	atom.Footer: true, atom.Aside: true, atom.Details: true, atom.Fieldset: true,
	atom.Form: true, atom.Address: true,
}

// lineElements start on a line of their own.
var lineElements = map[atom.Atom]bool{
	atom.Div: true, atom.Tr: true, atom.Dt: true, atom.Dd: true,
	atom.Figcaption: true, atom.Summary: true, atom.Caption: true,
	atom.Legend: true,
}

// headingLevels maps heading elements to their level.
var headingLevels = map[atom.Atom]int{
	atom.H1: 1, atom.H2: 2, atom.H3: 3, atom.H4: 4, atom.H5: 5, atom.H6: 6,
}

// htmlToText parses an HTML document (already decoded to UTF-8) and reduces
// it to text. base resolves relative links; it may be nil.
func htmlToText(doc string, base *url.URL) htmlPage {
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		// html.Parse only fails on reader errors, which a strings.Reader
		// does not have; keep the text rather than lose the page.
		return htmlPage{Text: plainSnippet(doc)}
	}
	w := &textWriter{base: base}
	var title string
	if t := findFirst(root, atom.Title); t != nil {
		title = collapseSpace(nodeText(t))
	}
	w.walk(root)
	if title == "" {
		title = w.firstHeading
	}
	return htmlPage{Title: title, Text: w.String()}
}

// findFirst returns the first element of type a under n, depth first.
func findFirst(n *html.Node, a atom.Atom) *html.Node {
	if n.Type == html.ElementNode && n.DataAtom == a {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := findFirst(c, a); f != nil {
			return f
		}
	}
	return nil
}

// nodeText concatenates the text under n, skipping dropped elements.
func nodeText(n *html.Node) string {
	var b strings.Builder
	var visit func(*html.Node)
	visit = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
		case html.ElementNode:
			if droppedElements[n.DataAtom] || isPermalink(n) {
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
	}
	visit(n)
	return b.String()
}

// listState tracks one open <ul> or <ol>.
type listState struct {
	ordered bool
	next    int
}

// textWriter accumulates the text of a document, collapsing whitespace the
// way a browser does and keeping at most one blank line between blocks.
type textWriter struct {
	b            strings.Builder
	base         *url.URL
	pendingSpace bool
	newlines     int // trailing newlines already written
	preDepth     int
	lists        []listState
	cellInRow    int
	firstHeading string
}

// String returns the text written so far, trimmed.
func (w *textWriter) String() string { return strings.TrimSpace(w.b.String()) }

// atLineStart reports whether the next word starts a line.
func (w *textWriter) atLineStart() bool { return w.b.Len() == 0 || w.newlines > 0 }

// breakLines ends the current line and, for n == 2, leaves a blank line.
func (w *textWriter) breakLines(n int) {
	w.pendingSpace = false
	if w.b.Len() == 0 {
		return
	}
	for w.newlines < n {
		w.b.WriteByte('\n')
		w.newlines++
	}
}

// raw writes s as is (s must not be empty).
func (w *textWriter) raw(s string) {
	if w.pendingSpace && !w.atLineStart() {
		w.b.WriteByte(' ')
	}
	w.pendingSpace = false
	w.b.WriteString(s)
	if trimmed := strings.TrimRight(s, "\n"); trimmed == "" {
		w.newlines += len(s)
	} else {
		w.newlines = len(s) - len(trimmed)
	}
}

// text writes a text node, collapsing whitespace outside <pre>.
func (w *textWriter) text(s string) {
	if w.preDepth > 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		if s != "" {
			w.raw(s)
		}
		return
	}
	// Write words as they are found: this runs for every text node of
	// pages up to MaxBytes, so it avoids building a slice of them.
	wrote := false
	for word := range strings.FieldsSeq(s) {
		if wrote {
			w.b.WriteByte(' ')
			w.b.WriteString(word)
			continue
		}
		if r, _ := utf8.DecodeRuneInString(s); unicode.IsSpace(r) {
			w.pendingSpace = true
		}
		w.raw(word)
		wrote = true
	}
	switch r, _ := utf8.DecodeLastRuneInString(s); {
	case !wrote && s != "":
		w.pendingSpace = true
	case wrote && unicode.IsSpace(r):
		w.pendingSpace = true
	}
}

// walk writes n and its children.
func (w *textWriter) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.ElementNode:
		w.element(n)
		return
	}
	w.children(n)
}

// children writes the children of n.
func (w *textWriter) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c)
	}
}

// element writes one element according to its kind.
func (w *textWriter) element(n *html.Node) {
	a := n.DataAtom
	if droppedElements[a] || isHidden(n) || isPermalink(n) {
		return
	}
	if level, ok := headingLevels[a]; ok {
		w.heading(n, level)
		return
	}
	switch a {
	case atom.Br:
		// A line break, but never more than one blank line in a row.
		if w.newlines < 2 {
			w.b.WriteByte('\n')
			w.newlines++
		}
		w.pendingSpace = false
		return
	case atom.Hr:
		w.breakLines(2)
		w.raw("---")
		w.breakLines(2)
		return
	case atom.Img:
		return
	case atom.A:
		w.link(n)
		return
	case atom.Li:
		w.listItem(n)
		return
	case atom.Ul, atom.Ol:
		w.list(n, a == atom.Ol)
		return
	case atom.Pre:
		w.breakLines(2)
		w.preDepth++
		w.children(n)
		w.preDepth--
		w.breakLines(2)
		return
	case atom.Tr:
		w.breakLines(1)
		w.cellInRow = 0
		w.children(n)
		w.breakLines(1)
		return
	case atom.Td, atom.Th:
		if w.cellInRow > 0 {
			w.pendingSpace = false
			w.raw(" | ")
			w.pendingSpace = false
		}
		w.cellInRow++
		w.children(n)
		return
	}
	switch {
	case paragraphElements[a]:
		w.breakLines(2)
		w.children(n)
		w.breakLines(2)
	case lineElements[a]:
		w.breakLines(1)
		w.children(n)
		w.breakLines(1)
	default:
		w.children(n)
	}
}

// heading writes a heading as "## text" on a paragraph of its own.
func (w *textWriter) heading(n *html.Node, level int) {
	text := collapseSpace(nodeText(n))
	if text == "" {
		return
	}
	if w.firstHeading == "" {
		w.firstHeading = text
	}
	w.breakLines(2)
	w.raw(strings.Repeat("#", level) + " " + text)
	w.breakLines(2)
}

// link writes a link's text followed by its absolute URL in parentheses,
// unless the link is a page-internal anchor or script, or its text already
// is the URL.
func (w *textWriter) link(n *html.Node) {
	start := w.b.Len()
	w.children(n)
	text := strings.TrimSpace(w.b.String()[start:])
	if text == "" {
		return
	}
	href := w.resolve(attr(n, "href"))
	if href == "" || strings.Contains(text, href) {
		return
	}
	w.pendingSpace = false
	w.raw(" (" + href + ")")
}

// resolve makes href absolute against the page URL, and returns "" for
// anchors and non-web schemes.
func (w *textWriter) resolve(href string) string {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") {
		return ""
	}
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if w.base != nil {
		u = w.base.ResolveReference(u)
	}
	switch u.Scheme {
	case "http", "https", "mailto":
		return u.String()
	case "":
		return href
	}
	return ""
}

// list writes a <ul> or <ol> and its items.
func (w *textWriter) list(n *html.Node, ordered bool) {
	next := 1
	if s := attr(n, "start"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			next = v
		}
	}
	nested := len(w.lists) > 0
	if nested {
		w.breakLines(1)
	} else {
		w.breakLines(2)
	}
	w.lists = append(w.lists, listState{ordered: ordered, next: next})
	w.children(n)
	w.lists = w.lists[:len(w.lists)-1]
	if nested {
		w.breakLines(1)
	} else {
		w.breakLines(2)
	}
}

// listItem writes "- item" or "3. item", indented by nesting depth.
func (w *textWriter) listItem(n *html.Node) {
	w.breakLines(1)
	marker := "- "
	depth := len(w.lists)
	if depth > 0 {
		l := &w.lists[depth-1]
		if l.ordered {
			marker = strconv.Itoa(l.next) + ". "
			l.next++
		}
	}
	w.raw(strings.Repeat("  ", max(depth-1, 0)) + marker)
	w.newlines = 0
	w.children(n)
	w.breakLines(1)
}

// isHidden reports whether n is marked hidden from readers.
func isHidden(n *html.Node) bool {
	for _, a := range n.Attr {
		switch {
		case a.Key == "hidden":
			return true
		case a.Key == "aria-hidden" && strings.EqualFold(a.Val, "true"):
			return true
		}
	}
	return false
}

// permalinkMarks are the texts documentation generators give the
// "link to this heading" anchors beside headings.
var permalinkMarks = map[string]bool{"#": true, "¶": true, "§": true, "🔗": true}

// isPermalink reports whether n is such a page-internal anchor, which only
// adds a stray mark to the text.
func isPermalink(n *html.Node) bool {
	if n.DataAtom != atom.A || !strings.HasPrefix(attr(n, "href"), "#") {
		return false
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.TextNode {
			return false
		}
		b.WriteString(c.Data)
	}
	return permalinkMarks[strings.TrimSpace(b.String())]
}

// attr returns n's attribute key, or "".
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// collapseSpace trims s and collapses each run of whitespace to one space.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// plainSnippet turns a provider's title or snippet, which may hold markup
// such as <strong> and entities such as &amp;, into one line of plain text.
func plainSnippet(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return collapseSpace(s)
	}
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return collapseSpace(b.String())
		case html.TextToken:
			b.Write(z.Text())
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			if name, _ := z.TagName(); string(name) == "br" || string(name) == "p" {
				b.WriteByte(' ')
			}
		}
	}
}
