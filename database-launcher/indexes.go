package main

// FerretDB 1.24 creates the indexes a collection declares, but on expressions its own queries do
// not use, so every query reads the whole table:
//
//   - SQLite: a filter that is exactly `_id` equality becomes `WHERE _ferretdb_sjson->'$._id' = ?`
//     (every other filter is evaluated in Go after reading every row), while the `_id_` index is on
//     `_ferretdb_sjson->"_id"`, an expression SQLite's planner does not take for the same one.
//   - PostgreSQL: equality on top-level fields becomes `_jsonb->'field' @> '"value"'`, which a
//     B-tree index on `(_jsonb->'field')` (what FerretDB creates) cannot serve.
//
// So the launcher adds, beside FerretDB's own, the indexes those queries can use: on SQLite one on
// `_ferretdb_sjson->'$._id'` per table, and for every field of a declared index the one its
// pushed-down equality uses (`_ferretdb/sqlite_pushdown.go`; the expression is lookup_expression.go's:
// the field's JSON text, or 'array') and, for a top-level field, the one its exact pushdown orders
// by (`_ferretdb/sqlite_exact_pushdown.go`: type rank, then value); on PostgreSQL a GIN index (jsonb_path_ops, which
// serves `@>`) on `_id` and on every field of a declared index. FerretDB lists and drops only the indexes
// in its metadata and never sees these; a dropped collection or database takes them with it.

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // database/sql driver (FerretDB uses a copy with a statement cache, _ferretdb/patch)
)

type indexKeeper interface {
	ensure(ctx context.Context)
	close()
}

func keepIndexes(ctx context.Context, k indexKeeper, interval time.Duration) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			k.ensure(ctx)
		}
	}
}

// lookupIndexName is the name of the launcher's index for a table and field: unique, short and
// recognisable (PostgreSQL allows 63 bytes, and index names are per schema there).
func lookupIndexName(table, field string) string {
	sum := sha256.Sum256([]byte(table + "\x00" + field))
	return "hitscope_lookup_" + hex.EncodeToString(sum[:8])
}

// sqliteIndexes watches the data folder: one SQLite file per MongoDB database.
type sqliteIndexes struct {
	dir    string
	logger *slog.Logger
	files  map[string]*sqliteFile
}

type sqliteFile struct {
	db            *sql.DB
	inode         uint64
	schemaVersion int64
}

func inodeOf(path string) (uint64, bool) {
	info, err := os.Stat(path)
	if err != nil {
		return 0, false
	}
	stat, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, true
	}
	return stat.Ino, true
}

func (s *sqliteIndexes) ensure(ctx context.Context) {
	if s.files == nil {
		s.files = map[string]*sqliteFile{}
	}
	paths, _ := filepath.Glob(filepath.Join(s.dir, "*.sqlite"))
	seen := map[string]bool{}
	for _, path := range paths {
		seen[path] = true
		inode, exists := inodeOf(path)
		file := s.files[path]
		// A dropped database is a deleted file, and a database created again under the same name
		// a new one: never keep working on the old.
		if file != nil && (!exists || file.inode != inode) {
			_ = file.db.Close()
			file = nil
			delete(s.files, path)
		}
		if !exists {
			continue
		}
		if file == nil {
			// Never creates the file (mode=rw) and waits for FerretDB's writers like they wait for it.
			db, err := sql.Open("sqlite", "file:"+path+"?mode=rw&_pragma=busy_timeout(10000)")
			if err != nil {
				continue
			}
			db.SetMaxOpenConns(1)
			file = &sqliteFile{db: db, inode: inode, schemaVersion: -1}
			s.files[path] = file
		}
		s.ensureFile(ctx, path, file)
	}
	for path, file := range s.files {
		if !seen[path] {
			_ = file.db.Close()
			delete(s.files, path)
		}
	}
}

// ensureFile adds the missing lookup indexes of one database, when its schema changed.
func (s *sqliteIndexes) ensureFile(ctx context.Context, path string, file *sqliteFile) {
	var version int64
	if err := file.db.QueryRowContext(ctx, "PRAGMA schema_version").Scan(&version); err != nil || version == file.schemaVersion {
		return
	}
	rows, err := file.db.QueryContext(ctx, "SELECT table_name, settings FROM _ferretdb_collections")
	if err != nil {
		return // not a FerretDB database yet (being created)
	}
	type want struct{ table, name, expression string }
	var wanted []want
	for rows.Next() {
		var table, settings string
		if err := rows.Scan(&table, &settings); err != nil {
			continue
		}
		// The expression the pushdown compares with (lookup_expression.go): `_id`, and every field
		// of a declared index.
		// A declared compound index on top-level fields, on its fields' order expressions together:
		// SQLite answers a query from it alone when it needs no other field (a count or a sum over a
		// range, for instance), without parsing a document.
		for _, fields := range sqliteCompoundIndexes(settings) {
			parts := make([]string, len(fields))
			for i, field := range fields {
				parts[i] = orderRankExpression(field) + ", " + orderValueExpression(field)
			}
			order := strings.Join(parts, ", ")
			wanted = append(wanted, want{table, sqliteIndexName(table, order), order})
		}
		for _, field := range append([]string{"_id"}, sqliteIndexedFields(settings)...) {
			expression := lookupExpression(field)
			wanted = append(wanted, want{table, sqliteIndexName(table, expression), expression})
			// And the order the exact pushdown sorts a top-level field by (lookup_expression.go):
			// SQLite walks it for a page and stops at the LIMIT.
			if !strings.Contains(field, ".") {
				order := orderRankExpression(field) + ", " + orderValueExpression(field)
				wanted = append(wanted, want{table, sqliteIndexName(table, order), order})
			}
		}
	}
	rows.Close()
	indexes, err := queryStrings(ctx, file.db, "SELECT name FROM sqlite_master WHERE type = 'index'")
	if err != nil {
		return
	}
	existing := map[string]bool{}
	for _, name := range indexes {
		existing[name] = true
	}
	complete := true
	// Indexes of an earlier launcher on expressions no query uses any more: they only slow writes.
	stale, _ := queryStrings(ctx, file.db, "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'hitscope_lookup_%'")
	keep := map[string]bool{}
	for _, w := range wanted {
		keep[w.name] = true
	}
	for _, name := range stale {
		if !keep[name] {
			if _, err := file.db.ExecContext(ctx, fmt.Sprintf(`DROP INDEX IF EXISTS %q`, name)); err != nil {
				complete = false
			}
		}
	}
	for _, w := range wanted {
		if existing[w.name] {
			continue
		}
		started := time.Now()
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %q ON %q (%s)`, w.name, w.table, w.expression)
		if _, err := file.db.ExecContext(ctx, q); err != nil {
			// The table may have been dropped meanwhile; the next round looks again.
			complete = false
			s.logger.Debug("lookup index not created", slog.String("file", path), slog.String("table", w.table), slog.Any("error", err))
			continue
		}
		s.logger.Debug("lookup index created", slog.String("table", w.table), slog.String("on", w.expression),
			slog.Duration("took", time.Since(started)))
	}
	if complete {
		// Read again after our own changes, so that they do not count as a change next round.
		_ = file.db.QueryRowContext(ctx, "PRAGMA schema_version").Scan(&file.schemaVersion)
	}
}

// sqliteIndexName names the launcher's index of an expression on a table: a new expression is a new
// index (and the old one is dropped as stale).
func sqliteIndexName(table, expression string) string {
	return lookupIndexName(table, "sqlite\x00"+expression)
}

// plainField is a field the pushdown handles: up to three segments a JSON path needs no quoting for.
var plainField = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$`)

// sqliteDeclaredIndexes are the fields of each index a collection declares (FerretDB's settings
// column), in order.
func sqliteDeclaredIndexes(settings string) [][]string {
	var parsed struct {
		Indexes []struct {
			Key []struct {
				Field string `json:"field"`
			} `json:"key"`
		} `json:"indexes"`
	}
	if json.Unmarshal([]byte(settings), &parsed) != nil {
		return nil
	}
	indexes := make([][]string, 0, len(parsed.Indexes))
	for _, index := range parsed.Indexes {
		fields := make([]string, len(index.Key))
		for i, key := range index.Key {
			fields[i] = key.Field
		}
		indexes = append(indexes, fields)
	}
	return indexes
}

// sqliteIndexedFields are the fields of a collection's declared indexes the pushdown handles,
// `_id` aside.
func sqliteIndexedFields(settings string) []string {
	seen := map[string]bool{"_id": true}
	var fields []string
	for _, index := range sqliteDeclaredIndexes(settings) {
		for _, field := range index {
			if !seen[field] && plainField.MatchString(field) {
				seen[field] = true
				fields = append(fields, field)
			}
		}
	}
	return fields
}

// sqliteCompoundIndexes are the declared indexes of several fields, all top-level.
func sqliteCompoundIndexes(settings string) [][]string {
	var compound [][]string
	for _, fields := range sqliteDeclaredIndexes(settings) {
		topLevel := len(fields) > 1
		for _, field := range fields {
			topLevel = topLevel && (field == "_id" || (plainField.MatchString(field) && !strings.Contains(field, ".")))
		}
		if topLevel {
			compound = append(compound, fields)
		}
	}
	return compound
}

func queryStrings(ctx context.Context, db *sql.DB, q string) ([]string, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var value string
		if err := rows.Scan(&value); err != nil {
			return nil, err
		}
		out = append(out, value)
	}
	return out, rows.Err()
}

func (s *sqliteIndexes) close() {
	for _, file := range s.files {
		_ = file.db.Close()
	}
}

// postgresqlIndexes: every FerretDB database is a schema with a `_ferretdb_database_metadata`
// table listing its collections, their tables and their indexes.
type postgresqlIndexes struct {
	url    string
	logger *slog.Logger
	conn   *pgx.Conn
	// signatures holds, per schema, its index names when it was last found complete: a schema
	// is read again only when its indexes changed (a collection or an index was created).
	signatures map[string]string
}

func (p *postgresqlIndexes) connect(ctx context.Context) bool {
	if p.conn != nil && !p.conn.IsClosed() {
		return true
	}
	conn, err := pgx.Connect(ctx, p.url)
	if err != nil {
		p.logger.Debug("lookup indexes: cannot connect", slog.Any("error", err))
		return false
	}
	p.conn = conn
	p.signatures = map[string]string{}
	return true
}

func (p *postgresqlIndexes) ensure(ctx context.Context) {
	if !p.connect(ctx) {
		return
	}
	rows, err := p.conn.Query(ctx, `SELECT schemaname, indexname FROM pg_indexes
		WHERE schemaname IN (SELECT table_schema FROM information_schema.tables WHERE table_name = '_ferretdb_database_metadata')
		ORDER BY schemaname, indexname`)
	if err != nil {
		_ = p.conn.Close(ctx)
		return
	}
	indexes := map[string]map[string]bool{}
	signatures := map[string]string{}
	for rows.Next() {
		var schema, name string
		if err := rows.Scan(&schema, &name); err != nil {
			continue
		}
		if indexes[schema] == nil {
			indexes[schema] = map[string]bool{}
		}
		indexes[schema][name] = true
		signatures[schema] += name + ","
	}
	rows.Close()
	for schema, signature := range signatures {
		if p.signatures[schema] == signature {
			continue
		}
		if p.ensureSchema(ctx, schema, indexes[schema]) {
			p.signatures[schema] = signature
		}
	}
	for schema := range p.signatures {
		if _, ok := signatures[schema]; !ok {
			delete(p.signatures, schema)
		}
	}
}

// ensureSchema creates the missing lookup indexes of one database; true when none was missing.
func (p *postgresqlIndexes) ensureSchema(ctx context.Context, schema string, existing map[string]bool) bool {
	q := fmt.Sprintf(`SELECT _jsonb->>'table', _jsonb->'indexes' FROM %s`,
		pgx.Identifier{schema, "_ferretdb_database_metadata"}.Sanitize())
	rows, err := p.conn.Query(ctx, q)
	if err != nil {
		return false
	}
	type want struct{ table, field string }
	var wanted []want
	for rows.Next() {
		var table string
		var indexes []map[string]any
		if err := rows.Scan(&table, &indexes); err != nil {
			continue
		}
		fields := map[string]bool{"_id": true}
		for _, index := range indexes {
			key, _ := index["key"].(map[string]any)
			for field := range key {
				// FerretDB pushes down top-level fields only ("$s" is its own type annotation).
				if !strings.HasPrefix(field, "$") && !strings.Contains(field, ".") {
					fields[field] = true
				}
			}
		}
		for field := range fields {
			if !existing[lookupIndexName(table, field)] {
				wanted = append(wanted, want{table, field})
			}
		}
	}
	rows.Close()
	for _, w := range wanted {
		started := time.Now()
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %s ON %s USING gin ((_jsonb->%s) jsonb_path_ops)`,
			pgx.Identifier{lookupIndexName(w.table, w.field)}.Sanitize(), pgx.Identifier{schema, w.table}.Sanitize(),
			quoteLiteral(w.field))
		if _, err := p.conn.Exec(ctx, q); err != nil {
			p.logger.Debug("lookup index not created", slog.String("table", w.table), slog.Any("error", err))
			continue
		}
		p.logger.Debug("lookup index created", slog.String("table", w.table), slog.String("field", w.field),
			slog.Duration("took", time.Since(started)))
	}
	return len(wanted) == 0
}

func quoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func (p *postgresqlIndexes) close() {
	if p.conn != nil {
		_ = p.conn.Close(context.Background())
	}
}
