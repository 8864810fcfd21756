package memory

import (
	"strings"
	"unicode"
)

// Normalize is the form of a question that the answer cache compares:
// lower case, punctuation dropped, runs of white space made one space.
// "Which region grew fastest?" and "which  region grew fastest" are the
// same question; a paraphrase is not.
func Normalize(question string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(question) {
		switch {
		case unicode.IsPunct(r) || unicode.IsSpace(r):
			space = b.Len() > 0
		default:
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Similarity is how alike two questions read, from 0 to 1: the share of
// words (of characters, in scripts written without spaces) they have in
// common (Jaccard). It is lexical only: it sees no meaning, and is only
// ever used to suggest an earlier answer, never to give it.
func Similarity(a, b string) float64 {
	wa, wb := words(a), words(b)
	if len(wa) == 0 || len(wb) == 0 {
		return 0
	}
	common := 0
	for w := range wa {
		if wb[w] {
			common++
		}
	}
	return float64(common) / float64(len(wa)+len(wb)-common)
}

// words are the distinct words of a question's normal form; a word in a
// script without spaces (Han, Hiragana, Katakana, Hangul) counts each
// character.
func words(q string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(Normalize(q)) {
		if !strings.ContainsFunc(w, unspaced) {
			out[w] = true
			continue
		}
		for _, r := range w {
			out[string(r)] = true
		}
	}
	return out
}

func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
