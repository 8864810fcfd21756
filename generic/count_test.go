package generic

import "testing"

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 model calls", 1: "1 model call", 2: "2 model calls", 12345: "12,345 model calls"} {
		if got := Plural(n, "model call"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -4500: "-4,500"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
