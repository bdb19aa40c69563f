// Hitscope's addition to FerretDB's SQLite backend (package
// github.com/FerretDB/FerretDB/internal/backends/sqlite), compiled into the patched copy
// (patch/main.go replaces DeleteAll's single statement with a call to hitscopeDeleteIn).
//
// FerretDB deleted the documents a delete matched with one `DELETE … WHERE _id IN (?, ?, …)` of
// all their ids, and SQLite takes at most 32 766 parameters: a deleteMany of more documents failed
// ("too many SQL variables"), seen clearing 100 000 key references. Here the ids go in statements
// of at most hitscopeDeleteChunk, in one transaction, so the delete is still all or nothing.

package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/FerretDB/FerretDB/internal/util/fsql"
)

// hitscopeDeleteChunk is the most values one DELETE statement binds.
const hitscopeDeleteChunk = 10_000

// hitscopeDeleteIn deletes the rows of table whose column is one of values; answers how many.
func hitscopeDeleteIn(ctx context.Context, db *fsql.DB, table, column string, values []any) (int64, error) {
	var deleted int64
	err := db.InTransaction(ctx, func(tx *fsql.Tx) error {
		for start := 0; start < len(values); start += hitscopeDeleteChunk {
			chunk := values[start:min(start+hitscopeDeleteChunk, len(values))]
			placeholders := strings.TrimSuffix(strings.Repeat("?, ", len(chunk)), ", ")
			q := fmt.Sprintf(`DELETE FROM %q WHERE %s IN (%s)`, table, column, placeholders)
			res, err := tx.ExecContext(ctx, q, chunk...)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			deleted += n
		}
		return nil
	})
	return deleted, err
}
