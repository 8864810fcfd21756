package session

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sift-agent/sift/event"
)

// Hostile (local users): the sessions root and each workspace are 0700,
// and the files Sift writes for a session (events, plan and state, report,
// meta.json, claims, checkpoints) 0600, so no other local user reads a
// session's previews and results.
func TestSessionFilesAreTheOwnersAlone(t *testing.T) {
	ctx := context.Background()
	sessions := filepath.Join(t.TempDir(), "sessions")
	b, err := OpenFileBackend(sessions)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ws, err := Create(ctx, sessions, "20261201-120000-modesx")
	if err != nil {
		t.Fatal(err)
	}
	l, err := OpenEventLog(ws.Path("events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Append(event.Event{Kind: event.Session, Text: ws.ID}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	for _, f := range []string{PlanFile, "state.json", ReportFile, ReportHTMLFile, "usage.json"} {
		if err := ws.WriteFileAtomic(f, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Sessions.Put(ctx, Meta{ID: ws.ID, Status: StatusRunning, Question: "private", Workspace: ws.Root}); err != nil {
		t.Fatal(err)
	}
	if err := b.Checkpoints.Set(ctx, ws.ID, []byte("checkpoint")); err != nil {
		t.Fatal(err)
	}
	var files int
	err = filepath.Walk(sessions, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(sessions, p)
		switch {
		case rel == ".":
			if info.Mode().Perm() != 0o700 {
				t.Errorf("the sessions root has mode %v, want 0700", info.Mode().Perm())
			}
		case info.IsDir() && filepath.Dir(rel) == ".":
			if info.Mode().Perm() != 0o700 {
				t.Errorf("%s/ has mode %v, want 0700", rel, info.Mode().Perm())
			}
		case info.Mode().IsRegular():
			files++
			if info.Mode().Perm() != 0o600 {
				t.Errorf("%s has mode %v, want 0600", rel, info.Mode().Perm())
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 8 {
		t.Errorf("only %d session files were written; the test checks too little", files)
	}
}
