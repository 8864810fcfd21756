package plans

import (
	"fmt"
	"strconv"
)

// MaxStepFiles bounds the files a step's record lists (StepState.Files):
// a step that writes 20,000 files lists the first of them, sorted, and
// counts the rest in FilesOmitted. Every event, plan.md and state.json that
// carries the step then stays the same size however many files it wrote.
const MaxStepFiles = 200

// SetFiles records files (sorted) as the step's files, keeping at most
// MaxStepFiles of them and counting the rest.
func (s *StepState) SetFiles(files []string) {
	s.Files, s.FilesOmitted = files, 0
	if len(files) > MaxStepFiles {
		s.Files = files[:MaxStepFiles:MaxStepFiles]
		s.FilesOmitted = len(files) - MaxStepFiles
	}
}

// MoreFiles says how many files the step's list leaves out ("… and
// 19,800 more files"), or "" when it lists them all.
func (s StepState) MoreFiles() string {
	switch s.FilesOmitted {
	case 0:
		return ""
	case 1:
		return "… and 1 more file"
	}
	return fmt.Sprintf("… and %s more files", thousands(s.FilesOmitted))
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	if n < 0 {
		return "-" + thousands(-n)
	}
	d := strconv.Itoa(n)
	for i := len(d) - 3; i > 0; i -= 3 {
		d = d[:i] + "," + d[i:]
	}
	return d
}
