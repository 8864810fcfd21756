package conversation

import (
	"context"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/adk/prebuilt/supervisor"
	"github.com/cloudwego/eino/components/model"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/tools/sqldb"
)

// Config is what one turn's agents are built from.
type Config struct {
	// Supervisor and SQL are the models of the supervisor and the SQL
	// analyst, wrapped (metered) by the caller.
	Supervisor, SQL model.ToolCallingChatModel
	// Sources are the databases the SQL analyst queries; without them it
	// is not offered.
	Sources *sqldb.Sources
	// Op is the session's operator: the SQL analyst saves results and
	// draws charts through it.
	Op operator.Operator
	// Python says Python works: the data analyst is offered and the SQL
	// analyst draws charts.
	Python bool
	// DataContext is the preview of the session's files; "" without files.
	DataContext string
	// State is the turn's shared state (see NewState).
	State *State
	// History is the conversation so far, oldest first.
	History []Turn
	// SQLExamples, when set, is the SQL that worked in earlier sessions on
	// the databases, for the SQL analyst's request (bounded by the
	// caller); "" when there is none.
	SQLExamples func(request string) string
}

// Build builds one turn's agents: the supervisor over the SQL analyst
// (with databases) and the data analyst's handoff (with Python). A
// transfer to the data analyst exits the supervisor: the caller runs the
// analysis (State.Routed says so). It fails with ErrNoAnalyst when
// neither analyst can work.
func Build(ctx context.Context, cfg Config) (adk.Agent, error) {
	var subs []adk.Agent
	var infos []prompt.Analyst
	if cfg.Sources != nil && cfg.Sources.Len() > 0 {
		sa, err := newSQLAnalyst(ctx, sqlAnalystConfig{
			model: cfg.SQL, sources: cfg.Sources, op: cfg.Op,
			turn: cfg.State, history: cfg.History, charts: cfg.Python, examples: cfg.SQLExamples,
		})
		if err != nil {
			return nil, err
		}
		subs = append(subs, sa)
		infos = append(infos, prompt.Analyst{Name: NameSQLAnalyst, Description: prompt.SQLAnalystDescription})
	}
	if cfg.Python {
		subs = append(subs, dataAnalystHandoff{})
		infos = append(infos, prompt.Analyst{Name: NameDataAnalyst, Description: prompt.DataAnalystDescription})
	}
	if len(subs) == 0 {
		return nil, fmt.Errorf("%w: attach a database or make Python available", ErrNoAnalyst)
	}
	data := dataSummary(ctx, cfg, cfg.State.Question())
	sup, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name:          NameSupervisor,
		Description:   "routes each turn of the conversation to an analyst, or answers, asks or declines itself",
		Model:         cfg.Supervisor,
		MaxIterations: supervisorIterations,
		GenModelInput: func(_ context.Context, _ string, in *adk.AgentInput) ([]adk.Message, error) {
			// The instruction Eino passes lists the analysts and asks for
			// the bare transfer call; the supervisor's own prompt asks
			// for the rewritten request beside it, so it replaces it.
			return prompt.Supervisor(infos, data, in.Messages), nil
		},
		Middlewares: []adk.AgentMiddleware{{AfterChatModel: func(_ context.Context, st *adk.ChatModelAgentState) error {
			if n := len(st.Messages); n > 0 {
				cfg.State.observeSupervisor(st.Messages[n-1])
			}
			return nil
		}}},
	})
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", NameSupervisor, err)
	}
	root, err := supervisor.New(ctx, &supervisor.Config{Supervisor: sup, SubAgents: subs})
	if err != nil {
		return nil, fmt.Errorf("build the conversation's agents: %w", err)
	}
	return root, nil
}

// dataSummary is what the supervisor is shown of the data: the databases'
// schema most relevant to the question, and the files' previews.
func dataSummary(ctx context.Context, cfg Config, question string) string {
	var b strings.Builder
	if cfg.Sources != nil && cfg.Sources.Len() > 0 {
		text, err := cfg.Sources.Context(ctx, question, supervisorSchemaTokens)
		if err != nil {
			text = "Databases: " + strings.Join(cfg.Sources.Names(), ", ") + " (the schema could not be read: " + err.Error() + ")"
		}
		b.WriteString(strings.TrimSpace(text) + "\n")
	}
	if cfg.DataContext != "" {
		b.WriteString("Files:\n" + prompt.Shorten(cfg.DataContext, supervisorFileChars) + "\n")
	}
	return b.String()
}

// dataAnalystHandoff is the plan-execute analyst as the supervisor sees
// it: a transfer to it ends the supervisor's part of the turn, and the
// turn goes on through Sift's runner (in package agents), so the analyst
// behaves as every run does.
type dataAnalystHandoff struct{}

func (dataAnalystHandoff) Name(context.Context) string        { return NameDataAnalyst }
func (dataAnalystHandoff) Description(context.Context) string { return prompt.DataAnalystDescription }

func (dataAnalystHandoff) Run(context.Context, *adk.AgentInput, ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	// Exit ends the supervisor's turn here: the runner takes over.
	return tree.Once(&adk.AgentEvent{AgentName: NameDataAnalyst, Action: adk.NewExitAction()})
}
