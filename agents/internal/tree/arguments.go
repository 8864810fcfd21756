package tree

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cloudwego/eino/adk"

	"github.com/sift-agent/sift/plans"
)

// CheckArguments reads a forced tool call's arguments as the agents will:
// a plan as plans.Plan, a final answer as plans.SubmitResult (both
// lenient: numbers as strings, one value for a list, null for nothing).
// What they cannot read goes back to the model (llm.WithArgumentCheck)
// instead of ending the run with the framework's "unmarshal plan error".
func CheckArguments(tool, args string) error {
	switch tool {
	case ToolCreatePlan:
		var p plans.Plan
		if err := json.Unmarshal([]byte(args), &p); err != nil {
			return fmt.Errorf("%v; give {\"steps\": [{\"index\": 1, \"description\": \"...\", \"needs\": []}]}", err)
		}
	case ToolSubmitResult:
		var r plans.SubmitResult
		if err := json.Unmarshal([]byte(args), &r); err != nil {
			return fmt.Errorf("%v; give {\"answer\": \"...\", \"findings\": [\"...\"], \"files\": [\"out/...\"]}", err)
		}
	}
	return nil
}

// stepFailure is why a step that ended in error failed, in a sentence a
// person understands: the framework's own words ("exceeds max
// iterations") say nothing to them.
func stepFailure(err error) string {
	if errors.Is(err, adk.ErrExceedMaxIterations) {
		return "it reached its limit of tool calls for one step without finishing; a smaller step, or a more specific request, may get further"
	}
	return err.Error()
}
