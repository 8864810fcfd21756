package main

import (
	"regexp"
	"strings"

	"github.com/sift-agent/sift/session"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// resumeFlags are the flags a printed `sift resume` command repeats: the
// ones that say where the session lives and what runs it. The API key is
// left out (it is a secret; the environment or config file gives it), and
// so is --json (how to show the run is the person's choice).
var resumeFlags = func() map[string]bool {
	c := &cobra.Command{}
	addModelFlags(c, &runOptions{})
	names := map[string]bool{}
	c.Flags().VisitAll(func(f *pflag.Flag) { names[f.Name] = true })
	delete(names, "api-key")
	delete(names, "json")
	return names
}()

// resumeArgs lists, shell-quoted, the flags cmd was given that a resume
// of its session needs, so the printed command works as printed.
func resumeArgs(cmd *cobra.Command) []string {
	var args []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if !resumeFlags[f.Name] {
			return
		}
		if f.Value.Type() == "bool" {
			args = append(args, "--"+f.Name+"="+f.Value.String())
			return
		}
		args = append(args, "--"+f.Name+" "+shellQuote(f.Value.String()))
	})
	return args
}

// resumeLabels keeps args with the session (session.LabelResumeArgs), so
// that `sift sessions` prints a resume command that works as printed.
func resumeLabels(args []string) map[string]string {
	if len(args) == 0 {
		return nil
	}
	return map[string]string{session.LabelResumeArgs: strings.Join(args, " ")}
}

// resumeCommand is the command that goes on with session id.
func resumeCommand(id string, args []string) string {
	return strings.Join(append([]string{"sift resume", id}, args...), " ")
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,-]+$`)

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
