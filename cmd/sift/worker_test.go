package main

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestServeAndWorkerShareServerFlags: sift serve and sift worker take
// every flag of serverOptions (the models, the store, the token, the run
// queue's) with the same type, default and visibility (but --addr, whose
// default differs: a worker serves no HTTP unless told), and the same
// arguments fill both commands' serverOptions alike.
func TestServeAndWorkerShareServerFlags(t *testing.T) {
	isolateEnv(t)
	t.Setenv("SIFT_TOKEN", "")
	io, _, _ := testIO()
	var fromServe, fromWorker *serverOptions
	commands := func() []*cobra.Command {
		return []*cobra.Command{
			newServeCmd(io, func(_ context.Context, o *serveOptions) error { fromServe = &o.serverOptions; return nil }),
			newWorkerCmd(io, func(_ context.Context, o *workerOptions) error { fromWorker = &o.serverOptions; return nil }),
		}
	}
	shared := &cobra.Command{Use: "shared"}
	addServerFlags(shared, &serverOptions{}, "", "", "")
	// A value of each flag's type, unlike its default.
	values := map[string]string{"string": "v", "int": "7", "duration": "9s", "name": "m"}
	var args []string
	shared.Flags().VisitAll(func(want *pflag.Flag) {
		for _, c := range commands() {
			got := c.Flags().Lookup(want.Name)
			switch {
			case got == nil:
				t.Errorf("sift %s has no --%s", c.Name(), want.Name)
			case got.Value.Type() != want.Value.Type() || got.Hidden != want.Hidden:
				t.Errorf("sift %s --%s is a %s (hidden %v), want a %s (hidden %v)", c.Name(), want.Name, got.Value.Type(), got.Hidden, want.Value.Type(), want.Hidden)
			case want.Name != "addr" && got.DefValue != want.DefValue:
				t.Errorf("sift %s --%s defaults to %q, want %q", c.Name(), want.Name, got.DefValue, want.DefValue)
			}
		}
		switch v, ok := values[want.Value.Type()]; {
		case want.Name == "addr":
			args = append(args, "--addr", "127.0.0.1:0")
		case want.Value.Type() == "bool":
			args = append(args, "--"+want.Name)
		case ok:
			args = append(args, "--"+want.Name, v)
		default:
			t.Fatalf("give the test a value for --%s, a %s", want.Name, want.Value.Type())
		}
	})
	for _, c := range commands() {
		if err := parse(c, io, args); err != nil {
			t.Fatalf("sift %s %v: %v", c.Name(), args, err)
		}
	}
	if fromServe.Store != "v" || fromServe.Token != "v" || fromServe.Lease != 9*time.Second || fromServe.MaxRuns != 7 || fromServe.AgentModels["planner"] != "m" {
		t.Fatalf("the shared flags did not reach sift serve's options: %+v", fromServe)
	}
	if !reflect.DeepEqual(fromServe, fromWorker) {
		t.Errorf("%v\nfilled sift serve's and sift worker's options differently:\nserve:  %+v\nworker: %+v", args, fromServe, fromWorker)
	}
}
