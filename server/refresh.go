package server

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sift-agent/sift/agents"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/session"
)

// jobRefresh is a queued refresh: Refresh says of what, on which files.
const jobRefresh = "refresh"

// refreshNeedsApproval is the answer of a refresh whose column mapping
// waits for approval: the error, and the plan with the mapping.
type refreshNeedsApproval struct {
	errorBody
	Refresh *agents.RefreshPlan `json:"refresh"`
}

// handleRefresh runs a finished session again on new data (multipart
// parts named file) in a new session, with no model; ?approve=true
// applies a mapping of renamed columns, which otherwise comes back for
// approval (409 needs_approval).
func (s *Server) handleRefresh(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionID(w, r)
	if !ok {
		return
	}
	approve := false
	for name, v := range r.URL.Query() {
		if name != "approve" || len(v) != 1 || (v[0] != "true" && v[0] != "false") {
			writeError(w, http.StatusBadRequest, codeBadRequest, fmt.Sprintf("unknown query parameter %q: this endpoint takes approve=true or approve=false", name))
			return
		}
		approve = v[0] == "true"
	}
	m, _, err := s.lookup(r.Context(), id)
	if err != nil {
		requestError(w, err)
		return
	}
	if m == nil || m.Status != session.StatusDone {
		status := statusCreated
		if m != nil {
			status = metaView(*m).Status
		}
		writeError(w, http.StatusConflict, codeConflict, fmt.Sprintf("session %s is %s; only a finished analysis (done) is refreshed", id, status))
		return
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "multipart/form-data" {
		writeError(w, http.StatusUnsupportedMediaType, codeBadRequest, "send the new data as multipart/form-data, one part named file for each input of the session")
		return
	}
	newID := session.NewIDContext(r.Context())
	st := &staged{ID: newID, Created: time.Now().UTC()}
	dir := s.stagedDir(newID)
	if err := os.MkdirAll(joinPath(dir, "files"), 0o755); err != nil {
		requestError(w, fmt.Errorf("create the upload directory: %w", err))
		return
	}
	kept := false
	defer func() {
		if !kept {
			_ = os.RemoveAll(dir)
		}
	}()
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxUploadBytes)
	if !s.readUpload(w, r, st) {
		return
	}
	if len(st.DataDirs) > 0 || len(st.Databases) > 0 {
		writeError(w, http.StatusBadRequest, codeBadRequest, "send the new data as parts named file (and nothing else): one for each input of the session, or none to query the session's databases again as they are now")
		return
	}
	req := agents.RefreshRequest{Session: id, Approve: approve, SessionID: newID, Databases: s.recordedDatabases(id), Mapping: st.Mapping}
	for _, f := range st.Files {
		req.Files = append(req.Files, joinPath(dir, "files", f))
	}
	plan, err := s.sift.PlanRefresh(r.Context(), req)
	switch {
	case errors.Is(err, session.ErrWorkspaceNotFound), errors.Is(err, session.ErrSessionNotFound):
		requestError(w, err)
		return
	case errors.Is(err, agents.ErrCannotRefresh):
		writeError(w, http.StatusUnprocessableEntity, codeBadFile, err.Error())
		return
	case err != nil:
		requestError(w, err)
		return
	case plan.NeedsApproval && !approve:
		var b refreshNeedsApproval
		b.Error.Code, b.Error.Message = codeNeedsApproval.name, (&agents.MappingError{Plan: plan}).Error()
		// The plan names each new file by its name: its path is this
		// server's upload directory, which a client is not shown.
		shown := *plan
		shown.Inputs = slices.Clone(plan.Inputs)
		for i := range shown.Inputs {
			if shown.Inputs[i].New != "" {
				shown.Inputs[i].New = filepath.Base(shown.Inputs[i].New)
			}
		}
		b.Refresh = &shown
		writeJSON(w, http.StatusConflict, b)
		return
	}
	st.Started, st.Question = time.Now().UTC(), m.Question
	if err := s.writeStaged(st); err != nil {
		requestError(w, fmt.Errorf("record the session: %w", err))
		return
	}
	kept = true
	s.accept(w, r, newID, queuedJob{Kind: jobRefresh, Refresh: &req}, func(ctx context.Context) iter.Seq[event.Event] { return s.sift.Refresh(ctx, req) }, func() { s.dropUploads(newID) })
}

// recordedDatabases are the databases session id queried, as "name=url"
// from the server's configuration (the session records them without
// their passwords), for a refresh that queries them again; those the
// configuration no longer names are left to the session's record.
func (s *Server) recordedDatabases(id string) []string {
	specs, err := s.workspace(id).Databases()
	if err != nil {
		return nil
	}
	var out []string
	for _, spec := range specs {
		name, _, ok := strings.Cut(spec, "=")
		if url, found := s.cfg.Databases[name]; ok && found {
			out = append(out, name+"="+url)
		}
	}
	return out
}
