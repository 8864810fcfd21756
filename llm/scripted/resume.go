package scripted

import "strings"

// Played is what one earlier model call of a session answered, as its
// trajectory recorded it: the names of the tool calls it made, none for a
// text reply; Failed for a call that ended in an error.
type Played struct {
	ToolCalls []string
	Failed    bool
}

// ResumeAfter makes a script that an earlier process of the same session
// already played go on where it stopped: when played (the session's
// earlier calls, in order) matches the script's first replies call for
// call (the same tool names, text for text, an error for an error), those
// replies are skipped and it returns how many. A script that does not
// begin with what was played (one written for the rest of the session
// only) is left to play from its first reply, and it returns 0. A resumed
// scripted demo so runs the code its recording gives the step it resumes
// at, not the first step's.
func (s *Script) ResumeAfter(played []Played) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.used > 0 || len(played) == 0 || len(played) > len(s.replies) {
		return 0
	}
	for i, p := range played {
		if s.replies[i].shape() != p.shape() {
			return 0
		}
	}
	s.used = len(played)
	return s.used
}

// shape is what a reply does, for ResumeAfter: "error", "text", or the
// names of its tool calls; "?" when it depends on the request and is not
// known before it is played.
func (r Reply) shape() string {
	switch {
	case r.Err != nil || r.Status != 0:
		return "error"
	case r.file != nil:
		return callShape(r.file.toolNames())
	case r.Message != nil:
		var names []string
		for _, tc := range r.Message.ToolCalls {
			names = append(names, tc.Function.Name)
		}
		return callShape(names)
	}
	return "?"
}

func (p Played) shape() string {
	if p.Failed {
		return "error"
	}
	return callShape(p.ToolCalls)
}

func callShape(names []string) string {
	if len(names) == 0 {
		return "text"
	}
	return "calls:" + strings.Join(names, ",")
}

func (fr *FileReply) toolNames() []string {
	var names []string
	for _, tc := range fr.ToolCalls {
		names = append(names, tc.Name)
	}
	return names
}
