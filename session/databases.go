package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// DatabasesFile records the databases a session queries, so that resume and
// follow-ups open them again.
const DatabasesFile = "databases.json"

// SetDatabases records the session's databases as specs ("name=url"). The
// specs must hold no password (sqldb.Source.Spec replaces it): the
// workspace is readable by the session's code.
func (w *Workspace) SetDatabases(specs []string) error {
	b, err := json.MarshalIndent(struct {
		Databases []string `json:"databases"`
	}{specs}, "", "  ")
	if err != nil {
		return fmt.Errorf("record the session's databases: %w", err)
	}
	return w.WriteFileAtomic(DatabasesFile, b)
}

// Databases returns the specs SetDatabases recorded; none when nothing
// was.
func (w *Workspace) Databases() ([]string, error) {
	b, err := os.ReadFile(w.Path(DatabasesFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the session's databases: %w", err)
	}
	var rec struct {
		Databases []string `json:"databases"`
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("read the session's databases from %s: %w", DatabasesFile, err)
	}
	return rec.Databases, nil
}
