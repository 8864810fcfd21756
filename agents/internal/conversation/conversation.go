// Package conversation holds the agents of Sift's conversation mode,
// reached through one entry, Build: the supervisor that routes each turn
// to the SQL analyst, to the data analyst or to its own reply, and the
// SQL analyst with its answer (result saved, chart, report). With them are
// what one turn's agents share (State) and the turns a session's history
// file keeps (Turn, LoadHistory, SaveHistory).
//
// Package agents holds the rest: the public Conversation, its session
// and operator, and the data analyst, which is a run of the one runner in
// the conversation's session. This package imports neither agents nor
// anything that does.
package conversation

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// The agents' names, the history file and the bounds of a turn.
const (
	// NameSupervisor is the supervisor's agent name.
	NameSupervisor = "supervisor"
	// NameDataAnalyst is the data analyst's: the plan-execute run.
	NameDataAnalyst = "data_analyst"
	// HistoryFile is the conversation's history in its session workspace,
	// from which a later process continues the conversation.
	HistoryFile = "conversation.json"
	// historyVersion is the format version of HistoryFile.
	historyVersion = 1
	// DefaultMaxHistoryTurns is how many earlier turns the supervisor
	// reads unless told otherwise.
	DefaultMaxHistoryTurns = 10
	supervisorIterations   = 3
	// supervisorSchemaTokens bounds the schema summary the supervisor
	// sees to spot ambiguous requests.
	supervisorSchemaTokens = 1200
	supervisorFileChars    = 4000
)

// Routes a turn can take, as recorded in Turn.Route.
const (
	// RouteSQL: the SQL analyst answered.
	RouteSQL = NameSQLAnalyst
	// RoutePlan: the plan-execute analyst answered from the files.
	RoutePlan = NameDataAnalyst
	// RouteReply: the supervisor replied itself: a plain answer, a
	// question back to the person, or a polite refusal.
	RouteReply = NameSupervisor
)

// ErrNoAnalyst: the conversation has neither a database nor Python, so no
// analyst can work.
var ErrNoAnalyst = errors.New("no analyst can work in this conversation")

// Turn is one question and what answered it.
type Turn struct {
	// Question is what the person wrote.
	Question string `json:"question"`
	// Request is the supervisor's self-contained rewrite of the question
	// that an analyst worked on; empty when the supervisor replied itself.
	Request string `json:"request,omitempty"`
	// Route is who answered: RouteSQL, RoutePlan or RouteReply.
	Route string `json:"route"`
	// Answer is the reply shown to the person.
	Answer   string   `json:"answer"`
	Findings []string `json:"findings,omitempty"`
	// SQL, Source, DataFile, Chart and FollowUps come from the SQL
	// analyst; paths are workspace-relative.
	SQL       string   `json:"sql,omitempty"`
	Source    string   `json:"source,omitempty"`
	DataFile  string   `json:"data_file,omitempty"`
	Chart     string   `json:"chart,omitempty"`
	FollowUps []string `json:"follow_ups,omitempty"`
	// Files are the files the turn produced, workspace-relative.
	Files []string `json:"files,omitempty"`
	// Report is the workspace-relative report.md the turn wrote, if any.
	Report string `json:"report,omitempty"`
	// Error says why the turn failed; empty on success.
	Error string `json:"error,omitempty"`
	// Pending: the data analyst waits for the person's answer (sift
	// resume gives it); the answer is filled in once the session is done.
	Pending bool      `json:"pending,omitempty"`
	Time    time.Time `json:"time"`
}

// PromptTurns is what the conversation prompts show of turns.
func PromptTurns(turns []Turn) []prompt.Turn {
	out := make([]prompt.Turn, len(turns))
	for i, t := range turns {
		out[i] = prompt.Turn{Question: t.Question, Request: t.Request, Route: t.Route, Answer: t.Answer, SQL: t.SQL, Findings: t.Findings, FollowUps: t.FollowUps}
	}
	return out
}

// history is the JSON form of HistoryFile.
type history struct {
	Version int    `json:"version"`
	Turns   []Turn `json:"turns"`
}

// LoadHistory reads a conversation's history; a missing file is an empty
// history.
func LoadHistory(p string) ([]Turn, error) {
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read conversation history: %w", err)
	}
	var h history
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, fmt.Errorf("read conversation history %s: %w; the file is damaged: move it away to start the conversation afresh", p, err)
	}
	if h.Version > historyVersion {
		return nil, fmt.Errorf("read conversation history %s: format version %d is newer than this Sift reads (%d); update Sift", p, h.Version, historyVersion)
	}
	return h.Turns, nil
}

// SaveHistory writes turns as ws's history file, atomically.
func SaveHistory(ws *session.Workspace, turns []Turn) error {
	data, err := json.MarshalIndent(history{Version: historyVersion, Turns: turns}, "", "  ")
	if err != nil {
		return fmt.Errorf("save conversation history: %w", err)
	}
	return ws.WriteFileAtomic(HistoryFile, data)
}

// State is what one turn's agents share: the question, the
// supervisor's route and rewritten request, and the analysts' results.
// It is safe for concurrent use.
type State struct {
	mu       sync.Mutex
	question string
	request  string
	route    string
	reply    string
	sql      *sqlAnswer
	plan     *plans.FullPlan
}

// NewState starts the state of a turn asking question.
func NewState(question string) *State { return &State{question: question} }

// Question is what the person asked.
func (t *State) Question() string { return t.question }

// observeSupervisor records the supervisor's reply: a transfer with the
// rewritten request beside it, or its own text.
func (t *State) observeSupervisor(msg *schema.Message) {
	if msg == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, tc := range msg.ToolCalls {
		if tc.Function.Name != adk.TransferToAgentToolName {
			continue
		}
		var args struct {
			AgentName string `json:"agent_name"`
		}
		if json.Unmarshal([]byte(tc.Function.Arguments), &args) == nil && args.AgentName != "" {
			t.route = args.AgentName
		}
		if c := strings.TrimSpace(msg.Content); c != "" {
			t.request = c
		}
		return
	}
	if c := strings.TrimSpace(msg.Content); c != "" {
		t.reply = c
	}
}

// RequestText is the request an analyst works on: the supervisor's
// rewrite, or the question itself when it wrote none.
func (t *State) RequestText() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.request != "" {
		return t.request
	}
	return t.question
}

// Routed is the analyst the supervisor transferred to, or "".
func (t *State) Routed() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.route
}

func (t *State) setSQL(a *sqlAnswer) {
	t.mu.Lock()
	t.sql = a
	t.mu.Unlock()
}

// SetPlan records the plan the data analyst's run ended with.
func (t *State) SetPlan(fp *plans.FullPlan) {
	t.mu.Lock()
	t.plan = fp
	t.mu.Unlock()
}

// Plan is the plan the data analyst's run ended with, or nil.
func (t *State) Plan() *plans.FullPlan {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.plan
}

// Record turns the state into the Turn kept in the history.
func (t *State) Record() Turn {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := Turn{Question: t.question, Time: time.Now().UTC()}
	switch {
	case t.sql != nil:
		s := t.sql
		out.Route, out.Request = RouteSQL, t.request
		out.Answer, out.Findings, out.SQL, out.Source = s.Answer, s.Findings, s.SQL, s.Source
		out.DataFile, out.Chart, out.FollowUps, out.Report = s.DataFile, s.Chart, s.FollowUps, s.Report
		for _, p := range []string{s.DataFile, s.Chart} {
			if p != "" {
				out.Files = append(out.Files, p)
			}
		}
	case t.plan != nil && t.route == NameDataAnalyst:
		out.Route, out.Request = RoutePlan, t.request
		if r := t.plan.Result; r != nil {
			out.Answer, out.Findings, out.Files = r.Answer, r.Findings, r.Files
		}
	case t.route != "":
		// Transferred, but the analyst did not finish.
		out.Route, out.Request = t.route, t.request
	default:
		out.Route, out.Answer = RouteReply, t.reply
	}
	return out
}
