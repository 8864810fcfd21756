package templates

import (
	"context"
	"fmt"
	"strings"

	"github.com/sift-agent/sift/tools/sqldb"
)

// Dates written as text that DuckDB's cast to TIMESTAMP does not read
// ("Jan 1 2000", "01/31/2015") are read by the layout they are written
// in. pandas 1.5.3 reads each such value with dateutil, month first; a
// layout is one here only where dateutil reads every value it matches
// as it does (TestDuckDBTextDatesSameAsPandas): month first ("01.02.2000"
// is 2 January), a missing day the 1st, and no two-digit year
// (dateutil's century is the one nearest today, strptime's is fixed).

// textDateLayouts are the layouts tried, in order.
var textDateLayouts = []string{
	"%b %d %Y", "%B %d %Y", "%b %d, %Y", "%B %d, %Y",
	"%b %d %Y %H:%M", "%b %d, %Y %H:%M",
	"%d %b %Y", "%d %B %Y", "%d-%b-%Y",
	"%b %Y", "%B %Y", "%b-%Y", "%Y-%m",
	"%m/%d/%Y", "%m/%d/%Y %H:%M", "%m/%d/%Y %H:%M:%S",
	"%Y/%m/%d", "%Y/%m/%d %H:%M", "%Y/%m/%d %H:%M:%S",
	"%m.%d.%Y", "%Y.%m.%d",
	"%Y年%m月%d日", "%Y年%m月%d", "%Y年%m月",
}

// textDateValue is the SQL of text column col's value read with layouts.
// strptime's %Y takes a year of fewer digits too ("01/02/99" is the year
// 99), which dateutil reads otherwise: a value is read only with a year
// of four digits.
func textDateValue(col string, layouts []string) string {
	lits := make([]string, len(layouts))
	for i, l := range layouts {
		lits[i] = sqldb.SQLString(l)
	}
	v := "trim(CAST(" + col + " AS VARCHAR))"
	return "CASE WHEN regexp_matches(" + v + ", '(^|[^0-9])[0-9]{4}([^0-9]|$)') THEN try_strptime(" + v + ", [" + strings.Join(lits, ", ") + "]) END"
}

// textDates are the layouts of text column c's values that DuckDB's cast
// does not read, those of textDateLayouts that some of them have (none
// when the cast reads every value); not ok when a value has none of them
// (pandas may still read it, another way).
func (d *duckTable) textDates(ctx context.Context, c duckColumn) (layouts []string, ok bool, err error) {
	uncast := "TRY_CAST(" + c.ident() + " AS TIMESTAMP) IS NULL AND " + c.ident() + " IS NOT NULL"
	exprs := make([]string, len(textDateLayouts))
	for i, l := range textDateLayouts {
		exprs[i] = fmt.Sprintf("count(*) FILTER (WHERE %s IS NOT NULL)", textDateValue(c.ident(), []string{l}))
	}
	res, err := d.query(ctx, "SELECT count(*), "+strings.Join(exprs, ", ")+" FROM "+d.view+" WHERE "+uncast)
	if err != nil || len(res) != 1 {
		return nil, false, err
	}
	if toInt(res[0][0]) == 0 {
		return nil, true, nil
	}
	var used []string
	for i, l := range textDateLayouts {
		if toInt(res[0][i+1]) > 0 {
			used = append(used, l)
		}
	}
	if used == nil {
		return nil, false, nil
	}
	left, err := d.query(ctx, "SELECT count(*) FROM "+d.view+" WHERE "+uncast+" AND "+textDateValue(c.ident(), used)+" IS NULL")
	if err != nil || len(left) != 1 || toInt(left[0][0]) > 0 {
		return nil, false, err
	}
	return used, true, nil
}
