package web

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHTMLToText(t *testing.T) {
	base, _ := url.Parse("https://example.org/docs/page.html")
	tests := []struct {
		name string
		doc  string
		want htmlPage
	}{
		{
			name: "title, headings, paragraphs",
			doc: `<html><head><title> Sales  report </title><style>p{color:red}</style></head>
<body><h1>Q3 results</h1><p>Revenue   rose
 <b>12%</b>.</p><p>Costs fell.</p><h3>Notes</h3><div>one</div><div>two</div></body></html>`,
			want: htmlPage{Title: "Sales report", Text: "# Q3 results\n\nRevenue rose 12%.\n\nCosts fell.\n\n### Notes\n\none\ntwo"},
		},
		{
			name: "script, style, nav, hidden and forms dropped",
			doc: `<body><nav><a href="/">Home</a></nav><script>var secret = 1;</script><noscript>enable js</noscript>
<p>Kept</p><div hidden>gone</div><span aria-hidden="true">icon</span><button>Click</button><footer>Footer text</footer></body>`,
			want: htmlPage{Text: "Kept\n\nFooter text"},
		},
		{
			name: "links resolved, anchors and scripts bare",
			doc: `<p>See <a href="guide.html">the guide</a>, <a href="#top">top</a>, <a href="javascript:void(0)">menu</a>,
<a href="https://go.dev/">https://go.dev/</a> and <a href="mailto:a@example.org">mail</a>.</p>`,
			want: htmlPage{Text: "See the guide (https://example.org/docs/guide.html), top, menu, https://go.dev/ and mail (mailto:a@example.org)."},
		},
		{
			name: "lists",
			doc:  `<p>Steps:</p><ol start="3"><li>Load</li><li>Clean<ul><li>nulls</li><li>dupes</li></ul></li></ol><ul><li>Done</li></ul>`,
			want: htmlPage{Text: "Steps:\n\n3. Load\n4. Clean\n  - nulls\n  - dupes\n\n- Done"},
		},
		{
			name: "table, pre, br, hr, entities",
			doc: `<table><tr><th>Year</th><th>Sales</th></tr><tr><td>2024</td><td>1&nbsp;200</td></tr></table>
<pre>a  b
  c</pre><p>line one<br>line two</p><hr><p>Fish &amp; chips</p>`,
			want: htmlPage{Text: "Year | Sales\n2024 | 1 200\n\na  b\n  c\n\nline one\nline two\n\n---\n\nFish & chips"},
		},
		{
			name: "permalink marks beside headings dropped",
			doc:  `<h2 id="x">Usage<a class="headerlink" href="#x">¶</a></h2><p>See <a href="#x">#</a> and <a href="#y">step 2</a>.</p>`,
			want: htmlPage{Title: "Usage", Text: "## Usage\n\nSee and step 2."},
		},
		{
			name: "title falls back to the first heading",
			doc:  `<body><h2>Only <i>heading</i></h2><p>x</p></body>`,
			want: htmlPage{Title: "Only heading", Text: "## Only heading\n\nx"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := htmlToText(tt.doc, base)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("htmlToText (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlainSnippet(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain  text\n here", "plain text here"},
		{"<strong>Go</strong> &amp; <em>Rust</em>", "Go & Rust"},
		{"a<br>b", "a b"},
		{"5 &lt; 6", "5 < 6"},
	}
	for _, tt := range tests {
		if got := plainSnippet(tt.in); got != tt.want {
			t.Errorf("plainSnippet(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// benchmarkPage builds an HTML page of about size bytes.
func benchmarkPage(size int) string {
	var b strings.Builder
	b.WriteString("<html><head><title>Bench</title><script>var x = 1;</script></head><body><nav><a href='/'>home</a></nav>")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "<h2>Section %d</h2><p>Some <b>bold</b> text with a <a href='/p/%d'>link</a> and more words to read.</p><ul><li>one</li><li>two</li></ul>", i, i)
	}
	b.WriteString("</body></html>")
	return b.String()
}

// BenchmarkHTMLToText measures converting a 2 MiB page (the default fetch
// cap) to text.
func BenchmarkHTMLToText(b *testing.B) {
	doc := benchmarkPage(2 << 20)
	base, _ := url.Parse("https://example.org/")
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		htmlToText(doc, base)
	}
}
