package agents

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm/trajectory"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/session"
)

// AgentConfig says what Sift's agent works on when a service runs it
// itself (see Sift.NewAgent).
type AgentConfig struct {
	// SessionID names the session workspace the agent works in: created
	// when new, reused when it exists. Optional; generated when empty.
	SessionID string
	// Files and Dirs are copied into the session's input/. Optional.
	Files, Dirs []string
	// Yes runs unattended, as Request.Yes. Optional.
	Yes bool
	// Parallel bounds the plan steps run at the same time, as
	// Request.Parallel. Optional.
	Parallel int
	// Budget bounds what the agent may spend, as Request.Budget. Optional.
	Budget Budget
}

// Agent is Sift's analysis agent as an Eino ADK agent — the planner, the
// execute/replan loop and the report writer over one session workspace —
// for a service that runs agents itself: under its own adk.Runner, as a
// sub-agent of its supervisor, or as one agent of its SequentialAgent.
//
// It takes the question from the last user message of its input, and
// leaves the plan, with the answer in its Result, in the session value
// plans.FullPlanKey for the agents after it; its files are in Workdir.
// Its step and report events carry a *event.Event as
// CustomizedOutput. Sift.Run remains the simpler way for one question:
// it records the session and yields Sift's own events.
//
// Create it with Sift.NewAgent; Close it when done.
type Agent struct {
	r           *run
	tree        adk.ResumableAgent
	inputs      []string
	dataContext string
}

// NewAgent opens (or creates) the session workspace cfg names, copies the
// inputs into it, starts the Python operator and builds Sift's agent tree
// over them. It fails with ErrNoModel without a model.
func (s *Sift) NewAgent(ctx context.Context, cfg AgentConfig) (*Agent, error) {
	if !s.hasModel() {
		return nil, fmt.Errorf("%w: Sift's agent plans and writes code with a language model; give agents.Config.Models", ErrNoModel)
	}
	r := s.newRun(Request{SessionID: cfg.SessionID, Files: cfg.Files, Dirs: cfg.Dirs, Yes: cfg.Yes, Parallel: cfg.Parallel, Budget: cfg.Budget}, func(event.Event) bool { return true })
	a := &Agent{r: r}
	if err := a.open(ctx); err != nil {
		_ = a.Close()
		return nil, err
	}
	return a, nil
}

// open does for the agent what prepare does for a run, without a question.
func (a *Agent) open(ctx context.Context) error {
	r := a.r
	if err := checkInputs(r.req); err != nil {
		return err
	}
	id := cmp.Or(r.req.SessionID, session.NewID())
	ws, err := session.Create(ctx, r.sift.cfg.SessionsRoot, id)
	if errors.Is(err, session.ErrWorkspaceExists) {
		ws, err = session.Open(r.sift.cfg.SessionsRoot, id)
	}
	if err != nil {
		return fmt.Errorf("open the agent's session workspace: %w", err)
	}
	r.ws = ws
	for _, f := range r.req.Files {
		if _, err := ws.AddInput(ctx, f); err != nil {
			return err
		}
	}
	for _, d := range r.req.Dirs {
		if _, err := ws.AddInputDir(ctx, d); err != nil {
			return fmt.Errorf("add input directory: %w", err)
		}
	}
	if r.trajectory, err = trajectory.Open(ws.Path(trajectoryFile), trajectory.Config{}); err != nil {
		return err
	}
	if a.inputs, err = ws.Inputs(); err != nil {
		return err
	}
	if r.op, _, err = r.newOperator(ctx, false); err != nil {
		return err
	}
	r.warmKernel(ctx)
	abs := make([]string, len(a.inputs))
	for i, p := range a.inputs {
		abs[i] = ws.Path(p)
	}
	r.addFilesSource(ctx, a.inputs)
	popts := r.sift.cfg.Preview
	popts.BaseDir = ws.Root
	previews := preview.Files(ctx, abs, popts)
	r.previews = previewed(previews)
	a.dataContext = r.describeInputs(previews, popts)
	a.tree, err = r.newTree(ctx, r.op, tree.NewBudgetGuard(r.req.Budget, r.meter, nil))
	return err
}

// Name is the tree's name, "sift".
func (a *Agent) Name(ctx context.Context) string { return a.tree.Name(ctx) }

// Description says what the agent does, for a supervisor choosing it.
func (a *Agent) Description(ctx context.Context) string { return a.tree.Description(ctx) }

// Run answers the question in the input's last user message.
func (a *Agent) Run(ctx context.Context, input *adk.AgentInput, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	question := questionOf(input)
	if question == "" {
		return tree.Once(&adk.AgentEvent{AgentName: tree.NameRoot, Err: fmt.Errorf("%w: Sift's agent takes the question from its input's last user message, and found none", ErrNoQuestion)})
	}
	r := a.r
	adk.AddSessionValues(ctx, treeValues(treeInput{
		question: question, dataContext: a.dataContext + r.databaseContext(ctx, question),
		inputs: a.inputs, workdir: r.ws.Root, mode: r.mode(), verbatim: r.sift.cfg.Verbatim,
		plan: &plans.FullPlan{Question: question},
	}))
	return a.tree.Run(ctx, &adk.AgentInput{Messages: []adk.Message{schema.UserMessage(question)}, EnableStreaming: input.EnableStreaming}, opts...)
}

// Resume goes on after the agent waited for the person (a question, an
// approval), from the embedder's Runner's checkpoint.
func (a *Agent) Resume(ctx context.Context, info *adk.ResumeInfo, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return a.tree.Resume(ctx, info, opts...)
}

// Workdir is the session workspace's absolute path: input/, out/, the
// report and plan.md.
func (a *Agent) Workdir() string { return a.r.ws.Root }

// Usage is what the agent's model calls have cost so far.
func (a *Agent) Usage() *event.Usage { return a.r.usage() }

// Close stops the agent's Python, MCP servers and databases. The session
// workspace stays.
func (a *Agent) Close() error {
	a.r.release()
	if a.r.trajectory != nil {
		return a.r.trajectory.Close()
	}
	return nil
}

// questionOf is the text of the input's last user message.
func questionOf(in *adk.AgentInput) string {
	if in == nil {
		return ""
	}
	for i := len(in.Messages) - 1; i >= 0; i-- {
		if m := in.Messages[i]; m != nil && m.Role == schema.User {
			return strings.TrimSpace(m.Content)
		}
	}
	return ""
}
