package operator

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCappedBuffer(t *testing.T) {
	tests := []struct {
		name   string
		limit  int
		writes []string
		want   string
	}{
		{name: "fits", limit: 10, writes: []string{"abc", "def"}, want: "abcdef"},
		{name: "exactly full", limit: 6, writes: []string{"abcdef"}, want: "abcdef"},
		{name: "one big write", limit: 6, writes: []string{"abcdefghij"}, want: "abc\n[... 4 bytes cut ...]\nhij"},
		{name: "many small writes", limit: 6, writes: []string{"ab", "cd", "ef", "gh", "ij"}, want: "abc\n[... 4 bytes cut ...]\nhij"},
		{name: "ring wraps", limit: 4, writes: []string{"a", "b", "c", "d", "e", "f", "g"}, want: "ab\n[... 3 bytes cut ...]\nfg"},
		{name: "head ends in newline", limit: 4, writes: []string{"a\n", "xxxxx", "yz"}, want: "a\n[... 5 bytes cut ...]\nyz"},
		{name: "split rune trimmed", limit: 6, writes: []string{"a世b", "xxxxxxxx", "c界"}, want: "a\n[... 13 bytes cut ...]\n界"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newCappedBuffer(tt.limit)
			for _, w := range tt.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("String() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCapString(t *testing.T) {
	if got := capString("short", 10); got != "short" {
		t.Errorf("capString(short) = %q", got)
	}
	got := capString(strings.Repeat("x", 100)+strings.Repeat("y", 100), 20)
	want := strings.Repeat("x", 10) + "\n[... 180 bytes cut ...]\n" + strings.Repeat("y", 10)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("capString (-want +got):\n%s", diff)
	}
}

func BenchmarkCappedBuffer(b *testing.B) {
	line := []byte(strings.Repeat("0123456789", 8) + "\n")
	b.SetBytes(int64(len(line)))
	buf := newCappedBuffer(DefaultMaxOutputBytes)
	for b.Loop() {
		_, _ = buf.Write(line)
	}
}
