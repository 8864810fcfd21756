package stepshare

import "testing"

// TestTake: a step's bytes fit until its share is used up, the write that
// finds it used up is told once, and other steps and step 0 go on.
func TestTake(t *testing.T) {
	c := Counter{Max: 100}
	steps := []struct {
		step        int
		n           int64
		ok, reached bool
	}{
		{1, 60, true, false},
		{1, 40, true, false},
		{1, 1, false, true},
		{1, 1, false, false},
		{2, 100, true, false},
		{0, 1000, true, false},
	}
	for i, s := range steps {
		ok, reached := c.Take(s.step, s.n)
		if ok != s.ok || reached != s.reached {
			t.Errorf("write %d (step %d, %d bytes): ok %v reached %v; want %v %v", i, s.step, s.n, ok, reached, s.ok, s.reached)
		}
	}
}

// TestRestore: what a step wrote before a reopen counts against its share.
func TestRestore(t *testing.T) {
	c := Counter{Max: 100}
	c.Restore(3, 90, false)
	c.Restore(4, 10, true)
	if ok, _ := c.Take(3, 20); ok {
		t.Errorf("step 3 wrote 90 of 100 before the reopen, and 20 more still fit")
	}
	if ok, reached := c.Take(4, 1); ok || reached {
		t.Errorf("step 4 was full before the reopen: ok %v reached %v", ok, reached)
	}
	if used, full := c.Used(3); used != 90 || !full {
		t.Errorf("Used(3) = %d, %v", used, full)
	}
}
