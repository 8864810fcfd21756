package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sift-agent/sift/internal/jsonpos"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/tools/web"
)

// ErrInvalidPolicy is wrapped by LoadPolicy's errors for a policy file that
// is not valid JSON or says something contradictory.
var ErrInvalidPolicy = errors.New("invalid approval policy")

// Verdict is what a Policy says about one tool call.
type Verdict int

// The verdicts, from least to most restrictive.
const (
	// VerdictAllow runs the call without asking.
	VerdictAllow Verdict = iota
	// VerdictAsk asks the person first (or, unattended, approves or
	// refuses it as Policy.AutoApprove says).
	VerdictAsk
	// VerdictRefuse never runs the call.
	VerdictRefuse
)

// String names the verdict.
func (v Verdict) String() string {
	switch v {
	case VerdictAllow:
		return "allow"
	case VerdictAsk:
		return "ask"
	case VerdictRefuse:
		return "refuse"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Ruling is a Policy's answer for one tool call.
type Ruling struct {
	// Verdict says whether the call runs, asks or is refused.
	Verdict Verdict
	// Reason says why the call asks or is refused, in words the person and
	// the model read ("it fetches https://x.org/, a URL not seen in this
	// session"). Empty for VerdictAllow.
	Reason string
	// AutoApprovable says Policy.AutoApprove may approve the call without a
	// person. Calls to writing tools and changes to input files never are.
	AutoApprovable bool
}

// Policy says which tool calls need a person's approval. The rules, in the
// order they are applied:
//
//  1. a tool in Deny is refused;
//  2. a tool in Approve runs without asking, whatever the rules below say;
//  3. a tool in Ask asks on every call;
//  4. a tool in Writing (outside the read-only data-source contract) asks on
//     every call, and AutoApprove never approves it;
//  5. web_fetch of a URL not seen in the session asks, unless FetchAnyURL:
//     a URL is seen once SeeURLs or SeeURLsIn recorded it (RequireApproval
//     records every URL a web_search reply lists) or its host is in
//     AllowHosts or was approved for an earlier fetch;
//  6. with AskInputWrites, write_file and edit_file on a path under input/
//     ask (AutoApprove never approves them);
//  7. everything else runs.
//
// A call that asks is approved without a person when AutoApprove is set and
// the rule allows it; otherwise, when Unattended, it is refused with a clear
// reason; otherwise the tool interrupts for the person (see RequireApproval).
//
// Set the exported fields before the policy is used; after that, a Policy is
// safe for concurrent use. The zero value is DefaultPolicy. Use it by
// pointer: one Policy holds the URLs seen in one session.
type Policy struct {
	// Approve lists tools that never need approval. Optional.
	Approve []string `json:"approve,omitempty"`
	// Ask lists tools that need approval on every call. Optional.
	Ask []string `json:"ask,omitempty"`
	// Deny lists tools that never run; their calls get a refusal reply the
	// model can act on. Optional.
	Deny []string `json:"deny,omitempty"`
	// Writing lists tools that write outside the read-only data-source
	// contract (a SQL tool that may change data, say). Their calls always
	// need a person. Optional.
	Writing []string `json:"writing,omitempty"`
	// AllowHosts are hosts web_fetch may read without asking, such as
	// "data.worldbank.org". Optional.
	AllowHosts []string `json:"allow_hosts,omitempty"`
	// FetchAnyURL turns off the unseen-URL rule for web_fetch. Default
	// false: fetching a URL not seen in the session asks.
	FetchAnyURL bool `json:"fetch_any_url,omitempty"`
	// AskInputWrites makes write_file and edit_file ask before changing a
	// file under input/. Default false: confinement refuses such writes and
	// the model is told to write to out/ instead. Approval does not lift
	// confinement; set this only with an operator that lets approved writes
	// through.
	AskInputWrites bool `json:"ask_input_writes,omitempty"`
	// AutoApprove approves, without a person, every call that asks and may
	// be approved automatically (the sift command's --yes). Default false.
	AutoApprove bool `json:"auto_approve,omitempty"`
	// Unattended says no one can approve calls in this run: a call that
	// asks and is not approved automatically is refused instead of
	// interrupting. Set by the caller, not by policy files. Default false.
	Unattended bool `json:"-"`

	mu            sync.Mutex
	seenURLs      map[string]bool
	approvedHosts map[string]bool
}

// DefaultPolicy returns the default policy: no tool lists, fetching an
// unseen URL asks, nothing is approved automatically.
func DefaultPolicy() *Policy { return &Policy{} }

// LoadPolicy reads a policy from a JSON file such as
//
//	{"approve": ["web_fetch"], "ask": ["python"], "deny": ["write_file"],
//	 "writing": ["sql_exec"], "allow_hosts": ["data.gov"],
//	 "fetch_any_url": false, "ask_input_writes": false, "auto_approve": false}
//
// Unknown keys, a tool in two of approve/ask/deny, and empty names are
// errors wrapping ErrInvalidPolicy; a missing file wraps fs.ErrNotExist.
func LoadPolicy(file string) (*Policy, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read approval policy: %w", err)
	}
	p := &Policy{}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return nil, fmt.Errorf("%w: %s is not a policy file (%v); write one JSON object with the keys approve, ask, deny, writing, allow_hosts, fetch_any_url, ask_input_writes, auto_approve",
			ErrInvalidPolicy, file, jsonProblem(data, err))
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: %s holds more than one JSON value; write one object", ErrInvalidPolicy, file)
	}
	if err := p.validate(); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrInvalidPolicy, file, err)
	}
	return p, nil
}

// jsonProblem describes a decoding error, with the line it happened on when
// the decoder says where.
func jsonProblem(data []byte, err error) string {
	if line, _, ok := jsonpos.Of(data, err); ok {
		return fmt.Sprintf("line %d: %v", line, err)
	}
	return err.Error()
}

// validate reports names that are empty or listed twice, and hosts that are
// not host names.
func (p *Policy) validate() error {
	lists := []struct {
		key   string
		names []string
	}{{"approve", p.Approve}, {"ask", p.Ask}, {"deny", p.Deny}}
	in := map[string]string{}
	for _, l := range lists {
		for _, n := range l.names {
			if strings.TrimSpace(n) == "" {
				return fmt.Errorf("%q has an empty tool name", l.key)
			}
			if prev, ok := in[n]; ok && prev != l.key {
				return fmt.Errorf("tool %q is in both %q and %q; list each tool once", n, prev, l.key)
			}
			in[n] = l.key
		}
	}
	for _, n := range p.Writing {
		if strings.TrimSpace(n) == "" {
			return errors.New(`"writing" has an empty tool name`)
		}
	}
	for _, h := range p.AllowHosts {
		if normalHost(h) == "" {
			return fmt.Errorf("allow_hosts entry %q is not a host name (write it as example.org, without scheme or path)", h)
		}
	}
	return nil
}

// normalHost returns h as a lower-case host name, or "" when it is not one.
func normalHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if h == "" || strings.ContainsAny(h, "/:?#@ ") {
		return ""
	}
	return strings.TrimSuffix(h, ".")
}

// SeeURLs records urls as seen in this session, so web_fetch may read them
// without asking. Text that is not an http or https URL is ignored.
func (p *Policy) SeeURLs(urls ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, raw := range urls {
		if u, ok := normalURL(raw); ok {
			if p.seenURLs == nil {
				p.seenURLs = map[string]bool{}
			}
			p.seenURLs[u.String()] = true
		}
	}
}

// SeeURLsIn records every http or https URL in text as seen: pass the
// person's question, so web_fetch may read the pages it names.
func (p *Policy) SeeURLsIn(text string) { p.SeeURLs(urlsIn(text)...) }

// Check returns the policy's ruling on a call of the tool named toolName
// with the given JSON arguments.
func (p *Policy) Check(toolName, arguments string) Ruling {
	switch {
	case slices.Contains(p.Deny, toolName):
		return Ruling{Verdict: VerdictRefuse, Reason: fmt.Sprintf("the approval policy does not allow %s", toolName)}
	case slices.Contains(p.Approve, toolName):
		return Ruling{Verdict: VerdictAllow}
	case slices.Contains(p.Ask, toolName):
		return Ruling{Verdict: VerdictAsk, Reason: fmt.Sprintf("the approval policy asks before every %s call", toolName), AutoApprovable: true}
	case slices.Contains(p.Writing, toolName):
		return Ruling{Verdict: VerdictAsk, Reason: fmt.Sprintf("%s writes outside the read-only data-source contract", toolName)}
	case toolName == web.FetchToolName && !p.FetchAnyURL:
		if u, ok := fetchURL(arguments); ok && !p.fetchSeen(u) {
			return Ruling{Verdict: VerdictAsk, Reason: fmt.Sprintf("it fetches %s, a URL not seen in this session", u.Redacted()), AutoApprovable: true}
		}
	case (toolName == WriteFileName || toolName == EditFileName) && p.AskInputWrites:
		if file, ok := inputPath(arguments); ok {
			return Ruling{Verdict: VerdictAsk, Reason: fmt.Sprintf("it changes %s, one of the person's input files", file)}
		}
	}
	return Ruling{Verdict: VerdictAllow}
}

// approved records what the person approved so that similar calls need not
// ask again: for web_fetch, the URL and its host.
func (p *Policy) approved(toolName, arguments string) {
	if toolName != web.FetchToolName {
		return
	}
	u, ok := fetchURL(arguments)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seenURLs == nil {
		p.seenURLs = map[string]bool{}
	}
	if p.approvedHosts == nil {
		p.approvedHosts = map[string]bool{}
	}
	p.seenURLs[u.String()] = true
	p.approvedHosts[u.Hostname()] = true
}

// fetchSeen says whether web_fetch may read u without asking.
func (p *Policy) fetchSeen(u *url.URL) bool {
	host := u.Hostname()
	for _, h := range p.AllowHosts {
		if normalHost(h) == host {
			return true
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seenURLs[u.String()] || p.approvedHosts[host]
}

// fetchURL returns the URL a web_fetch call reads, normalised, or false when
// the arguments name none (the tool itself then says what is wrong, and
// nothing is fetched).
func fetchURL(arguments string) (*url.URL, bool) {
	var a web.FetchArgs
	if json.Unmarshal([]byte(arguments), &a) != nil {
		return nil, false
	}
	return normalURL(a.URL)
}

// normalURL parses an http or https URL and normalises it for comparison:
// lower-case scheme and host, no default port, no fragment, "/" for an
// empty path.
func normalURL(raw string) (*url.URL, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return nil, false
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, false
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") { // an IPv6 literal keeps its brackets
		host = "[" + host + "]"
	}
	u.Host = host
	if port != "" {
		u.Host += ":" + port
	}
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	return u, true
}

// inputPath returns the workspace path a write_file or edit_file call
// changes when it lies under input/.
func inputPath(arguments string) (string, bool) {
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal([]byte(arguments), &a) != nil || strings.TrimSpace(a.Path) == "" {
		return "", false
	}
	p := path.Clean(strings.ReplaceAll(strings.TrimSpace(a.Path), `\`, "/"))
	p = strings.TrimPrefix(p, "/")
	if p == operator.InputDir || strings.HasPrefix(p, operator.InputDir+"/") {
		return p, true
	}
	return "", false
}

// urlInText matches http and https URLs in free text.
var urlInText = regexp.MustCompile(`https?://[^\s<>"'()\[\]{}]+`)

// urlsIn returns the URLs in text, without trailing punctuation.
func urlsIn(text string) []string {
	found := urlInText.FindAllString(text, -1)
	for i, u := range found {
		found[i] = strings.TrimRight(u, ".,;:!?")
	}
	return found
}
