package main

import (
	"context"
	"net"
	"strings"
	"testing"
)

// TestUnreachableEndpointIsAModelConfigError: a base URL where nothing
// listens exits 3 (model configuration), saying what to check.
func TestUnreachableEndpointIsAModelConfigError(t *testing.T) {
	isolateEnv(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	io, _, errOut := testIO()
	code := execute(context.Background(), io, []string{"run", "--mode", "plan", "--sandbox", "none", "--base-url", "http://" + addr + "/v1", "--api-key", "k", "--model", "m",
		"--file", "../../examples/data/sales.csv", "--sessions-dir", t.TempDir(), "How many rows?"})
	if code != exitModelConfig {
		t.Fatalf("exit code = %d, want %d:\n%s", code, exitModelConfig, errOut)
	}
	for _, w := range []string{addr, "--base-url", "the server is running"} {
		if !strings.Contains(errOut.String(), w) {
			t.Errorf("stderr must mention %q:\n%s", w, errOut)
		}
	}
}
