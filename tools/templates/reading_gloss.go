package templates

// More values named in Chinese where the data writes them in English:
// firms, penguin species, countries, kinds of disaster. Each is a name
// placeMeant matches to a value of the data as written, one value only,
// as meantNames are; nothing here is a value by itself.
func init() {
	for zh, names := range map[string][]string{
		// firms (grunfeld)
		"西屋": {"westinghouse"}, "固特异": {"goodyear"}, "通用汽车": {"general motors"}, "通用电气": {"general electric"},
		"克莱斯勒": {"chrysler"}, "美国钢铁": {"us steel"},
		// penguin species, with and without 企鹅
		"巴布亚": {"gentoo"}, "巴布亚企鹅": {"gentoo"}, "阿德利": {"adelie"}, "阿德利企鹅": {"adelie"},
		"帽带": {"chinstrap"}, "帽带企鹅": {"chinstrap"}, "南极企鹅": {"chinstrap"},
		// countries the lexicon's word does not reach as the data writes them
		"美国": {"united states", "usa", "us", "united states of america"},
		// kinds of disaster; 自然灾害 is the row of all of them
		"洪灾": {"flood"}, "旱灾": {"drought"}, "干旱": {"drought"}, "地震": {"earthquake"}, "野火": {"wildfire"},
		"自然灾害": {"all natural disasters"},
	} {
		if _, ok := meantNames[zh]; !ok {
			meantNames[zh] = names
		}
	}
}

// exclusionFillers are the words between an exclusion word and the values
// it excludes: "excluding the Flood", 不含所有自然灾害.
var exclusionFillers = map[string]bool{"the": true, "for": true, "所有": true, "全部": true}

func init() {
	exclusionsEn = append(exclusionsEn, []string{"leave", "out"}, []string{"leaving", "aside"})
}

// totalRowWords name a row of totals right after its value: "leave out
// the 'All natural disasters' total", 不含所有自然灾害合计.
var totalRowWords = map[string]bool{"total": true, "totals": true, "合计": true, "总计": true}

// placeTotalRow places a total word right after an excluded value as
// what that value is (the row of totals left out), not a sum asked for.
func (p *parsed) placeTotalRow() {
	for k := 1; k < len(p.items); k++ {
		it, prev := p.items[k], p.items[k-1]
		if it.kind != itemVocab || it.ent.role != roleAgg || it.ent.value != "sum" || !totalRowWords[it.text] {
			continue
		}
		if prev.kind != itemValue || !p.excluded[prev.from] {
			continue
		}
		p.items[k].ent = entry{role: roleStop}
	}
}

// lettersDropped is the one column word of known that request word w
// writes with two of its letters left out (horsepwr for horsepower): w
// keeps its first and last letters and is six letters or more, and no
// other column word fits; "" otherwise.
func lettersDropped(w string, known map[string]bool) string {
	if len(w) < 6 {
		return ""
	}
	hit := ""
	for k := range known {
		if len(k) != len(w)+2 || k[0] != w[0] || k[len(k)-1] != w[len(w)-1] || !isSubsequence(w, k) {
			continue
		}
		if hit != "" {
			return ""
		}
		hit = k
	}
	return hit
}

// isSubsequence reports whether a's letters appear in b in order.
func isSubsequence(a, b string) bool {
	i := 0
	for j := 0; j < len(b) && i < len(a); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}
