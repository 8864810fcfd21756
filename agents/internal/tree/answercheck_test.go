package tree

import (
	"context"
	"testing"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/numcheck"
	"github.com/sift-agent/sift/plans"
)

func TestCheckResultAsksNoModelWhenEverythingIsSupported(t *testing.T) {
	script := scripted.New() // any call fails: none is expected
	v := prompt.View{Question: "q", Plan: &plans.FullPlan{Result: &plans.SubmitResult{Answer: "North: 1,500.0 (68.2%)"}}}
	res, bad, err := checkResult(context.Background(), script.Model(), v, numcheck.NewSet("North 1500\nshare 0.6818"), "")
	if err != nil || len(bad) != 0 || res != v.Plan.Result || script.Calls() != 0 {
		t.Errorf("res=%+v bad=%v err=%v calls=%d", res, bad, err, script.Calls())
	}
}
