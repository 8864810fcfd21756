package session

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// openFileTest opens a file backend on a fresh root.
func openFileTest(t *testing.T) (*Backend, string) {
	t.Helper()
	root := t.TempDir()
	b, err := OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	return b, root
}

func TestFileRegistryDeleteRemovesWorkspace(t *testing.T) {
	b, root := openFileTest(t)
	ctx := context.Background()
	ws, err := Create(ctx, root, "s1")
	if err != nil {
		t.Fatal(err)
	}
	// A read-only input copy and an artifact, as a run leaves them.
	if _, err := ws.AddInput(ctx, writeTemp(t, "sales.csv", "a,b\n1,2\n")); err != nil {
		t.Fatal(err)
	}
	if err := ws.WriteFileAtomic("out/chart.png", []byte("png")); err != nil {
		t.Fatal(err)
	}
	mustPut(t, b.Sessions, t0, Meta{ID: "s1", Status: StatusDone, Workspace: ws.Root})
	mustSet(t, b.Checkpoints, "s1", []byte("state"))

	if err := b.Sessions.Delete(ctx, "s1"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if diff := cmp.Diff([]string(nil), dirNames(t, root)); diff != "" {
		t.Errorf("sessions root after Delete (-want +got):\n%s", diff)
	}
}

func TestFileRegistryDeleteLeavesOtherDirectories(t *testing.T) {
	b, root := openFileTest(t)
	// A workspace of a run that was never registered, and a stray folder.
	if _, err := Create(context.Background(), root, "unregistered"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "photos", "cat.jpg"), "meow")
	for _, id := range []string{"unregistered", "photos"} {
		if err := b.Sessions.Delete(context.Background(), id); !errors.Is(err, ErrSessionNotFound) {
			t.Errorf("Delete(%s) = %v, want ErrSessionNotFound", id, err)
		}
	}
	want := []string{"photos", "photos/cat.jpg", "unregistered", "unregistered/input", "unregistered/out", "unregistered/work"}
	if diff := cmp.Diff(want, dirNames(t, root)); diff != "" {
		t.Errorf("sessions root (-want +got):\n%s", diff)
	}
}

func TestFileRegistryListSkipsNonSessions(t *testing.T) {
	b, root := openFileTest(t)
	mustPut(t, b.Sessions, t0, Meta{ID: "good", Status: StatusDone})
	writeFile(t, filepath.Join(root, "corrupt", MetaFile), `{"id": "corrupt", "status": `)
	writeFile(t, filepath.Join(root, "renamed", MetaFile), `{"id": "other-id", "status": "done"}`)
	writeFile(t, filepath.Join(root, ".sift-deleting-x-1234", MetaFile), `{"id": ".sift-deleting-x-1234", "status": "done"}`)
	writeFile(t, filepath.Join(root, "no-meta", CheckpointFile), "state")
	writeFile(t, filepath.Join(root, "a-file"), "x")
	if _, err := Create(context.Background(), root, "unregistered"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"good"}, ids(mustList(t, b.Sessions, Filter{}))); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	_, err := b.Sessions.Get(context.Background(), "corrupt")
	if err == nil || errors.Is(err, ErrSessionNotFound) || !strings.Contains(err.Error(), "not valid session JSON") {
		t.Errorf("Get(corrupt) = %v, want an error saying the JSON is bad", err)
	}
}

func TestFileRegistryMissingRoot(t *testing.T) {
	b, err := OpenFileBackend(filepath.Join(t.TempDir(), "not", "yet"))
	if err != nil {
		t.Fatal(err)
	}
	if got := mustList(t, b.Sessions, Filter{}); got == nil || len(got) != 0 {
		t.Errorf("List of a missing root = %#v, want an empty, non-nil slice", got)
	}
	mustPut(t, b.Sessions, t0, Meta{ID: "s1", Status: StatusRunning})
	if diff := cmp.Diff([]string{"s1"}, ids(mustList(t, b.Sessions, Filter{}))); diff != "" {
		t.Errorf("List after the first Put (-want +got):\n%s", diff)
	}
}

func TestFileRegistryPutKeepsWorkspaceContents(t *testing.T) {
	b, root := openFileTest(t)
	ws, err := Create(context.Background(), root, "s1")
	if err != nil {
		t.Fatal(err)
	}
	mustPut(t, b.Sessions, t0, Meta{ID: "s1", Status: StatusRunning})
	if _, err := Create(context.Background(), root, "s1"); !errors.Is(err, ErrWorkspaceExists) {
		t.Errorf("Create after Put = %v, want ErrWorkspaceExists", err)
	}
	want := []string{"input", "out", MetaFile, "work"}
	if diff := cmp.Diff(want, dirNames(t, ws.Root)); diff != "" {
		t.Errorf("workspace (-want +got):\n%s", diff)
	}
}
