package sqldb

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// The Postgres dialect: sessions start read-only (default_transaction_read_only)
// and every query runs in a read-only transaction that is rolled back, under
// the server's statement_timeout; strings are standard-conforming, as the
// guard reads them.
func init() { register(postgresDialect{baseDialect{Postgres}}) }

type postgresDialect struct{ baseDialect }

func (postgresDialect) syntax() syntax {
	return syntax{nestedComments: true, dollarQuotes: true, escapeStrings: true}
}

func (postgresDialect) urls() urlForms {
	return urlForms{prefixes: []string{"postgres://", "postgresql://"}, example: "postgres://user:pass@host:5432/db"}
}

func (postgresDialect) notes() string {
	return "Postgres: use date_trunc('month', col), EXTRACT(YEAR FROM col), to_char(col, 'YYYY-MM'), col::date, now() - interval '30 days'; ILIKE for case-insensitive matching; concatenate with ||; unquoted identifiers fold to lower case, so quote mixed-case names with \"double quotes\"; strings take 'single quotes'; there is no strftime or DATE_FORMAT."
}

var (
	pgNoColumn   = regexp.MustCompile(`column "?([^"\s]+)"? does not exist`)
	pgNoTable    = regexp.MustCompile(`relation "([^"]+)" does not exist`)
	pgNoFunction = regexp.MustCompile(`function ([^\s(]+)\(`)
)

func (postgresDialect) classify(err error) (ErrorKind, string, bool) {
	var pg *pgconn.PgError
	if !errors.As(err, &pg) {
		return "", "", false
	}
	switch pg.Code {
	case "42703":
		return KindUnknownColumn, matchName(pgNoColumn, err), true
	case "42P01":
		return KindUnknownTable, matchName(pgNoTable, err), true
	case "42883":
		return KindUnknownFunction, matchName(pgNoFunction, err), true
	case "42601", "42804", "42P18", "22007", "22008":
		return KindSyntax, "", true
	case "57014":
		return KindTimeout, "", true
	case "25006":
		return KindReadOnly, "", true
	case "42501":
		return KindPermission, "", true
	}
	return KindOther, "", true
}

func (postgresDialect) session(timeout time.Duration) []sessionStatement {
	return []sessionStatement{
		{SQL: "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"},
		{SQL: "SET statement_timeout = " + strconv.FormatInt(timeout.Milliseconds(), 10)},
		{SQL: "SET standard_conforming_strings = on"},
	}
}

func (postgresDialect) fingerprint(ctx context.Context, s *Source) (string, error) {
	return s.fingerprintQuery(ctx, `SELECT md5(COALESCE(string_agg(n.nspname || '.' || c.relname || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod), ',' ORDER BY n.nspname, c.relname, a.attnum), ''))
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r','v','m','p','f')
  AND `+pgUserSchemas)
}

func (postgresDialect) parseURL(raw string) (*target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrBadURL, redactURL(raw), scrubText(err.Error(), urlPassword(raw)))
	}
	password := urlPassword(raw)
	cfg, err := pgx.ParseConfig(raw)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %s", ErrBadURL, redactURL(raw), scrubText(err.Error(), password))
	}
	if password == "" {
		password = cfg.Password
	}
	// The server must read strings as the guard does, and sessions start
	// read-only even before the first SET.
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	cfg.RuntimeParams["default_transaction_read_only"] = "on"
	cfg.RuntimeParams["standard_conforming_strings"] = "on"
	db := cfg.Database
	if db == "" {
		db = strings.TrimPrefix(u.Path, "/")
	}
	if db == "" {
		db = "postgres"
	}
	return &target{dialect: Postgres, name: sourceName(db), redacted: redactURL(raw), reopen: redactURL(raw), password: password, connector: stdlib.GetConnector(*cfg)}, nil
}

const pgUserSchemas = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'`

func (postgresDialect) loadSchema(ctx context.Context, s *Source) (*Schema, error) {
	sc := &Schema{Dialect: Postgres}
	byKey := map[string]*Table{}
	name := func(nsp, rel string) string {
		if nsp == "public" {
			return rel
		}
		return nsp + "." + rel
	}
	rows, err := s.fetch(ctx, `SELECT n.nspname, c.relname, c.relkind, c.reltuples::bigint, c.relpages, COALESCE(obj_description(c.oid, 'pg_class'), '')
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r','v','m','p','f') AND NOT c.relispartition AND `+pgUserSchemas+`
ORDER BY 1, 2`)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		nsp, rel := str(r[0]), str(r[1])
		t := &Table{Name: name(nsp, rel), View: str(r[2]) == "v" || str(r[2]) == "m", Comment: str(r[5]), Rows: -1}
		t.ref = quoteIdent(Postgres, nsp) + "." + quoteIdent(Postgres, rel)
		tuples, pages := num(r[3]), num(r[4])
		switch {
		case t.View:
		case pages < 1000:
			if c, err := s.fetch(ctx, "SELECT count(*) FROM "+t.ref); err == nil && len(c) > 0 {
				t.Rows = num(c[0][0])
			}
		case tuples >= 0:
			t.Rows, t.RowsEstimated = tuples, true
		}
		byKey[t.Name] = t
		sc.Tables = append(sc.Tables, t)
	}
	cols, err := s.fetch(ctx, `SELECT n.nspname, c.relname, a.attname, format_type(a.atttypid, a.atttypmod), NOT a.attnotnull, COALESCE(col_description(c.oid, a.attnum), '')
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r','v','m','p','f') AND `+pgUserSchemas+`
ORDER BY 1, 2, a.attnum`)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		if t := byKey[name(str(c[0]), str(c[1]))]; t != nil {
			t.Columns = append(t.Columns, Column{Name: str(c[2]), Type: str(c[3]), Nullable: str(c[4]) == "true", Comment: str(c[5])})
		}
	}
	keys, err := s.fetch(ctx, `SELECT n.nspname, c.relname, k.contype,
  array_to_string(ARRAY(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY u(n, o) JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.o), chr(31)),
  COALESCE(fn.nspname, ''), COALESCE(fc.relname, ''),
  array_to_string(ARRAY(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY u(n, o) JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.o), chr(31))
FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_class fc ON fc.oid = k.confrelid LEFT JOIN pg_namespace fn ON fn.oid = fc.relnamespace
WHERE k.contype IN ('p', 'f') AND `+pgUserSchemas+`
ORDER BY 1, 2, k.conname`)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		t := byKey[name(str(k[0]), str(k[1]))]
		if t == nil {
			continue
		}
		own := strings.Split(str(k[3]), "\x1f")
		if str(k[2]) == "p" {
			t.PrimaryKey = own
			continue
		}
		t.ForeignKeys = append(t.ForeignKeys, ForeignKey{Columns: own, Table: name(str(k[4]), str(k[5])), RefColumns: strings.Split(str(k[6]), "\x1f")})
	}
	return sc, nil
}
