// Hitscope's addition to FerretDB's SQL helper (package
// github.com/FerretDB/FerretDB/internal/util/fsql), compiled into the patched copy (patch/main.go).
//
// The launcher creates its indexes beside FerretDB's (database-launcher/indexes.go), on its own
// connection, while FerretDB answers queries. SQLite re-prepares a statement whose schema changed,
// but a prepare that meets a schema change of its own can still answer SQLITE_SCHEMA ("database
// schema has changed"), which reached the app as a failed request in CI. A read is simply asked
// again.

package fsql

import (
	"errors"

	sqlite3 "github.com/FerretDB/FerretDB/internal/hitscopesqlite"
	sqlite3lib "modernc.org/sqlite/lib"
)

// hitscopeSchemaRetries bounds the new attempts of a read that met a schema change.
const hitscopeSchemaRetries = 5

// hitscopeSchemaChanged says whether err is SQLite's SQLITE_SCHEMA.
func hitscopeSchemaChanged(err error) bool {
	var se *sqlite3.Error
	return errors.As(err, &se) && se.Code() == sqlite3lib.SQLITE_SCHEMA
}
