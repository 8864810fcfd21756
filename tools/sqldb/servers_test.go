package sqldb

import (
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Private database servers for the conformance suite: each starts on a
// temporary data directory and a free 127.0.0.1 port, is stopped when the
// test ends, and skips the test where the server is not installed.

// startPostgres starts a throwaway Postgres server on a free localhost
// port and returns the superuser's URL for database db. It skips the test
// when Postgres is not installed. Postgres refuses to run as root, so as
// root the server runs as the postgres user.
func startPostgres(t *testing.T) string {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		if p, err := exec.LookPath("initdb"); err == nil {
			bins = []string{p}
		}
	}
	if len(bins) == 0 {
		t.Skip("skipping the Postgres tests: initdb not found (install the postgresql package; CI does)")
	}
	sort.Strings(bins)
	bin := filepath.Dir(bins[len(bins)-1])

	var asUser []string
	var uid, gid = -1, -1
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skip("skipping the Postgres tests: running as root and there is no postgres user to run the server as")
		}
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
		runuser, err := exec.LookPath("runuser")
		if err != nil {
			t.Skip("skipping the Postgres tests: running as root without runuser")
		}
		asUser = []string{runuser, "-u", "postgres", "--"}
	}
	// t.TempDir's parent is private to root; the server user needs its
	// own directory it can reach.
	dir, err := os.MkdirTemp("", "sqldb-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, sock := filepath.Join(dir, "data"), filepath.Join(dir, "sock")
	for _, d := range []string{data, sock} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if uid >= 0 {
			if err := os.Chown(d, uid, gid); err != nil {
				t.Fatal(err)
			}
		}
	}
	logFile := filepath.Join(sock, "server.log")
	run := func(name string, args ...string) error {
		argv := append(append(append([]string(nil), asUser...), filepath.Join(bin, name)), args...)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			logText, _ := os.ReadFile(logFile)
			return fmt.Errorf("%s: %v\n%s\n%s", name, err, out, logText)
		}
		return nil
	}
	if err := run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off", port, sock)
	if err := run("pg_ctl", "-D", data, "-l", logFile, "-w", "-t", "60", "-o", opts, "start"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := run("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"); err != nil {
			t.Logf("stop postgres: %v", err)
		}
	})
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d", port)
}

// mariadbServer is a throwaway MariaDB server: its unix socket (for the
// administrator, root) and its TCP port on 127.0.0.1.
type mariadbServer struct {
	socket string
	port   int
}

// startMariaDB starts a private MariaDB server on a temporary data
// directory, listening on a free 127.0.0.1 port and a private socket. It
// skips the test where MariaDB is not installed.
func startMariaDB(t *testing.T) mariadbServer {
	t.Helper()
	server, err := exec.LookPath("mariadbd")
	if err != nil {
		if server, err = exec.LookPath("/usr/sbin/mariadbd"); err != nil {
			t.Skip("skipping the MySQL tests: mariadbd not found (install the mariadb-server package; CI does)")
		}
	}
	install, err := exec.LookPath("mariadb-install-db")
	if err != nil {
		t.Skip("skipping the MySQL tests: mariadb-install-db not found (install the mariadb-server package; CI does)")
	}
	dir, err := os.MkdirTemp("", "sqldb-maria-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	data := filepath.Join(dir, "data")
	// The server runs as whoever runs the tests; as root it must be told so.
	user := []string{}
	if os.Geteuid() == 0 {
		user = []string{"--user=root"}
	}
	args := append([]string{"--no-defaults", "--datadir=" + data, "--auth-root-authentication-method=normal", "--skip-test-db"}, user...)
	if out, err := exec.Command(install, args...).CombinedOutput(); err != nil {
		t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	sock := filepath.Join(dir, "mysqld.sock")
	logFile := filepath.Join(dir, "server.log")
	cmd := exec.Command(server, append([]string{"--no-defaults", "--datadir=" + data, "--socket=" + sock, "--port=" + strconv.Itoa(port),
		"--bind-address=127.0.0.1", "--skip-name-resolve", "--log-error=" + logFile, "--pid-file=" + filepath.Join(dir, "mysqld.pid"),
		"--innodb-buffer-pool-size=16M", "--innodb-log-file-size=8M", "--skip-log-bin", "--performance-schema=OFF"}, user...)...)
	if err := cmd.Start(); err != nil {
		t.Fatalf("start mariadbd: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	// Wait until the socket answers: a ping through the driver, retried
	// while the server starts (it says it is ready by accepting).
	admin := mariadbServer{socket: sock, port: port}
	deadline := time.Now().Add(60 * time.Second)
	for {
		db, err := sql.Open("mysql", admin.rootDSN(""))
		if err == nil {
			err = db.Ping()
			db.Close()
		}
		if err == nil {
			return admin
		}
		select {
		case werr := <-exited:
			logText, _ := os.ReadFile(logFile)
			t.Fatalf("mariadbd exited: %v\n%s", werr, logText)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			logText, _ := os.ReadFile(logFile)
			t.Fatalf("mariadbd did not start in time: %v\n%s", err, logText)
		}
	}
}

// rootDSN is the driver DSN of root over the socket, on database db.
func (m mariadbServer) rootDSN(db string) string {
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr, cfg.DBName = "root", "unix", m.socket, db
	return cfg.FormatDSN()
}

func hintOf(qe *QueryError) string {
	if qe == nil {
		return ""
	}
	return qe.Hint
}
