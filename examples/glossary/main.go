// Command glossary shows the extension points a service that embeds Sift
// has: it adds its own tool (fx_rate, a stand-in for an internal treasury
// API), a glossary of its terms (AOV) and a standing instruction (money in
// EUR) to the agents, then asks for the average order value of 2024 in
// euros. The planner, executor and code agent see the glossary and the
// instruction in their system prompts; the executor calls fx_rate through
// the same wrappers and approval policy as Sift's own tools.
//
//	go run ./examples/glossary
//	go run ./examples/glossary -sessions /tmp/sift
//
// Without model settings it plays the embedded script.json: a scripted
// model (no model is called) whose fx_rate call and Python still run for
// real. With SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL set, a real model
// does the work.
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
	"strings"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/examples/internal/exampleenv"
)

//go:embed script.json
var script []byte

const defaultQuestion = "What was our AOV in 2024, in euros?"

// treasuryRates stand in for the service's internal API: how many units
// of each currency one US dollar buys.
var treasuryRates = map[string]float64{"EUR": 0.92, "GBP": 0.79, "CNY": 7.2}

// FXArgs are fx_rate's arguments.
type FXArgs struct {
	Currency string `json:"currency" jsonschema:"description=ISO 4217 code of the target currency, e.g. EUR"`
}

// fxRate is the service's own tool, built like any Eino tool.
func fxRate(calls *int) (tool.BaseTool, error) {
	return utils.InferTool("fx_rate", "The treasury's official rate: how many units of a currency one US dollar buys.",
		func(_ context.Context, a FXArgs) (string, error) {
			*calls++
			code := strings.ToUpper(strings.TrimSpace(a.Currency))
			r, ok := treasuryRates[code]
			if !ok {
				return "", fmt.Errorf("no treasury rate for %q; known: EUR, GBP, CNY", a.Currency)
			}
			return fmt.Sprintf("1 USD = %.2f %s (treasury rate)", r, code), nil
		})
}

// Result is what the example returns to its caller (and its test).
type Result struct {
	Answer    string
	Report    string
	FXCalls   int
	Done      event.Event
	Workspace string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := run(ctx, os.Args[1:], os.Stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "glossary:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) (*Result, error) {
	fs := flag.NewFlagSet("glossary", flag.ContinueOnError)
	fs.SetOutput(stdout)
	question := fs.String("question", defaultQuestion, "the question to ask about sales.csv")
	sessions := fs.String("sessions", "", "directory for session workspaces (default: a temporary directory, removed after the run unless $SIFT_EXAMPLE_KEEP is set)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q; see -h", fs.Args())
	}
	sales, err := exampleenv.DataFile("sales.csv")
	if err != nil {
		return nil, err
	}
	models, label, err := exampleenv.Models(ctx, script)
	if err != nil {
		return nil, err
	}
	root, cleanup, err := exampleenv.SessionsRoot(*sessions, "glossary")
	if err != nil {
		return nil, err
	}
	defer cleanup(stdout)
	fmt.Fprintf(stdout, "model: %s\nsessions: %s\n", label, root)

	res := &Result{}
	fx, err := fxRate(&res.FXCalls)
	if err != nil {
		return nil, err
	}
	sift, err := agents.New(agents.Config{
		Models:       models,
		SessionsRoot: root,
		CodeTimeout:  time.Minute,
		Extensions: agents.Extensions{
			ExecutorTools: []tool.BaseTool{fx},
			Instructions:  "Report money in EUR, converted with the fx_rate tool; never guess an exchange rate.",
			Glossary: map[string]string{
				"AOV": "average order value: revenue divided by the number of order lines (rows of sales.csv)",
			},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("build Sift: %w", err)
	}
	for e := range sift.Run(ctx, agents.Request{Mode: agents.ModePlan, Question: *question, Files: []string{sales}}) {
		exampleenv.Print(stdout, e)
		res.Done = e
	}
	if res.Done.Err != nil {
		return res, fmt.Errorf("the run failed: %w", res.Done.Err)
	}
	res.Workspace = res.Done.Path
	if r := res.Done.Plan.Result; r != nil {
		res.Answer = r.Answer
	}
	b, err := os.ReadFile(res.Done.Path + "/report.md")
	if err != nil {
		return res, fmt.Errorf("read the report: %w", err)
	}
	res.Report = string(b)
	fmt.Fprintf(stdout, "\nanswer: %s\nfx_rate calls: %d\n", res.Answer, res.FXCalls)
	return res, nil
}
