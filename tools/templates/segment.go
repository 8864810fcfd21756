package templates

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-ego/gse"
)

// word is one word of a request.
type word struct {
	raw   string // as written (lower case, NFKC)
	w     string // canonical: canonWord for English, the word itself for Chinese
	han   bool
	num   bool
	start int // byte offsets in the normalised request
	end   int
	// ent is the Chinese vocabulary entry the segmentation chose the word
	// for, if any.
	ent *entry
}

// tokenize splits a normalised request into words: English by letters and
// digits (with camelCase and snake_case split), Chinese by a segmentation
// that prefers the words of lexicon (the vocabulary, and the table's
// column names, values and sheet names) and falls back to gse's for the
// rest.
func tokenize(text string, lexicon map[string]bool) []word {
	var out []word
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isHanRune(r):
			j := i
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if !isHanRune(r2) {
					break
				}
				j += s2
			}
			out = append(out, segmentHan(text[i:j], i, lexicon)...)
			i = j
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			j := i
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if !(unicode.IsLetter(r2) || unicode.IsDigit(r2)) || isHanRune(r2) {
					break
				}
				j += s2
			}
			for _, p := range splitWord(text[i:j]) {
				w := word{raw: p.s, w: canonOf(p.s), num: isDigits(p.s), start: i + p.off, end: i + p.off + len(p.s)}
				if n, ok := numberWordsEn[strings.ToLower(p.s)]; ok {
					w.w, w.num = n, true // "top five": 5
				}
				out = append(out, w)
			}
			i = j
		default:
			i += size
		}
	}
	return out
}

func canonOf(s string) string {
	if isDigits(s) {
		return s
	}
	return canonWord(s)
}

type piece struct {
	s   string
	off int
}

// splitWord splits letters from digits ("top10" → top, 10).
func splitWord(w string) []piece {
	var out []piece
	start := 0
	for k := 1; k <= len(w); k++ {
		if k == len(w) || isDigitByte(w[k]) != isDigitByte(w[k-1]) {
			out = append(out, piece{w[start:k], start})
			start = k
		}
	}
	return out
}

func isDigitByte(b byte) bool { return b >= '0' && b <= '9' }

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigitByte(s[i]) {
			return false
		}
	}
	return true
}

func isHanRune(r rune) bool { return unicode.Is(unicode.Han, r) }

// cjkNumerals are the characters of a Chinese number (前五, 十二).
const cjkNumerals = "一二两三四五六七八九十百千零〇"

// segmentHan splits a run of Chinese characters into words, choosing the
// split of least cost: a word of the lexicon or the vocabulary costs 1, a
// word of gse's dictionary 1.2, a run of numerals 1, a character no
// dictionary knows 1.5. gse is asked only when the lexicon leaves a
// character uncovered, so a request made of known words never loads its
// dictionary.
func segmentHan(run string, base int, lexicon map[string]bool) []word {
	runes := []rune(run)
	n := len(runes)
	offs := make([]int, n+1)
	for k, off := 0, 0; k < n; k++ {
		offs[k] = off
		off += utf8.RuneLen(runes[k])
	}
	offs[n] = len(run)
	type edge struct {
		to   int
		cost float64
	}
	edges := make([][]edge, n)
	covered := make([]bool, n)
	known := func(s string) bool {
		_, ok := zhWords[s]
		return ok || lexicon[s]
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b <= n && b-a <= 8; b++ {
			s := run[offs[a]:offs[b]]
			if known(s) {
				// A longer word costs slightly less than its parts.
				edges[a] = append(edges[a], edge{b, 1 - 0.01*float64(b-a)})
				for k := a; k < b; k++ {
					covered[k] = true
				}
			}
		}
		if strings.ContainsRune(cjkNumerals, runes[a]) {
			b := a
			for b < n && strings.ContainsRune(cjkNumerals, runes[b]) {
				b++
			}
			edges[a] = append(edges[a], edge{b, 1})
			for k := a; k < b; k++ {
				covered[k] = true
			}
		}
	}
	uncovered := false
	for _, c := range covered {
		if !c {
			uncovered = true
		}
	}
	if uncovered {
		if seg := zhSegmenter(); seg != nil {
			pos := 0
			for _, w := range seg.Cut(run, true) {
				k := utf8.RuneCountInString(w)
				if k > 1 {
					edges[pos] = append(edges[pos], edge{pos + k, 1.2})
				}
				pos += k
			}
		}
	}
	for a := 0; a < n; a++ {
		edges[a] = append(edges[a], edge{a + 1, 1.5})
	}
	best := make([]float64, n+1)
	from := make([]int, n+1)
	for k := 1; k <= n; k++ {
		best[k] = math.Inf(1)
	}
	for a := 0; a < n; a++ {
		if math.IsInf(best[a], 1) {
			continue
		}
		for _, e := range edges[a] {
			if c := best[a] + e.cost; c < best[e.to] {
				best[e.to], from[e.to] = c, a
			}
		}
	}
	var cuts []int
	for k := n; k > 0; k = from[k] {
		cuts = append(cuts, k)
	}
	var out []word
	prev := 0
	for i := len(cuts) - 1; i >= 0; i-- {
		k := cuts[i]
		s := run[offs[prev]:offs[k]]
		t := word{raw: s, w: s, han: true, start: base + offs[prev], end: base + offs[k]}
		if e, ok := zhWords[s]; ok {
			e := e
			t.ent = &e
		}
		if v := parseCJKNumber(s); v > 0 && strings.Trim(s, cjkNumerals) == "" {
			t.num, t.w = true, strconv.Itoa(v)
		} else if n := strings.TrimRight(s, cjkClassifiers); n != s && utf8.RuneCountInString(s)-utf8.RuneCountInString(n) == 1 && n != "" && strings.Trim(n, cjkNumerals) == "" {
			// 三种, 五家, 两个: a count and its classifier (from 2 up: 一个
			// is "a").
			if v := parseCJKNumber(n); v >= 2 {
				t.num, t.w = true, strconv.Itoa(v)
			}
		}
		out = append(out, t)
		prev = k
	}
	return out
}

// cjkClassifiers are the measure words a Chinese count carries (三种天气,
// 五家公司).
const cjkClassifiers = "个种家只名条款位项类座"

var (
	zhSegOnce sync.Once
	zhSeg     *gse.Segmenter
	// zhSegLoad is how long loading gse's dictionary took.
	zhSegLoad time.Duration
)

// zhSegmenter is gse with its embedded simplified-Chinese dictionary,
// loaded once, the first time a request has a Chinese word outside the
// vocabulary and the table's names (it takes seconds); nil if it fails.
func zhSegmenter() *gse.Segmenter {
	zhSegOnce.Do(func() {
		start := time.Now()
		var seg gse.Segmenter
		seg.SkipLog = true
		if err := seg.LoadDictEmbed("zh_s"); err == nil {
			zhSeg = &seg
		}
		zhSegLoad = time.Since(start)
	})
	return zhSeg
}
