package params

import (
	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/adk/prebuilt/planexecute"
)

// Eino's planexecute session keys, typed once here: the planner, executor
// and replanner read and write them under these names, and Sift's stages
// that stand in for or wrap them (the step tracker, direct steps,
// branches, the plan owner) go through these keys, never the raw names.
var (
	// Plan is the plan the executor runs and the replanner replaces
	// (Sift's is a *plans.Plan).
	Plan = NewKey[planexecute.Plan](planexecute.PlanSessionKey)
	// ExecutedStep is the result of the step just executed, which the
	// replanner reads; it must be a string.
	ExecutedStep = NewKey[string](planexecute.ExecutedStepSessionKey)
	// UserInput is the person's request as the planner and replanner see
	// it.
	UserInput = NewKey[[]adk.Message](planexecute.UserInputSessionKey)
)
