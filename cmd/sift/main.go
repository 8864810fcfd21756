// Command sift runs Sift, the data-analysis agent, from the terminal.
//
// Exit codes: 0 success; 1 the run failed (the report holds what was
// found); 2 usage error; 3 model configuration or authentication; 4 the
// environment lacks something (Python with pandas); 5 a budget stopped the
// run (the report holds what was found); 130 interrupted.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(execute(ctx, newIO(), os.Args[1:]))
}
