// Command sift runs Sift, the data-analysis agent, from the terminal.
//
// Exit codes: 0 success; 1 the run failed (the report holds what was
// found); 2 usage error; 3 model configuration, authentication or an unreachable endpoint; 4 the
// environment lacks something (Python with pandas, the sandbox, or a
// database that will not open); 5 a budget stopped the
// run (the report holds what was found); 6 the run waits for the person
// (answer with sift resume); 7 the run paused (go on with sift resume);
// 8 the run finished but its answer rests on failed steps (the report says
// which); 130 interrupted (sift resume runs the stopped step again).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/sift-agent/sift/agents"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Ctrl-C once: pause at the next safe point (the session stays
	// resumable); twice, or SIGTERM: stop now.
	pause := make(chan struct{})
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		paused := false
		for sig := range signals {
			if h := interruptHook.Load(); sig == os.Interrupt && h != nil {
				(*h)()
				continue
			}
			if sig == os.Interrupt && !paused {
				paused = true
				close(pause)
				fmt.Fprintln(os.Stderr, "\nPausing after the current step; press Ctrl-C again to stop now.")
				continue
			}
			cancel()
		}
	}()
	os.Exit(execute(agents.WithPause(ctx, pause), newIO(), os.Args[1:]))
}

// interruptHook, when set, takes Ctrl-C (SIGINT) instead of the default
// (pause once, then stop): sift chat sets it for each turn, so every turn
// can be paused, not only the first.
var interruptHook atomic.Pointer[func()]
