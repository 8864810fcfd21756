package sessiontest

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// RedisServer is a redis-server a fault test kills and starts again, on
// the same port and in the same directory, as an operator's restart.
type RedisServer struct {
	// Addr is host:port, the same across restarts.
	Addr string
	// Persist says whether the server keeps its data across a kill: an
	// append-only file written on every write (appendfsync always).
	Persist bool

	t    testing.TB
	dir  string
	port int

	mu   sync.Mutex
	stop func()
}

// StartRedisServer starts a restartable redis-server for t, with or
// without persistence, and stops it in t's Cleanup.
func StartRedisServer(t testing.TB, persist bool) *RedisServer {
	t.Helper()
	SkipWithoutRedis(t)
	r := &RedisServer{Persist: persist, t: t, dir: t.TempDir()}
	var last string
	for range 3 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("find a free port: %v", err)
		}
		r.port = l.Addr().(*net.TCPAddr).Port
		_ = l.Close()
		r.Addr = fmt.Sprintf("127.0.0.1:%d", r.port)
		out, err := r.start()
		if err == nil {
			t.Cleanup(r.Kill)
			return r
		}
		last = out
		if !strings.Contains(out, "Address already in use") {
			t.Fatalf("start redis-server: %v\n%s", err, out)
		}
	}
	t.Fatalf("start redis-server: no free port after 3 tries\n%s", last)
	return nil
}

// Kill ends the server with SIGKILL (nothing is saved but what the
// append-only file already holds) and waits for it to be gone.
func (r *RedisServer) Kill() {
	r.mu.Lock()
	stop := r.stop
	r.stop = nil
	r.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// Restart starts the server again on the same port and directory, once
// it says it accepts connections.
func (r *RedisServer) Restart() {
	r.t.Helper()
	// The port was just freed; another process may hold it a moment.
	var out string
	var err error
	for range 50 {
		if out, err = r.start(); err == nil {
			return
		}
		if !strings.Contains(out, "Address already in use") {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.t.Fatalf("restart redis-server: %v\n%s", err, out)
}

func (r *RedisServer) start() (string, error) {
	args := []string{"--port", strconv.Itoa(r.port), "--bind", "127.0.0.1", "--dir", r.dir, "--daemonize", "no", "--save", ""}
	if r.Persist {
		args = append(args, "--appendonly", "yes", "--appendfsync", "always")
	} else {
		args = append(args, "--appendonly", "no")
	}
	stop, out, err := launchRedis(args...)
	if err != nil {
		return out, err
	}
	r.mu.Lock()
	r.stop = stop
	r.mu.Unlock()
	return "", nil
}
