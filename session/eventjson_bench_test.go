package session

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// benchEvents are the events of a real run: the offline demo (`sift run
// --script examples/demo/script.json --file examples/data/sales.csv`),
// plans, tool calls with code, results, usage, the report.
func benchEvents(b *testing.B) [][]byte {
	raw, err := os.ReadFile("testdata/events.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	return bytes.Split(bytes.TrimSpace(raw), []byte("\n"))
}

// BenchmarkEventJSON compares sonic (as configured for the event log)
// with encoding/json on a real event stream, encoding and decoding every
// event of it once per op.
func BenchmarkEventJSON(b *testing.B) {
	lines := benchEvents(b)
	var events []wireEvent
	for _, l := range lines {
		var w wireEvent
		if err := json.Unmarshal(l, &w); err != nil {
			b.Fatal(err)
		}
		events = append(events, w)
	}
	size := 0
	for _, l := range lines {
		size += len(l)
	}
	codecs := []struct {
		name      string
		marshal   func(any) ([]byte, error)
		unmarshal func([]byte, any) error
	}{
		{"sonic", eventJSON.Marshal, eventJSON.Unmarshal},
		{"encoding_json", json.Marshal, json.Unmarshal},
	}
	for _, c := range codecs {
		b.Run("marshal/"+c.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for i := range events {
					if _, err := c.marshal(events[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run("unmarshal/"+c.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, l := range lines {
					var w wireEvent
					if err := c.unmarshal(l, &w); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
