package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/cloudwego/eino/components/model"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/trajectory"
)

// ReplayOptions configures Replay.
type ReplayOptions struct {
	// Config is the Sift configuration to replay with (sessions root,
	// Python, sandbox, ...); its Models are replaced by the recording.
	Config agents.Config
	// Files replace the recorded inputs. Optional; by default the inputs
	// in the recording are used.
	Files []string
	// Live, when set, answers every call from the first divergence on, so
	// the new session's trajectory re-records what diverged (see
	// model.ReplayConfig.Live). Optional.
	Live func(agent string) model.ToolCallingChatModel
	// Events, when set, receives every event of the replayed run.
	Events func(event.Event)
}

// ReplayResult is what a replay found.
type ReplayResult struct {
	// Session and Path name the new session the replay ran in.
	Session string `json:"session"`
	Path    string `json:"path"`
	// Calls is how many model calls the replay made.
	Calls int `json:"calls"`
	// Questions are the replays of each question of the session, in the
	// order they were asked.
	Questions []QuestionReplay `json:"questions"`
	// Divergences are the model calls that left the recording, over all
	// questions.
	Divergences []trajectory.Divergence `json:"divergences,omitempty"`
	// Changes are differences in the report and the artifacts.
	Changes []Change `json:"changes,omitempty"`
	// Error is the replayed run's error text, if it failed.
	Error string `json:"error,omitempty"`
	// Live says a live model answered from the first divergence on: the
	// new session's trajectory.jsonl is the re-recording.
	Live bool `json:"live,omitempty"`
}

// Same reports whether the replay matched its recording.
func (r *ReplayResult) Same() bool {
	return len(r.Divergences) == 0 && len(r.Changes) == 0 && r.Error == ""
}

// QuestionReplay is what the replay of one question of a session found.
type QuestionReplay struct {
	// Question is what was asked.
	Question string `json:"question"`
	// Calls is how many model calls this question's run made.
	Calls int `json:"calls"`
	// Divergences are this question's model calls that left the
	// recording, and its recorded calls that were never made.
	Divergences []trajectory.Divergence `json:"divergences,omitempty"`
	// Error is this question's run's error text, if it failed.
	Error string `json:"error,omitempty"`
}

// Same reports whether the question replayed as recorded.
func (q QuestionReplay) Same() bool { return len(q.Divergences) == 0 && q.Error == "" }

// Change is one difference between a recorded and a replayed output.
type Change struct {
	// File is report.md or the artifact (out/...).
	File string `json:"file"`
	// What is "missing", "new" or "changed".
	What string `json:"what"`
	// Line is the 1-based line of the replayed file, for changes.
	Line int `json:"line,omitempty"`
	// Recorded and Now are the differing lines.
	Recorded string `json:"recorded,omitempty"`
	Now      string `json:"now,omitempty"`
	// Numbers are the numbers that changed, "recorded → now".
	Numbers []string `json:"numbers,omitempty"`
}

// String describes c in one or a few lines.
func (c Change) String() string {
	switch c.What {
	case "missing":
		return fmt.Sprintf("%s: recorded, but not made by the replay", c.File)
	case "new":
		return fmt.Sprintf("%s: made by the replay, not recorded", c.File)
	}
	s := fmt.Sprintf("%s line %d changed", c.File, c.Line)
	if len(c.Numbers) > 0 {
		s += ": " + strings.Join(c.Numbers, ", ")
	}
	return s + fmt.Sprintf("\n    recorded: %q\n    now:      %q", c.Recorded, c.Now)
}

// Replay runs a recording again against the current code: the recorded
// model answers are served in order per agent (no model is called, no key
// needed), while Python and SQL run for real. The run happens in a new
// session; the result lists the model calls that diverged from the
// recording and the changes in the report and the text artifacts.
// Replies to questions and approvals are given unattended (Request.Yes).
// Every question of the session is asked again, in order, the follow-ups
// in the new session as follow-ups, each answered from its own recorded
// calls when the recording names them (trajectory.Record.Turn).
func Replay(ctx context.Context, rec *Recording, opts ReplayOptions) (*ReplayResult, error) {
	files := opts.Files
	if len(files) == 0 {
		var err error
		if files, err = rec.InputFiles(); err != nil {
			return nil, err
		}
	}
	mode, err := agents.ParseMode(rec.Manifest.Mode)
	if err != nil {
		return nil, fmt.Errorf("recorded mode: %w", err)
	}
	rp := trajectory.NewReplay(rec.Records, trajectory.ReplayConfig{Live: opts.Live})
	cfg := opts.Config
	// The prompts state the date and locale of the run: replay them as
	// recorded, or every recording would diverge the next day.
	if len(rec.Records) > 0 {
		if at, ok := recordedDay(rec.Records[0]); ok {
			ctx = agents.WithClock(ctx, func() time.Time { return at })
		}
		if cfg.Locale == "" {
			cfg.Locale = recordedLocale(rec.Records[0])
		}
	}
	cfg.Models = agents.Models{
		Planner: rp.ModelFor(llm.AgentPlanner), Executor: rp.ModelFor(llm.AgentExecutor),
		Code: rp.ModelFor(llm.AgentCode), Report: rp.ModelFor(llm.AgentReport),
		Names: recordedNames(rec.Records),
	}
	// A replay sends the recorded requests again: what was remembered
	// since (the recorded session's own facts and code examples among it)
	// would change them, and its answer cache would answer with no call.
	cfg.NoMemory = true
	s, err := agents.New(cfg)
	if err != nil {
		return nil, err
	}
	res := &ReplayResult{Live: opts.Live != nil}
	questions := rec.Manifest.Questions()
	for i, q := range questions {
		rp.StartTurn(i + 1)
		req := agents.Request{Mode: mode, Question: q, Yes: true, Parallel: rec.Manifest.Parallel}
		if i == 0 {
			req.Files = files
		} else {
			req.SessionID = res.Session
		}
		before := rp.Calls()
		var final event.Event
		for e := range s.Run(ctx, req) {
			if opts.Events != nil {
				opts.Events(e)
			}
			final = e
		}
		qr := QuestionReplay{Question: q, Calls: rp.Calls() - before}
		if final.Err != nil {
			qr.Error = final.Err.Error()
			res.Error = fmt.Sprintf("question %d: %s", i+1, qr.Error)
		}
		res.Questions = append(res.Questions, qr)
		if final.Path != "" {
			res.Path, res.Session = final.Path, filepath.Base(final.Path)
		}
		if res.Session == "" {
			break // no session to ask the follow-ups in
		}
	}
	res.Calls, res.Divergences = rp.Calls(), rp.Divergences()
	for _, d := range res.Divergences {
		// Calls left over in a recording that names no questions are the
		// last question's: the session ended with them unmade.
		i := min(max(d.Turn, 1), len(res.Questions)) - 1
		if d.Turn == 0 && d.Kind == trajectory.DivergedUnused {
			i = len(res.Questions) - 1
		}
		res.Questions[i].Divergences = append(res.Questions[i].Divergences, d)
	}
	if res.Path == "" {
		return res, nil
	}
	res.Changes = compareOutputs(rec, res.Path)
	return res, nil
}

// recordedDayRE finds the date and time zone the date note of a system
// prompt states: "## Today\n2026-11-25 (Wednesday), time zone
// Europe/Paris (UTC+01:00)" or "... time zone UTC+00:00".
var recordedDayRE = regexp.MustCompile(`\n## Today\n(\d{4}-\d{2}-\d{2}) \(\w+\), time zone (?:(\S+) \()?UTC([+-])(\d{2}):(\d{2})`)

// recordedDay is noon of the day a recorded call's prompt states, in its
// time zone; else the call's recorded time (captures whose prompts state
// no date).
func recordedDay(r trajectory.Record) (time.Time, bool) {
	for _, m := range r.Request {
		if m.Role != "system" {
			continue
		}
		sub := recordedDayRE.FindStringSubmatch(m.Content)
		if sub == nil {
			break
		}
		var h, mi int
		fmt.Sscanf(sub[4]+" "+sub[5], "%d %d", &h, &mi)
		off := h*3600 + mi*60
		if sub[3] == "-" {
			off = -off
		}
		loc := time.FixedZone("", off)
		if sub[2] != "" {
			if l, err := time.LoadLocation(sub[2]); err == nil {
				loc = l
			}
		}
		day, err := time.ParseInLocation("2006-01-02", sub[1], loc)
		if err != nil {
			break
		}
		return day.Add(12 * time.Hour), true
	}
	if !r.Time.IsZero() {
		return r.Time, true
	}
	return time.Time{}, false
}

// recordedLocaleRE finds the locale the date note of a system prompt states.
var recordedLocaleRE = regexp.MustCompile(`\n## Today\n[^\n]*?, locale ([A-Za-z0-9-]+)\.`)

// recordedLocale is the locale a recorded call's prompt stated, or "C"
// (none) when it stated none.
func recordedLocale(r trajectory.Record) string {
	for _, m := range r.Request {
		if m.Role == "system" {
			if sub := recordedLocaleRE.FindStringSubmatch(m.Content); sub != nil {
				return sub[1]
			}
			return "C"
		}
	}
	return ""
}

// recordedNames names each agent's model as recorded, so prices, estimates
// and context windows match the recording; the model of calls recorded
// without an agent (a capture on the wire) is the default.
func recordedNames(recs []trajectory.Record) map[string]string {
	names := map[string]string{}
	for _, r := range recs {
		role := r.Agent
		if role == "" {
			role = "default"
		}
		if r.Model != "" && names[role] == "" {
			names[role] = r.Model
		}
	}
	return names
}

// compareOutputs compares the recorded report and text artifacts with the
// replay's.
func compareOutputs(rec *Recording, path string) []Change {
	var out []Change
	if rec.Report != "" {
		now, _ := os.ReadFile(filepath.Join(path, "report.md"))
		out = append(out, diffText("report.md", stripUsage(rec.Report), stripUsage(string(now)))...)
	}
	now := listOut(path)
	for _, a := range rec.Manifest.Artifacts {
		if !slices.Contains(now, a) {
			out = append(out, Change{File: a, What: "missing"})
			continue
		}
		if !isText(a) {
			continue
		}
		was, err := os.ReadFile(filepath.Join(rec.Dir, filepath.FromSlash(a)))
		if err != nil {
			continue // not kept in the recording (binary or too big)
		}
		is, _ := os.ReadFile(filepath.Join(path, filepath.FromSlash(a)))
		out = append(out, diffText(a, string(was), string(is))...)
	}
	for _, a := range now {
		if !slices.Contains(rec.Manifest.Artifacts, a) {
			out = append(out, Change{File: a, What: "new"})
		}
	}
	return out
}

// listOut lists a workspace's artifacts.
func listOut(root string) []string {
	var files []string
	base := filepath.Join(root, "out")
	_ = filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	slices.Sort(files)
	return files
}

// stripUsage cuts the usage summary (tokens, timings) off a report: it
// differs between any two runs.
func stripUsage(md string) string {
	if i := strings.Index(md, "\n## Usage\n"); i >= 0 {
		return md[:i]
	}
	return md
}

var numberRE = regexp.MustCompile(`-?\d[\d,]*(?:\.\d+)?%?`)

// diffText compares two texts line by line (after blanking timings) and
// returns each changed line with the numbers that changed in it.
func diffText(file, recorded, now string) []Change {
	a := strings.Split(trajectory.BlankTimings(recorded), "\n")
	b := strings.Split(trajectory.BlankTimings(now), "\n")
	var out []Change
	for _, h := range diffLines(a, b) {
		c := Change{File: file, What: "changed", Line: h.line + 1, Recorded: strings.Join(h.removed, "\n"), Now: strings.Join(h.added, "\n")}
		wn, nn := numberRE.FindAllString(c.Recorded, -1), numberRE.FindAllString(c.Now, -1)
		for i := range max(len(wn), len(nn)) {
			var w, n string
			if i < len(wn) {
				w = wn[i]
			}
			if i < len(nn) {
				n = nn[i]
			}
			if w != n {
				c.Numbers = append(c.Numbers, fmt.Sprintf("%s → %s", orNone(w), orNone(n)))
			}
		}
		out = append(out, c)
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// hunk is a run of removed and added lines; line is where it starts in
// the new text.
type hunk struct {
	line           int
	removed, added []string
}

// diffLines is a longest-common-subsequence line diff, grouped in hunks.
func diffLines(a, b []string) []hunk {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []hunk
	var cur *hunk
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			flush()
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			if cur == nil {
				cur = &hunk{line: j}
			}
			cur.added = append(cur.added, b[j])
			j++
		default:
			if cur == nil {
				cur = &hunk{line: j}
			}
			cur.removed = append(cur.removed, a[i])
			i++
		}
	}
	flush()
	return out
}
