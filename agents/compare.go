package agents

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/refresh"
	"github.com/sift-agent/sift/session"
)

// ErrCannotCompare: two sessions' reports cannot be compared (one has no
// report yet); the error says which and what to do.
var ErrCannotCompare = errors.New("cannot compare")

// maxComparedReport bounds the report read of each compared session.
const maxComparedReport = 4 << 20

// ComparedReport is one side of a Comparison.
type ComparedReport struct {
	Session  string `json:"session"`
	Question string `json:"question"`
	Status   string `json:"status"`
	// Parent and Origin link a refresh or fork to its session.
	Parent string `json:"parent,omitempty"`
	Origin string `json:"origin,omitempty"`
	// Report is the session's report.md without the sections about the
	// run rather than the data (usage, a refresh's what-changed, a
	// comparison), as compared.
	Report string `json:"report"`
}

// Comparison is a side-by-side diff of two sessions' reports: each
// number of the first found on the same line of the second (see
// refresh.Compare), with how much it moved.
type Comparison struct {
	Left  ComparedReport `json:"left"`
	Right ComparedReport `json:"right"`
	refresh.Comparison
	// Markdown is the diff as a report section.
	Markdown string `json:"markdown"`
}

// Compare diffs the numbers of session id's report against session
// with's: typically a session and its refresh or fork, which link it
// (Left.Parent, Right.Parent), but any two with a report.
func (s *Sift) Compare(ctx context.Context, id, with string) (*Comparison, error) {
	left, err := s.comparedReport(ctx, id)
	if err != nil {
		return nil, err
	}
	right, err := s.comparedReport(ctx, with)
	if err != nil {
		return nil, err
	}
	c := refresh.Compare(left.Report, right.Report)
	return &Comparison{Left: left, Right: right, Comparison: c, Markdown: c.Markdown(id, with)}, nil
}

// comparedReport reads session id's record and report.
func (s *Sift) comparedReport(ctx context.Context, id string) (ComparedReport, error) {
	meta, err := s.store.Sessions.Get(ctx, id)
	if err != nil {
		return ComparedReport{}, fmt.Errorf("%w: session %s: %w", ErrCannotCompare, id, err)
	}
	ws, err := session.Open(s.cfg.SessionsRoot, id)
	if err != nil {
		return ComparedReport{}, fmt.Errorf("%w: %w", ErrCannotCompare, err)
	}
	b, _, err := confined.ReadFile(ws.Root, session.ReportFile, maxComparedReport)
	if err != nil {
		return ComparedReport{}, fmt.Errorf("%w: session %s (%s) has no report yet; compare it once it has finished: %w", ErrCannotCompare, id, meta.Status, err)
	}
	return ComparedReport{Session: id, Question: meta.Question, Status: string(meta.Status), Parent: meta.Parent, Origin: meta.Origin,
		Report: withoutRunSections(string(b))}, nil
}

// runSections head the report sections about the run, not the data:
// their numbers (tokens, a refresh's old values) are not compared.
var runSections = []string{"## Usage", "## 用量", "## What changed since the previous run", "## Compared with session"}

// withoutRunSections is md without the runSections, each up to the next
// heading of its level or above.
func withoutRunSections(md string) string {
	var b strings.Builder
	skipping := false
	for _, line := range strings.SplitAfter(md, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "# ") || strings.HasPrefix(t, "## ") {
			skipping = false
			for _, h := range runSections {
				if strings.HasPrefix(t, h) {
					skipping = true
				}
			}
		}
		if !skipping {
			b.WriteString(line)
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}
