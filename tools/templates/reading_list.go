package templates

import "slices"

// listedDim is the text column whose values the request lists side by
// side ("msft and ibm avg price in 2008", 西屋和固特异的平均投资, "monthly
// avg price of MSFT and IBM") when it groups by nothing else: one result
// for each value listed, not one number of the values pooled (a mean price
// of two stocks is no stock's price). nil when the request groups by a
// column already, or lists no values (listedColumn). A filter that keeps
// every value of the column (男性和女性 of 性别) is dropped, as
// versusDimension drops it: it keeps every row.
func (p *parsed) listedDim(r *Reading, dims []*gcol) *gcol {
	if len(dims) > 0 {
		return nil
	}
	col := p.listedColumn(false)
	if col != nil {
		r.Filters = slices.DeleteFunc(r.Filters, func(f Filter) bool {
			return f.Column == col.name && f.Op == "=" && p.t.keepsEveryRow(col.name, f.Values)
		})
	}
	return col
}

// listedColumn is the text column of values said side by side: joined by
// a word of a list of values (valueLinks: and, 和, 与, 、…), by "vs" or
// "versus" too when versus is set, or with only spaces and list
// punctuation between them (plainGap: "AAA, CCC"), a row noun after each
// allowed (美国车和日本车). nil when there are none, any is excluded, or
// values of two columns are listed (which to split by is not said).
func (p *parsed) listedColumn(versus bool) *gcol {
	var col *gcol
	for k := 0; k+1 < len(p.items); k++ {
		a, j := p.items[k], k+1
		if j+1 < len(p.items) && (p.items[j].kind == itemRowNoun || p.items[j].kind == itemFile) {
			j++ // 美国车和日本车: the row noun (or the file's subject) after each value
		}
		b := p.items[j]
		link := valueLinks[b.text] || versus && (b.text == "vs" || b.text == "versus")
		if b.kind != itemValue && j+1 < len(p.items) && link {
			b = p.items[j+1] // AAA and CCC
		} else if !p.plainGap(a.to-1, b.from) {
			continue
		}
		if a.kind != itemValue || b.kind != itemValue || a.col == nil || a.col != b.col || !a.col.text {
			continue
		}
		if p.excluded[a.from] || p.excluded[b.from] {
			continue
		}
		if col != nil && col != a.col {
			return nil
		}
		col = a.col
	}
	return col
}
