package agents

import "testing"

func TestContextWindowPerRole(t *testing.T) {
	tests := []struct {
		name      string
		cfg       Config
		role, mdl string
		want      int
	}{
		{"known small model", Config{}, "code", "llama3:8b", 8192},
		{"unknown model", Config{}, "code", "house-model", 128000},
		{"role setting wins over the table", Config{Models: Models{Windows: map[string]int{"code": 4096}}}, "code", "gpt-4o", 4096},
		{"default setting for the other roles", Config{Models: Models{Windows: map[string]int{"default": 6000}}}, "report", "gpt-4o", 6000},
		{"Config.ContextWindow wins", Config{ContextWindow: 50000, Models: Models{Windows: map[string]int{"code": 4096}}}, "code", "llama3", 50000},
		{"negative turns it off", Config{ContextWindow: -1}, "code", "llama3", -1},
	}
	for _, tt := range tests {
		s := &Sift{cfg: tt.cfg}
		if got := s.contextWindow(tt.role, tt.mdl); got != tt.want {
			t.Errorf("%s: window %d, want %d", tt.name, got, tt.want)
		}
	}
}
