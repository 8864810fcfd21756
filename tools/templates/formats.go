package templates

import (
	"context"
	"path"
	"strings"

	"github.com/sift-agent/sift/numfmt"
	"github.com/sift-agent/sift/operator"
)

// pct1 is common.py's pct: a percent with one decimal.
var pct1 = numfmt.Format{Kind: numfmt.Percent, Decimals: 1}

// recordFormats writes, beside each CSV of r that has columns with a
// format, the sidecar numfmt reads. A sidecar that cannot be written
// leaves the tables as the file holds them: a note says so.
func recordFormats(ctx context.Context, op operator.Operator, r *Result) {
	var bySuffix map[string]numfmt.Formats
	if b := builtinNamed(r.Template); b != nil {
		bySuffix = b.formats
	}
	for _, f := range r.Files {
		base := path.Base(f)
		if !strings.HasSuffix(base, ".csv") {
			continue
		}
		for suffix, fm := range bySuffix {
			if !strings.HasSuffix(base, "_"+suffix+".csv") {
				continue
			}
			b, err := numfmt.Encode(fm)
			if err == nil {
				err = op.WriteFile(ctx, numfmt.SidecarPath(f), b)
			}
			if err != nil {
				r.Notes = append(r.Notes, textIn(r.Lang, "the number formats of %s were not recorded (%s): its table shows the numbers as the file holds them", f, err.Error()))
			}
		}
	}
}

func init() {
	chineseText["the number formats of %s were not recorded (%s): its table shows the numbers as the file holds them"] = "%s 的数字格式未能记录（%s）：其表格按文件中的原值显示数字"
}
