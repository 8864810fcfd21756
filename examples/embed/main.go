// Command embed shows how a Go program or service embeds Sift as a library:
// it builds one Sift instance, runs a question on examples/data/sales.csv,
// follows the run's events as they come, then reads the CSV the run wrote
// under out/ and turns it into the service's own response, printed as JSON.
//
//	go run ./examples/embed
//	go run ./examples/embed -sessions /tmp/sift
//
// Without model settings it plays the embedded script.json: a scripted model
// (no model is called) whose Python still runs for real on the data. With
// SIFT_BASE_URL, SIFT_API_KEY and SIFT_MODEL set (or a Sift config file), a
// real model does the work.
package main

import (
	"context"
	_ "embed"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/examples/internal/exampleenv"
)

//go:embed script.json
var script []byte

const (
	defaultQuestion = "Which product brought in the most revenue in 2024? Save units and revenue per product to out/revenue_by_product.csv with the columns product, units, revenue, share_pct (share of total revenue in percent), highest revenue first."
	// resultCSV is the deliverable the question asks for, relative to the
	// session workspace.
	resultCSV = "out/revenue_by_product.csv"
	// runTimeout bounds one run, as a service would bound a request.
	runTimeout = 10 * time.Minute
)

// ProductRevenue is one row of the run's revenue_by_product.csv.
type ProductRevenue struct {
	Product  string  `json:"product"`
	Units    int     `json:"units"`
	Revenue  float64 `json:"revenue"`
	SharePct float64 `json:"share_pct"`
}

// Response is what the service hands its own client: the run's answer, the
// data read back from its output file, and where the full report is.
type Response struct {
	Question   string           `json:"question"`
	Answer     string           `json:"answer"`
	TopProduct ProductRevenue   `json:"top_product"`
	Products   []ProductRevenue `json:"products"`
	Artifacts  []string         `json:"artifacts"`
	Report     string           `json:"report"`
	ModelCalls int              `json:"model_calls"`
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := run(ctx, os.Args[1:], os.Stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "embed:", err)
		os.Exit(1)
	}
}

// run runs the example with its command-line arguments and returns the
// response it printed.
func run(ctx context.Context, args []string, stdout io.Writer) (*Response, error) {
	fs := flag.NewFlagSet("embed", flag.ContinueOnError)
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

	// One Sift instance serves many runs; build it once at start-up.
	models, label, err := exampleenv.Models(ctx, script)
	if err != nil {
		return nil, err
	}
	root, cleanup, err := exampleenv.SessionsRoot(*sessions, "embed")
	if err != nil {
		return nil, err
	}
	defer cleanup(stdout)
	fmt.Fprintf(stdout, "model: %s\nsessions: %s\n", label, root)
	sift, err := agents.New(agents.Config{
		Models:       models,
		SessionsRoot: root,
		// Python is left empty: Sift finds an interpreter with pandas and
		// matplotlib itself ($SIFT_PYTHON, /usr/bin/python3, then PATH).
		CodeTimeout:   time.Minute,
		MaxIterations: 6,
	})
	if err != nil {
		return nil, fmt.Errorf("build Sift: %w", err)
	}

	// Per request: bound the run, follow its events, keep what the
	// response needs. Breaking out of the loop would cancel the run.
	ctx, cancel := context.WithTimeout(ctx, runTimeout)
	defer cancel()
	var (
		done      event.Event
		artifacts []string
	)
	// ModePlan: the example shows the agents' plan-execute-replan loop (its
	// offline script is written for it); ModeAuto would answer requests that
	// match a built-in analysis without any model.
	for e := range sift.Run(ctx, agents.Request{Mode: agents.ModePlan, Question: *question, Files: []string{sales}}) {
		exampleenv.Print(stdout, e)
		if e.Kind == event.Artifact {
			artifacts = append(artifacts, e.Path)
		}
		done = e // the last event is always EventDone
	}
	if done.Err != nil {
		return nil, fmt.Errorf("the run failed: %w", done.Err)
	}

	// The run's files are plain files in its workspace: read them back.
	products, err := readProducts(filepath.Join(done.Path, filepath.FromSlash(resultCSV)))
	if err != nil {
		return nil, fmt.Errorf("read the run's result (see %s): %w", filepath.Join(done.Path, "report.md"), err)
	}
	resp := &Response{
		Question:   *question,
		TopProduct: products[0],
		Products:   products,
		Artifacts:  artifacts,
		Report:     filepath.Join(done.Path, "report.md"),
	}
	if done.Plan != nil && done.Plan.Result != nil {
		resp.Answer = done.Plan.Result.Answer
	}
	if done.Usage != nil {
		resp.ModelCalls = done.Usage.Calls
	}
	fmt.Fprintln(stdout, "\nservice response:")
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp); err != nil {
		return nil, fmt.Errorf("write the response: %w", err)
	}
	return resp, nil
}

// errBadResult: the run's CSV is not the table the question asked for.
var errBadResult = errors.New("the result file is not the table asked for")

// readProducts reads revenue_by_product.csv by its header names, so a model
// that orders the columns differently still works, and returns the rows
// highest revenue first. product and revenue are required; units may be
// missing, and share_pct is computed when it is.
func readProducts(path string) ([]ProductRevenue, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(rows) < 2 {
		return nil, fmt.Errorf("%w: %s has no data rows", errBadResult, path)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[strings.ToLower(strings.TrimSpace(name))] = i
	}
	for _, need := range []string{"product", "revenue"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("%w: %s has no %q column (columns: %s)", errBadResult, path, need, strings.Join(rows[0], ", "))
		}
	}
	num := func(row []string, name string, line int) (float64, error) {
		i, ok := col[name]
		if !ok || i >= len(row) {
			return 0, nil
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(row[i]), 64)
		if err != nil {
			return 0, fmt.Errorf("%w: %s line %d: %s is %q, not a number", errBadResult, path, line, name, row[i])
		}
		return v, nil
	}
	var (
		out   []ProductRevenue
		total float64
	)
	_, hasShare := col["share_pct"]
	for n, row := range rows[1:] {
		line := n + 2
		p := ProductRevenue{Product: strings.TrimSpace(row[col["product"]])}
		var units float64
		if p.Revenue, err = num(row, "revenue", line); err != nil {
			return nil, err
		}
		if units, err = num(row, "units", line); err != nil {
			return nil, err
		}
		if p.SharePct, err = num(row, "share_pct", line); err != nil {
			return nil, err
		}
		p.Units = int(units)
		total += p.Revenue
		out = append(out, p)
	}
	if !hasShare && total != 0 {
		for i := range out {
			out[i].SharePct = math.Round(out[i].Revenue/total*1000) / 10
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Revenue > out[j].Revenue })
	return out, nil
}
