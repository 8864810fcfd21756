package eval

import "testing"

func ptr(f float64) *float64 { return &f }

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		e    Expected
		got  string
		want bool
	}{
		{Expected{Value: "34.65"}, "34.6544", true}, // to the label's decimals
		{Expected{Value: "34.65"}, "34.66", false},  // one cent off
		{Expected{Value: "34.65"}, " 34.65 ", true}, // white space
		{Expected{Value: "0.5"}, "0.50", true},      // same number, other writing
		{Expected{Value: "1200"}, "1,200", true},    // thousands separator
		{Expected{Value: "12.5"}, "12.5%", true},    // a percent sign
		{Expected{Value: "100", Tolerance: ptr(0.5)}, "100.4", true},
		{Expected{Value: "100", Tolerance: ptr(0.5)}, "100.6", false},
		{Expected{Value: "100"}, "100.4", true}, // integer label: rounds to 100
		{Expected{Value: "100"}, "abc", false},
		{Expected{Value: "North"}, "north", true}, // case
		{Expected{Value: "New  York"}, " new york", true},
		{Expected{Value: "North"}, "'North'", true}, // quotes
		{Expected{Value: "North", Exact: true}, "north", false},
		{Expected{Value: "Not Normal"}, "Normal", false},
	} {
		if got := Match(tc.e, tc.got); got != tc.want {
			t.Errorf("Match(%+v, %q) = %v, want %v", tc.e, tc.got, got, tc.want)
		}
	}
}

func TestScoreDABenchAnswers(t *testing.T) {
	expected := []Expected{{Name: "mean_fare", Value: "34.65"}, {Name: "median", Value: "14.45"}, {Name: "dist", Value: "Not Normal"}}
	for _, tc := range []struct {
		name, answer string
		kind         FailureKind
		oks          []bool
	}{
		{"all right, restated format first", "Format: @mean_fare[mean_fare_value]\nSo: @mean_fare[34.651] @median[14.4542] @dist[ not normal ]", "", []bool{true, true, true}},
		{"one wrong", "@mean_fare[34.65] @median[15] @dist[Not Normal]", FailValue, []bool{true, false, true}},
		{"one missing", "@mean_fare[34.65] @dist[Not Normal] and the median is 14.45", FailFormat, []bool{true, false, true}},
		{"plain prose", "The mean fare is 34.65.", FailFormat, []bool{false, false, false}},
		{"nothing", "  ", FailNoAnswer, []bool{false, false, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			subs, kind := Score(tc.answer, expected)
			if kind != tc.kind {
				t.Errorf("kind = %q, want %q (%+v)", kind, tc.kind, subs)
			}
			for i, s := range subs {
				if s.OK != tc.oks[i] {
					t.Errorf("%s ok = %v, want %v (%+v)", s.Name, s.OK, tc.oks[i], s)
				}
			}
		})
	}
}
