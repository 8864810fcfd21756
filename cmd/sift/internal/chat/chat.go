// Package chat is `sift chat`'s interactive terminal session, reached
// through one entry, Run: the console (a terminal's line editor and
// history, or plain lines from a pipe; Ctrl-C), the files-only chat (one
// Sift session, each line a turn, its plan reviewed and edited and its
// questions and approvals answered at the prompt, the /commands), and the
// chat with databases (each line a turn of an agents.Conversation).
//
// What the chat shares with the other commands (how a run's events and a
// conversation's turns are shown, how the Sift is built from the flags,
// the printed commands) is the command's, given through Host; the chat
// imports nothing of cmd/sift but cmd/sift/internal/termui.
package chat

import (
	"context"
	"errors"
	"iter"
	"strings"
	"sync/atomic"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/cmd/sift/internal/termui"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
)

// chatQuit ends a chat; so does the end of the input.
const chatQuit = "/quit"

// ErrWaiting: the input ended while the session waited for the person's
// answer; the session keeps waiting (sift resume, or another chat,
// answers it).
var ErrWaiting = errors.New("the input ended while the session waits for an answer")

// errChatInputEnded: the input ended while the chat waited for an answer.
var errChatInputEnded = errors.New("the input ended")

// Shown wraps an error the chat already showed to the person.
type Shown struct{ Err error }

func (e Shown) Error() string { return e.Err.Error() }
func (e Shown) Unwrap() error { return e.Err }

// UsageError marks an error in how the chat was called (a --session that
// does not exist).
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// Config is what one chat is: its streams, the session it continues, its
// inputs and how its turns run.
type Config struct {
	IO *termui.IO
	// Databases: each line is a turn of a conversation (Host.Conversation);
	// otherwise the chat is one Sift session over Files and Dirs.
	Databases bool
	// Session continues this session.
	Session string
	// Files and Dirs go with the first turn (files-only chats).
	Files, Dirs []string
	// Mode is the route of each turn (files-only chats).
	Mode agents.Mode
	// Yes runs unattended: no plan review, questions answered by
	// assumption (files-only chats).
	Yes bool
	// Parallel bounds the plan steps run at the same time (files-only
	// chats); 0: the default for new turns, the session's own on resume.
	Parallel int
	// Labels are kept with each session the chat starts.
	Labels map[string]string
	// ResumeArgs are the flags a printed `sift chat --session` repeats.
	ResumeArgs []string
	// Interrupts, when set, is where the chat puts what takes Ctrl-C when
	// it arrives as a signal (input piped, no terminal): a turn's pause,
	// between turns the end of the chat.
	Interrupts *atomic.Pointer[func()]
}

// continueCommand is the command that goes on chatting in session id.
func (c *Config) continueCommand(id string) string {
	return strings.Join(append([]string{"sift chat --session", id}, c.ResumeArgs...), " ")
}

// Display shows the events of a files-only chat's turns, as `sift run`
// shows a run's.
type Display interface {
	// BeginTurn starts a turn: its clock, no report yet.
	BeginTurn()
	// Event shows one event.
	Event(event.Event)
	// SetWorkdir names the session's workspace when a turn goes on in a
	// session the chat showed already.
	SetWorkdir(dir string)
	// PrintedLast says whether p is the plan shown last.
	PrintedLast(p *plans.FullPlan) bool
	// Mark is a step status's mark ("todo", "doing", "done", ...).
	Mark(kind string) termui.Shown
	// Working shows that the turn works while it prints nothing, until
	// stop is called.
	Working() (stop func())
}

// Host is what the command gives a chat: what it shares with the other
// commands.
type Host interface {
	// Sift builds a files-only chat's Sift and names its model.
	Sift(ctx context.Context) (*agents.Sift, string, error)
	// Display returns the streams a files-only chat writes through (a
	// working line may share them) and what shows its turns' events.
	Display(streams *termui.IO) (*termui.IO, Display)
	// Conversation opens a chat with databases: the conversation, its
	// model's name, and what closes what it opened.
	Conversation(ctx context.Context) (*agents.Conversation, string, func(), error)
	// Turn shows a conversation turn's events and returns its last.
	Turn(streams *termui.IO, conv *agents.Conversation, question string, events iter.Seq[event.Event]) event.Event
	// Waiting shows what a conversation's turn waits for and the command
	// that answers it.
	Waiting(streams *termui.IO, conv *agents.Conversation, in *event.Interrupt)
	// Sessions lists the recent sessions (/sessions).
	Sessions(ctx context.Context, streams *termui.IO) error
	// ResumeCommand is the command that goes on with session id.
	ResumeCommand(id string) string
}

// Run runs a chat until /quit or the end of its input: one Sift session
// over files, or a conversation when there are databases. It returns
// ErrWaiting when the input ended while the session waited for an answer,
// Shown for an error it showed, UsageError for a session that does not
// exist.
func Run(ctx context.Context, cfg Config, host Host) error {
	console, err := openConsole(cfg.IO)
	if err != nil {
		return err
	}
	defer console.close()
	if !cfg.Databases {
		return runSessionChat(ctx, console, &cfg, host)
	}
	return runConversationChat(ctx, console, &cfg, host)
}
