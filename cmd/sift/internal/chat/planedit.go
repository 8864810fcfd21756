package chat

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/sift-agent/sift/cmd/sift/internal/termui"
	"github.com/sift-agent/sift/plans"
)

// planEditHelp says how to change the steps at the edit prompt.
const planEditHelp = `Change the steps, one command per line; an empty line ends:
  3: new text        rewrite step 3
  drop 3             remove step 3
  add after 2: text  insert a step after step 2 (add: text puts it last)
  cancel             leave the plan as it was`

var (
	editRewrite = regexp.MustCompile(`^(\d+)\s*[:.]\s*(.*)$`)
	editDrop    = regexp.MustCompile(`^(?i:drop|delete|remove|rm)\s+(\d+)$`)
	editAdd     = regexp.MustCompile(`^(?i:add)(?:\s+(?i:after)\s+(\d+))?\s*:?\s*(.*)$`)
)

// stepEditor holds the steps still to run while the person edits them;
// they are numbered on from the steps earlier questions finished.
type stepEditor struct {
	// first is the number of the first editable step.
	first int
	steps []string
}

// newStepEditor takes the plan's steps still to run (todo or doing).
func newStepEditor(plan *plans.FullPlan) *stepEditor {
	e := &stepEditor{first: 1}
	if plan == nil {
		return e
	}
	for _, s := range plan.Steps {
		if s.Status == plans.StatusTodo || s.Status == plans.StatusDoing {
			e.steps = append(e.steps, s.Description)
		} else {
			e.first++
		}
	}
	return e
}

// position turns a step number as shown into an index into e.steps.
func (e *stepEditor) position(number string) (int, error) {
	n, err := strconv.Atoi(number)
	last := e.first + len(e.steps) - 1
	if err != nil || n < e.first || n > last {
		if len(e.steps) == 0 {
			return 0, fmt.Errorf("there is no step %s to change: add one with add: text", number)
		}
		return 0, fmt.Errorf("there is no step %s to change: give a number from %d to %d", number, e.first, last)
	}
	return n - e.first, nil
}

// apply runs one edit command.
func (e *stepEditor) apply(cmd string) error {
	if m := editDrop.FindStringSubmatch(cmd); m != nil {
		i, err := e.position(m[1])
		if err != nil {
			return err
		}
		e.steps = append(e.steps[:i], e.steps[i+1:]...)
		return nil
	}
	if m := editAdd.FindStringSubmatch(cmd); m != nil {
		text := strings.TrimSpace(m[2])
		if text == "" {
			return fmt.Errorf("say what the new step does: add after 2: text")
		}
		at := len(e.steps)
		if m[1] != "" {
			n, _ := strconv.Atoi(m[1])
			if n == e.first-1 { // after the last finished step: first
				at = 0
			} else {
				i, err := e.position(m[1])
				if err != nil {
					return err
				}
				at = i + 1
			}
		}
		e.steps = append(e.steps[:at], append([]string{text}, e.steps[at:]...)...)
		return nil
	}
	if m := editRewrite.FindStringSubmatch(cmd); m != nil {
		i, err := e.position(m[1])
		if err != nil {
			return err
		}
		text := strings.TrimSpace(m[2])
		if text == "" {
			return fmt.Errorf("say what step %s should do, or drop it: drop %s", m[1], m[1])
		}
		e.steps[i] = text
		return nil
	}
	return fmt.Errorf("%q is not an edit command", cmd)
}

// show lists the steps as they are now.
func (e *stepEditor) show(w io.Writer) {
	if len(e.steps) == 0 {
		fmt.Fprintln(w, "  (no steps to run)")
	}
	for i, s := range e.steps {
		fmt.Fprintln(w, termui.Linef("  %d. %s", e.first+i, s))
	}
}

// editSteps lets the person change the plan's steps still to run, one
// command at a time, instead of typing them all again. It returns the
// edited steps, or nil when the plan is to stay as it was (cancel, no
// change, or no step left).
func editSteps(lines lineReader, hint io.Writer, plan *plans.FullPlan) ([]string, error) {
	e := newStepEditor(plan)
	before := strings.Join(e.steps, "\n")
	fmt.Fprintln(hint, planEditHelp)
	e.show(hint)
	for {
		line, err := lines.readLine("edit: ")
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		switch {
		case strings.EqualFold(line, "cancel"):
			fmt.Fprintln(hint, "The plan is as it was.")
			return nil, nil
		case line == "" && strings.Join(e.steps, "\n") == before:
			fmt.Fprintln(hint, "No change; the plan is as it was.")
			return nil, nil
		case line == "" && len(e.steps) == 0:
			fmt.Fprintln(hint, "No step left to run; the plan is as it was (reject it to plan again).")
			return nil, nil
		case line == "":
			return e.steps, nil
		}
		if err := e.apply(line); err != nil {
			fmt.Fprintln(hint, termui.Linef("%v.\n%s", err, termui.Shown(planEditHelp)))
			continue
		}
		e.show(hint)
	}
}
