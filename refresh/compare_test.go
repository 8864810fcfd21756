package refresh

import (
	"strings"
	"testing"
)

// TestCompare: numbers on the same line of both reports are compared
// (moved or kept); a reworded line's numbers are listed, not guessed.
func TestCompare(t *testing.T) {
	left := "# Revenue\n\nNorth leads with 150, South has 70 and East 30 [step 2].\n\n| region | revenue |\n|---|---:|\n| North | 150 |\n| South | 70 |\n\nThe data has 4 rows [step 1]. Margin 12.5%.\n"
	right := "# Revenue\n\nNorth leads with 360, South has 190 and East 30 [step 2].\n\n| region | revenue |\n|---|---:|\n| North | 360 |\n| South | 190 |\n\nThere are 8 rows now [step 1]. Margin 10%.\n"
	c := Compare(left, right)
	var got []string
	for _, ch := range c.Changes {
		got = append(got, ch.Old+"→"+ch.New)
	}
	if strings.Join(got, " ") != "150→360 70→190 150→360 70→190" || c.Kept != 1 {
		t.Errorf("changes %v, kept %d; want 150→360 70→190 twice and East's 30 kept", got, c.Kept)
	}
	if len(c.OnlyLeft) != 1 || c.OnlyLeft[0] != "The data has 4 rows [step 1]. Margin 12.5%." || len(c.OnlyRight) != 1 || !strings.HasPrefix(c.OnlyRight[0], "There are 8 rows now") {
		t.Errorf("only left %q, only right %q", c.OnlyLeft, c.OnlyRight)
	}
	md := c.Markdown("s1", "s2")
	for _, want := range []string{"## Compared with session `s2`", "| 150 | 360 | +210 (+140%) |", "1 more number did not move.", "Only in `s1` (not compared):\n\n- The data has 4 rows"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if same := Compare(left, left); len(same.Changes) != 0 || len(same.OnlyLeft) != 0 || same.Kept == 0 {
		t.Errorf("a report compared with itself: %+v", same)
	}
	if pct := Compare("Margin 12%.", "Margin 12."); len(pct.Changes) != 0 || pct.Kept != 0 || len(pct.OnlyLeft) != 1 {
		t.Errorf("a percentage against a plain number is not compared: %+v", pct)
	}
}
