// Hitscope's addition to FerretDB's handler (package github.com/FerretDB/FerretDB/internal/handler),
// compiled into the patched copy (patch/main.go).
//
// Which update commands run their statements in one SQLite transaction (fsql's WithCommandTx): those
// of several statements that each change at most one document found by its `_id`, the shape of the
// app's grouped updates (src/database/update-batcher.ts). The transaction holds SQLite's write lock
// from its first read to its commit, so it is kept to commands whose reads are lookups by `_id`,
// and committed every hitscopeCommandTxStatements statements: a multi-document update, or one
// whose filter reads the whole collection, keeps FerretDB's transaction per document and never
// holds the lock for longer than that.

package handler

import (
	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/types"
)

// hitscopeCommandTxStatements is the most statements of one command in one transaction.
const hitscopeCommandTxStatements = 100

// hitscopeOneTransaction says whether an update command's statements share one transaction.
func hitscopeOneTransaction(updates []common.Update) bool {
	if len(updates) < 2 {
		return false
	}

	for _, u := range updates {
		if u.Multi || u.Filter == nil {
			return false
		}

		id, err := u.Filter.Get("_id")
		if err != nil {
			return false
		}

		switch id.(type) {
		case string, types.ObjectID:
		default:
			return false
		}
	}

	return true
}
