package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sift-agent/sift/tools/web"
)

func fetchArgs(u string) string { return fmt.Sprintf(`{"url": %q}`, u) }

func TestPolicyCheck(t *testing.T) {
	allow := Ruling{Verdict: VerdictAllow}
	tests := []struct {
		name   string
		policy *Policy
		tool   string
		args   string
		want   Ruling
	}{
		{name: "default allows files", policy: DefaultPolicy(), tool: ReadFileName, args: `{"path": "input/a.csv"}`, want: allow},
		{name: "deny", policy: &Policy{Deny: []string{"python"}}, tool: "python", args: `{}`,
			want: Ruling{Verdict: VerdictRefuse, Reason: "the approval policy does not allow python"}},
		{name: "ask", policy: &Policy{Ask: []string{"python"}}, tool: "python", args: `{}`,
			want: Ruling{Verdict: VerdictAsk, Reason: "the approval policy asks before every python call", AutoApprovable: true}},
		{name: "writing", policy: &Policy{Writing: []string{"sql_exec"}}, tool: "sql_exec", args: `{}`,
			want: Ruling{Verdict: VerdictAsk, Reason: "sql_exec writes outside the read-only data-source contract"}},
		{name: "approve beats the URL rule", policy: &Policy{Approve: []string{web.FetchToolName}}, tool: web.FetchToolName,
			args: fetchArgs("https://new.org/"), want: allow},
		{name: "unseen URL", policy: DefaultPolicy(), tool: web.FetchToolName, args: fetchArgs("https://new.org/a?q=1"),
			want: Ruling{Verdict: VerdictAsk, Reason: "it fetches https://new.org/a?q=1, a URL not seen in this session", AutoApprovable: true}},
		{name: "unseen URL hides a password", policy: DefaultPolicy(), tool: web.FetchToolName, args: fetchArgs("https://me:secret@new.org/"),
			want: Ruling{Verdict: VerdictAsk, Reason: "it fetches https://me:xxxxx@new.org/, a URL not seen in this session", AutoApprovable: true}},
		{name: "fetch any URL", policy: &Policy{FetchAnyURL: true}, tool: web.FetchToolName, args: fetchArgs("https://new.org/"), want: allow},
		{name: "allowed host", policy: &Policy{AllowHosts: []string{"Data.Gov"}}, tool: web.FetchToolName, args: fetchArgs("https://data.gov/x"), want: allow},
		{name: "allowed host is not its subdomain", policy: &Policy{AllowHosts: []string{"data.gov"}}, tool: web.FetchToolName,
			args: fetchArgs("https://evil.data.gov/x"),
			want: Ruling{Verdict: VerdictAsk, Reason: "it fetches https://evil.data.gov/x, a URL not seen in this session", AutoApprovable: true}},
		{name: "fetch without a URL is the tool's to refuse", policy: DefaultPolicy(), tool: web.FetchToolName, args: `{}`, want: allow},
		{name: "fetch of a non-web URL is the tool's to refuse", policy: DefaultPolicy(), tool: web.FetchToolName, args: fetchArgs("file:///etc/passwd"), want: allow},
		{name: "input write without the rule", policy: DefaultPolicy(), tool: WriteFileName, args: `{"path": "input/a.csv"}`, want: allow},
		{name: "input write", policy: &Policy{AskInputWrites: true}, tool: WriteFileName, args: `{"path": "./input//a.csv", "content": ""}`,
			want: Ruling{Verdict: VerdictAsk, Reason: "it changes input/a.csv, one of the person's input files"}},
		{name: "input edit", policy: &Policy{AskInputWrites: true}, tool: EditFileName, args: `{"path": "out/../input/b.txt"}`,
			want: Ruling{Verdict: VerdictAsk, Reason: "it changes input/b.txt, one of the person's input files"}},
		{name: "input dir itself", policy: &Policy{AskInputWrites: true}, tool: WriteFileName, args: `{"path": "/input"}`,
			want: Ruling{Verdict: VerdictAsk, Reason: "it changes input, one of the person's input files"}},
		{name: "out write", policy: &Policy{AskInputWrites: true}, tool: WriteFileName, args: `{"path": "out/inputs.csv"}`, want: allow},
		{name: "lookalike dir", policy: &Policy{AskInputWrites: true}, tool: WriteFileName, args: `{"path": "input2/a.csv"}`, want: allow},
		{name: "read of input", policy: &Policy{AskInputWrites: true}, tool: ReadFileName, args: `{"path": "input/a.csv"}`, want: allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.policy.Check(tt.tool, tt.args)); diff != "" {
				t.Errorf("Check (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPolicySeenURLs(t *testing.T) {
	p := DefaultPolicy()
	p.SeeURLs("HTTPS://Example.org:443/a#part", "not a url", "ftp://example.org/f")
	p.SeeURLsIn("Compare with the table at http://example.net.")
	p.approved(web.FetchToolName, fetchArgs("https://approved.org/first"))
	p.approved("python", fetchArgs("https://not-a-fetch.org/"))
	tests := []struct {
		url  string
		want Verdict
	}{
		{"https://example.org/a", VerdictAllow},
		{"https://example.org/a#other", VerdictAllow},
		{"https://example.org/b", VerdictAsk},
		{"http://example.org/a", VerdictAsk},
		{"http://example.net/", VerdictAllow},
		{"http://example.net:80", VerdictAllow},
		{"https://approved.org/second", VerdictAllow},
		{"https://not-a-fetch.org/", VerdictAsk},
		{"ftp://example.org/f", VerdictAllow}, // not a web URL: web_fetch refuses it itself
	}
	for _, tt := range tests {
		if got := p.Check(web.FetchToolName, fetchArgs(tt.url)).Verdict; got != tt.want {
			t.Errorf("Check(web_fetch %s) = %v, want %v", tt.url, got, tt.want)
		}
	}
}

// TestPolicyConcurrent exercises SeeURLs, approvals and Check from many
// goroutines; run with -race.
func TestPolicyConcurrent(t *testing.T) {
	p := DefaultPolicy()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				u := fmt.Sprintf("https://h%d.org/%d", i, j)
				p.SeeURLs(u)
				p.approved(web.FetchToolName, fetchArgs(fmt.Sprintf("https://a%d.org/", i)))
				if v := p.Check(web.FetchToolName, fetchArgs(u)).Verdict; v != VerdictAllow {
					t.Errorf("a seen URL %s got %v", u, v)
				}
			}
		}()
	}
	wg.Wait()
}

func TestURLsIn(t *testing.T) {
	text := "1. A\n   https://a.org/x.\n2. B (https://b.org/y?q=1), and <http://c.org/>; see \"https://d.org/z\"!"
	want := []string{"https://a.org/x", "https://b.org/y?q=1", "http://c.org/", "https://d.org/z"}
	if diff := cmp.Diff(want, urlsIn(text)); diff != "" {
		t.Errorf("urlsIn (-want +got):\n%s", diff)
	}
}

func TestLoadPolicy(t *testing.T) {
	file := filepath.Join(t.TempDir(), "policy.json")
	body := `{
  "approve": ["web_fetch"],
  "ask": ["python"],
  "deny": ["write_file"],
  "writing": ["sql_exec"],
  "allow_hosts": ["data.gov"],
  "fetch_any_url": true,
  "ask_input_writes": true,
  "auto_approve": true
}`
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := LoadPolicy(file)
	if err != nil {
		t.Fatalf("LoadPolicy: %v", err)
	}
	want := &Policy{Approve: []string{"web_fetch"}, Ask: []string{"python"}, Deny: []string{"write_file"},
		Writing: []string{"sql_exec"}, AllowHosts: []string{"data.gov"}, FetchAnyURL: true, AskInputWrites: true, AutoApprove: true}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Policy{})); diff != "" {
		t.Errorf("LoadPolicy (-want +got):\n%s", diff)
	}
}

func TestLoadPolicyErrors(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		wantErr string
	}{
		{name: "syntax", body: "{\n  \"approve\": [\"a\",]\n}", wantErr: "line 2: invalid character ']'"},
		{name: "unknown key", body: `{"aprove": ["a"]}`, wantErr: `unknown field "aprove"`},
		{name: "wrong type", body: `{"ask": "python"}`, wantErr: "line 1: json: cannot unmarshal string"},
		{name: "two lists", body: `{"approve": ["python"], "deny": ["python"]}`, wantErr: `tool "python" is in both "approve" and "deny"; list each tool once`},
		{name: "empty name", body: `{"ask": [""]}`, wantErr: `"ask" has an empty tool name`},
		{name: "empty writing name", body: `{"writing": [" "]}`, wantErr: `"writing" has an empty tool name`},
		{name: "host with scheme", body: `{"allow_hosts": ["https://data.gov"]}`, wantErr: `allow_hosts entry "https://data.gov" is not a host name`},
		{name: "two values", body: `{} {}`, wantErr: "holds more than one JSON value"},
		{name: "unattended is not a file setting", body: `{"unattended": true}`, wantErr: `unknown field "unattended"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "policy.json")
			if err := os.WriteFile(file, []byte(tt.body), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := LoadPolicy(file)
			if err == nil {
				t.Fatal("LoadPolicy accepted the file")
			}
			if !errors.Is(err, ErrInvalidPolicy) || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), file) {
				t.Errorf("LoadPolicy error = %v\nwant one wrapping ErrInvalidPolicy naming the file and containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestLoadPolicyMissingFile(t *testing.T) {
	_, err := LoadPolicy(filepath.Join(t.TempDir(), "none.json"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "read approval policy: ") {
		t.Errorf("LoadPolicy error = %v, want one wrapping fs.ErrNotExist that names the operation", err)
	}
}

func TestVerdictString(t *testing.T) {
	got := []string{VerdictAllow.String(), VerdictAsk.String(), VerdictRefuse.String(), Verdict(9).String()}
	if diff := cmp.Diff([]string{"allow", "ask", "refuse", "Verdict(9)"}, got); diff != "" {
		t.Errorf("String (-want +got):\n%s", diff)
	}
}
