package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/confined"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/trajectory"
	"github.com/sift-agent/sift/session"
)

// RecordingFormat names the manifest format of a recording directory.
const RecordingFormat = "sift-recording/1"

// ManifestFile is the manifest of a recording directory.
const ManifestFile = "recording.json"

// ErrNotRecording: a path is neither a recording directory nor a session
// workspace.
var ErrNotRecording = errors.New("not a recording")

// Manifest describes a recorded run: enough to run it again.
type Manifest struct {
	// Format is RecordingFormat.
	Format string `json:"format"`
	// Session is the id of the recorded session.
	Session string `json:"session,omitempty"`
	// Question is what the run was asked: the session's first question.
	Question string `json:"question"`
	// FollowUps are the questions asked after Question in the same
	// session, in order. Optional.
	FollowUps []string `json:"follow_ups,omitempty"`
	// Mode is the run's route (auto, quick, plan).
	Mode string `json:"mode,omitempty"`
	// Parallel is how many plan steps the run ran at the same time (see
	// agents.Request.Parallel): a replay runs them so again, or its
	// replans would not be the recorded ones. 0: the default.
	Parallel int `json:"parallel,omitempty"`
	// Inputs are the workspace-relative input files (input/...).
	Inputs []string `json:"inputs,omitempty"`
	// InputsIncluded says whether the input files are in the recording.
	InputsIncluded bool `json:"inputs_included"`
	// Artifacts are the workspace-relative files under out/ the run made.
	Artifacts []string `json:"artifacts,omitempty"`
	// Exported is when the recording was exported.
	Exported time.Time `json:"exported,omitzero"`
}

// Recording is a recorded run: its manifest, its model calls, its report
// and the directory holding its inputs and text artifacts.
type Recording struct {
	// Dir is the recording directory or session workspace.
	Dir      string
	Manifest Manifest
	Records  []trajectory.Record
	// Report is report.md as recorded, or "".
	Report string
}

// OpenRecording reads a recording directory (see Export) or a session
// workspace (with session.json, as the file store keeps it).
func OpenRecording(dir string) (*Recording, error) {
	rec := &Recording{Dir: dir}
	if b, err := os.ReadFile(filepath.Join(dir, ManifestFile)); err == nil {
		if err := json.Unmarshal(b, &rec.Manifest); err != nil {
			return nil, fmt.Errorf("%s: %s is not a recording manifest: %w", dir, ManifestFile, err)
		}
		if rec.Manifest.Format != RecordingFormat {
			return nil, fmt.Errorf("%s: unknown recording format %q (this sift reads %s)", dir, rec.Manifest.Format, RecordingFormat)
		}
	} else if b, err := os.ReadFile(filepath.Join(dir, "session.json")); err == nil {
		var m session.Meta
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("%s: session.json: %w", dir, err)
		}
		return RecordingFromSession(m, dir)
	} else {
		return nil, fmt.Errorf("%w: %s has neither %s nor session.json; give a session id, a session workspace or a directory made by sift export-session", ErrNotRecording, dir, ManifestFile)
	}
	return rec, rec.load()
}

// RecordingFromSession reads the recording a session's workspace holds.
func RecordingFromSession(m session.Meta, workspace string) (*Recording, error) {
	rec := &Recording{Dir: workspace, Manifest: Manifest{Format: RecordingFormat, Session: m.ID, Question: m.Question, Mode: m.Mode, Parallel: m.Parallel, InputsIncluded: true}}
	ws := &session.Workspace{Root: workspace, ID: m.ID}
	var err error
	if rec.Manifest.Inputs, err = ws.Inputs(); err != nil {
		return nil, err
	}
	if rec.Manifest.Artifacts, err = ws.Artifacts(); err != nil {
		return nil, err
	}
	// The registry keeps the latest question; the plan state keeps them all.
	if qs := agents.SessionQuestions(workspace); len(qs) > 1 {
		rec.Manifest.Question, rec.Manifest.FollowUps = qs[0], qs[1:]
	}
	return rec, rec.load()
}

// Questions are every question of the recorded session, in order.
func (m Manifest) Questions() []string {
	return append([]string{m.Question}, m.FollowUps...)
}

func (r *Recording) load() error {
	path := filepath.Join(r.Dir, "trajectory.jsonl")
	recs, err := trajectory.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s has no trajectory.jsonl (no model was called, or it was made by an older sift)", ErrNotRecording, r.Dir)
	}
	if err != nil {
		return err
	}
	r.Records = recs
	if b, err := os.ReadFile(filepath.Join(r.Dir, "report.md")); err == nil {
		r.Report = string(b)
	}
	if strings.TrimSpace(r.Manifest.Question) == "" {
		return fmt.Errorf("%s: the recording does not say what was asked", r.Dir)
	}
	return nil
}

// InputFiles returns the absolute paths of the recorded inputs, or an
// error naming the first one that is missing.
func (r *Recording) InputFiles() ([]string, error) {
	out := make([]string, 0, len(r.Manifest.Inputs))
	for _, in := range r.Manifest.Inputs {
		p := filepath.Join(r.Dir, filepath.FromSlash(in))
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("recorded input %s is not in %s (export with --inputs, or give the files with --file): %w", in, r.Dir, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// ExportOptions configures Export.
type ExportOptions struct {
	// Inputs copies the input files into the recording.
	Inputs bool
	// Secrets are configured secrets (API keys, passwords) to remove
	// wherever they appear, besides the patterns llm.Redactor knows.
	Secrets []string
}

// maxArtifactBytes bounds each text artifact copied into a recording.
const maxArtifactBytes = 1 << 20

// Export writes rec to dir as a portable recording: the manifest, the
// trajectory and report with secrets redacted (see llm.Redactor), the
// text artifacts under out/ (CSV, JSON, text, up to 1 MiB each) to compare
// a replay against, and, with opts.Inputs, the input files. dir must not
// exist or be empty.
func Export(rec *Recording, dir string, opts ExportOptions) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("export to %s: the directory is not empty; choose a new one", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	red := llm.NewRedactor(opts.Secrets...)
	src, err := os.ReadFile(filepath.Join(rec.Dir, "trajectory.jsonl"))
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	var traj bytes.Buffer
	for line := range bytes.SplitSeq(src, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		traj.Write(red.JSON(line))
		traj.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "trajectory.jsonl"), traj.Bytes(), 0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if rec.Report != "" {
		if err := os.WriteFile(filepath.Join(dir, "report.md"), []byte(red.String(rec.Report)), 0o644); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	for _, a := range rec.Manifest.Artifacts {
		if !isText(a) {
			continue
		}
		// out/ is the sandbox's: read beneath the session by descriptor,
		// so a link or FIFO code left there is skipped, never followed.
		b, cut, err := confined.ReadFile(rec.Dir, a, maxArtifactBytes)
		if err != nil || cut {
			continue
		}
		if err := writeFile(dir, a, []byte(red.String(string(b)))); err != nil {
			return err
		}
	}
	m := rec.Manifest
	m.Format, m.Exported, m.InputsIncluded = RecordingFormat, time.Now().UTC(), opts.Inputs
	m.Question = red.String(m.Question)
	m.FollowUps = slices.Clone(m.FollowUps)
	for i, q := range m.FollowUps {
		m.FollowUps[i] = red.String(q)
	}
	if opts.Inputs {
		for _, in := range m.Inputs {
			b, _, err := confined.ReadFile(rec.Dir, in, 0, confined.AllowHardLinks)
			if err != nil {
				return fmt.Errorf("export input %s: %w", in, err)
			}
			if err := writeFile(dir, in, b); err != nil {
				return err
			}
		}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ManifestFile), append(b, '\n'), 0o644)
}

func writeFile(dir, rel string, b []byte) error {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// isText reports whether an artifact is compared as text.
func isText(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv", ".tsv", ".json", ".jsonl", ".txt", ".md":
		return true
	}
	return false
}
