package event

// SessionUsage is the usage of a whole session: every question asked in
// it and every run (a resume is a run of its own), summed.
type SessionUsage struct {
	// Usage sums all of them.
	Usage
	// Questions is each question's part, in order from question 1. It is
	// empty when the record names no questions.
	Questions []QuestionUsage `json:"questions,omitempty"`
	// Unreadable counts records that could not be read (cut short by a
	// crash); their calls are not in the sums.
	Unreadable int `json:"unreadable_records,omitempty"`
}

// QuestionUsage is the usage of one question of a session, over all the
// runs that worked on it.
type QuestionUsage struct {
	// Question is the question's place in the session, from 1.
	Question int `json:"question"`
	AgentUsage
}
