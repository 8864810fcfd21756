package agents

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/session"
	"github.com/sift-agent/sift/tools/sqldb"
)

// runSchemaTokens is the budget of the database schema shown in the run's
// data context.
const runSchemaTokens = 2000

// databasesNote tells the agents how to use the databases, above their
// schema in the data context.
const databasesNote = `Query them with sql_query (read-only, one statement per call); list_tables and describe_table show the schema. Aggregate in SQL (GROUP BY, filters) before bringing rows into Python. To use a result in Python, pass as_dataframe="name": the full result is then a pandas DataFrame of that name in the Python session, so the next code uses it without reading a file.`

// openDatabases opens the request's databases ("name=url" or a URL),
// read-only.
func openDatabases(ctx context.Context, specs []string) (*sqldb.Sources, error) {
	ss, err := sqldb.OpenSources(ctx, specs, sqldb.Options{})
	if err != nil {
		if errors.Is(err, sqldb.ErrBadURL) {
			return nil, fmt.Errorf("%w: %w", session.ErrBadInput, err)
		}
		return nil, fmt.Errorf("open database: %w", err)
	}
	return ss, nil
}

// useDatabases settles the run's databases once its workspace is known: the
// request's, or else (on resume and follow-ups) those the session recorded;
// and records them for the next time. Specs are recorded without
// passwords.
func (r *run) useDatabases(ctx context.Context, recorded bool) error {
	if r.sources == nil && recorded {
		specs, err := r.ws.Databases()
		if err != nil {
			return err
		}
		if len(specs) > 0 {
			if r.sources, err = openDatabases(ctx, specs); err != nil {
				return &DatabaseError{Specs: specs, Session: r.ws.ID, Err: err}
			}
		}
	}
	if r.sources == nil {
		return nil
	}
	var specs []string
	for _, s := range r.sources.All() {
		if s.Dialect() != sqldb.DuckDB {
			specs = append(specs, s.Spec())
		}
	}
	return r.ws.SetDatabases(specs)
}

// bigFileBytes is the input size from which the agents are told to
// aggregate with SQL before pandas.
const bigFileBytes = 256 << 20

// filesSQLFromEnv names the input size from which the agents get SQL over
// the input files (e.g. 64MiB; 0 for every file); bigFileBytes when unset.
const filesSQLFromEnv = "SIFT_FILES_SQL_FROM"

// filesSQLFrom reads filesSQLFromEnv; a bad value is an error, with
// bigFileBytes.
func filesSQLFrom(getenv func(string) string) (int64, error) {
	v := strings.TrimSpace(getenv(filesSQLFromEnv))
	if v == "" {
		return bigFileBytes, nil
	}
	if v == "0" {
		return 0, nil
	}
	n, err := operator.ParseByteSize(v)
	if err != nil || n < 0 {
		return bigFileBytes, fmt.Errorf("%s=%q: give a size such as 64MiB, or 0 for every file", filesSQLFromEnv, v)
	}
	return n, nil
}

// addFilesSource makes the session's CSV/TSV, JSON/JSONL and Parquet inputs
// queryable with SQL as the source "files" (DuckDB, out of core), beside
// the databases, when one of them is large enough to need it (see
// filesSQLFrom): pandas reads smaller files whole, and the SQL tools
// would only lengthen every request. A failure costs only that source: it
// is reported, and the run goes on.
func (r *run) addFilesSource(ctx context.Context, inputs []string) {
	from, err := filesSQLFrom(os.Getenv)
	if err != nil {
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: "warning: " + err.Error() + "; using the default"})
	}
	var needed bool
	var big []string
	for _, in := range inputs {
		st, err := os.Stat(r.ws.Path(in))
		if err != nil || sqldb.FileReader(in) == "" {
			continue
		}
		needed = needed || st.Size() >= from
		if st.Size() >= bigFileBytes {
			big = append(big, fmt.Sprintf("%s (%.1f MiB)", in, float64(st.Size())/(1<<20)))
		}
	}
	if !needed {
		return
	}
	opts, err := sqldb.FilesOptionsFromEnv(os.Getenv)
	if err != nil {
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: "warning: " + err.Error() + "; using the defaults"})
	}
	files, err := sqldb.OpenFiles(ctx, r.ws.Root, inputs, opts)
	if errors.Is(err, sqldb.ErrUnknownSource) {
		return // no input DuckDB reads
	}
	if err != nil {
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: "warning: the input files cannot be queried with SQL: " + err.Error()})
		return
	}
	for _, u := range files.Unreadable() {
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: "warning: " + u + "; that file cannot be queried with SQL, the other inputs can"})
	}
	var list []*sqldb.Source
	if r.sources != nil {
		list = r.sources.All()
	}
	r.sources = sqldb.NewSources(append(list, files)...)
	r.fileViews, r.bigFiles = files.Views(), big
}

// closeDatabases closes what useDatabases or the run opened, and leaves
// the databases a conversation lent the run open.
func (r *run) closeDatabases() {
	if r.sources == nil {
		return
	}
	if r.lent == nil || r.lent.sources == nil {
		_ = r.sources.Close()
		r.sources = nil
		return
	}
	lent := map[*sqldb.Source]bool{}
	for _, s := range r.lent.sources.All() {
		lent[s] = true
	}
	for _, s := range r.sources.All() {
		if !lent[s] {
			_ = s.Close()
		}
	}
	r.sources = nil
}

// databaseContext is the data context's part about SQL: how to query, the
// input files' views (their columns are in the preview above it) and the
// schema of the databases most relevant to the question; "" without SQL
// sources.
func (r *run) databaseContext(ctx context.Context, question string) string {
	if r.sources == nil || r.sources.Len() == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(prompt.SQLContextHead + databasesNote + "\n")
	if len(r.fileViews) > 0 {
		views := make([]string, len(r.fileViews))
		for i, v := range r.fileViews {
			views[i] = v.Input + " → " + v.View
		}
		fmt.Fprintf(&b, "Source %s holds the input files as views: %s.\n", sqldb.FilesSourceName, strings.Join(views, ", "))
	}
	if len(r.bigFiles) > 0 {
		fmt.Fprintf(&b, "Large inputs: %s. Do not load them whole into pandas (the sandbox's memory is limited): aggregate them with sql_query first, and bring only the result into Python (as_dataframe).\n", strings.Join(r.bigFiles, ", "))
	}
	if notes := r.sources.DialectNotes(); notes != "" {
		b.WriteString(notes + "\n")
	}
	var dbs []*sqldb.Source
	for _, s := range r.sources.All() {
		if s.Dialect() != sqldb.DuckDB {
			dbs = append(dbs, s)
		}
	}
	if len(dbs) == 0 {
		return strings.TrimRight(b.String(), "\n")
	}
	// With an embeddings endpoint, a schema too large to show whole
	// ranks its tables by meaning too.
	text, err := sqldb.NewSources(dbs...).Context(sqldb.WithEmbedder(ctx, r.embedder()), question, runSchemaTokens)
	if err != nil {
		text = "Databases: " + strings.Join(r.sources.Names(), ", ") + " (the schema could not be read: " + err.Error() + "; call list_tables)"
	}
	b.WriteString("\n" + demoteHeadings(strings.TrimSpace(text)))
	return b.String()
}

// noteChangedInputs warns, on resume and follow-ups, about inputs that
// changed since they were added (see session.Workspace.CheckInputs).
func (r *run) noteChangedInputs(ctx context.Context) {
	notes, err := r.ws.CheckInputs(ctx)
	if err != nil {
		notes = append(notes, "the inputs could not be checked for changes: "+err.Error())
	}
	for _, n := range notes {
		r.emit(event.Event{Kind: event.Message, Agent: "sift", Text: "warning: " + n})
	}
}
