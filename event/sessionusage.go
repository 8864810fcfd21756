package event

import "github.com/sift-agent/sift/usage"

// SessionUsage is the usage of a whole session, every question and run
// summed (usage.SessionUsage).
type SessionUsage = usage.SessionUsage

// QuestionUsage is the usage of one question of a session
// (usage.QuestionUsage).
type QuestionUsage = usage.QuestionUsage
