package templates

import (
	"os"

	"github.com/sift-agent/sift/confined"
)

// createWorkFile creates a fresh file next to name (workspace-relative,
// under work/) in the workspace at root, for the cell to read, through the
// confined opener: the engine runs on the host, and the sandbox can swap
// work/ or any name in it for a link, which must never be followed.
func createWorkFile(root, name string) (*os.File, string, error) {
	r, err := confined.OpenRoot(root)
	if err != nil {
		return nil, "", err
	}
	defer r.Close()
	return r.CreateTemp(name, 0o644)
}

// removeWorkFiles removes the files createWorkFile made (names beneath
// root), never through a link.
func removeWorkFiles(root string, names []string) {
	if len(names) == 0 {
		return
	}
	r, err := confined.OpenRoot(root)
	if err != nil {
		return
	}
	defer r.Close()
	for _, n := range names {
		_ = r.Remove(n)
	}
}
