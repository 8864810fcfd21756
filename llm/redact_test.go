package llm

import (
	"strings"
	"testing"
)

func TestRedactorRemovesKeys(t *testing.T) {
	r := NewRedactor("hunter2-secret-value", "abc")
	line := []byte(`{"headers":{"Authorization":"Bearer abc.def.ghi-12345","X-Api-Key":"plainvalue"},"request":{"messages":[{"role":"user","content":"my key is sk-proj-AbCdEf0123456789 and api_key=q1w2e3r4t5 and hunter2-secret-value; abc stays"}]},"n":12345678901234567}`)
	got := string(r.JSON(line))
	for _, leak := range []string{"sk-proj-AbCdEf0123456789", "abc.def.ghi-12345", "plainvalue", "q1w2e3r4t5", "hunter2-secret-value"} {
		if strings.Contains(got, leak) {
			t.Errorf("redacted line still holds %q: %s", leak, got)
		}
	}
	for _, keep := range []string{"abc stays", "api_key=" + Redacted, "12345678901234567", `"Authorization":"` + Redacted + `"`} {
		if !strings.Contains(got, keep) {
			t.Errorf("redacted line lost %q: %s", keep, got)
		}
	}
	if got := r.String("Authorization: Bearer tok_1234567890"); got != "Authorization: Bearer "+Redacted {
		t.Errorf("String = %q", got)
	}
}
