package server

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/tools/templates"
)

// filePreview is an uploaded file at a glance, as the page shows it after
// the upload: its tables' first rows and column types, or why it cannot
// be analysed.
type filePreview struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	// Kind is the kind the previewer found (csv, xlsx, text, ...).
	Kind   string                 `json:"kind,omitempty"`
	Sheets []preview.SheetPreview `json:"sheets,omitempty"`
	// Lines are the first lines of a text file.
	Lines []string `json:"lines,omitempty"`
	// Problem, when set, is why the file cannot be analysed, in one
	// sentence with the fix.
	Problem string `json:"problem,omitempty"`
}

// previewRows is how many rows of each table the page shows.
const previewRows = 5

// dataExts are the extensions that promise text data: a file named so
// whose content is binary is not what the person meant to upload.
var dataExts = map[string]bool{".csv": true, ".tsv": true, ".txt": true, ".json": true, ".jsonl": true, ".md": true}

// previewUploads looks at each uploaded file with the library's previewer
// and proposes a few questions its columns can answer (the built-in
// analyses' own suggestions, so they run without a model too).
func (s *Server) previewUploads(ctx context.Context, st *staged) ([]filePreview, []string) {
	opts := s.cfg.Sift.Preview
	opts.MaxRows = previewRows
	var out []filePreview
	var tables []*preview.FilePreview
	for _, name := range st.Files {
		p := joinPath(s.stagedDir(st.ID), "files", name)
		pv, err := preview.File(ctx, p, opts)
		fp := filePreview{Name: name}
		if pv != nil {
			fp.Size, fp.Kind, fp.Sheets, fp.Lines = pv.Size, pv.Kind, pv.Sheets, pv.Lines
			if len(pv.Sheets) > 0 {
				tables = append(tables, pv)
			}
		}
		fp.Problem = uploadProblem(name, pv, err)
		out = append(out, fp)
	}
	return out, templates.Suggest("", "", templates.Params{}, tables)
}

// uploadProblem says why a file cannot be analysed, or "".
func uploadProblem(name string, pv *preview.FilePreview, err error) string {
	ext := strings.ToLower(filepath.Ext(name))
	switch {
	case err != nil && (ext == ".xlsx" || ext == ".xlsm" || ext == ".xls"):
		return fmt.Sprintf("%s is not a workbook Sift can open (it may be corrupt, password-protected or another kind of file renamed): open it in a spreadsheet program, save it as .xlsx or .csv and upload that.", name)
	case err != nil && ext == ".parquet":
		return fmt.Sprintf("%s is not a Parquet file Sift can read (it may be truncated, corrupt, encrypted or another kind of file renamed): write it again (pandas' to_parquet or DuckDB's COPY TO) or export it as CSV, and upload that.", name)
	case err != nil:
		return fmt.Sprintf("%s could not be read (%v): check that it is the file you meant and upload it again.", name, err)
	case pv == nil:
		return ""
	case pv.Kind == preview.KindEmpty:
		return fmt.Sprintf("%s is empty (0 bytes): upload the file that holds your data.", name)
	case pv.Kind == preview.KindBinary && dataExts[ext]:
		return fmt.Sprintf("%s is not a data file: it is named %s but holds binary content; export your data as CSV, TSV, Excel, JSON or Parquet and upload that.", name, ext)
	}
	return ""
}
