package templates

import (
	"slices"
	"strings"
)

// listGaps are what may stand between two values listed side by side
// when the tokens drop it: "AAA, CCC", AAA、CCC, "AAA & CCC".
var listGaps = map[string]bool{"": true, ",": true, "，": true, "、": true, "&": true}

// listedDim is the text column whose values the request lists side by
// side ("msft and ibm avg price in 2008", 西屋和固特异的平均投资, "monthly
// avg price of MSFT and IBM") when it groups by nothing else: one result
// for each value listed, not one number of the values pooled (a mean price
// of two stocks is no stock's price). nil when the request groups by a
// column already, the values are not side by side, or any is excluded. A
// filter that keeps every value of the column (男性和女性 of 性别) is
// dropped, as versusDimension drops it: it keeps every row.
func (p *parsed) listedDim(r *Reading, dims []*gcol) *gcol {
	if len(dims) > 0 {
		return nil
	}
	var col *gcol
	for k := 0; k+1 < len(p.items); k++ {
		a, j := p.items[k], k+1
		if j+1 < len(p.items) && (p.items[j].kind == itemRowNoun || p.items[j].kind == itemFile) {
			j++ // 美国车和日本车: the row noun (or the file's subject) after each value
		}
		b := p.items[j]
		if b.kind != itemValue && j+1 < len(p.items) && valueLinks[b.text] {
			b = p.items[j+1] // AAA and CCC (valueLinks: the words of a list of values)
		} else if !listGaps[strings.TrimSpace(joinRaw(p.toks[a.to:b.from]))] {
			continue // AAA、CCC, where the tokens drop the 、
		}
		if a.kind != itemValue || b.kind != itemValue || a.col == nil || a.col != b.col || !a.col.text {
			continue
		}
		if p.excluded[a.from] || p.excluded[b.from] {
			continue
		}
		if col != nil && col != a.col {
			return nil // values of two columns listed: which to split by is not said
		}
		col = a.col
	}
	if col != nil {
		r.Filters = slices.DeleteFunc(r.Filters, func(f Filter) bool {
			return f.Column == col.name && f.Op == "=" && p.t.keepsEveryRow(col.name, f.Values)
		})
	}
	return col
}
