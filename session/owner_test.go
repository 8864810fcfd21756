package session

import (
	"os"
	"os/exec"
	"testing"
)

// TestOwnerGone: a process that ended is gone, the running one is not, and
// neither is one that cannot be checked from here.
func TestOwnerGone(t *testing.T) {
	self := ThisProcess()
	if self.Start == 0 {
		t.Log("no /proc here: pid reuse is not detected")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	ended := &Owner{Host: self.Host, PID: cmd.ProcessState.Pid()}
	tests := []struct {
		name  string
		owner *Owner
		want  bool
	}{
		{"this process", self, false},
		{"a process that ended", ended, true},
		{"its pid given to a later process", &Owner{Host: self.Host, PID: self.PID, Start: self.Start + 1}, self.Start != 0},
		{"another machine", &Owner{Host: self.Host + "-elsewhere", PID: ended.PID}, false},
		{"none recorded", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.owner.Gone(); got != tt.want {
				t.Errorf("Gone() = %v, want %v", got, tt.want)
			}
		})
	}
	for _, tt := range []struct {
		status Status
		owner  *Owner
		want   bool
	}{
		{StatusRunning, ended, true},
		{StatusRunning, self, false},
		{StatusRunning, nil, false},
		{StatusPaused, ended, false},
	} {
		if got := (Meta{Status: tt.status, Owner: tt.owner}).OwnerGone(); got != tt.want {
			t.Errorf("a %s session owned by %v: OwnerGone() = %v, want %v", tt.status, tt.owner, got, tt.want)
		}
	}
}
