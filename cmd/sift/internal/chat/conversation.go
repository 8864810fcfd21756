package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/cmd/sift/internal/termui"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
)

// runConversationChat answers each line through agents.Conversation. A
// failed turn is shown and the chat goes on; an interruption ends it.
func runConversationChat(ctx context.Context, console *chatConsole, cfg *Config, host Host) error {
	streams := console.io
	conv, label, closeConv, err := host.Conversation(ctx)
	if err != nil {
		return err
	}
	defer closeConv()
	fmt.Fprintln(streams.ErrOut, termui.Linef("Model: %s\nSession %s\n  workspace: %s\nAsk a question; %s ends the chat.", label, conv.ID(), conv.Workdir(), chatQuit))
	for {
		line, err := console.lines.readLine("> ")
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(streams.Out)
			break
		}
		if err != nil {
			return fmt.Errorf("read the next question: %w", err)
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case line == chatQuit || line == "/exit":
			fmt.Fprintf(streams.ErrOut, "Continue with: %s\n", cfg.continueCommand(conv.ID()))
			return nil
		}
		err = chatTurn(ctx, console, conv, line, host)
		fmt.Fprintln(streams.Out)
		if errors.Is(err, ErrWaiting) {
			// The input ended while the turn waited: as sift ask, the
			// printed sift resume answers it.
			return err
		}
		if ctx.Err() != nil {
			return err
		}
		if err != nil && !errors.As(err, new(Shown)) {
			return err
		}
	}
	fmt.Fprintf(streams.ErrOut, "Continue with: %s\n", cfg.continueCommand(conv.ID()))
	return nil
}

// chatTurn runs one turn of a chat with databases. When its data analyst
// asks (a question, an approval, a plan review), the next line is the
// person's answer and the turn goes on with it, as in a files-only chat.
// When the input ends first, it prints the question with the `sift
// resume` command that answers it and returns ErrWaiting, as sift ask
// does.
func chatTurn(ctx context.Context, console *chatConsole, conv *agents.Conversation, question string, host Host) error {
	streams := console.io
	final := host.Turn(streams, conv, question, conv.Ask(ctx, question))
	for in := waitingFor(final); in != nil; in = waitingFor(final) {
		answer, err := answerAt(console.lines, streams.ErrOut, in, func(in *event.Interrupt) {
			printPlan(streams.ErrOut, in.Plan)
		})
		if errors.Is(err, errChatInputEnded) {
			fmt.Fprintln(streams.ErrOut, "The input ended while the session waits for your answer.")
			host.Waiting(streams, conv, in)
			return ErrWaiting
		}
		if err != nil {
			return err
		}
		final = host.Turn(streams, conv, question, conv.Answer(ctx, map[string]any{in.ID: answer}))
	}
	if final.Err != nil {
		return Shown{final.Err}
	}
	return nil
}

// waitingFor is what a turn that ended waits for: nil when it failed or
// finished.
func waitingFor(final event.Event) *event.Interrupt {
	if final.Err != nil {
		return nil
	}
	return final.Interrupt
}

// printPlan shows a plan under review as a checklist.
func printPlan(w io.Writer, fp *plans.FullPlan) {
	if fp == nil {
		return
	}
	fmt.Fprintln(w, "The plan waits for your review:")
	for _, s := range fp.Steps {
		fmt.Fprintln(w, termui.Linef("  %d. %s", s.Index, termui.OneLine(s.Description, 160)))
	}
}
