package llm

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// Redacted replaces every secret a Redactor finds.
const Redacted = "[REDACTED]"

// Redactor removes API keys and other secrets from recordings before they
// leave the machine: OpenAI-style keys (sk-...), bearer tokens, "api_key:
// ..."-style assignments, the values of authentication headers, and every
// configured secret given to NewRedactor, wherever they appear.
type Redactor struct {
	secrets []string
}

// NewRedactor returns a Redactor that also removes each of secrets
// (configured API keys, passwords). Secrets shorter than 6 characters are
// ignored: redacting them would mangle ordinary text.
func NewRedactor(secrets ...string) *Redactor {
	r := &Redactor{}
	for _, s := range secrets {
		if s = strings.TrimSpace(s); len(s) >= 6 {
			r.secrets = append(r.secrets, s)
		}
	}
	return r
}

var secretPatterns = []*regexp.Regexp{
	regexp.MustCompile(`\bsk-[A-Za-z0-9_\-]{8,}`),
	regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/=\-]{8,}`),
	regexp.MustCompile(`(?i)\b(api[_-]?key|access[_-]?token|auth[_-]?token|secret[_-]?key|client[_-]?secret|password)(\\?["']?\s*[:=]\s*\\?["']?)([^\s"'\\,;}]{6,})`),
}

// authHeaders are header names whose whole value is a secret.
var authHeaders = map[string]bool{"authorization": true, "proxy-authorization": true, "api-key": true, "x-api-key": true, "x-goog-api-key": true, "cookie": true}

// String returns s with every secret replaced by Redacted.
func (r *Redactor) String(s string) string {
	for _, secret := range r.secrets {
		s = strings.ReplaceAll(s, secret, Redacted)
	}
	for i, p := range secretPatterns {
		if i == 2 {
			s = p.ReplaceAllString(s, "${1}${2}"+Redacted)
			continue
		}
		s = p.ReplaceAllStringFunc(s, func(m string) string {
			if strings.HasPrefix(strings.ToLower(m), "bearer") {
				return m[:len("bearer ")] + Redacted
			}
			return Redacted
		})
	}
	return s
}

// JSON returns the JSON document line with every string redacted and the
// values of authentication headers (any object key such as
// "Authorization" or "x-api-key") replaced whole. A line that is not JSON
// is redacted as text.
func (r *Redactor) JSON(line []byte) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return []byte(r.String(string(line)))
	}
	out, err := json.Marshal(r.walk(v))
	if err != nil {
		return []byte(r.String(string(line)))
	}
	return out
}

func (r *Redactor) walk(v any) any {
	switch t := v.(type) {
	case string:
		return r.String(t)
	case []any:
		for i := range t {
			t[i] = r.walk(t[i])
		}
	case map[string]any:
		for k, x := range t {
			if authHeaders[strings.ToLower(k)] {
				t[k] = Redacted
				continue
			}
			t[k] = r.walk(x)
		}
	}
	return v
}
