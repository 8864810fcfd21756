package report

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/sift-agent/sift/plans"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// reportCSS styles report.html; it is inlined so the page needs no other
// file.
//
//go:embed report.css
var reportCSS string

// MaxInlineImageBytes is the largest image file HTML inlines;
// a larger one stays a link with a note, so one huge figure cannot blow up
// the page.
const MaxInlineImageBytes = 16 << 20

// CSP is report.html's Content-Security-Policy: no scripts, no
// frames, no forms and no fetch at all but the page's own inlined (data:)
// images and styles, so opening a report sends nothing anywhere. It is the
// second guard behind HTML dropping remote images and goldmark
// not rendering raw HTML.
const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

// StyleHashes are the CSP hash sources ('sha256-...') of every inline
// style HTML writes: the page's stylesheet (its <style> element) and the
// style attributes of aligned table cells. A page that shows report.html
// in a frame (the frame takes on that page's policy) allows exactly these,
// with 'unsafe-hashes' for the attributes, rather than every inline style.
func StyleHashes() []string {
	out := []string{cspHash("\n" + reportCSS)}
	for _, a := range []string{"left", "right", "center"} {
		out = append(out, cspHash("text-align:"+a))
	}
	return out
}

func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// imageTypes maps the image file extensions HTML inlines to
// their media types.
var imageTypes = map[string]string{
	".png":  "image/png",
	".jpg":  "image/jpeg",
	".jpeg": "image/jpeg",
	".gif":  "image/gif",
	".svg":  "image/svg+xml",
	".webp": "image/webp",
}

// HTML turns a markdown report into one self-contained HTML page:
// GitHub-flavoured markdown (tables, strikethrough, task lists, autolinks),
// a small embedded stylesheet, and every local image inlined as a data: URI.
//
// Image paths are relative to baseDir (the workspace, for a report that
// shows out/figure.png). Only .png, .jpg/.jpeg, .gif, .svg and .webp files up
// to MaxInlineImageBytes are inlined. An image that is missing keeps its alt
// text and gets a visible "(missing: path)" note; one whose path leaves
// baseDir (absolute, "..", or through a symlink), whose type is not an image
// type above, that is too large or unreadable becomes a link with a note
// saying why. A remote (http, https or protocol-relative) image is dropped:
// its alt text stays with a visible note naming the address, so opening the
// report never fetches anything (a model-written image URL could carry the
// data out); the note names only the host. data: images stay. Raw HTML in the markdown is not rendered,
// and the page's Content-Security-Policy (CSP) forbids scripts and
// every remote fetch. The title is escaped.
func HTML(title string, markdown []byte, baseDir string) ([]byte, error) {
	md := newReportMarkdown()
	doc := md.Parser().Parse(text.NewReader(markdown))
	in := &imageInliner{baseDir: baseDir}
	defer in.close()
	if err := in.rewrite(doc); err != nil {
		return nil, fmt.Errorf("render report %q: %w", title, err)
	}
	foldTracebacks(doc, markdown)
	var body bytes.Buffer
	if err := md.Renderer().Render(&body, markdown, doc); err != nil {
		return nil, fmt.Errorf("render report %q: %w", title, err)
	}
	if strings.TrimSpace(title) == "" {
		title = "Report"
	}
	var page bytes.Buffer
	page.Grow(body.Len() + len(reportCSS) + 512)
	page.WriteString("<!DOCTYPE html>\n<html" + langAttr(title) + ">\n<head>\n<meta charset=\"utf-8\">\n")
	page.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	page.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"" + CSP + "\">\n")
	page.WriteString("<meta name=\"generator\" content=\"Sift\">\n")
	page.WriteString("<title>" + html.EscapeString(title) + "</title>\n")
	page.WriteString("<style>\n" + reportCSS + "</style>\n</head>\n<body>\n<main class=\"sift-report\">\n")
	page.Write(body.Bytes())
	page.WriteString("</main>\n</body>\n</html>\n")
	return page.Bytes(), nil
}

// langAttr is the html element's lang attribute for a report titled title
// when its script says the language (Chinese, Japanese, Korean), so a
// browser picks that language's fonts and glyph forms; empty otherwise.
func langAttr(title string) string {
	var han, kana, hangul bool
	for _, r := range title {
		switch {
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			kana = true
		case unicode.Is(unicode.Hangul, r):
			hangul = true
		case unicode.Is(unicode.Han, r):
			han = true
		}
	}
	switch {
	case kana:
		return ` lang="ja"`
	case hangul:
		return ` lang="ko"`
	case han:
		return ` lang="zh"`
	}
	return ""
}

// Images returns the destinations of the images the markdown shows,
// as written (local paths and URLs alike), in order of first appearance and
// without repeats. Reference-style images are resolved.
func Images(markdown []byte) []string {
	doc := newReportMarkdown().Parser().Parse(text.NewReader(markdown))
	var out []string
	seen := map[string]bool{}
	for _, img := range collectImages(doc) {
		d := string(img.Destination)
		if d == "" || seen[d] {
			continue
		}
		seen[d] = true
		out = append(out, d)
	}
	return out
}

// newReportMarkdown returns the markdown converter reports use. Raw HTML
// stays off (no html.WithUnsafe).
func newReportMarkdown() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(
			renderer.WithNodeRenderers(util.Prioritized(inlinedImageRenderer{}, 500), util.Prioritized(tracebackRenderer{}, 500)),
		),
	)
}

// collectImages returns every image node under doc, in document order.
func collectImages(doc ast.Node) []*ast.Image {
	var images []*ast.Image
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if img, ok := n.(*ast.Image); ok && entering {
			images = append(images, img)
		}
		return ast.WalkContinue, nil
	})
	return images
}

// imageInliner rewrites a report's image nodes: local images become inlined
// images, problem images become alt text or links with notes.
type imageInliner struct {
	baseDir string
	// root confines reads to baseDir, symlinks included; it is opened on the
	// first local image.
	root *os.Root
}

func (in *imageInliner) close() {
	if in.root != nil {
		_ = in.root.Close()
	}
}

func (in *imageInliner) rewrite(doc ast.Node) error {
	for _, img := range collectImages(doc) {
		if err := in.rewriteImage(img); err != nil {
			return err
		}
	}
	return nil
}

func (in *imageInliner) rewriteImage(img *ast.Image) error {
	dest := string(img.Destination)
	path := dest
	if u, err := url.Parse(dest); err == nil {
		switch strings.ToLower(u.Scheme) {
		case "data":
			return nil
		case "http", "https":
			replaceWithNote(img, remoteImageNote(u.Host))
			return nil
		case "":
			if u.Host != "" {
				// Protocol-relative //host/x.png: remote too.
				replaceWithNote(img, remoteImageNote(u.Host))
				return nil
			}
			if p, err := url.PathUnescape(u.Path); err == nil {
				path = p
			}
		default:
			replaceWithLink(img, fmt.Sprintf("(not inlined: %s is not a file in the report folder)", dest))
			return nil
		}
	}
	if path == "" {
		return nil
	}
	local := filepath.FromSlash(path)
	if !filepath.IsLocal(local) {
		replaceWithLink(img, fmt.Sprintf("(not inlined: %s is outside the report folder)", dest))
		return nil
	}
	mediaType, ok := imageTypes[strings.ToLower(filepath.Ext(local))]
	if !ok {
		replaceWithLink(img, fmt.Sprintf("(not inlined: %s is not a png, jpeg, gif, svg or webp image)", dest))
		return nil
	}
	data, err := in.read(local)
	switch {
	case err == nil:
	case errors.Is(err, errNoImageFolder):
		return err
	case errors.Is(err, fs.ErrNotExist):
		replaceWithNote(img, fmt.Sprintf("(missing: %s)", dest))
		return nil
	case errors.Is(err, errImageTooLarge):
		replaceWithLink(img, fmt.Sprintf("(not inlined: %s is larger than %d MiB)", dest, MaxInlineImageBytes>>20))
		return nil
	case in.escapes(local):
		// os.Root refused a path that leaves baseDir through a symlink.
		replaceWithLink(img, fmt.Sprintf("(not inlined: %s is outside the report folder)", dest))
		return nil
	default:
		replaceWithLink(img, fmt.Sprintf("(not inlined: cannot read %s)", dest))
		return nil
	}
	node := &inlinedImage{
		src:   "data:" + mediaType + ";base64," + base64.StdEncoding.EncodeToString(data),
		title: img.Title,
	}
	moveChildren(img, node)
	parent := img.Parent()
	parent.ReplaceChild(parent, img, node)
	return nil
}

// remoteImageNote says why a remote image is not shown. Only the host is
// named, as text: the rest of the address may carry the data out.
func remoteImageNote(host string) string {
	return fmt.Sprintf("(remote image from %s not shown: a report fetches nothing when opened)", host)
}

var (
	errImageTooLarge = errors.New("image too large to inline")
	errNoImageFolder = errors.New("cannot open the image folder")
)

// read returns the regular file at the baseDir-relative path local.
func (in *imageInliner) read(local string) ([]byte, error) {
	if in.root == nil {
		dir := in.baseDir
		if dir == "" {
			dir = "."
		}
		root, err := os.OpenRoot(dir)
		if err != nil {
			return nil, fmt.Errorf("%w %s: %w; pass the directory the report's image paths are relative to", errNoImageFolder, dir, err)
		}
		in.root = root
	}
	f, err := in.root.Open(local)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", local)
	}
	if info.Size() > MaxInlineImageBytes {
		return nil, errImageTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxInlineImageBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxInlineImageBytes {
		return nil, errImageTooLarge
	}
	return data, nil
}

// escapes reports whether the baseDir-relative path local, with symlinks
// resolved, lies outside baseDir.
func (in *imageInliner) escapes(local string) bool {
	dir := in.baseDir
	if dir == "" {
		dir = "."
	}
	base, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	target, err := filepath.EvalSymlinks(filepath.Join(dir, local))
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(base, target)
	return err != nil || !filepath.IsLocal(rel)
}

// moveChildren moves every child of from to the end of to.
func moveChildren(from, to ast.Node) {
	for c := from.FirstChild(); c != nil; {
		next := c.NextSibling()
		from.RemoveChild(from, c)
		to.AppendChild(to, c)
		c = next
	}
}

// replaceWithNote replaces img with its alt text followed by a visible note.
func replaceWithNote(img *ast.Image, note string) {
	parent := img.Parent()
	hasAlt := img.HasChildren()
	for c := img.FirstChild(); c != nil; {
		next := c.NextSibling()
		img.RemoveChild(img, c)
		parent.InsertBefore(parent, img, c)
		c = next
	}
	if hasAlt {
		parent.InsertBefore(parent, img, rawString(" "))
	}
	parent.InsertBefore(parent, img, noteNode(note))
	parent.RemoveChild(parent, img)
}

// replaceWithLink replaces img with a link to its destination (its alt text,
// or the destination when there is none, as the link text) and a visible
// note. Inside another link, where links cannot nest, the alt text stays
// without a link of its own.
func replaceWithLink(img *ast.Image, note string) {
	if insideLink(img) {
		replaceWithNote(img, note)
		return
	}
	parent := img.Parent()
	link := ast.NewLink()
	link.Destination = img.Destination
	link.Title = img.Title
	moveChildren(img, link)
	if !link.HasChildren() {
		link.AppendChild(link, rawString(string(img.Destination)))
	}
	parent.InsertBefore(parent, img, link)
	parent.InsertBefore(parent, img, rawString(" "))
	parent.InsertBefore(parent, img, noteNode(note))
	parent.RemoveChild(parent, img)
}

func insideLink(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == ast.KindLink || p.Kind() == ast.KindAutoLink {
			return true
		}
	}
	return false
}

// rawString is text rendered HTML-escaped but otherwise as is: no
// backslash escapes or entities are interpreted.
func rawString(s string) *ast.String {
	n := ast.NewString([]byte(s))
	n.SetRaw(true)
	return n
}

// noteNode is an emphasised note of class sift-note.
func noteNode(note string) ast.Node {
	em := ast.NewEmphasis(1)
	em.SetAttributeString("class", []byte("sift-note"))
	em.AppendChild(em, rawString(note))
	return em
}

// kindInlinedImage is the AST kind of inlinedImage.
var kindInlinedImage = ast.NewNodeKind("SiftInlinedImage")

// inlinedImage is an image whose file is inlined as a data: URI. It has its
// own node kind because goldmark's image renderer drops data: URIs of some
// types (svg) as unsafe; an inlined image's URI is made here, never taken
// from the markdown. Its children are the alt text.
type inlinedImage struct {
	ast.BaseInline
	src   string
	title []byte
}

// Kind implements ast.Node.
func (n *inlinedImage) Kind() ast.NodeKind { return kindInlinedImage }

// Dump implements ast.Node.
func (n *inlinedImage) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Src": n.src[:min(len(n.src), 40)] + "..."}, nil)
}

// inlinedImageRenderer renders inlinedImage nodes as <img> elements.
type inlinedImageRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (r inlinedImageRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindInlinedImage, r.render)
}

func (inlinedImageRenderer) render(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*inlinedImage)
	// The URI is a media type and base64: nothing in it needs escaping.
	_, _ = w.WriteString(`<img src="` + n.src + `" alt="`)
	writeAltText(w, source, n)
	_ = w.WriteByte('"')
	if n.title != nil {
		_, _ = w.WriteString(` title="`)
		gmhtml.DefaultWriter.Write(w, n.title)
		_ = w.WriteByte('"')
	}
	_, _ = w.WriteString(">")
	return ast.WalkSkipChildren, nil
}

// writeAltText writes the text under n, HTML-escaped, as goldmark does for
// an image's alt attribute.
func writeAltText(w util.BufWriter, source []byte, n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			if t.IsRaw() {
				gmhtml.DefaultWriter.RawWrite(w, t.Value(source))
			} else {
				gmhtml.DefaultWriter.Write(w, t.Value(source))
			}
		case *ast.String:
			if t.IsRaw() || t.IsCode() {
				gmhtml.DefaultWriter.RawWrite(w, t.Value)
			} else {
				gmhtml.DefaultWriter.Write(w, t.Value)
			}
		default:
			writeAltText(w, source, c)
		}
	}
}

// QuestionReportFile is where the report of the n-th question of a session
// is kept (see plans.QuestionReportFile, which plan.md links to).
func QuestionReportFile(n int) string { return plans.QuestionReportFile(n) }

// IsQuestionReport reports whether name is a QuestionReportFile or its HTML
// form.
func IsQuestionReport(name string) bool { return plans.IsQuestionReport(name) }

// TracebackLanguage is the info string of a fenced block that holds the
// traceback behind a failed step: report.html shows it folded, behind a
// toggle, so the report reads as what failed with the detail one click
// away.
const TracebackLanguage = "traceback"

// kindTraceback is the AST kind of tracebackNode.
var kindTraceback = ast.NewNodeKind("SiftTraceback")

// tracebackNode is a fenced traceback block, rendered folded.
type tracebackNode struct {
	ast.BaseBlock
	text []byte
}

// Kind implements ast.Node.
func (n *tracebackNode) Kind() ast.NodeKind { return kindTraceback }

// Dump implements ast.Node.
func (n *tracebackNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// foldTracebacks replaces each fenced traceback block under doc with a
// tracebackNode.
func foldTracebacks(doc ast.Node, source []byte) {
	var blocks []*ast.FencedCodeBlock
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if b, ok := n.(*ast.FencedCodeBlock); ok && entering && string(b.Language(source)) == TracebackLanguage {
			blocks = append(blocks, b)
		}
		return ast.WalkContinue, nil
	})
	for _, b := range blocks {
		var text bytes.Buffer
		lines := b.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			text.Write(seg.Value(source))
		}
		b.Parent().ReplaceChild(b.Parent(), b, &tracebackNode{text: text.Bytes()})
	}
}

// tracebackRenderer renders tracebackNode as a <details> toggle.
type tracebackRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (r tracebackRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindTraceback, r.render)
}

func (tracebackRenderer) render(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<details class=\"traceback\"><summary>Traceback</summary><pre><code>")
	_, _ = w.WriteString(html.EscapeString(string(node.(*tracebackNode).text)))
	_, _ = w.WriteString("</code></pre></details>\n")
	return ast.WalkSkipChildren, nil
}

// Deprecated names, kept for one release so embedders' code still
// compiles.

// RenderReportHTML is HTML.
//
// Deprecated: use HTML.
func RenderReportHTML(title string, markdown []byte, baseDir string) ([]byte, error) {
	return HTML(title, markdown, baseDir)
}

// ReportImages is Images.
//
// Deprecated: use Images.
func ReportImages(markdown []byte) []string { return Images(markdown) }

// ReportCSP is CSP.
//
// Deprecated: use CSP.
const ReportCSP = CSP
