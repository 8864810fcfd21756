package memory

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sift-agent/sift/preview"
)

// Kinds of data source.
const (
	// SourceFile is an input file, known by its schema and its content.
	SourceFile = "file"
	// SourceDatabase is a SQL database, known by its address and its
	// tables; its content is not hashed (it may be large and it changes
	// under Sift), so no answer is cached over a database.
	SourceDatabase = "database"
)

// Source is the identity of one data source: what Sift remembers things
// about. Two inputs with the same ID are the same data to memory,
// whatever they are called.
type Source struct {
	// ID is the fingerprint: a hash of the kind and schema and, for a
	// file, its content; for a database, its address and table names.
	// A file's name is not part of it.
	ID string `json:"id"`
	// Kind is SourceFile or SourceDatabase.
	Kind string `json:"kind"`
	// Name is how the source was given (a file's base name, a database's
	// address without its password), for people reading a listing.
	Name string `json:"name"`
	// Schema is what the source holds: a file's kind and its sheets'
	// columns and types; a database's table names.
	Schema string `json:"schema"`
	// Content is the SHA-256 of a file's bytes; empty for a database.
	Content string `json:"content,omitempty"`
}

// Hashed reports whether the source's content is part of its identity, so
// that an answer computed on it is still the answer when the ID matches.
func (s Source) Hashed() bool { return s.Content != "" }

// File fingerprints the file at path: the SHA-256 of its bytes (read once,
// streaming) and its schema as preview sees it. It fails when the file
// cannot be read.
func File(ctx context.Context, path string) (Source, error) {
	return FileHashed(ctx, path, "")
}

// FileHashed is File for a file whose SHA-256 (hex) is already known, as
// a session's input record keeps it from the copy: the file is not read
// again to hash it. An empty sum hashes the file.
func FileHashed(ctx context.Context, path, sum string) (Source, error) {
	// The schema is the columns and their types, which do not depend on
	// the row count: the rows are estimated, not counted (a second scan
	// of the whole file).
	p, err := preview.File(ctx, path, SchemaOptions)
	if err != nil {
		p = nil
	}
	return FilePreviewed(ctx, path, sum, p)
}

// SchemaOptions are the options of the preview a file's schema is read
// from (see FilePreviewed).
var SchemaOptions = preview.Options{ExactCountLimit: 1}

// FilePreviewed is FileHashed with the file's schema read from p, a
// preview of it already made with SchemaOptions or options that find the
// same tables (preview.SameTables), so the file is not previewed again;
// nil when it could not be previewed (the schema is then "unknown").
func FilePreviewed(ctx context.Context, path, sum string, p *preview.FilePreview) (Source, error) {
	content := sum
	if content == "" {
		f, err := os.Open(path)
		if err != nil {
			return Source{}, fmt.Errorf("fingerprint %s: %w", path, err)
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, ctxReader{ctx, f}); err != nil {
			return Source{}, fmt.Errorf("fingerprint %s: read: %w", path, err)
		}
		content = hex.EncodeToString(h.Sum(nil))
	} else if _, err := os.Stat(path); err != nil {
		return Source{}, fmt.Errorf("fingerprint %s: %w", path, err)
	}
	schema := "unknown"
	if p != nil {
		schema = fileSchema(p)
	}
	return Source{
		ID:      digest(SourceFile, schema, content),
		Kind:    SourceFile,
		Name:    filepath.Base(path),
		Schema:  schema,
		Content: content,
	}, nil
}

// fileSchema is a file's kind and its tables' columns, one line per
// sheet. The one table of a CSV file is named after the file, so it is
// named only in workbooks of several sheets.
func fileSchema(p *preview.FilePreview) string {
	var b strings.Builder
	b.WriteString(p.Kind)
	for _, sh := range p.Sheets {
		cols := make([]string, len(sh.Columns))
		for i, c := range sh.Columns {
			cols[i] = c.Name + " " + c.Type
		}
		b.WriteString("\n")
		if len(p.Sheets) > 1 {
			b.WriteString(sh.Name + ": ")
		}
		b.WriteString(strings.Join(cols, ", "))
	}
	return b.String()
}

// Database is the identity of a database: its address (give it without
// a password) and its table names, in any order.
func Database(address string, tables []string) Source {
	ts := slices.Clone(tables)
	slices.Sort(ts)
	schema := strings.Join(ts, ", ")
	return Source{ID: digest(SourceDatabase, address, schema), Kind: SourceDatabase, Name: address, Schema: schema}
}

// Sources are the data of one run, in any order.
type Sources []Source

// IDs are the sources' IDs, sorted and without repeats.
func (ss Sources) IDs() []string {
	ids := make([]string, 0, len(ss))
	for _, s := range ss {
		ids = append(ids, s.ID)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// Names are the sources' names, in order.
func (ss Sources) Names() []string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = s.Name
	}
	return names
}

// Key is the identity of the data as a whole: the same for the same
// sources in any order.
func (ss Sources) Key() string { return digest(ss.IDs()...) }

// Hashed reports whether every source's content is part of its identity
// (see Source.Hashed), so that an answer on them can be reused. No
// sources at all is not hashed data.
func (ss Sources) Hashed() bool {
	if len(ss) == 0 {
		return false
	}
	for _, s := range ss {
		if !s.Hashed() {
			return false
		}
	}
	return true
}

// digest hashes parts, each ended by a zero byte so that no two lists of
// parts give the same bytes.
func digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ctxReader stops a read when its context is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
