package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize/english"
	"github.com/spf13/cobra"
	"golang.org/x/text/width"

	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/internal/termsafe"
	"github.com/sift-agent/sift/session"
)

// sessionsStoreOptions say which storage backend the sessions commands
// read; see sessionsStoreURL for the order they are looked at.
type sessionsStoreOptions struct {
	// Store is the storage URL from --store.
	Store string
	// SessionsDir is the file store's root from --sessions-dir.
	SessionsDir string
}

// sessionsListOptions is what `sift sessions list` needs.
type sessionsListOptions struct {
	sessionsStoreOptions
	Status []session.Status
	Limit  int
	JSON   bool
}

// sessionsShowOptions is what `sift sessions show` needs.
type sessionsShowOptions struct {
	sessionsStoreOptions
	ID   string
	JSON bool
}

// sessionsRmOptions is what `sift sessions rm` needs.
type sessionsRmOptions struct {
	sessionsStoreOptions
	IDs   []string
	Yes   bool
	Force bool
}

// sessionsPruneOptions is what `sift sessions prune` needs.
type sessionsPruneOptions struct {
	sessionsStoreOptions
	OlderThan time.Duration
	Force     bool
	DryRun    bool
}

// sessionsRunFuncs replace the run functions of the sessions subcommands
// in flag-parsing tests; a nil field runs the real one.
type sessionsRunFuncs struct {
	list  func(context.Context, *sessionsListOptions) error
	show  func(context.Context, *sessionsShowOptions) error
	rm    func(context.Context, *sessionsRmOptions) error
	prune func(context.Context, *sessionsPruneOptions) error
}

// sessionsDeps are what the sessions run functions take from the world;
// tests replace them.
type sessionsDeps struct {
	// now is the clock ages are measured against.
	now func() time.Time
	// loc is the time zone times are shown in.
	loc *time.Location
	// getenv reads $SIFT_STORE and $COLUMNS.
	getenv func(string) string
	// stdinTerminal reports whether the person can answer a confirmation.
	stdinTerminal func() bool
}

func defaultSessionsDeps(io *ioStreams) sessionsDeps {
	return sessionsDeps{
		now:    time.Now,
		loc:    time.Local,
		getenv: os.Getenv,
		stdinTerminal: func() bool {
			f, ok := io.In.(*os.File)
			return ok && isTerminal(f)
		},
	}
}

// sessionsDefaultMaxAge is how old a finished session must be for prune
// when --older-than is not given: 30 days.
const sessionsDefaultMaxAge = 720 * time.Hour

func newSessionsCmd(io *ioStreams, runF sessionsRunFuncs) *cobra.Command {
	store := &sessionsStoreOptions{}
	cmd := &cobra.Command{
		Use:   "sessions <command>",
		Short: "List, show and remove the sessions Sift has kept",
		Long: `Sessions are what Sift keeps of each run: its status, its checkpoint (to
resume it) and, in the file store, its workspace with inputs, outputs, plan
and report.

The store is the one --store names, else the file store under
--sessions-dir, else $SIFT_STORE, else the file store under $SIFT_HOME/sessions
(or ~/.local/state/sift/sessions). Store URLs: file:DIR, sqlite:PATH,
redis://host:port/db.`,
		Example: `  sift sessions list --status waiting
  sift sessions show 20261122-020655-ab12cd
  sift sessions rm --yes 20261122-020655-ab12cd
  sift sessions prune --older-than 168h --dry-run`,
		PersistentPreRunE: func(*cobra.Command, []string) error { return store.check() },
		// Any arguments reach RunE, which calls a wrong subcommand a usage
		// error.
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("unknown command %q for \"sift sessions\"; use list, show, rm or prune", args[0])}
			}
			return cmd.Help()
		},
	}
	store.addFlags(cmd, "where session workspaces are, for the file store (default $SIFT_HOME/sessions or ~/.local/state/sift/sessions)")
	cmd.AddCommand(
		newSessionsListCmd(io, store, runF.list),
		newSessionsShowCmd(io, store, runF.show),
		newSessionsRmCmd(io, store, runF.rm),
		newSessionsPruneCmd(io, store, runF.prune),
	)
	return cmd
}

func newSessionsListCmd(io *ioStreams, store *sessionsStoreOptions, runF func(context.Context, *sessionsListOptions) error) *cobra.Command {
	opts := &sessionsListOptions{}
	var statuses []string
	cmd := &cobra.Command{
		Use:   "list [--status STATUS,...] [--limit N] [--json]",
		Short: "List sessions, newest first",
		Example: `  sift sessions list
  sift sessions list --status running,waiting --limit 10
  sift sessions list --json | jq -r '.[].id'`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("list takes no arguments, got %q; filter with --status", args)}
			}
			if opts.Limit < 0 {
				return usageError{fmt.Errorf("--limit %d is negative; give how many sessions to show, or 0 for all", opts.Limit)}
			}
			parsed, err := parseSessionStatuses(statuses)
			if err != nil {
				return usageError{err}
			}
			opts.Status = parsed
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.sessionsStoreOptions = *store
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runSessionsList(cmd.Context(), io, opts, defaultSessionsDeps(io))
		},
	}
	cmd.Flags().StringSliceVar(&statuses, "status", nil, "show only sessions with these statuses: running, waiting, paused, stopped (its process ended), done, failed")
	cmd.Flags().IntVar(&opts.Limit, "limit", 0, "show at most this many sessions (0: all)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the sessions as one JSON array")
	return cmd
}

func newSessionsShowCmd(io *ioStreams, store *sessionsStoreOptions, runF func(context.Context, *sessionsShowOptions) error) *cobra.Command {
	opts := &sessionsShowOptions{}
	cmd := &cobra.Command{
		Use:     "show <session-id> [--json]",
		Short:   "Show a session: its status, what it waits for, its files and its plan",
		Example: "  sift sessions show 20261122-020655-ab12cd\n  sift sessions show --json 20261122-020655-ab12cd",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{errors.New("give one session id; `sift sessions list` shows them")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.sessionsStoreOptions = *store
			opts.ID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runSessionsShow(cmd.Context(), io, opts, defaultSessionsDeps(io))
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the session as one JSON object")
	return cmd
}

func newSessionsRmCmd(io *ioStreams, store *sessionsStoreOptions, runF func(context.Context, *sessionsRmOptions) error) *cobra.Command {
	opts := &sessionsRmOptions{}
	cmd := &cobra.Command{
		Use:   "rm <session-id>... [--yes] [--force]",
		Short: "Remove sessions: checkpoint, metadata and (file store) workspace",
		Example: `  sift sessions rm 20261122-020655-ab12cd
  sift sessions rm --yes 20261122-020655-ab12cd 20261121-170102-0f9e8d`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{errors.New("give the ids of the sessions to remove; `sift sessions list` shows them")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.sessionsStoreOptions = *store
			opts.IDs = args
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runSessionsRm(cmd.Context(), io, opts, defaultSessionsDeps(io))
		},
	}
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "remove without asking (required when stdin is not a terminal)")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "also remove running and waiting sessions")
	return cmd
}

func newSessionsPruneCmd(io *ioStreams, store *sessionsStoreOptions, runF func(context.Context, *sessionsPruneOptions) error) *cobra.Command {
	opts := &sessionsPruneOptions{}
	cmd := &cobra.Command{
		Use:   "prune [--older-than AGE] [--force] [--dry-run]",
		Short: "Remove finished and failed sessions not updated for a while",
		Example: `  sift sessions prune --dry-run
  sift sessions prune --older-than 168h
  sift sessions prune --older-than 24h --force`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("prune takes no arguments, got %q; give the age with --older-than, e.g. --older-than 720h", args)}
			}
			if opts.OlderThan < 0 {
				return usageError{fmt.Errorf("--older-than %v is negative; give how old a session must be to go, e.g. 720h", opts.OlderThan)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.sessionsStoreOptions = *store
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runSessionsPrune(cmd.Context(), io, opts, defaultSessionsDeps(io))
		},
	}
	cmd.Flags().DurationVar(&opts.OlderThan, "older-than", sessionsDefaultMaxAge, "remove sessions last updated longer ago than this, e.g. 168h")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "also remove running, waiting and paused sessions that old (left by a process that died)")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "list what would be removed, and remove nothing")
	return cmd
}

// statusStopped is what --status calls a running session whose process
// ended (session.Meta.OwnerGone), as the table and the HTTP API do.
const statusStopped session.Status = "stopped"

// listSessions lists the sessions with these statuses (all when none),
// where running means still running and stopped means marked running by a
// process that ended.
func listSessions(ctx context.Context, reg session.Registry, statuses []session.Status, limit int) ([]session.Meta, error) {
	if !slices.Contains(statuses, statusStopped) && !slices.Contains(statuses, session.StatusRunning) {
		return reg.List(ctx, session.Filter{Status: statuses, Limit: limit})
	}
	query := slices.DeleteFunc(slices.Clone(statuses), func(s session.Status) bool { return s == statusStopped })
	if !slices.Contains(query, session.StatusRunning) {
		query = append(query, session.StatusRunning)
	}
	all, err := reg.List(ctx, session.Filter{Status: query})
	if err != nil {
		return nil, err
	}
	out := []session.Meta{}
	for _, m := range all {
		st := m.Status
		if m.OwnerGone() {
			st = statusStopped
		}
		if slices.Contains(statuses, st) && (limit <= 0 || len(out) < limit) {
			out = append(out, m)
		}
	}
	return out, nil
}

// parseSessionStatuses checks the --status values.
func parseSessionStatuses(raw []string) ([]session.Status, error) {
	var out []session.Status
	for _, r := range raw {
		s := session.Status(strings.ToLower(strings.TrimSpace(r)))
		if !s.Valid() && s != statusStopped {
			return nil, fmt.Errorf("unknown status %q in --status; use running, waiting, paused, stopped, done or failed", r)
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, nil
}

// sessionsStoreURL returns the storage URL to open and where it came from:
// --store, else --sessions-dir as a file store, else $SIFT_STORE, else ""
// (OpenBackend's default file store).
func sessionsStoreURL(opts sessionsStoreOptions, getenv func(string) string) (url, source string) {
	switch {
	case opts.Store != "":
		return opts.Store, "--store"
	case opts.SessionsDir != "":
		return "file:" + opts.SessionsDir, "--sessions-dir"
	case strings.TrimSpace(getenv(session.StoreEnv)) != "":
		return strings.TrimSpace(getenv(session.StoreEnv)), "$" + session.StoreEnv
	default:
		return "file:" + session.DefaultRoot(), "the default"
	}
}

// openSessionsBackend opens the store the options name. A URL that cannot
// be used is a usage error naming where it came from.
func openSessionsBackend(ctx context.Context, opts sessionsStoreOptions, deps sessionsDeps) (*session.Backend, error) {
	url, source := sessionsStoreURL(opts, deps.getenv)
	b, err := session.OpenBackend(ctx, url)
	if errors.Is(err, session.ErrBadStoreURL) {
		return nil, usageError{fmt.Errorf("the session store from %s: %w", source, err)}
	}
	if err != nil {
		return nil, fmt.Errorf("the session store from %s: %w", source, err)
	}
	return b, nil
}

// getSession reads one session's metadata; an unknown or invalid id is a
// usage error that says how to find the right one.
func getSession(ctx context.Context, b *session.Backend, id string) (session.Meta, error) {
	m, err := b.Sessions.Get(ctx, id)
	switch {
	case errors.Is(err, session.ErrSessionNotFound):
		return session.Meta{}, usageError{fmt.Errorf("%w: no session %q in %s; `sift sessions list` shows the sessions there", session.ErrSessionNotFound, id, b.URL)}
	case errors.Is(err, session.ErrInvalidID):
		return session.Meta{}, usageError{err}
	case err != nil:
		return session.Meta{}, err
	}
	return m, nil
}

// runSessionsList prints the sessions as a table, or as JSON.
func runSessionsList(ctx context.Context, io *ioStreams, opts *sessionsListOptions, deps sessionsDeps) error {
	b, err := openSessionsBackend(ctx, opts.sessionsStoreOptions, deps)
	if err != nil {
		return err
	}
	defer b.Close()
	metas, err := listSessions(ctx, b.Sessions, opts.Status, opts.Limit)
	if err != nil {
		return err
	}
	if opts.JSON {
		listed := make([]listedSession, len(metas))
		for i, m := range metas {
			listed[i] = listedSession{Meta: m, Stopped: m.OwnerGone()}
		}
		return writeSessionsJSON(io, listed)
	}
	if len(metas) == 0 {
		fmt.Fprintf(io.ErrOut, "No sessions in %s.\n", b.URL)
		return nil
	}
	if err := writeSessionsTable(io, metas, deps); err != nil {
		return err
	}
	for _, m := range metas {
		if m.OwnerGone() {
			fmt.Fprintln(io.ErrOut, safeLinef("Session %s stopped when its process (%s) ended; resume with: %s", m.ID, m.Owner, sessionsResumeCommand(opts.sessionsStoreOptions, m)))
		}
	}
	return nil
}

// listedSession is one session of `sift sessions list --json`.
type listedSession struct {
	session.Meta
	// Stopped says the session is marked running but its process ended
	// (session.Meta.OwnerGone): resume it to go on.
	Stopped bool `json:"stopped,omitempty"`
}

// sessionStatusText is a session's status as people read it: a running
// session whose process ended is "stopped", and a session asked several
// questions says how many got an answer, so a failed follow-up does not
// hide the answers before it.
func sessionStatusText(m session.Meta) string {
	s := string(m.Status)
	if m.OwnerGone() {
		s = "stopped"
	}
	if m.Questions > 1 {
		s += fmt.Sprintf(" (%d of %d answered)", m.Answered, m.Questions)
	}
	return s
}

// sessionsResumeCommand is the `sift resume` command for session id in the
// store opts name.
func sessionsResumeCommand(opts sessionsStoreOptions, m session.Meta) string {
	var args []string
	if opts.Store != "" {
		args = append(args, "--store "+shellQuote(opts.Store))
	}
	if opts.SessionsDir != "" {
		args = append(args, "--sessions-dir "+shellQuote(opts.SessionsDir))
	}
	// The flags the session was started with (its model, endpoint or
	// script), which its resume needs too: the ones not given here.
	for _, a := range splitResumeArgs(m.Labels[session.LabelResumeArgs]) {
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), " ")
		name, _, _ = strings.Cut(name, "=")
		if (name == "store" && opts.Store != "") || (name == "sessions-dir" && opts.SessionsDir != "") {
			continue
		}
		args = append(args, a)
	}
	return resumeCommand(m.ID, args)
}

// sessionsAskAgainCommand is the `sift run --session` command that asks
// failed session m's question again in it, with the flags its run was
// given (the model, the script) and its mode.
func sessionsAskAgainCommand(opts sessionsStoreOptions, m session.Meta) string {
	resume := strings.TrimPrefix(sessionsResumeCommand(opts, m), resumeCommand(m.ID, nil))
	args := []string{"sift run --session", m.ID}
	if m.Mode != "" && m.Mode != "auto" {
		args = append(args, "--mode", shellQuote(m.Mode))
	}
	if r := strings.TrimSpace(resume); r != "" {
		args = append(args, r)
	}
	return strings.Join(append(args, shellQuote(m.Question)), " ")
}

// sessionCause says why session m did not finish (see
// sessionDetail.Cause); "" for one that is running, waiting or done.
func sessionCause(m session.Meta, stopped bool) string {
	if !stopped && m.Status != session.StatusFailed && m.Status != session.StatusPaused {
		return ""
	}
	logged := ""
	if m.Workspace != "" {
		logged = loggedTrouble(filepath.Join(m.Workspace, session.EventsFile))
	}
	switch {
	case stopped:
		c := fmt.Sprintf("its process (%s) ended while the session ran", m.Owner)
		if m.Step != nil {
			c += fmt.Sprintf(", in step %d", m.Step.Index)
		}
		if logged != "" {
			c += "; its log last said: " + logged
		}
		return c
	case m.Error != "":
		return m.Error
	}
	return logged
}

// loggedTrouble is what the event log at path last said went wrong: its
// last error, or a warning Sift gave (a status it could not record).
func loggedTrouble(path string) string {
	evs, err := session.ReadEvents(path)
	if err != nil {
		return ""
	}
	for i := len(evs) - 1; i >= 0; i-- {
		e := evs[i]
		switch {
		case e.Kind == event.Error || e.Kind == event.Done && e.Err != nil:
			if e.Err != nil {
				return e.Err.Error()
			}
			return e.Text
		case e.Kind == event.Message && e.Agent == "sift" && strings.HasPrefix(e.Text, "warning:"):
			return strings.TrimSpace(strings.TrimPrefix(e.Text, "warning:"))
		}
	}
	return ""
}

// resumeFlag is one "--name value" or "--name=value" of a kept
// resumeArgs text (values shell-quoted as resumeArgs wrote them).
var resumeFlag = regexp.MustCompile(`--[a-z][a-z0-9-]*(?:=\S*| (?:'(?:[^']|'\\'')*'|[^\s']\S*))?`)

// splitResumeArgs splits a kept resumeArgs text into its flags.
func splitResumeArgs(s string) []string { return resumeFlag.FindAllString(s, -1) }

// writeSessionsJSON writes v indented, with a final newline.
func writeSessionsJSON(io *ioStreams, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := io.Out.Write(termsafe.JSON(b.Bytes()))
	return err
}

// sessionsTableWidth is the width the table is cut to: $COLUMNS when it
// is a sensible number, else 100.
func sessionsTableWidth(getenv func(string) string) int {
	if n, err := strconv.Atoi(getenv("COLUMNS")); err == nil && n >= 40 {
		return n
	}
	return 100
}

// sessionsStepWidth bounds the STEP column, so the question keeps room.
const sessionsStepWidth = 24

// writeSessionsTable prints one row per session: id, status, age, step and
// the question cut to fit the width.
func writeSessionsTable(io *ioStreams, metas []session.Meta, deps sessionsDeps) error {
	header := []string{"ID", "STATUS", "UPDATED", "STEP", "QUESTION"}
	rows := [][]string{header}
	for _, m := range metas {
		step, updated := "", "-"
		if m.Step != nil {
			step = cutToWidth(termsafe.Line(fmt.Sprintf("%d. %s", m.Step.Index, m.Step.Description)), sessionsStepWidth)
		}
		if !m.Updated.IsZero() {
			updated = ageText(deps.now().Sub(m.Updated)) + " ago"
		}
		rows = append(rows, []string{termsafe.Line(m.ID), sessionStatusText(m), updated, step, termsafe.Line(m.Question)})
	}
	widths := make([]int, len(header))
	for _, r := range rows {
		for i, c := range r[:len(r)-1] {
			widths[i] = max(widths[i], displayWidth(c))
		}
	}
	used := 0
	for _, w := range widths[:len(widths)-1] {
		used += w + 2
	}
	questionWidth := max(sessionsTableWidth(deps.getenv)-used, 20)
	var sb strings.Builder
	for _, r := range rows {
		var line strings.Builder
		for i, c := range r[:len(r)-1] {
			line.WriteString(c)
			line.WriteString(strings.Repeat(" ", widths[i]-displayWidth(c)+2))
		}
		line.WriteString(cutToWidth(r[len(r)-1], questionWidth))
		sb.WriteString(strings.TrimRight(line.String(), " "))
		sb.WriteString("\n")
	}
	_, err := fmt.Fprint(io.Out, sb.String())
	return err
}

// ageText says how long d is in its largest whole unit: 45s, 3m, 5h, 12d.
// A negative d (a clock skewed between machines) counts as 0s.
func ageText(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(int(d/time.Second), 0))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	default:
		return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
	}
}

// displayWidth is how many terminal columns s takes: East Asian wide and
// full-width characters take two.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// cutToWidth puts s on one line and cuts it to at most w columns, ending a
// cut text with "…".
func cutToWidth(s string, w int) string {
	s = strings.Join(strings.Fields(s), " ")
	if displayWidth(s) <= w {
		return s
	}
	var sb strings.Builder
	used := 0
	for _, r := range s {
		if used+runeWidth(r) > w-1 {
			break
		}
		sb.WriteRune(r)
		used += runeWidth(r)
	}
	return sb.String() + "…"
}

// sessionDetail is what `sift sessions show` reports: the metadata plus
// what the workspace holds and how to go on.
type sessionDetail struct {
	session.Meta
	// Store is the URL of the store the session is in.
	Store string `json:"store"`
	// WorkspaceFound says whether the workspace exists on this machine.
	WorkspaceFound bool `json:"workspace_found"`
	// Artifacts are the workspace-relative files under out/.
	Artifacts []string `json:"artifacts,omitempty"`
	// Report and ReportHTML are the report's absolute paths, when written.
	Report     string `json:"report,omitempty"`
	ReportHTML string `json:"report_html,omitempty"`
	// Plan is the text of plan.md, when written.
	Plan string `json:"plan,omitempty"`
	// Resume is the command that answers or continues the session, when
	// it can be resumed.
	Resume string `json:"resume,omitempty"`
	// Stopped says the session is marked running but its process ended.
	Stopped bool `json:"stopped,omitempty"`
	// Cause says why a stopped, failed or paused session did not finish:
	// its record's error, else what its event log last said went wrong,
	// and for a stopped one that its process ended.
	Cause string `json:"cause,omitempty"`
}

// runSessionsShow prints one session in full.
func runSessionsShow(ctx context.Context, io *ioStreams, opts *sessionsShowOptions, deps sessionsDeps) error {
	b, err := openSessionsBackend(ctx, opts.sessionsStoreOptions, deps)
	if err != nil {
		return err
	}
	defer b.Close()
	m, err := getSession(ctx, b, opts.ID)
	if err != nil {
		return err
	}
	d, err := describeSession(b.URL, m, opts.sessionsStoreOptions)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeSessionsJSON(io, d)
	}
	_, err = fmt.Fprint(io.Out, renderSessionDetail(d, deps))
	return err
}

// describeSession gathers what the session's workspace holds.
func describeSession(storeURL string, m session.Meta, store sessionsStoreOptions) (sessionDetail, error) {
	d := sessionDetail{Meta: m, Store: storeURL, Stopped: m.OwnerGone()}
	switch {
	case m.Status == session.StatusWaiting || m.Status == session.StatusPaused || d.Stopped:
		d.Resume = sessionsResumeCommand(store, m)
	case m.Status == session.StatusFailed:
		// A failed session is not resumed: its question is asked again
		// in it, where its files and Python state carry over.
		d.Resume = sessionsAskAgainCommand(store, m)
	}
	d.Cause = sessionCause(m, d.Stopped)
	if m.Workspace == "" {
		return d, nil
	}
	if info, err := os.Stat(m.Workspace); err != nil || !info.IsDir() {
		return d, nil
	}
	d.WorkspaceFound = true
	ws := &session.Workspace{ID: m.ID, Root: m.Workspace}
	arts, err := ws.Artifacts()
	if err != nil {
		return d, err
	}
	d.Artifacts = arts
	for name, dst := range map[string]*string{session.ReportFile: &d.Report, session.ReportHTMLFile: &d.ReportHTML} {
		if p := filepath.Join(m.Workspace, name); isRegularFile(p) {
			*dst = p
		}
	}
	plan, err := os.ReadFile(filepath.Join(m.Workspace, session.PlanFile))
	switch {
	case err == nil:
		d.Plan = string(plan)
	case !errors.Is(err, fs.ErrNotExist):
		return d, fmt.Errorf("read the plan of session %s: %w", m.ID, err)
	}
	return d, nil
}

func isRegularFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// renderSessionDetail lays a session out for reading.
func renderSessionDetail(d sessionDetail, deps sessionsDeps) string {
	var sb strings.Builder
	field := func(name, value string) {
		if value != "" {
			fmt.Fprintf(&sb, "%-10s %s\n", name+":", termsafe.Line(value))
		}
	}
	when := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return fmt.Sprintf("%s (%s ago)", t.In(deps.loc).Format("2006-01-02 15:04:05 MST"), ageText(deps.now().Sub(t)))
	}
	field("Session", d.ID)
	field("Status", sessionStatusText(d.Meta))
	if d.Stopped {
		field("Process", d.Owner.String()+", ended while the session ran")
	}
	field("Question", d.Question)
	field("Mode", d.Mode)
	field("Created", when(d.Created))
	field("Updated", when(d.Updated))
	if d.Step != nil {
		field("Step", fmt.Sprintf("%d. %s", d.Step.Index, strings.Join(strings.Fields(d.Step.Description), " ")))
	}
	field("Error", d.Error)
	if d.Cause != d.Error {
		field("Cause", d.Cause)
	}
	field("Inputs", strings.Join(d.Inputs, ", "))
	field("Store", d.Store)
	if d.Workspace != "" && !d.WorkspaceFound {
		field("Workspace", d.Workspace+" (not found on this machine)")
	} else {
		field("Workspace", d.Workspace)
	}
	if p := d.Pending; p != nil {
		fmt.Fprintf(&sb, "\nWaiting for %s (interrupt %s):\n", pendingLabel(p.Kind), termsafe.Line(p.ID))
		for _, line := range strings.Split(strings.TrimRight(p.Prompt, "\n"), "\n") {
			fmt.Fprintf(&sb, "  %s\n", termsafe.Line(line))
		}
		if len(p.Choices) > 0 {
			fmt.Fprintf(&sb, "  Choices: %s\n", termsafe.Line(strings.Join(p.Choices, ", ")))
		}
	}
	if d.Resume != "" {
		verb := "Resume with"
		switch {
		case d.Pending != nil:
			verb = "Answer with"
		case d.Status == session.StatusFailed:
			verb = "Ask again with"
		}
		fmt.Fprintf(&sb, "\n%s: %s\n", verb, termsafe.Line(d.Resume))
	}
	if len(d.Artifacts) > 0 {
		sb.WriteString("\nFiles in out/:\n")
		for _, a := range d.Artifacts {
			fmt.Fprintf(&sb, "  %s\n", termsafe.Line(a))
		}
	}
	if d.Report != "" || d.ReportHTML != "" {
		sb.WriteString("\nReport:\n")
		for _, p := range []string{d.Report, d.ReportHTML} {
			if p != "" {
				fmt.Fprintf(&sb, "  %s\n", termsafe.Line(p))
			}
		}
	}
	if d.Plan != "" {
		fmt.Fprintf(&sb, "\n--- %s ---\n%s", session.PlanFile, termsafe.Text(d.Plan))
		if !strings.HasSuffix(d.Plan, "\n") {
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

// pendingLabel says in words what a pending kind asks of the person.
func pendingLabel(k session.PendingKind) string {
	switch k {
	case session.PendingPlanReview:
		return "a plan review (approve, edit or reject)"
	case session.PendingQuestion:
		return "an answer"
	case session.PendingApproval:
		return "an approval"
	}
	return string(k)
}

// runSessionsRm removes the sessions named, after checking them all: an
// unknown id or an active session without --force removes nothing.
func runSessionsRm(ctx context.Context, io *ioStreams, opts *sessionsRmOptions, deps sessionsDeps) error {
	b, err := openSessionsBackend(ctx, opts.sessionsStoreOptions, deps)
	if err != nil {
		return err
	}
	defer b.Close()
	var ids []string
	for _, id := range opts.IDs {
		if slices.Contains(ids, id) {
			continue
		}
		m, err := getSession(ctx, b, id)
		if err != nil {
			return err
		}
		if (m.Status == session.StatusRunning || m.Status == session.StatusWaiting) && !opts.Force {
			return usageError{fmt.Errorf("session %s is %s; removing it would lose its checkpoint, so nothing was removed; stop it first or pass --force", id, m.Status)}
		}
		ids = append(ids, id)
	}
	if !opts.Yes {
		if !deps.stdinTerminal() {
			return usageError{errors.New("rm asks for confirmation, but stdin is not a terminal; pass --yes to remove without asking")}
		}
		what := "its workspace"
		if len(ids) > 1 {
			what = "their workspaces"
		}
		fmt.Fprintf(io.ErrOut, "Remove %s (%s, with checkpoint and %s)? [y/N] ", english.Plural(len(ids), "session", ""), strings.Join(ids, ", "), what)
		answer, err := bufio.NewReader(io.In).ReadString('\n')
		if err != nil && answer == "" {
			fmt.Fprintln(io.ErrOut)
		}
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(io.ErrOut, "Nothing removed.")
			return nil
		}
	}
	for _, id := range ids {
		if err := b.Sessions.Delete(ctx, id); err != nil && !errors.Is(err, session.ErrSessionNotFound) {
			return fmt.Errorf("remove session %s: %w", id, err)
		}
		fmt.Fprintln(io.Out, id)
	}
	fmt.Fprintf(io.ErrOut, "Removed %s.\n", english.Plural(len(ids), "session", ""))
	return nil
}

// runSessionsPrune removes (or, with --dry-run, lists) the sessions
// session.Prune selects, and prints them as a table.
func runSessionsPrune(ctx context.Context, io *ioStreams, opts *sessionsPruneOptions, deps sessionsDeps) error {
	b, err := openSessionsBackend(ctx, opts.sessionsStoreOptions, deps)
	if err != nil {
		return err
	}
	defer b.Close()
	// The same selection session.Prune makes, listed first so the table can
	// show each session and a dry run can stop here.
	f := session.Filter{UpdatedBefore: deps.now().Add(-opts.OlderThan)}
	if !opts.Force {
		f.Status = []session.Status{session.StatusDone, session.StatusFailed}
	}
	candidates, err := b.Sessions.List(ctx, f)
	if err != nil {
		return err
	}
	slices.Reverse(candidates)
	which := "finished or failed sessions"
	if opts.Force {
		which = "sessions"
	}
	age := ageText(opts.OlderThan)
	if opts.DryRun {
		if len(candidates) == 0 {
			fmt.Fprintf(io.ErrOut, "No %s last updated more than %s ago.\n", which, age)
			return nil
		}
		if err := writeSessionsTable(io, candidates, deps); err != nil {
			return err
		}
		fmt.Fprintf(io.ErrOut, "Dry run: would remove %s; nothing was removed.\n", english.Plural(len(candidates), "session", ""))
		return nil
	}
	ids, pruneErr := session.Prune(ctx, b.Sessions, opts.OlderThan, deps.now, opts.Force)
	removed := make([]session.Meta, 0, len(ids))
	for _, id := range ids {
		i := slices.IndexFunc(candidates, func(m session.Meta) bool { return m.ID == id })
		if i < 0 {
			// Listed by Prune but not by the look before it: a session
			// that aged meanwhile. Show its id alone.
			removed = append(removed, session.Meta{ID: id})
			continue
		}
		removed = append(removed, candidates[i])
	}
	if len(removed) > 0 {
		if err := writeSessionsTable(io, removed, deps); err != nil {
			return errors.Join(pruneErr, err)
		}
	}
	if pruneErr != nil {
		return pruneErr
	}
	if len(removed) == 0 {
		fmt.Fprintf(io.ErrOut, "No %s last updated more than %s ago.\n", which, age)
		return nil
	}
	fmt.Fprintf(io.ErrOut, "Removed %s last updated more than %s ago.\n", english.Plural(len(removed), "session", ""), age)
	return nil
}

// check refuses both --store and --sessions-dir.
func (o *sessionsStoreOptions) check() error {
	if o.Store != "" && o.SessionsDir != "" {
		return usageError{errors.New("give either --store or --sessions-dir, not both; --sessions-dir DIR is --store file:DIR")}
	}
	return nil
}

// addFlags gives cmd and its subcommands --store and --sessions-dir
// (dirHelp says what the directory holds for cmd).
func (o *sessionsStoreOptions) addFlags(cmd *cobra.Command, dirHelp string) {
	f := cmd.PersistentFlags()
	f.StringVar(&o.Store, "store", "", "session store URL: file:DIR, sqlite:PATH or redis://host:port/db (default $SIFT_STORE, else the file store)")
	f.StringVar(&o.SessionsDir, "sessions-dir", "", dirHelp)
}
