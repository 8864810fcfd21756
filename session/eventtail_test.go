package session

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sift-agent/sift/event"
)

func TestEventLogSeqContinuesAfterReopen(t *testing.T) {
	tests := []struct {
		name    string
		before  string
		wantSeq int64 // of the first event appended after reopening
	}{
		{"new log", "", 1},
		{"numbered log", `{"kind":"message","seq":7,"time":"2026-11-22T02:06:55Z"}` + "\n", 8},
		{"log from before numbering", `{"kind":"message","time":"2026-11-22T02:06:55Z"}` + "\n" + `{"kind":"done","time":"2026-11-22T02:06:56Z"}` + "\n", 3},
		{"crash-cut last line", `{"kind":"message","seq":4,"time":"2026-11-22T02:06:55Z"}` + "\n" + `{"kind":"mess`, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), EventsFile)
			writeFile(t, path, tt.before)
			for round := range 2 {
				l, err := OpenEventLog(path)
				if err != nil {
					t.Fatal(err)
				}
				got, err := l.Record(event.Event{Kind: event.Session, Time: t0})
				if err != nil {
					t.Fatal(err)
				}
				if want := tt.wantSeq + int64(round); got.Seq != want {
					t.Errorf("round %d: Record gave seq %d, want %d", round, got.Seq, want)
				}
				_ = l.Close()
			}
			evs, err := ReadEvents(path)
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i < len(evs); i++ {
				if evs[i].Seq != evs[i-1].Seq+1 {
					t.Errorf("seqs not consecutive: %d then %d", evs[i-1].Seq, evs[i].Seq)
				}
			}
		})
	}
}

func TestEventTailFollowsAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), EventsFile)
	tail := NewEventTail(path)
	if _, err := tail.Read(0); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Read of a missing log = %v, want fs.ErrNotExist", err)
	}
	l, err := OpenEventLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, e := range sampleEvents()[:3] {
		if err := l.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	got, err := tail.Read(2)
	if err != nil || len(got) != 2 || got[0].Event.Seq != 1 || got[1].Event.Seq != 2 {
		t.Fatalf("Read(2) = %d events, %v; want seqs 1 and 2", len(got), err)
	}
	// A line still being written waits for its newline.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"kind":"mess`); err != nil {
		t.Fatal(err)
	}
	got, err = tail.Read(0)
	if err != nil || len(got) != 1 || got[0].Event.Seq != 3 {
		t.Fatalf("Read = %+v, %v; want only seq 3", got, err)
	}
	if _, err := f.WriteString(`age","seq":4,"time":"2026-11-22T02:06:55Z"}` + "\n"); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	got, err = tail.Read(0)
	if err != nil || len(got) != 1 || got[0].Event.Seq != 4 || tail.Seq() != 4 {
		t.Fatalf("Read = %+v, %v; want the completed line, seq 4", got, err)
	}
	// Each line is what MarshalEvent gives for its event.
	want, _ := MarshalEvent(got[0].Event)
	if string(got[0].Line) != string(want) {
		t.Errorf("Line = %s, want %s", got[0].Line, want)
	}
}

// TestMarshalEventMatchesEncodingJSON: the log, `sift run --json` and the
// API's stream give the same bytes as encoding/json would for the event
// and its error text.
func TestMarshalEventMatchesEncodingJSON(t *testing.T) {
	for _, e := range sampleEvents() {
		e.Seq = 3
		got, err := MarshalEvent(e)
		if err != nil {
			t.Fatal(err)
		}
		w := wireEvent{Event: e}
		if e.Err != nil {
			w.Error = e.Err.Error()
		}
		want, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s event:\n got %s\nwant %s", e.Kind, got, want)
		}
		back, err := UnmarshalEvent(got)
		if err != nil {
			t.Fatal(err)
		}
		if (back.Err == nil) != (e.Err == nil) || back.Seq != 3 || back.Kind != e.Kind {
			t.Errorf("UnmarshalEvent(%s) = %+v", got, back)
		}
	}
}
