package numcheck

import (
	"math"
	"strings"
	"testing"
)

func TestClaimsReadEveryNotation(t *testing.T) {
	tests := []struct {
		text    string
		value   float64
		unit    float64
		percent bool
	}{
		{"revenue was 1,234.5 dollars", 1234.5, 0.1, false},
		{"le total est 1 234,5 €", 1234.5, 0.1, false},
		{"le total est 1\u202f234,5 €", 1234.5, 0.1, false},
		{"Umsatz 1.234,5 EUR", 1234.5, 0.1, false},
		{"Umsatz 1.234.567 EUR", 1234567, 1, false},
		{"growth of 12.3%", 12.3, 0.1, true},
		{"增长 12.3％", 12.3, 0.1, true},
		{"收入1.2万元", 12000, 1000, false},
		{"收入3亿", 3e8, 1e8, false},
		{"收入5千万", 5e7, 1e7, false},
		{"sales of 4.5k units", 4500, 100, false},
		{"2.1 million users", 2.1e6, 1e5, false},
		{"a ratio of 0,75 here", 0.75, 0.01, false},
		{"fell by -5.25 points", -5.25, 0.01, false},
		{"printed 1.234560e+05 rows", 123456, 0.1, false},
		{"Swiss 1'234'567 CHF", 1234567, 1, false},
		{"12 percent more", 12, 1, true},
	}
	for _, tt := range tests {
		got := Claims(tt.text)
		if len(got) != 1 {
			t.Errorf("Claims(%q) = %+v, want one number", tt.text, got)
			continue
		}
		n := got[0]
		if math.Abs(n.Value-tt.value) > 1e-9*math.Max(1, tt.value) || math.Abs(n.Unit-tt.unit) > 1e-9*tt.unit || n.Percent != tt.percent {
			t.Errorf("Claims(%q) = value %v unit %v percent %v; want %v %v %v", tt.text, n.Value, n.Unit, n.Percent, tt.value, tt.unit, tt.percent)
		}
	}
}

func TestClaimsLeaveOutWhatIsNoQuantity(t *testing.T) {
	text := "# Report\n\n1. On 2024-01-05 at 12:30, Q1 and H2 [step 2] sold 3 items, see ![c](out/chart_2024.png) and `df.head(20)` at https://x.org/42; 2024年1月5日 and 3月. The cell (ran 190ms), (ran 1.25s).\n"
	if got := Claims(text); len(got) != 0 {
		t.Errorf("Claims found %+v; dates, times, names, citations, paths, code, URLs, tool timings, list markers and small counts are not quantities", got)
	}
	got := Claims("North 150 South 70, East 30")
	var vals []float64
	for _, n := range got {
		vals = append(vals, n.Value)
	}
	if len(vals) != 3 || vals[0] != 150 || vals[1] != 70 || vals[2] != 30 {
		t.Errorf("separate numbers must stay separate: %v", vals)
	}
}

func TestSupportsRoundingPercentAndScale(t *testing.T) {
	ev := NewSet("region  revenue\nNorth   150.0\nSouth   70.0\nshare 0.6818\ntotal 123456.789\n", "date,region,revenue\n2024-01-05,North,100\n", "Growth: 7.49%")
	tests := []struct {
		claim string
		ok    bool
	}{
		{"North 150", true},
		{"North 150.00", true},
		{"share 68.2%", true},
		{"share 68%", true},
		{"share 0.68", true},
		{"total 123,456.79", true},
		{"total 12.3万", true},
		{"total 123.5k", true},
		{"total 0.12 million", true},
		{"growth 7.5%", true},
		{"growth 7.49%", true},
		{"in 2024", true},
		{"a fall of -70", true},
		{"North 175", false},
		{"share 71.3%", false},
		{"total 125,000", false},
		{"total 13万", false},
		{"growth 9.2%", false},
	}
	for _, tt := range tests {
		got := ev.Unsupported(tt.claim)
		if (len(got) == 0) != tt.ok {
			t.Errorf("%q: unsupported = %+v, want supported=%v", tt.claim, got, tt.ok)
		}
	}
}

func TestMarkFlagsOnlyUnsupportedNumbers(t *testing.T) {
	ev := NewSet("North 150")
	text := "North has 150, South has 175 and East 1,234."
	bad := ev.Unsupported(text)
	got := Mark(text, bad, " (?)")
	want := "North has 150, South has 175 (?) and East 1,234 (?)."
	if got != want {
		t.Errorf("Mark:\n got %q\nwant %q", got, want)
	}
	if !strings.Contains(Mark(text, nil, "!"), "175 and") {
		t.Error("nothing to mark must leave the text alone")
	}
}

// TestLongDecimalIsNoDate: the digits of 1234567.5 end like a date
// (4567.5), but a date stands alone; the number is a claim to check.
func TestLongDecimalIsNoDate(t *testing.T) {
	got := Claims("The total is 1234567.5 on 2024-01-05.")
	if len(got) != 1 || got[0].Value != 1234567.5 {
		t.Errorf("claims = %+v, want the total alone", got)
	}
	if q := Quantities("There were 4 rows [step 1]."); len(q) != 1 || q[0].Value != 4 {
		t.Errorf("quantities = %+v, want the 4 (small integers count here)", q)
	}
}
