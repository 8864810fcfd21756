package refresh

import (
	"errors"
	"strings"
	"testing"
)

func TestMapColumns(t *testing.T) {
	old := []Column{{"date", "date"}, {"region", "text"}, {"revenue", "int"}}
	tests := []struct {
		name                 string
		new                  []Column
		same, approve        bool
		missing, mapped, err string
	}{
		{name: "same", new: old, same: true},
		{name: "more rows made decimals", new: []Column{{"date", "date"}, {"region", "text"}, {"revenue", "float"}}, same: true},
		{name: "moved", new: []Column{{"region", "text"}, {"date", "date"}, {"revenue", "int"}}, mapped: "region (text): moved from column 2 to 1"},
		{name: "renamed", new: []Column{{"date", "date"}, {"Region", "text"}, {"revenue_usd", "float"}}, approve: true, mapped: "revenue (int) → revenue_usd (float)"},
		{name: "missing", new: []Column{{"date", "date"}, {"revenue", "int"}, {"store", "text"}}, missing: "region", err: "has no column region (text)"},
		{name: "a name alike but of another type", new: []Column{{"date", "date"}, {"region", "int"}, {"revenue", "int"}}, missing: "region"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := MapColumns("input/sales.csv", old, tc.new)
			if m.Same() != tc.same || m.NeedsApproval() != tc.approve {
				t.Errorf("same %v approve %v, want %v %v:\n%s", m.Same(), m.NeedsApproval(), tc.same, tc.approve, m)
			}
			var names []string
			for _, c := range m.Missing {
				names = append(names, c.Name)
			}
			if strings.Join(names, ",") != tc.missing {
				t.Errorf("missing %v, want %q", names, tc.missing)
			}
			if tc.mapped != "" && !strings.Contains(m.String(), tc.mapped) {
				t.Errorf("mapping lacks %q:\n%s", tc.mapped, m)
			}
			err := m.Err()
			var ue *UnmappedError
			if (tc.missing != "") != errors.As(err, &ue) {
				t.Fatalf("err = %v", err)
			}
			if tc.err != "" && !strings.Contains(err.Error(), tc.err) || ue != nil && !strings.Contains(err.Error(), "store (text)") && tc.name == "missing" {
				t.Errorf("err = %v, want it to name %q and what was found", err, tc.err)
			}
		})
	}
}

func TestRecompute(t *testing.T) {
	old := []Output{
		{Label: "cell 1 (step 1)", Text: "stdout:\n4 rows\n(ran 10ms)"},
		{Label: "cell 2 (step 2)", Text: "stdout:\nregion\nNorth    150\nSouth     70\nEast      30\n"},
		{Label: "cell 3 (step 3)", Text: "share of North: 0.6\ntotal 1234567.0\nchange -5.0\n"},
	}
	now := []Output{
		{Label: "cell 1 (step 1)", Text: "stdout:\n16 rows\n(ran 12ms)"},
		// The order changed: the lines are found by their words.
		{Label: "cell 2 (step 2)", Text: "stdout:\nregion\nSouth    310\nNorth    275\n"},
		{Label: "cell 3 (step 3)", Text: "share of North: 0.47\ntotal 2500000.0\nchange 3.0\n"},
	}
	text := "There were 4 rows [step 1]. North leads with 150, South has 70 and East 30. " +
		"North is 60% of the total of 1,234,567 (1.2 million); it fell 5.0 points. The top 3 regions in 2024."
	got := Recompute(text, old, now)
	for _, want := range []string{"There were 16 rows [step 1]", "North leads with 275", "South has 310", "East 30" + StaleMark,
		"North is 47% of the total of 2,500,000 (2.5 million)", "fell 5.0" + StaleMark, "The top 3 regions in 2024."} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("recomputed text lacks %q:\n%s", want, got.Text)
		}
	}
	if len(got.Changes) != 6 {
		t.Errorf("changes = %+v, want 6 (rows, North, South, share, total, million)", got.Changes)
	}
	if len(got.Unresolved) != 2 || !strings.Contains(got.Unresolved[0].Reason, `"East"`) || !strings.Contains(got.Unresolved[1].Reason, "sign changed") {
		t.Errorf("unresolved = %+v, want East (gone) and 5 (its sign changed)", got.Unresolved)
	}
	md := WhatChanged("s1", got.Changes, got.Unresolved, got.Kept)
	for _, want := range []string{"| 150 | 275 | +125 (+83.33%) |", "| 4 | 16 | +12 (+300%) |", "| 60% | 47% | -13 pts (-21.67%) |", "| +1,265,433 (+102.5%) |", "- 30: the line \"East\""} {
		if !strings.Contains(md, want) {
			t.Errorf("what changed lacks %q:\n%s", want, md)
		}
	}
}

func TestRecomputeAmbiguous(t *testing.T) {
	old := []Output{{Label: "cell 1", Text: "a 100\nb 100\n"}}
	now := []Output{{Label: "cell 1", Text: "a 120\nb 90\n"}}
	got := Recompute("Both were 100.", old, now)
	if !strings.Contains(got.Text, "100"+StaleMark) || len(got.Unresolved) != 1 || !strings.Contains(got.Unresolved[0].Reason, "more than one") {
		t.Errorf("an ambiguous number must be marked, not guessed: %+v", got)
	}
	same := Recompute("a was 100.", old, []Output{{Label: "cell 1", Text: "a 100\nb 100\n"}})
	if same.Text != "a was 100." || same.Kept != 1 || len(same.Changes) != 0 {
		t.Errorf("unchanged number: %+v", same)
	}
}

func TestCheck(t *testing.T) {
	md, bad := Check("North 275, South 999.", "North 275")
	if len(bad) != 1 || bad[0] != "999" || !strings.Contains(md, "999"+UnverifiedMark) {
		t.Errorf("check: %q %v", md, bad)
	}
}
