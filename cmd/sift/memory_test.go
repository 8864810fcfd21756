package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sift-agent/sift/memory"
	"github.com/sift-agent/sift/session"
)

func TestMemoryFlags(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantList   *memoryListOptions
		wantForget *memoryForgetOptions
		wantEdit   *memoryEditOptions
		wantErr    string
	}{
		{name: "list", args: []string{"list", "--json", "--store", "sqlite:/tmp/s.db"}, wantList: &memoryListOptions{sessionsStoreOptions: sessionsStoreOptions{Store: "sqlite:/tmp/s.db"}, JSON: true}},
		{name: "forget ids", args: []string{"forget", "f-1", "a-2"}, wantForget: &memoryForgetOptions{IDs: []string{"f-1", "a-2"}}},
		{name: "forget all", args: []string{"forget", "--all"}, wantForget: &memoryForgetOptions{All: true}},
		{name: "forget nothing", args: []string{"forget"}, wantErr: "or --all"},
		{name: "forget both", args: []string{"forget", "--all", "f-1"}, wantErr: "not both"},
		{name: "edit", args: []string{"edit", "f-1", "refunds count as negative revenue", "--store", "sqlite:/tmp/s.db"}, wantEdit: &memoryEditOptions{sessionsStoreOptions: sessionsStoreOptions{Store: "sqlite:/tmp/s.db"}, ID: "f-1", Text: "refunds count as negative revenue"}},
		{name: "edit without text", args: []string{"edit", "f-1"}, wantErr: "give the fact's ID and its new text"},
		{name: "edit unquoted", args: []string{"edit", "f-1", "refunds", "count"}, wantErr: "got 3 arguments"},
		{name: "unknown verb", args: []string{"change"}, wantErr: `unknown command "change"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var list *memoryListOptions
			var forget *memoryForgetOptions
			var edit *memoryEditOptions
			io, _, _ := testIO()
			cmd := newMemoryCmd(io, memoryRunFuncs{
				list:   func(_ context.Context, o *memoryListOptions) error { list = o; return nil },
				forget: func(_ context.Context, o *memoryForgetOptions) error { forget = o; return nil },
				edit:   func(_ context.Context, o *memoryEditOptions) error { edit = o; return nil },
			})
			cmd.SetArgs(tt.args)
			cmd.SetOut(io.ErrOut)
			cmd.SetErr(io.ErrOut)
			err := cmd.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantList, list, cmp.AllowUnexported(memoryListOptions{})); diff != "" {
				t.Errorf("list options (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantForget, forget, cmp.AllowUnexported(memoryForgetOptions{})); diff != "" {
				t.Errorf("forget options (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantEdit, edit, cmp.AllowUnexported(memoryEditOptions{})); diff != "" {
				t.Errorf("edit options (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMemoryListAndForget(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	b, err := session.OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	src := memory.Sources{{ID: "x", Name: "sales.csv", Content: "1"}}
	fact := memory.NewFact(memory.OriginQuestion, "Do refunds count as negative revenue?", "yes", src, "20261130-090000-aaaaaa", day)
	answer := memory.NewAnswer("Total revenue?", "250", "# Report", src, memory.Settings{Route: "auto"}, "20261130-100000-bbbbbb", day.Add(time.Hour))
	for _, e := range []memory.Entry{fact, answer} {
		if err := b.Memory.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	io, out, _ := testIO()
	if err := runMemoryList(ctx, io, &memoryListOptions{sessionsStoreOptions: sessionsStoreOptions{SessionsDir: root}}, testSessionsDeps(false)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], answer.ID) || !strings.HasPrefix(lines[2], fact.ID) ||
		!strings.Contains(lines[2], `"Do refunds count as negative revenue?" → yes`) || !strings.Contains(lines[2], "2026-11-30") || !strings.Contains(lines[2], "sales.csv") {
		t.Errorf("list:\n%s", out)
	}
	io, out, _ = testIO()
	if err := runMemoryList(ctx, io, &memoryListOptions{sessionsStoreOptions: sessionsStoreOptions{SessionsDir: root}, JSON: true}, testSessionsDeps(false)); err != nil {
		t.Fatal(err)
	}
	var listed []memory.Entry
	if err := json.Unmarshal(out.Bytes(), &listed); err != nil || len(listed) != 2 || listed[0].Report != "" {
		t.Errorf("json: %v %s", err, out)
	}

	code := execute(ctx, io, []string{"memory", "forget", "--sessions-dir", root, "f-0000"})
	if code != exitUsage {
		t.Errorf("forgetting what is not there: exit %d, want %d", code, exitUsage)
	}
	io, _, errOut := testIO()
	if code := execute(ctx, io, []string{"memory", "forget", "--sessions-dir", root, fact.ID}); code != 0 {
		t.Fatalf("forget: exit %d: %s", code, errOut)
	}
	if es, _ := b.Memory.List(ctx); len(es) != 1 || es[0].ID != answer.ID {
		t.Errorf("after forget: %+v", es)
	}
	io, _, errOut = testIO()
	if code := execute(ctx, io, []string{"memory", "forget", "--all", "--sessions-dir", root}); code != 0 || !strings.Contains(errOut.String(), "Forgot 1 entry") {
		t.Fatalf("forget --all: exit %d: %s", code, errOut)
	}
	if es, _ := b.Memory.List(ctx); len(es) != 0 {
		t.Errorf("after forget --all: %+v", es)
	}
}

func TestMemoryEdit(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	b, err := session.OpenFileBackend(root)
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	src := memory.Sources{{ID: "x", Name: "sales.csv", Content: "1"}}
	fact := memory.NewFact(memory.OriginQuestion, "Do refunds count as negative revenue?", "yes", src, "20261130-090000-aaaaaa", day)
	answer := memory.NewAnswer("Total revenue?", "250", "# Report", src, memory.Settings{Route: "auto"}, "20261130-100000-bbbbbb", day.Add(time.Hour))
	for _, e := range []memory.Entry{fact, answer} {
		if err := b.Memory.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	deps := testSessionsDeps(false)
	io, _, errOut := testIO()
	if err := runMemoryEdit(ctx, io, &memoryEditOptions{sessionsStoreOptions: sessionsStoreOptions{SessionsDir: root}, ID: fact.ID, Text: "no, refunds are left out"}, deps); err != nil {
		t.Fatal(err)
	}
	if want := "Edited " + fact.ID + `: "Do refunds count as negative revenue?" → no, refunds are left out` + "\n"; errOut.String() != want {
		t.Errorf("said %q, want %q", errOut, want)
	}
	got, err := b.Memory.Get(ctx, fact.ID)
	if err != nil || got.Answer != "no, refunds are left out" || !got.Edited.Equal(deps.now().UTC()) {
		t.Errorf("after edit: %+v %v", got, err)
	}
	for _, tc := range []struct{ id, text, want string }{
		{answer.ID, "251", "is an answer Sift computed"},
		{fact.ID, " ", "is empty"},
		{"f-00000000000000000000", "x", "no such memory entry"},
		{"nope", "x", "sift memory list shows the IDs"},
	} {
		io, _, errOut := testIO()
		if code := execute(ctx, io, []string{"memory", "edit", "--sessions-dir", root, tc.id, tc.text}); code != exitUsage || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("edit %s %q: exit %d, %q; want %d and %q", tc.id, tc.text, code, errOut, exitUsage, tc.want)
		}
	}
	if got, _ := b.Memory.Get(ctx, answer.ID); got.Answer != "250" {
		t.Errorf("an answer must not be edited: %q", got.Answer)
	}
}
