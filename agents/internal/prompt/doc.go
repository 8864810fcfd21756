// Package prompt owns the agents' prompts and the model input built from
// them: the planner's, code agent's, replanner's, report writer's and SQL
// analyst's instructions (versioned by Version, pinned by the golden files
// in testdata/prompts), the task and data views the tree hands each agent,
// what a run offers the executor, and the chart review. A prompt change is
// tested here with no Python and no model.
package prompt
