package bigcsv

import (
	"strings"
	"testing"
)

// TestSizeRefusesWhatIsNotASize: a size that does not parse stops the
// benchmark with the variable's name, where it used to generate an empty
// file.
func TestSizeRefusesWhatIsNotASize(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == BytesEnv {
				return v
			}
			return ""
		}
	}
	if n, err := Size(env("")); err != nil || n != DefaultBytes {
		t.Errorf("unset: %d, %v; want %d", n, err, DefaultBytes)
	}
	if n, err := Size(env("1048576")); err != nil || n != 1<<20 {
		t.Errorf("1048576: %d, %v", n, err)
	}
	for _, v := range []string{"3GB", "1e9", "-5", "0"} {
		if n, err := Size(env(v)); err == nil || !strings.Contains(err.Error(), BytesEnv) {
			t.Errorf("%s: size %d, err %v; want an error naming %s", v, n, err, BytesEnv)
		}
	}
}
