package tree

import (
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
)

// artifactEvent says the step st produced the file path. It carries the
// step without its file list: each artifact event names its own file, so
// a step with N files writes N events of one name each, not N events of
// N names (20,000 empty files once wrote 7.4 GB of events).
func artifactEvent(st plans.StepState, path string) event.Event {
	st.Files, st.FilesOmitted = nil, 0
	return event.Event{Kind: event.Artifact, Path: path, Step: &st}
}
