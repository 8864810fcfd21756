// Command ownrunner shows how a service that runs Eino agents itself puts
// Sift's analysis agent among its own: agents.Sift.NewAgent returns an
// adk.Agent, which this program places first in a SequentialAgent of its
// own, before its own reply agent, and runs under its own adk.Runner. The
// reply agent reads Sift's answer from the session (plans.FullPlanKey)
// and writes the service's reply.
//
//	go run ./examples/ownrunner
//
// Without model settings it plays the embedded script.json: a scripted
// model (no model is called) whose Python still runs for real on
// examples/data/sales.csv. With SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL
// set (or a Sift config file), a real model does the work.
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/examples/internal/exampleenv"
	"github.com/sift-agent/sift/plans"
)

//go:embed script.json
var script []byte

const defaultQuestion = "Which product brought in the most revenue in 2024? Save the revenue per product to out/revenue_by_product.csv."

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := run(ctx, os.Args[1:], os.Stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "ownrunner:", err)
		os.Exit(1)
	}
}

// run runs the example and returns the service's reply.
func run(ctx context.Context, args []string, stdout io.Writer) (string, error) {
	fs := flag.NewFlagSet("ownrunner", flag.ContinueOnError)
	fs.SetOutput(stdout)
	question := fs.String("question", defaultQuestion, "the question to ask about sales.csv")
	sessions := fs.String("sessions", "", "directory for session workspaces (default: a temporary directory, removed after the run unless $SIFT_EXAMPLE_KEEP is set)")
	if err := fs.Parse(args); err != nil {
		return "", err
	}
	if fs.NArg() > 0 {
		return "", fmt.Errorf("unexpected arguments %q; see -h", fs.Args())
	}
	sales, err := exampleenv.DataFile("sales.csv")
	if err != nil {
		return "", err
	}
	models, label, err := exampleenv.Models(ctx, script)
	if err != nil {
		return "", err
	}
	root, cleanup, err := exampleenv.SessionsRoot(*sessions, "ownrunner")
	if err != nil {
		return "", err
	}
	defer cleanup(stdout)
	fmt.Fprintf(stdout, "model: %s\nsessions: %s\n", label, root)
	s, err := agents.New(agents.Config{Models: models, SessionsRoot: root, CodeTimeout: time.Minute, MaxIterations: 6})
	if err != nil {
		return "", fmt.Errorf("build Sift: %w", err)
	}

	// Sift's agent over one session workspace holding the data.
	analyst, err := s.NewAgent(ctx, agents.AgentConfig{Files: []string{sales}, Parallel: 1})
	if err != nil {
		return "", fmt.Errorf("build Sift's agent: %w", err)
	}
	defer analyst.Close()

	// The service's own tree: Sift's agent, then the service's reply.
	service, err := adk.NewSequentialAgent(ctx, &adk.SequentialAgentConfig{
		Name:        "service",
		Description: "answers a question about the sales data, then replies in the service's words",
		SubAgents:   []adk.Agent{analyst, replyAgent{}},
	})
	if err != nil {
		return "", err
	}
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: service})
	var reply string
	events := runner.Query(ctx, *question)
	for {
		ev, ok := events.Next()
		if !ok {
			break
		}
		if ev.Err != nil {
			return "", fmt.Errorf("the service's agents failed: %w", ev.Err)
		}
		if ev.Output == nil {
			continue
		}
		// Sift's steps and report come as its own events.
		if e, ok := ev.Output.CustomizedOutput.(*event.Event); ok {
			exampleenv.Print(stdout, *e)
		}
		if mo := ev.Output.MessageOutput; mo != nil && ev.AgentName == replyAgentName && mo.Message != nil {
			reply = mo.Message.Content
		}
	}
	if reply == "" {
		return "", errors.New("the service's reply agent said nothing")
	}
	fmt.Fprintf(stdout, "\nservice reply: %s\nfiles: %s\n", reply, analyst.Workdir())
	return reply, nil
}

const replyAgentName = "reply"

// replyAgent is the service's own agent after Sift's: it reads the plan
// Sift's agent left in the session and replies with its answer.
type replyAgent struct{}

func (replyAgent) Name(context.Context) string { return replyAgentName }
func (replyAgent) Description(context.Context) string {
	return "replies with the analysis's answer"
}

func (replyAgent) Run(ctx context.Context, _ *adk.AgentInput, _ ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	iter, gen := adk.NewAsyncIteratorPair[*adk.AgentEvent]()
	defer gen.Close()
	text := "The analysis gave no answer."
	if fp, ok := plans.FullPlanKey.Get(ctx); ok && fp.Result != nil {
		text = "Our analysts found: " + fp.Result.Answer
	}
	gen.Send(adk.EventFromMessage(schema.AssistantMessage(text, nil), nil, schema.Assistant, ""))
	return iter
}
