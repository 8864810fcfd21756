package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/plans"
	"github.com/sift-agent/sift/session"
)

// uploadsDir holds sessions created but not yet asked anything: their
// files wait there for the first run, which copies them into the
// workspace. A name starting with '.' is never a session id.
const uploadsDir = ".uploads"

// statusCreated, statusQueued and statusStopped are the API's statuses
// beside the registry's: a session with no run yet, one whose run waits
// for a slot, and one marked running by a process that ended (killed, or
// crashed: session.Meta.OwnerGone), which a resume goes on with. sift
// sessions list says "stopped" for the same sessions.
const (
	statusCreated = "created"
	statusQueued  = "queued"
	statusStopped = "stopped"
)

// staged is a session created through the API before its first run.
type staged struct {
	ID        string    `json:"id"`
	Created   time.Time `json:"created"`
	Files     []string  `json:"files,omitempty"`
	DataDirs  []string  `json:"data_dirs,omitempty"`
	Databases []string  `json:"databases,omitempty"`
	// Started is when a server accepted the first run, so other servers'
	// streams wait for it to appear in the registry.
	Started time.Time `json:"started,omitzero"`
	// Question is the first run's question, shown before the run reaches
	// the registry.
	Question string `json:"question,omitempty"`
	// Inputs are the inputs of a session made from another's (a fork:
	// its parent's), workspace-relative, shown before the run reaches
	// the registry; an upload's are its Files.
	Inputs []string `json:"inputs,omitempty"`
	// Mapping is a refresh's part named mapping: the models' column
	// mappings of the plan approved (agents.RefreshPlan.Models), sent
	// back so that the refresh applies them without asking again.
	Mapping []agents.ModelMapping `json:"-"`
}

// startTimeout is how long after Started a stream waits for the run to
// reach the registry before it decides the server that took it died.
const startTimeout = time.Minute

func (s *Server) writeStaged(st *staged) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return os.WriteFile(joinPath(s.stagedDir(st.ID), "staged.json"), b, 0o600)
}

// sessionView is a session as the API shows it.
type sessionView struct {
	ID        string           `json:"id"`
	Status    string           `json:"status"`
	Question  string           `json:"question,omitempty"`
	Mode      string           `json:"mode,omitempty"`
	Created   time.Time        `json:"created"`
	Updated   time.Time        `json:"updated"`
	Inputs    []string         `json:"inputs,omitempty"`
	DataDirs  []string         `json:"data_dirs,omitempty"`
	Databases []string         `json:"databases,omitempty"`
	Step      *plans.Step      `json:"step,omitempty"`
	Pending   *event.Interrupt `json:"pending,omitempty"`
	Plan      *plans.FullPlan  `json:"plan,omitempty"`
	Usage     *event.Usage     `json:"usage,omitempty"`
	Error     string           `json:"error,omitempty"`
	// Parent is the session a refresh or a fork was made from; Origin
	// says which ("refresh", "fork").
	Parent        string   `json:"parent,omitempty"`
	Origin        string   `json:"origin,omitempty"`
	QueuePosition int      `json:"queue_position,omitempty"`
	LastEventID   int64    `json:"last_event_id,omitempty"`
	Files         []string `json:"files,omitempty"`
	// Previews and Examples answer the upload only: each file at a
	// glance, and questions its columns can answer.
	Previews []filePreview `json:"previews,omitempty"`
	Examples []string      `json:"examples,omitempty"`
	// FileURLs are Files as URLs of the files endpoint, from the server's
	// root under its base path (Config.BasePath, or the proxy's
	// X-Forwarded-Prefix), each path element percent-encoded.
	FileURLs []string `json:"file_urls,omitempty"`
}

func (s *Server) stagedDir(id string) string { return joinPath(s.root, uploadsDir, id) }

func (s *Server) readStaged(id string) (*staged, error) {
	b, err := os.ReadFile(joinPath(s.stagedDir(id), "staged.json"))
	if err != nil {
		return nil, err
	}
	var st staged
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("session %s: damaged upload record: %w", id, err)
	}
	return &st, nil
}

// sessionID reads and checks the {id} of the request's path.
func sessionID(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := r.PathValue("id")
	if err := session.ValidateID(id); err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return "", false
	}
	return id, true
}

func (s *Server) handleCreateSession(w http.ResponseWriter, r *http.Request) {
	id := session.NewIDContext(r.Context())
	st := &staged{ID: id, Created: time.Now().UTC()}
	dir := s.stagedDir(id)
	if err := os.MkdirAll(joinPath(dir, "files"), 0o700); err != nil {
		requestError(w, fmt.Errorf("create the upload directory: %w", err))
		return
	}
	ok := false
	defer func() {
		if !ok {
			_ = os.RemoveAll(dir)
		}
	}()
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "multipart/form-data":
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxUploadBytes)
		if !s.readUpload(w, r, st) {
			return
		}
		if st.Mapping != nil {
			writeError(w, http.StatusBadRequest, codeBadRequest, "a part named mapping belongs to a refresh (POST /v1/sessions/{id}/refresh), not to a new session; send files as parts named file")
			return
		}
	case "application/json":
		var body struct {
			DataDirs  []string `json:"data_dirs"`
			Databases []string `json:"databases"`
		}
		if !s.decodeJSON(w, r, &body) {
			return
		}
		st.DataDirs, st.Databases = body.DataDirs, body.Databases
	case "":
		if r.ContentLength > 0 {
			writeError(w, http.StatusUnsupportedMediaType, codeBadRequest, "send files as multipart/form-data (parts named file), or JSON")
			return
		}
	default:
		writeError(w, http.StatusUnsupportedMediaType, codeBadRequest, fmt.Sprintf("unsupported content type %q: send files as multipart/form-data (parts named file), or JSON", ct))
		return
	}
	for _, d := range st.DataDirs {
		if _, found := s.cfg.DataDirs[d]; !found {
			writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("no data directory named %q here; this server offers: %s", d, listOrNone(sortedKeys(s.cfg.DataDirs))))
			return
		}
	}
	for _, d := range st.Databases {
		if _, found := s.cfg.Databases[d]; !found {
			writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("no database named %q here; this server offers: %s", d, listOrNone(sortedKeys(s.cfg.Databases))))
			return
		}
	}
	previews, examples := s.previewUploads(r.Context(), st)
	var problems []string
	for _, p := range previews {
		if p.Problem != "" {
			problems = append(problems, p.Problem)
		}
	}
	if len(problems) > 0 {
		writeError(w, http.StatusUnprocessableEntity, codeBadFile, strings.Join(problems, " "))
		return
	}
	b, _ := json.Marshal(st)
	if err := os.WriteFile(joinPath(dir, "staged.json"), b, 0o600); err != nil {
		requestError(w, fmt.Errorf("record the session: %w", err))
		return
	}
	ok = true
	v := s.stagedView(st)
	v.Previews, v.Examples = previews, examples
	writeJSON(w, http.StatusCreated, v)
}

// readUpload streams the multipart parts to the session's upload
// directory: files from parts named file, and the names of data_dir and
// database parts. It answers the request itself when it fails.
func (s *Server) readUpload(w http.ResponseWriter, r *http.Request, st *staged) bool {
	mr, err := r.MultipartReader()
	if err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, "read the multipart body: "+err.Error())
		return false
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			s.uploadError(w, err)
			return false
		}
		switch part.FormName() {
		case "file":
			if len(st.Files) == s.cfg.MaxFiles {
				writeError(w, http.StatusRequestEntityTooLarge, codeTooLarge, fmt.Sprintf("too many files: this server takes at most %d per session", s.cfg.MaxFiles))
				return false
			}
			name, err := uploadName(part.FileName())
			if err != nil {
				writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
				return false
			}
			if slices.Contains(st.Files, name) {
				writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("two files are named %s; rename one", name))
				return false
			}
			f, err := os.OpenFile(joinPath(s.stagedDir(st.ID), "files", name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if err != nil {
				requestError(w, fmt.Errorf("store %s: %w", name, err))
				return false
			}
			_, err = io.Copy(f, part)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				s.uploadError(w, err)
				return false
			}
			st.Files = append(st.Files, name)
		case "mapping":
			v, err := io.ReadAll(io.LimitReader(part, 1<<20))
			if err != nil {
				s.uploadError(w, err)
				return false
			}
			if err := json.Unmarshal(v, &st.Mapping); err != nil {
				writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("the part named mapping is not the model_mapping of a refresh's plan (a JSON array): %v; send it back as the 409 answer gave it", err))
				return false
			}
		case "data_dir", "database":
			v, err := io.ReadAll(io.LimitReader(part, 1024))
			if err != nil {
				s.uploadError(w, err)
				return false
			}
			if part.FormName() == "data_dir" {
				st.DataDirs = append(st.DataDirs, strings.TrimSpace(string(v)))
			} else {
				st.Databases = append(st.Databases, strings.TrimSpace(string(v)))
			}
		default:
			writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("unknown part %q: send files as parts named file (and data_dir, database by name)", part.FormName()))
			return false
		}
	}
}

func (s *Server) uploadError(w http.ResponseWriter, err error) {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		writeError(w, http.StatusRequestEntityTooLarge, codeTooLarge, fmt.Sprintf("the upload is larger than this server's limit of %s for one session; send smaller or fewer files, or ask the operator to raise --max-upload", humanBytes(mbe.Limit)))
		return
	}
	writeError(w, http.StatusBadRequest, codeBadRequest, "read the upload: "+err.Error())
}

// uploadName checks an uploaded file's name: a plain file name, kept
// without any directory a browser may send.
func uploadName(raw string) (string, error) {
	name := raw
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	switch {
	case name == "" || name == "." || name == "..":
		return "", fmt.Errorf("the file part has no usable file name (%q); give each file part a filename", raw)
	case strings.HasPrefix(name, "."):
		return "", fmt.Errorf("file name %q starts with '.'; rename it", name)
	case strings.ContainsAny(name, "\x00\r\n") || len(name) > 255:
		return "", fmt.Errorf("file name %q has control characters or is too long; rename it", name)
	}
	return name, nil
}

func (s *Server) stagedView(st *staged) sessionView {
	v := sessionView{ID: st.ID, Status: statusCreated, Question: st.Question, Created: st.Created, Updated: st.Created, DataDirs: st.DataDirs, Databases: st.Databases}
	v.Inputs = st.inputs()
	s.overlay(&v)
	return v
}

// inputs are the uploaded files as the workspace names them.
func (st *staged) inputs() []string {
	if len(st.Inputs) > 0 {
		return slices.Clone(st.Inputs)
	}
	var in []string
	for _, f := range st.Files {
		in = append(in, "input/"+f)
	}
	return in
}

// keepCreation shows a session that has reached the registry as it was
// created: the registry records it from its run's first save, a little
// later and, early in the run, before its files are in place. The upload
// record (kept for this, without its files) says when it was created and
// with what, so created and inputs do not change during or after a run.
func (s *Server) keepCreation(v *sessionView) {
	st, err := s.readStaged(v.ID)
	if err != nil {
		return
	}
	v.Created = st.Created
	if len(v.Inputs) == 0 {
		v.Inputs = st.inputs()
	}
	if len(v.DataDirs) == 0 {
		v.DataDirs = st.DataDirs
	}
	if len(v.Databases) == 0 {
		v.Databases = st.Databases
	}
	if v.Question == "" {
		v.Question = st.Question
	}
}

func metaView(m session.Meta) sessionView {
	status := string(m.Status)
	if m.OwnerGone() {
		status = statusStopped
	}
	v := sessionView{ID: m.ID, Status: status, Question: m.Question, Mode: m.Mode, Created: m.Created, Updated: m.Updated, Inputs: m.Inputs, Step: m.Step, Error: m.Error, Parent: m.Parent, Origin: m.Origin}
	if p := m.Pending; p != nil {
		v.Pending = &event.Interrupt{ID: p.ID, Kind: string(p.Kind), Prompt: p.Prompt, Choices: p.Choices}
	}
	return v
}

// withoutHostPaths is msg, a session's error, as a client is shown it:
// the server's own paths (where it keeps uploads and workspaces) are
// taken out, so an uploaded file is named by its name and a workspace's
// file by its path in the workspace.
func (s *Server) withoutHostPaths(id, msg string) string {
	if msg == "" {
		return msg
	}
	sep := string(filepath.Separator)
	for _, dir := range []string{s.stagedDir(id) + sep + "files", joinPath(s.root, id), s.root} {
		msg = strings.ReplaceAll(msg, dir+sep, "")
	}
	return msg
}

// overlay shows a run this server has accepted: queued, or running.
func (s *Server) overlay(v *sessionView) {
	s.mu.Lock()
	h := s.hubs[v.ID]
	s.mu.Unlock()
	if h == nil {
		if v.Status == statusCreated && s.runq != nil {
			// A first run in the run queue, no worker has taken yet.
			ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
			defer cancel()
			if s.queued(ctx, v.ID) {
				v.Status = statusQueued
			}
		}
		return
	}
	hv := h.view(0)
	if !hv.active {
		return
	}
	if hv.position > 0 {
		v.Status, v.QueuePosition = statusQueued, hv.position
	} else if v.Status == statusCreated {
		v.Status = string(session.StatusRunning)
	}
}

// lookup finds a session: in the registry, or created and not yet run.
func (s *Server) lookup(ctx context.Context, id string) (*session.Meta, *staged, error) {
	m, err := s.store.Sessions.Get(ctx, id)
	if err == nil {
		return &m, nil, nil
	}
	if !errors.Is(err, session.ErrSessionNotFound) {
		return nil, nil, err
	}
	if st, serr := s.readStaged(id); serr == nil {
		return nil, st, nil
	}
	return nil, nil, fmt.Errorf("%w: no session %s; list them with GET /v1/sessions", session.ErrSessionNotFound, id)
}

func (s *Server) handleListSessions(w http.ResponseWriter, r *http.Request) {
	var f session.Filter
	q := r.URL.Query()
	// A parameter the document does not name is refused, not ignored: a
	// client that sends status[]=done would otherwise list everything.
	for name := range q {
		if name != "status" && name != "limit" {
			writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("unknown query parameter %q: this endpoint takes status (repeatable: status=done&status=failed) and limit", name))
			return
		}
	}
	var wantCreated, wantQueued bool
	want := map[string]bool{}
	for _, st := range q["status"] {
		switch st {
		case statusCreated:
			wantCreated = true
		case statusQueued:
			wantQueued = true
		case statusStopped:
			// Stopped sessions are running ones whose process ended.
			want[st] = true
			f.Status = append(f.Status, session.StatusRunning)
		default:
			if !session.Status(st).Valid() {
				writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("unknown status %q: use created, queued, running, waiting, paused, stopped, done or failed", st))
				return
			}
			want[st] = true
			f.Status = append(f.Status, session.Status(st))
		}
	}
	if wantQueued {
		// A queued run may be of a session in any status.
		f.Status = nil
	}
	limit := 0
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 {
			writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("limit %q: give a positive number", l))
			return
		}
		limit = n
	}
	metas, err := s.store.Sessions.List(r.Context(), f)
	if err != nil {
		requestError(w, err)
		return
	}
	filtered := len(q["status"]) > 0
	out := []sessionView{}
	known := map[string]bool{}
	for _, m := range metas {
		known[m.ID] = true
		v := metaView(m)
		v.Error = s.withoutHostPaths(v.ID, v.Error)
		s.keepCreation(&v)
		s.overlay(&v)
		if !filtered || want[v.Status] || wantQueued && v.Status == statusQueued {
			out = append(out, v)
		}
	}
	if !filtered || wantCreated || wantQueued {
		entries, _ := os.ReadDir(joinPath(s.root, uploadsDir))
		for _, e := range entries {
			if known[e.Name()] || session.ValidateID(e.Name()) != nil {
				continue
			}
			// A session nobody asked anything yet (a page that uploaded
			// files and was left) is listed only when asked for.
			if st, err := s.readStaged(e.Name()); err == nil && (filtered || !st.Started.IsZero()) {
				v := s.stagedView(st)
				if !filtered || wantCreated && v.Status == statusCreated || wantQueued && v.Status == statusQueued {
					out = append(out, v)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b sessionView) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": out})
}

func (s *Server) handleGetSession(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionID(w, r)
	if !ok {
		return
	}
	v, err := s.view(r.Context(), id)
	if err != nil {
		requestError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// view is the full session: status, plan, usage, pending interrupt and
// files, from the registry and the session's event log.
func (s *Server) view(ctx context.Context, id string) (sessionView, error) {
	m, st, err := s.lookup(ctx, id)
	if err != nil {
		return sessionView{}, err
	}
	if st != nil {
		return s.stagedView(st), nil
	}
	v := metaView(*m)
	v.Error = s.withoutHostPaths(id, v.Error)
	s.keepCreation(&v)
	s.overlay(&v)
	evs, _ := session.ReadEvents(s.eventsPath(id))
	for _, e := range evs {
		v.LastEventID = e.Seq
		if e.Plan != nil {
			v.Plan = e.Plan
		}
		if e.Usage != nil {
			v.Usage = e.Usage
		}
		if e.Interrupt != nil && v.Pending != nil && e.Interrupt.ID == v.Pending.ID {
			in := *e.Interrupt
			v.Pending = &in
		}
	}
	s.statusFromLog(ctx, &v, evs)
	v.Files = s.listFiles(id)
	v.FileURLs = fileURLs(basePathFrom(ctx), id, v.Files)
	return v, nil
}

// statusFromLog shows a session the registry calls running (or stopped)
// as its log says it ended, when the log's last event is a done and no
// run of it is queued or going on here: its status write failed (Redis
// away, a full disk) after the run had ended. The log is the truth.
func (s *Server) statusFromLog(ctx context.Context, v *sessionView, evs []event.Event) {
	if len(evs) == 0 || (v.Status != string(session.StatusRunning) && v.Status != statusStopped) {
		return
	}
	last := evs[len(evs)-1]
	if last.Kind != event.Done {
		return
	}
	s.mu.Lock()
	h := s.hubs[v.ID]
	s.mu.Unlock()
	if h != nil && !h.ending() || s.queued(ctx, v.ID) {
		return
	}
	v.Status = string(loggedStatus(last))
	if last.Err != nil && v.Status == string(session.StatusFailed) {
		v.Error = last.Err.Error()
	}
}

func (s *Server) handleDeleteSession(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionID(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	_, busy := s.hubs[id]
	s.mu.Unlock()
	if busy {
		writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("session %s has a run going on; pause it and wait for its done event before deleting it", id))
		return
	}
	m, st, err := s.lookup(r.Context(), id)
	if err != nil {
		requestError(w, err)
		return
	}
	// Hold the claim while deleting, so no server starts a run of it
	// meanwhile; refused while one runs or queues it.
	if err := s.claim(r.Context(), id); err != nil {
		var ref *refusal
		if errors.As(err, &ref) {
			writeError(w, ref.status, ref.code, ref.msg)
			return
		}
		requestError(w, err)
		return
	}
	defer s.release(id)
	if m != nil {
		if m.Status == session.StatusRunning && !m.OwnerGone() {
			writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("session %s is running (perhaps on another server); pause it before deleting it", id))
			return
		}
		if err := s.store.Sessions.Delete(r.Context(), id); err != nil && !errors.Is(err, session.ErrSessionNotFound) {
			requestError(w, err)
			return
		}
		// Stores other than files keep the workspace apart.
		if err := session.RemoveWorkspace(s.workspacePath(id)); err != nil {
			requestError(w, fmt.Errorf("remove the workspace of %s: %w", id, err))
			return
		}
	}
	_ = st
	_ = os.RemoveAll(s.stagedDir(id))
	w.WriteHeader(http.StatusNoContent)
}

// runRequest is the body of POST .../runs: the library's Request fields.
type runRequest struct {
	Question   string `json:"question"`
	Mode       string `json:"mode"`
	ReviewPlan bool   `json:"review_plan"`
	Yes        bool   `json:"yes"`
	// Fresh computes the answer even when memory holds it.
	Fresh bool `json:"fresh"`
	// Parallel bounds the plan steps run at the same time; absent: the
	// default (agents.DefaultParallel). At least 1, as the OpenAPI
	// document says. Resumes keep it.
	Parallel *int `json:"parallel"`
	Budget   struct {
		MaxTokens     int     `json:"max_tokens"`
		MaxTime       string  `json:"max_time"`
		MaxSteps      int     `json:"max_steps"`
		MaxModelCalls int     `json:"max_model_calls"`
		MaxCost       float64 `json:"max_cost"`
	} `json:"budget"`
}

func (s *Server) handleRun(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionID(w, r)
	if !ok {
		return
	}
	var body runRequest
	if !s.decodeJSON(w, r, &body) {
		return
	}
	if strings.TrimSpace(body.Question) == "" {
		writeError(w, http.StatusBadRequest, codeBadRequest, `the question is empty: send {"question": "what do you want to know?"}`)
		return
	}
	mode, err := agents.ParseMode(body.Mode)
	if err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return
	}
	parallel := 0
	if body.Parallel != nil {
		if parallel = *body.Parallel; parallel < 1 {
			writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("parallel %d: give at least 1 (1 runs the steps one after another), or leave it out for %d", parallel, agents.DefaultParallel))
			return
		}
	}
	if b := body.Budget; b.MaxTokens < 0 || b.MaxSteps < 0 || b.MaxModelCalls < 0 || b.MaxCost < 0 {
		writeError(w, http.StatusBadRequest, codeBadRequest, "a budget bound is negative: give 0 or more (0 or left out: no bound)")
		return
	}
	req := agents.Request{Question: body.Question, Mode: mode, ReviewPlan: body.ReviewPlan && !body.Yes, Yes: body.Yes, Fresh: body.Fresh, SessionID: id, Parallel: parallel,
		Budget: agents.Budget{MaxTokens: body.Budget.MaxTokens, MaxSteps: body.Budget.MaxSteps, MaxModelCalls: body.Budget.MaxModelCalls, MaxCost: body.Budget.MaxCost}}
	if body.Budget.MaxTime != "" {
		if req.Budget.MaxTime, err = time.ParseDuration(body.Budget.MaxTime); err != nil || req.Budget.MaxTime < 0 {
			writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("budget.max_time %q: give a duration such as 10m", body.Budget.MaxTime))
			return
		}
	}
	m, st, err := s.lookup(r.Context(), id)
	if err != nil {
		requestError(w, err)
		return
	}
	var after func()
	if m != nil {
		switch {
		case m.Status == session.StatusWaiting:
			writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("session %s waits for an answer (%s); answer it with POST /v1/sessions/%s/answers first", id, pendingText(m), id))
			return
		case !m.Status.Finished():
			writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("session %s is %s; resume it (POST /v1/sessions/%s/resume) or wait for it to finish before asking a follow-up", id, metaView(*m).Status, id))
			return
		}
	} else {
		for _, f := range st.Files {
			req.Files = append(req.Files, joinPath(s.stagedDir(id), "files", f))
		}
		for _, d := range st.DataDirs {
			req.Dirs = append(req.Dirs, s.cfg.DataDirs[d])
		}
		// The request names databases; their addresses are the
		// operator's, never the client's.
		for _, d := range st.Databases {
			req.Databases = append(req.Databases, d+"="+s.cfg.Databases[d])
		}
		st.Started = time.Now().UTC()
		st.Question = strings.TrimSpace(body.Question)
		if err := s.writeStaged(st); err != nil {
			requestError(w, fmt.Errorf("record the session: %w", err))
			return
		}
		// The workspace has the files once the run has begun; the
		// uploaded copies are then not needed. The record stays: it says
		// when and with what the session was created (keepCreation).
		after = func() { s.dropUploads(id) }
	}
	s.accept(w, r, id, queuedJob{Kind: jobRun, Request: &req, FirstRun: m == nil}, func(ctx context.Context) iter.Seq[event.Event] { return s.sift.Run(ctx, req) }, after)
}

// accept starts a run of session id here (fn, then after), or, with the
// run queue, queues job for a worker.
func (s *Server) accept(w http.ResponseWriter, r *http.Request, id string, job queuedJob, fn runFunc, after func()) {
	var acc accepted
	var err error
	if s.runq != nil {
		acc, err = s.enqueue(r.Context(), id, job)
	} else {
		acc, err = s.startRun(r.Context(), id, fn, after)
	}
	var ref *refusal
	if errors.As(err, &ref) {
		writeError(w, ref.status, ref.code, ref.msg)
		return
	}
	if err != nil {
		requestError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, acc)
}

func pendingText(m *session.Meta) string {
	if m.Pending == nil {
		return "an answer"
	}
	return fmt.Sprintf("%s %q", m.Pending.Kind, m.Pending.Prompt)
}

// answerRequest is the body of POST .../answers.
type answerRequest struct {
	InterruptID string   `json:"interrupt_id"`
	Action      string   `json:"action"`
	Steps       []string `json:"steps"`
	Feedback    string   `json:"feedback"`
	Answer      string   `json:"answer"`
	Reason      string   `json:"reason"`
}

func (s *Server) handleAnswer(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionID(w, r)
	if !ok {
		return
	}
	var body answerRequest
	if !s.decodeJSON(w, r, &body) {
		return
	}
	m, _, err := s.lookup(r.Context(), id)
	if err != nil {
		requestError(w, err)
		return
	}
	if m == nil || m.Status != session.StatusWaiting || m.Pending == nil {
		status := statusCreated
		if m != nil {
			status = string(m.Status)
		}
		writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("session %s waits for no answer (it is %s)", id, status))
		return
	}
	p := m.Pending
	if body.InterruptID != "" && body.InterruptID != p.ID {
		writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("interrupt %s is not the one pending; session %s waits on %s (%s)", body.InterruptID, id, p.ID, p.Kind))
		return
	}
	answer, err := answerFor(p, body)
	if err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return
	}
	answers := map[string]any{p.ID: answer}
	s.accept(w, r, id, queuedJob{Kind: jobAnswer, Answer: &body}, func(ctx context.Context) iter.Seq[event.Event] { return s.sift.Resume(ctx, id, answers) }, nil)
}

// answerFor builds the library's answer to the pending interrupt.
func answerFor(p *session.Pending, b answerRequest) (any, error) {
	switch p.Kind {
	case session.PendingPlanReview:
		switch b.Action {
		case event.PlanApprove:
			return &event.PlanDecision{Action: event.PlanApprove}, nil
		case event.PlanEdit:
			steps := slices.DeleteFunc(slices.Clone(b.Steps), func(s string) bool { return strings.TrimSpace(s) == "" })
			if len(steps) == 0 {
				return nil, errors.New(`editing the plan needs its new steps: {"action": "edit", "steps": ["...", "..."]}`)
			}
			return &event.PlanDecision{Action: event.PlanEdit, Steps: steps}, nil
		case event.PlanReject:
			return &event.PlanDecision{Action: event.PlanReject, Feedback: b.Feedback}, nil
		}
		return nil, fmt.Errorf("a plan review takes action approve, edit (with steps) or reject (with feedback), not %q", b.Action)
	case session.PendingApproval:
		switch b.Action {
		case "approve":
			return agents.AnswerFor(string(p.Kind), p.Choices, true, "", "")
		case "deny":
			reason := b.Reason
			if strings.TrimSpace(reason) == "" {
				reason = "refused by the person"
			}
			return agents.AnswerFor(string(p.Kind), p.Choices, false, "", reason)
		}
		return nil, fmt.Errorf("an approval takes action approve or deny (with reason), not %q", b.Action)
	default:
		if strings.TrimSpace(b.Answer) == "" {
			return nil, fmt.Errorf(`the session asks %q: send {"answer": "..."}`, p.Prompt)
		}
		return agents.AnswerFor(string(p.Kind), p.Choices, false, b.Answer, "")
	}
}

func (s *Server) handlePause(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionID(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	h := s.hubs[id]
	s.mu.Unlock()
	if h == nil {
		m, _, err := s.lookup(r.Context(), id)
		if err != nil {
			requestError(w, err)
			return
		}
		// Another server may run it: ask it, through the shared store,
		// to pause at its next safe point.
		held, err := s.requestRemotePause(r.Context(), id)
		if err != nil {
			requestError(w, err)
			return
		}
		if held {
			v, err := s.view(r.Context(), id)
			if err != nil {
				requestError(w, err)
				return
			}
			writeJSON(w, http.StatusAccepted, v)
			return
		}
		if m != nil && m.Status == session.StatusRunning {
			writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("session %s was left running by a server that is gone; resume it here", id))
			return
		}
		writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("session %s has no run going on", id))
		return
	}
	if h.view(0).position > 0 {
		writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("the run of session %s is queued and has not started; there is nothing to pause yet", id))
		return
	}
	h.requestPause()
	v, err := s.view(r.Context(), id)
	if err != nil {
		requestError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, v)
}

func (s *Server) handleResume(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionID(w, r)
	if !ok {
		return
	}
	m, _, err := s.lookup(r.Context(), id)
	if err != nil {
		requestError(w, err)
		return
	}
	switch {
	case m == nil:
		writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("session %s has not run yet; ask a question with POST /v1/sessions/%s/runs", id, id))
		return
	case m.Status == session.StatusWaiting:
		writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("session %s waits for an answer (%s); send it with POST /v1/sessions/%s/answers", id, pendingText(m), id))
		return
	case m.Status.Finished():
		writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("session %s is %s; ask a follow-up with POST /v1/sessions/%s/runs", id, m.Status, id))
		return
	}
	s.accept(w, r, id, queuedJob{Kind: jobResume}, func(ctx context.Context) iter.Seq[event.Event] { return s.sift.Resume(ctx, id, nil) }, nil)
}

// decodeJSON reads a bounded JSON body into v, refusing unknown fields so
// a misspelt option is not silently ignored. It answers the request itself
// when it fails.
func (s *Server) decodeJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	// A body that does not say it is JSON is refused: a form or text/plain
	// body is what another site's page can send without asking.
	if !isJSON(r) {
		writeError(w, http.StatusUnsupportedMediaType, codeBadRequest, fmt.Sprintf("the body must be JSON with the header Content-Type: application/json (got %q); see /v1/openapi.json", r.Header.Get("Content-Type")))
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, codeTooLarge, fmt.Sprintf("the request body is larger than this server's limit of %s", humanBytes(mbe.Limit)))
			return false
		}
		writeError(w, http.StatusBadRequest, codeBadRequest, "the body is not the JSON this endpoint takes: "+err.Error()+"; see /v1/openapi.json")
		return false
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":{"code":"internal","message":"cannot encode the answer"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// joinPath joins path elements with the OS separator.
func joinPath(elem ...string) string { return filepath.Join(elem...) }
