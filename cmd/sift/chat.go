package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// chatOptions is everything `sift chat` needs, parsed from flags.
type chatOptions struct {
	conversationOptions
	// Session continues this session's conversation.
	Session string
}

// chatQuit ends a chat; so does the end of the input.
const chatQuit = "/quit"

func newChatCmd(io *ioStreams, runF func(context.Context, *chatOptions) error) *cobra.Command {
	opts := &chatOptions{}
	cmd := &cobra.Command{
		Use:   "chat [--db URL]... [--file FILE]... [--session ID]",
		Short: "Talk with Sift about your databases and files, one question per line",
		Long: `Start a conversation: each line you type is one question, answered before
the next prompt; follow-ups ("and for 2023?", "yes") build on the earlier
turns. Type /quit (or end the input) to stop. It reads plain lines, so it
also works with input piped from a file.`,
		Example: `  sift chat --db sqlite:shop.db
  printf 'revenue by region?\nand for 2023?\n' | sift chat --db sqlite:shop.db`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runChat(cmd.Context(), io, opts)
		},
	}
	addConversationFlags(cmd.Flags(), &opts.conversationOptions)
	cmd.Flags().StringVar(&opts.Session, "session", "", "continue the conversation of this session ID")
	return cmd
}

// runChat reads questions line by line and answers each in turn. A failed
// turn is shown and the chat goes on; an interruption ends it.
func runChat(ctx context.Context, io *ioStreams, opts *chatOptions) error {
	if opts.Session != "" {
		if err := validSession(opts.Session); err != nil {
			return err
		}
	}
	conv, sources, label, err := openConversation(ctx, &opts.conversationOptions, opts.Session)
	if err != nil {
		return err
	}
	defer func() {
		conv.Close()
		if sources != nil {
			sources.Close()
		}
	}()
	fmt.Fprintf(io.ErrOut, "Model: %s\nSession %s\n  workspace: %s\nAsk a question; %s ends the chat.\n", label, conv.ID(), conv.Workdir(), chatQuit)
	in := bufio.NewScanner(io.In)
	in.Buffer(make([]byte, 64*1024), 1<<20)
	for {
		fmt.Fprint(io.Out, "> ")
		if !in.Scan() {
			fmt.Fprintln(io.Out)
			break
		}
		line := strings.TrimSpace(in.Text())
		switch {
		case line == "":
			continue
		case line == chatQuit || line == "/exit":
			fmt.Fprintf(io.ErrOut, "Continue with: sift chat --session %s\n", conv.ID())
			return nil
		}
		err := askTurn(ctx, io, conv, line)
		fmt.Fprintln(io.Out)
		if ctx.Err() != nil {
			return err
		}
		if err != nil && !errors.As(err, new(reportedError)) {
			return err
		}
	}
	if err := in.Err(); err != nil {
		return fmt.Errorf("read the next question: %w", err)
	}
	fmt.Fprintf(io.ErrOut, "Continue with: sift chat --session %s\n", conv.ID())
	return nil
}
