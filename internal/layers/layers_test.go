package layers

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/sift-agent/sift/"

// The rooms that must not reach a room above them, even through another
// package: the compiler refuses cycles, not imports that run the wrong way
// round through a third package.
var below = []struct {
	pkg        string
	mustNotUse []string
}{
	{"usage", []string{"event", "report", "llm", "agents"}},
	{"event", []string{"report", "llm", "agents"}},
	{"llm/trajectory", []string{"llm"}},
	{"report", []string{"llm", "agents", "agents/internal/tree", "agents/internal/prompt", "agents/internal/conversation"}},
	{"agents/internal/prompt", []string{"agents", "agents/internal/tree", "agents/internal/conversation"}},
	{"agents/internal/tree", []string{"agents", "agents/internal/conversation"}},
	{"agents/internal/conversation", []string{"agents"}},
	{"cmd/sift/internal/chat", []string{"cmd/sift"}},
	{"cmd/sift/internal/termui", []string{"cmd/sift", "cmd/sift/internal/chat", "agents", "event"}},
	// The sandbox knows nothing of the kernel or the operator that use it;
	// the probe cache knows nothing of either.
	{"operator/internal/sandbox", []string{"operator"}},
	{"operator/internal/probecache", []string{"operator", "operator/internal/sandbox"}},
}

func TestImportsRunOneWay(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the packages' imports")
	}
	for _, b := range below {
		out, err := exec.Command("go", "list", "-deps", module+b.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", b.pkg, err)
		}
		deps := map[string]bool{}
		for _, line := range strings.Fields(string(out)) {
			deps[strings.TrimPrefix(line, module)] = true
		}
		if !deps[b.pkg] {
			t.Fatalf("go list -deps %s did not list the package itself: %s", b.pkg, out)
		}
		for _, above := range b.mustNotUse {
			if deps[above] {
				t.Errorf("%s imports %s (directly or through another package); it sits below it", b.pkg, above)
			}
		}
	}
}
