package session

import (
	"encoding/json"
	"errors"

	"github.com/bytedance/sonic"

	"github.com/sift-agent/sift/event"
)

// eventJSON decodes events (replaying a log, following one for a stream):
// sonic, configured to accept exactly what encoding/json does, decodes a
// real event stream 2-3 times faster (BenchmarkEventJSON). Encoding stays
// with encoding/json: sonic, configured to give the same bytes (which
// keeps the log, `sift run --json` and the API's stream identical), was
// no faster there.
var eventJSON = sonic.ConfigStd

// wireEvent is an event as it is written down: the event and, since Err
// is not part of its JSON, the error's message.
type wireEvent struct {
	event.Event
	Error string `json:"error,omitempty"`
}

// MarshalEvent encodes e as one line of the event log: the JSON object
// that `sift run --json` prints and the HTTP API streams, with "error"
// holding Err's message when there is one.
func MarshalEvent(e event.Event) ([]byte, error) {
	w := wireEvent{Event: e}
	if e.Err != nil {
		w.Error = e.Err.Error()
	}
	return json.Marshal(w)
}

// UnmarshalEvent decodes what MarshalEvent encoded; Err comes back from
// "error", or, in logs written before that field, from an error event's
// text.
func UnmarshalEvent(b []byte) (event.Event, error) {
	var w wireEvent
	if err := eventJSON.Unmarshal(b, &w); err != nil {
		return event.Event{}, err
	}
	e := w.Event
	switch {
	case w.Error != "":
		e.Err = errors.New(w.Error)
	case e.Kind == event.Error && e.Text != "":
		e.Err = errors.New(e.Text)
	}
	return e, nil
}
