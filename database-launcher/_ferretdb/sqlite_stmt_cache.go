// Hitscope's addition to a copy of the modernc.org/sqlite driver (package
// github.com/FerretDB/FerretDB/internal/hitscopesqlite in the patched FerretDB, registered as
// "hitscope-sqlite" and used by FerretDB's SQLite backend; see patch/main.go).
//
// modernc.org/sqlite v1.31 prepares every statement anew and finalizes it after one use, even one
// prepared through database/sql: SQLite parsed and planned each of FerretDB's statements at every
// command, 16 % of the database's CPU in `npm run bench`'s webhook run. Here each connection keeps
// its prepared statements: a statement whose SQL is one statement is reset and kept after use
// (hitscopeRelease), and the next use of the same SQL takes it back (hitscopePrepare). A statement
// in use is out of the cache, so two uses at once (a read still open while another runs) each have
// their own. SQLite prepares a kept statement again by itself when the schema changed (an index the
// launcher added is then used); EXPLAIN and PRAGMA statements, which do not check, are not kept.

package sqlite

import (
	"container/list"
	"strings"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// hitscopeCacheSize bounds the statements a connection keeps; the least recently used goes first.
// Kept statements hold memory their runs would otherwise take from the connection's lookaside pool
// (a small store for short-lived allocations; beyond it, malloc and its lock): with 256 kept and
// SQLite's default pool, an admin search's scan of 100 000 accounts took 210 ms against 155
// without the cache. Here statements that may be kept are prepared outside the pool
// (hitscopePrepare), the pool is ten times SQLite's default (hitscopeLookaside), and at most 64
// are kept, more than a webhook event's commands use: scans then cost what they cost without the
// cache (newsletter and account searches at 100 000 users, three runs each).
const hitscopeCacheSize = 64

// hitscopeLongestKept: longer SQL (an `$in` or a delete of thousands of values) is not kept: its
// statement is large, and parsing it is little beside running it.
const hitscopeLongestKept = 8 << 10

type hitscopeCached struct {
	sql   string
	pstmt uintptr
}

// hitscopeStmtCache is one connection's prepared statements. A connection is used by one
// goroutine at a time (database/sql), so it needs no lock of its own.
type hitscopeStmtCache struct {
	kept  map[string]*list.Element // SQL → its statement, in order of use
	order list.List
	// Statements out of the cache whose SQL is a whole statement: kept again when released.
	lent map[uintptr]string
}

// hitscopePrepare prepares the statement at *zSQL, the next one of s, or takes s's kept one when
// *zSQL is its beginning; *zSQL then points past it, as after sqlite3_prepare_v2.
func (c *conn) hitscopePrepare(s *stmt, zSQL *uintptr) (uintptr, error) {
	if c.hitscopeStmts == nil {
		c.hitscopeStmts = &hitscopeStmtCache{kept: map[string]*list.Element{}, lent: map[uintptr]string{}}
	}
	cache := c.hitscopeStmts
	first := *zSQL == s.psql
	if first {
		if element, ok := cache.kept[s.sql]; ok {
			cached := cache.order.Remove(element).(*hitscopeCached)
			delete(cache.kept, s.sql)
			cache.lent[cached.pstmt] = s.sql
			*zSQL = s.psql + uintptr(len(s.sql)) // its terminating NUL: nothing follows
			return cached.pstmt, nil
		}
	}
	// One that may be kept is prepared as SQLITE_PREPARE_PERSISTENT: outside the lookaside pool.
	if first && hitscopeKeepable(s.sql) {
		c.hitscopePrepareFlags = sqlite3.SQLITE_PREPARE_PERSISTENT
	}
	pstmt, err := c.prepareV2(zSQL)
	c.hitscopePrepareFlags = 0
	if err != nil || pstmt == 0 {
		return pstmt, err
	}
	if first && hitscopeOnlySpace(*zSQL) && hitscopeKeepable(s.sql) && sqlite3.Xsqlite3_stmt_isexplain(c.tls, pstmt) == 0 {
		cache.lent[pstmt] = s.sql
	}
	return pstmt, nil
}

// hitscopeLookasideSlots is the size of each connection's lookaside pool, in slots of 1200 bytes
// (SQLite's default is 40): kept statements hold some of it.
const hitscopeLookasideSlots = 400

// hitscopeLookaside gives the new connection a larger lookaside pool, before anything uses it.
func (c *conn) hitscopeLookaside() {
	va := libc.NewVaList(uintptr(0), int32(1200), int32(hitscopeLookasideSlots))
	defer libc.Xfree(c.tls, va)
	sqlite3.Xsqlite3_db_config(c.tls, c.db, sqlite3.SQLITE_DBCONFIG_LOOKASIDE, va)
}

// hitscopeForget is called by finalize: a statement finalized on any path is no longer lent (its
// address may be a new statement's next).
func (c *conn) hitscopeForget(pstmt uintptr) {
	if c.hitscopeStmts != nil {
		delete(c.hitscopeStmts.lent, pstmt)
	}
}

// hitscopeRelease is finalize for a statement done with: one of a whole SQL statement is reset,
// its parameters cleared (they point at memory freed after the call), and kept. Answers what
// finalize would: the error of the statement's last step, if any (such a statement is finalized).
func (c *conn) hitscopeRelease(pstmt uintptr) error {
	if pstmt == 0 {
		return nil
	}
	cache := c.hitscopeStmts
	sql, ok := "", false
	if cache != nil {
		sql, ok = cache.lent[pstmt]
	}
	if !ok {
		return c.finalize(pstmt)
	}
	if rc := sqlite3.Xsqlite3_reset(c.tls, pstmt); rc != sqlite3.SQLITE_OK {
		return c.finalize(pstmt)
	}
	delete(cache.lent, pstmt)
	sqlite3.Xsqlite3_clear_bindings(c.tls, pstmt)
	if _, taken := cache.kept[sql]; taken {
		return c.finalize(pstmt) // another use of the same SQL was kept first
	}
	cache.kept[sql] = cache.order.PushBack(&hitscopeCached{sql: sql, pstmt: pstmt})
	if cache.order.Len() > hitscopeCacheSize {
		oldest := cache.order.Remove(cache.order.Front()).(*hitscopeCached)
		delete(cache.kept, oldest.sql)
		_ = c.finalize(oldest.pstmt)
	}
	return nil
}

// hitscopeFinalizeAll finalizes the kept statements (before the connection closes).
func (c *conn) hitscopeFinalizeAll() {
	if c.hitscopeStmts == nil {
		return
	}
	for element := c.hitscopeStmts.order.Front(); element != nil; element = element.Next() {
		_ = c.finalize(element.Value.(*hitscopeCached).pstmt)
	}
	c.hitscopeStmts = nil
}

// hitscopeKeptStatements are the statements kept, by their first word. Each checks the schema when
// it runs and is prepared again when it changed. Not kept: EXPLAIN (which reads no table, so its
// plan would never be made again after an index is added), PRAGMA (many answer what they found
// when prepared) and schema changes.
var hitscopeKeptStatements = map[string]bool{
	"SELECT": true, "INSERT": true, "UPDATE": true, "DELETE": true, "REPLACE": true, "WITH": true,
	"BEGIN": true, "COMMIT": true, "END": true, "ROLLBACK": true, "SAVEPOINT": true, "RELEASE": true,
}

// hitscopeKeepable tells whether a statement of this SQL may be kept (hitscopeKeptStatements).
func hitscopeKeepable(sql string) bool {
	if len(sql) > hitscopeLongestKept {
		return false
	}
	sql = strings.TrimLeft(sql, " \t\n\r\f")
	end := strings.IndexFunc(sql, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') })
	if end < 0 {
		end = len(sql)
	}
	return hitscopeKeptStatements[strings.ToUpper(sql[:end])]
}

// hitscopeOnlySpace tells whether the C string at p holds nothing but white space.
func hitscopeOnlySpace(p uintptr) bool {
	for ; ; p++ {
		switch *(*byte)(unsafe.Pointer(p)) {
		case 0:
			return true
		case ' ', '\t', '\n', '\r', '\f':
		default:
			return false
		}
	}
}
