package sqldb

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// The MySQL dialect, MariaDB's too: sessions are set to read-only
// transactions and every query runs in one that is rolled back, under
// MAX_EXECUTION_TIME (MariaDB: max_statement_time). The guard reads "#"
// comments, "…" strings and backslash escapes as the server does, and
// refuses executable comments.
func init() { register(mysqlDialect{baseDialect{MySQL}}) }

type mysqlDialect struct{ baseDialect }

func (mysqlDialect) syntax() syntax {
	return syntax{
		hashComments: true, dashNeedsSpace: true, executableComments: true,
		backslashStrings: true, doubleQuotedStrings: true, backtickIdents: true, namedParams: true,
		explainTable: true, assignments: true, caseSensitiveNames: true,
	}
}

func (mysqlDialect) urls() urlForms {
	return urlForms{prefixes: []string{"mysql://"}, example: "mysql://user:pass@host:3306/db"}
}

func (mysqlDialect) allowedReads() string {
	return "send one SELECT, WITH … SELECT, VALUES, TABLE t, EXPLAIN SELECT, SHOW or DESCRIBE statement"
}

// statement: DESCRIBE t is EXPLAIN t.
func (mysqlDialect) statement(verb string, rest []token) (error, bool) {
	if verb == "DESCRIBE" || verb == "DESC" {
		return checkExplain(MySQL, rest), true
	}
	return nil, false
}

func (mysqlDialect) notes() string {
	return "MySQL: use DATE_FORMAT(col, '%Y-%m'), YEAR(col), MONTH(col), DATE(col), DATE_SUB(NOW(), INTERVAL 30 DAY), DATEDIFF(a, b); CONCAT(a, b) to concatenate; quote identifiers with `backticks`; there is no date_trunc or strftime."
}

var (
	myNoColumn   = regexp.MustCompile(`Unknown column '([^']+)'`)
	myNoTable    = regexp.MustCompile(`Table '([^']+)' doesn't exist`)
	myNoFunction = regexp.MustCompile(`FUNCTION ([^\s]+) does not exist`)
)

func (mysqlDialect) classify(err error) (ErrorKind, string, bool) {
	var my *mysql.MySQLError
	if !errors.As(err, &my) {
		return "", "", false
	}
	switch my.Number {
	case 1054:
		return KindUnknownColumn, matchName(myNoColumn, err), true
	case 1146:
		name := matchName(myNoTable, err)
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		return KindUnknownTable, name, true
	case 1305:
		return KindUnknownFunction, matchName(myNoFunction, err), true
	case 1064, 1149:
		return KindSyntax, "", true
	case 3024, 1317, 1028, 1969: // 1969: MariaDB's max_statement_time
		return KindTimeout, "", true
	case 1792, 1290, 1836:
		return KindReadOnly, "", true
	case 1142, 1143, 1044, 1045, 1227, 1370:
		return KindPermission, "", true
	}
	return KindOther, "", true
}

func (mysqlDialect) session(timeout time.Duration) []sessionStatement {
	return []sessionStatement{
		{SQL: "SET SESSION TRANSACTION READ ONLY"},
		{SQL: "SET SESSION MAX_EXECUTION_TIME = " + strconv.FormatInt(timeout.Milliseconds(), 10),
			Or: "SET SESSION max_statement_time = " + strconv.FormatFloat(timeout.Seconds(), 'f', -1, 64)},
	}
}

func (mysqlDialect) quoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

func (mysqlDialect) fingerprint(ctx context.Context, s *Source) (string, error) {
	return s.fingerprintQuery(ctx, `SELECT CONCAT(COUNT(*), ':', COALESCE(SUM(CRC32(CONCAT_WS('.', TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, ORDINAL_POSITION))), 0))
FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()`)
}

// parseMySQL converts mysql://user:pass@host:port/db?param=v into the
// driver's DSN, with multi-statements, LOAD DATA LOCAL and the like off.
func (mysqlDialect) parseURL(raw string) (*target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrBadURL, redactURL(raw), scrubText(err.Error(), urlPassword(raw)))
	}
	cfg := mysql.NewConfig()
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	q := u.Query()
	if sock := q.Get("socket"); sock != "" {
		cfg.Net, cfg.Addr = "unix", sock
		q.Del("socket")
	} else {
		cfg.Net = "tcp"
		host, port := u.Hostname(), u.Port()
		if host == "" {
			host = "127.0.0.1"
		}
		if port == "" {
			port = "3306"
		}
		cfg.Addr = net.JoinHostPort(host, port)
	}
	cfg.DBName = strings.TrimPrefix(u.Path, "/")
	if cfg.DBName == "" {
		return nil, fmt.Errorf("%w %s: name the database, as in mysql://user:pass@host:3306/shop", ErrBadURL, redactURL(raw))
	}
	charset := ""
	for k, vs := range q {
		v := vs[len(vs)-1]
		switch strings.ToLower(k) {
		case "tls":
			cfg.TLSConfig = v
		case "charset":
			charset = v
		case "collation":
			cfg.Collation = v
		case "loc":
			loc, err := time.LoadLocation(v)
			if err != nil {
				return nil, fmt.Errorf("%w %s: loc=%s: %v", ErrBadURL, redactURL(raw), v, err)
			}
			cfg.Loc = loc
		case "timeout":
			d, err := time.ParseDuration(v)
			if err != nil {
				return nil, fmt.Errorf("%w %s: timeout=%s: %v", ErrBadURL, redactURL(raw), v, err)
			}
			cfg.Timeout = d
		default:
			return nil, fmt.Errorf("%w %s: parameter %q is not supported (supported: tls, charset, collation, loc, timeout, socket)", ErrBadURL, redactURL(raw), k)
		}
	}
	if charset != "" {
		if err := cfg.Apply(mysql.Charset(charset, cfg.Collation)); err != nil {
			return nil, fmt.Errorf("%w %s: charset=%s: %v", ErrBadURL, redactURL(raw), charset, err)
		}
	}
	cfg.ParseTime = true
	cfg.MultiStatements = false
	cfg.AllowAllFiles = false
	cfg.InterpolateParams = false
	dsn := cfg.FormatDSN()
	c, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %s", ErrBadURL, redactURL(raw), scrubText(err.Error(), cfg.Passwd))
	}
	return &target{dialect: MySQL, name: sourceName(cfg.DBName), redacted: redactURL(raw), reopen: redactURL(raw), password: cfg.Passwd, connector: c, dsn: dsn}, nil
}

func (mysqlDialect) loadSchema(ctx context.Context, s *Source) (*Schema, error) {
	sc := &Schema{Dialect: MySQL}
	byName := map[string]*Table{}
	rows, err := s.fetch(ctx, `SELECT TABLE_NAME, TABLE_TYPE, COALESCE(TABLE_ROWS, -1), COALESCE(TABLE_COMMENT, '')
FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME`)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		t := &Table{Name: str(r[0]), View: strings.Contains(str(r[1]), "VIEW"), Comment: str(r[3]), Rows: -1}
		t.ref = quoteIdent(MySQL, t.Name)
		if n := num(r[2]); n >= 0 && !t.View {
			t.Rows, t.RowsEstimated = n, true
			if n < 10_000 {
				if c, err := s.fetch(ctx, "SELECT COUNT(*) FROM "+t.ref); err == nil && len(c) > 0 {
					t.Rows, t.RowsEstimated = num(c[0][0]), false
				}
			}
		}
		byName[t.Name] = t
		sc.Tables = append(sc.Tables, t)
	}
	cols, err := s.fetch(ctx, `SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COALESCE(COLUMN_COMMENT, '')
FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		if t := byName[str(c[0])]; t != nil {
			t.Columns = append(t.Columns, Column{Name: str(c[1]), Type: str(c[2]), Nullable: str(c[3]) == "YES", Comment: str(c[4])})
		}
	}
	keys, err := s.fetch(ctx, `SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, COALESCE(REFERENCED_TABLE_NAME, ''), COALESCE(REFERENCED_COLUMN_NAME, '')
FROM information_schema.KEY_COLUMN_USAGE
WHERE TABLE_SCHEMA = DATABASE() AND (CONSTRAINT_NAME = 'PRIMARY' OR REFERENCED_TABLE_NAME IS NOT NULL)
ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`)
	if err != nil {
		return nil, err
	}
	fkIndex := map[string]int{}
	for _, k := range keys {
		t := byName[str(k[0])]
		if t == nil {
			continue
		}
		if str(k[1]) == "PRIMARY" {
			t.PrimaryKey = append(t.PrimaryKey, str(k[2]))
			continue
		}
		id := t.Name + "\x00" + str(k[1])
		i, ok := fkIndex[id]
		if !ok {
			i = len(t.ForeignKeys)
			fkIndex[id] = i
			t.ForeignKeys = append(t.ForeignKeys, ForeignKey{Table: str(k[3])})
		}
		t.ForeignKeys[i].Columns = append(t.ForeignKeys[i].Columns, str(k[2]))
		t.ForeignKeys[i].RefColumns = append(t.ForeignKeys[i].RefColumns, str(k[4]))
	}
	return sc, nil
}
