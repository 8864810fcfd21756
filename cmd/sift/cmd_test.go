package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// parse runs cmd with args as the root command would: output to io, flag
// errors as usage errors.
func parse(cmd *cobra.Command, io *ioStreams, args []string) error {
	cmd.SetArgs(args)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd.Execute()
}

// wantUsageError fails t unless err is a usage error (exit code 2) whose
// message contains want.
func wantUsageError(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want it to contain %q", err, want)
	}
	if exitCode(err) != exitUsage {
		t.Errorf("exit code = %d, want %d", exitCode(err), exitUsage)
	}
}
