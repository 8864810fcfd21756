package templates

import (
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

// Each suggestion names the data's own columns and is a request the
// matcher sends to a built-in analysis other than the one just run, so
// following it needs no model.
func TestSuggestionsAreGroundedAndRunnable(t *testing.T) {
	sales := previewSheet("sales.csv", "order_date:date", "region:text", "product:text", "revenue:float", "quantity:int")
	tests := []struct {
		question, done string
		p              Params
		file           *preview.FilePreview
		mustName       []string
	}{
		{"monthly revenue trend", Trend, Params{Time: "order_date", Measure: "revenue"}, sales, []string{"revenue"}},
		{"top 10 regions by revenue", TopN, Params{Category: "region", Measure: "revenue"}, sales, []string{"revenue"}},
		{"Which region sells most?", "", Params{}, sales, []string{"revenue"}},
		{"按地区统计销售额", TopN, Params{Category: "地区", Measure: "销售额"}, previewSheet("s.csv", "日期:date", "地区:text", "销售额:float", "数量:int"), []string{"销售额"}},
	}
	for _, tt := range tests {
		got := Suggest(tt.question, tt.done, tt.p, []*preview.FilePreview{tt.file})
		if len(got) < 2 || len(got) > 3 {
			t.Errorf("%q: %d suggestions %q, want 2 or 3", tt.question, len(got), got)
			continue
		}
		for _, w := range tt.mustName {
			if !strings.Contains(got[0], w) {
				t.Errorf("%q: the first suggestion %q must keep to %q", tt.question, got[0], w)
			}
		}
		for _, s := range got {
			m := MatchRequest(s, []*preview.FilePreview{tt.file})
			if !m.OK() || m.Template == tt.done {
				t.Errorf("%q: suggestion %q matches %q (confidence %.2f, %v); want another built-in analysis", tt.question, s, m.Template, m.Confidence, m.Reasons)
			}
		}
	}
}

func TestSuggestWithoutATableSaysNothing(t *testing.T) {
	text := &preview.FilePreview{Name: "notes.txt", Kind: preview.KindText, Lines: []string{"hello"}}
	if got := Suggest("summarise", "", Params{}, []*preview.FilePreview{text}); len(got) != 0 {
		t.Errorf("no columns, no grounded suggestion: %q", got)
	}
}

// The ranking suggestion fits any data: it names no number of groups (a
// file with four regions has no top 10) and reads as a sentence, singular
// noun and all; it still runs the ranking on the named columns.
func TestRankingSuggestionFitsTheData(t *testing.T) {
	sales := previewSheet("sales.csv", "date:date", "region:text", "revenue:float")
	for _, tt := range []struct{ question, want string }{
		{"monthly revenue trend", "Which region has the highest total revenue?"},
		{"月度趋势", "哪个region的revenue总和最高？"},
	} {
		got := Suggest(tt.question, Trend, Params{}, []*preview.FilePreview{sales})
		if len(got) == 0 || got[0] != tt.want {
			t.Errorf("%q: suggestions %q, want %q first", tt.question, got, tt.want)
			continue
		}
		m := MatchRequest(got[0], []*preview.FilePreview{sales})
		if m.Template != TopN || m.Params.Category != "region" || m.Params.Measure != "revenue" {
			t.Errorf("%q runs %q with %+v, want the ranking of region by revenue", got[0], m.Template, m.Params)
		}
	}
}

// TestSuggestionsAreNewAndMakeSense: no suggestion asks again what was
// just asked (however the run answered it, with a built-in or not), and
// none asks for a sum that means nothing (a total of a temperature): each
// is a request the built-ins understand completely, as they would run it.
func TestSuggestionsAreNewAndMakeSense(t *testing.T) {
	weather := previewSheet("weather.csv", "date:date", "city:text", "temp_max:float", "temp_min:float", "precipitation:float")
	weatherZh := previewSheet("天气.csv", "日期:date", "城市:text", "区域:text", "最高气温:float", "降水量:float")
	for _, tt := range []struct {
		question, done string
		file           *preview.FilePreview
		never          []string
	}{
		{"What is the monthly trend of temp_max?", "", weather, []string{"What is the monthly trend of temp_max?", "total temp_max"}},
		{"monthly trend of temp_max\nThe hottest month was July.", "", weather, []string{"monthly trend of temp_max", "total temp_max"}},
		{"Which city has the highest total precipitation?", "", weather, []string{"Which city has the highest total precipitation?"}},
		{"最高气温的月度趋势如何？", "", weatherZh, []string{"最高气温的月度趋势", "最高气温总和"}},
	} {
		files := []*preview.FilePreview{tt.file}
		got := Suggest(tt.question, tt.done, Params{}, files)
		if len(got) == 0 {
			t.Errorf("%q: no suggestions", tt.question)
		}
		for _, s := range got {
			for _, n := range tt.never {
				if strings.Contains(s, n) {
					t.Errorf("%q: suggestion %q repeats the question or sums what is not summed (%q)", tt.question, s, n)
				}
			}
			if _, ok, why := Understand(s, files); !ok {
				t.Errorf("%q: suggestion %q is not understood by the built-ins: %s", tt.question, s, why)
			}
		}
	}
	// The ranking of a temperature asks for its average instead.
	got := Suggest("monthly trend of temp_max", Trend, Params{}, []*preview.FilePreview{weather})
	if len(got) == 0 || got[0] != "Which city has the highest average temp_max?" {
		t.Errorf("after a temperature's trend: %q, want the ranking by its average first", got)
	}
}
