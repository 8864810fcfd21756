// Command planreview is a Sift example: a Go service that reviews Sift's
// plan through the library API before any code runs. It starts a run that
// waits for plan review, inspects the proposed steps, edits them (here: it
// asks for the per-product breakdown too), and resumes the run with its
// decision — as a web service would after a person clicked "edit".
//
//	go run ./examples/planreview
//
// Without model settings it plays the embedded script.json (a scripted
// model: no model is called; the Python runs for real on the example data).
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
	"path/filepath"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/examples/internal/exampleenv"
)

//go:embed script.json
var script []byte

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := run(ctx, os.Args[1:], os.Stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "planreview:", err)
		os.Exit(1)
	}
}

// run runs the example and returns the session workspace.
func run(ctx context.Context, args []string, stdout io.Writer) (string, error) {
	fs := flag.NewFlagSet("planreview", flag.ContinueOnError)
	fs.SetOutput(stdout)
	sessions := fs.String("sessions", "", "directory for session workspaces (default: a temporary directory, removed after the run unless $SIFT_EXAMPLE_KEEP is set)")
	if err := fs.Parse(args); err != nil {
		return "", err
	}
	root, cleanup, err := exampleenv.SessionsRoot(*sessions, "planreview")
	if err != nil {
		return "", err
	}
	defer cleanup(stdout)
	sales, err := exampleenv.DataFile("sales.csv")
	if err != nil {
		return "", err
	}
	models, label, err := exampleenv.Models(ctx, script)
	if err != nil {
		return "", err
	}
	fmt.Fprintln(stdout, "model:", label)
	sift, err := agents.New(agents.Config{Models: models, SessionsRoot: root})
	if err != nil {
		return "", err
	}

	// 1. Start the run; it stops after planning and waits for the review.
	var done event.Event
	for e := range sift.Run(ctx, agents.Request{Mode: agents.ModePlan, Question: "Which regions bring the most revenue?", Files: []string{sales}, ReviewPlan: true}) {
		exampleenv.Print(stdout, e)
		done = e
	}
	if done.Err != nil {
		return done.Path, done.Err
	}
	review := done.Interrupt
	if review == nil || review.Kind != event.InterruptPlanReview {
		return done.Path, fmt.Errorf("expected the run to wait for a plan review")
	}

	// 2. The service reviews the plan: it keeps the steps and widens the
	// first to the per-product breakdown its users also need.
	fmt.Fprintln(stdout, "service: reviewing the plan")
	var steps []string
	for _, s := range review.Plan.Steps {
		steps = append(steps, s.Description)
	}
	steps[0] = "Compute total revenue per region and per product from input/sales.csv, print both, and save out/revenue_by_region.csv"
	decision := &event.PlanDecision{Action: event.PlanEdit, Steps: steps}

	// 3. Resume the session with the decision (this works from another
	// process too: the checkpoint is in the session store).
	id := filepath.Base(done.Path)
	for e := range sift.Resume(ctx, id, map[string]any{review.ID: decision}) {
		exampleenv.Print(stdout, e)
		done = e
	}
	if done.Err != nil {
		return done.Path, done.Err
	}
	table, err := os.ReadFile(filepath.Join(done.Path, "out", "revenue_by_region.csv"))
	if err != nil {
		return done.Path, err
	}
	fmt.Fprintf(stdout, "out/revenue_by_region.csv:\n%s", table)
	return done.Path, nil
}
