// Package sessiontest helps tests that need a real session backend: it
// starts a throwaway redis-server, or says why a test skips without one.
package sessiontest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// RedisMissing is why Redis tests skip.
const RedisMissing = "redis-server is not installed; install it (apt-get install -y redis-server) to run the Redis backend tests"

// RedisInstalled reports whether redis-server is on PATH.
func RedisInstalled() bool {
	_, err := exec.LookPath("redis-server")
	return err == nil
}

// SkipWithoutRedis skips t when redis-server is not installed.
func SkipWithoutRedis(t testing.TB) {
	t.Helper()
	if !RedisInstalled() {
		t.Skip(RedisMissing)
	}
}

// StartRedis starts a redis-server on a free 127.0.0.1 port, without
// persistence, in a temporary directory of owner, and stops it in owner's
// Cleanup. It returns host:port once the server says it accepts
// connections. Failures are reported on t.
func StartRedis(owner, t testing.TB) string {
	t.Helper()
	SkipWithoutRedis(t)
	var lastOutput string
	// A port found free can be taken before the server binds it; then try
	// another.
	for range 3 {
		addr, output, err := tryStartRedis(owner, t)
		if err == nil {
			return addr
		}
		lastOutput = output
		if !strings.Contains(output, "Address already in use") {
			t.Fatalf("start redis-server: %v\n%s", err, output)
		}
	}
	t.Fatalf("start redis-server: no free port after 3 tries\n%s", lastOutput)
	return ""
}

// tryStartRedis makes one attempt of StartRedis and returns the server's
// output on failure.
func tryStartRedis(owner, t testing.TB) (addr, output string, err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()

	stop, output, err := launchRedis("--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", owner.TempDir(),
		"--daemonize", "no")
	if err != nil {
		return "", output, err
	}
	owner.Cleanup(stop)
	return fmt.Sprintf("127.0.0.1:%d", port), "", nil
}

// launchRedis starts redis-server with args and waits until it accepts
// connections. It returns how to stop it, or, when it exited or was not
// ready after 30 s, what it printed and why.
func launchRedis(args ...string) (stop func(), output string, err error) {
	cmd := exec.Command("redis-server", args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, "", fmt.Errorf("start redis-server: %w", err)
	}
	var (
		mu    sync.Mutex
		out   bytes.Buffer
		ready = make(chan struct{})
		ended = make(chan struct{})
	)
	go func() {
		defer close(ended)
		sc := bufio.NewScanner(stdout)
		signalled := false
		for sc.Scan() {
			mu.Lock()
			out.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if !signalled && strings.Contains(sc.Text(), "Ready to accept connections") {
				signalled = true
				close(ready)
			}
		}
	}()
	stop = func() {
		_ = cmd.Process.Kill()
		<-ended
		_ = cmd.Wait()
	}
	printed := func() string { mu.Lock(); defer mu.Unlock(); return out.String() }
	select {
	case <-ready:
		return stop, "", nil
	case <-ended:
		_ = cmd.Wait()
		return nil, printed(), errors.New("redis-server exited before it was ready")
	case <-time.After(30 * time.Second):
		stop()
		return nil, printed(), errors.New("redis-server was not ready after 30s")
	}
}
