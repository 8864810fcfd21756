package agents

import (
	"github.com/sift-agent/sift/internal/golden"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/report"
)

// Names the runner's tests script and check, defined where their code
// now lives (the agent tree, the report).
const (
	toolCreatePlan   = tree.ToolCreatePlan
	toolSubmitResult = tree.ToolSubmitResult
	unverifiedMark   = tree.UnverifiedMark
)

var (
	interruptOf  = tree.InterruptOf
	noResultNote = report.NoResultNote
)

// checkGolden and render are the shared golden-file helpers.
var (
	checkGolden = golden.Check
	render      = golden.Messages
)
