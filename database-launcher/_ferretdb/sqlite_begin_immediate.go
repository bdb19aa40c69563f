// Hitscope's addition to the copy of modernc.org/sqlite's driver in the patched FerretDB (package
// github.com/FerretDB/FerretDB/internal/hitscopesqlite; patch/main.go).
//
// A transaction begun with a context from HitscopeImmediate is `BEGIN IMMEDIATE`: it takes SQLite's
// write lock at once (waiting for it as any write does). A command's transaction (fsql's
// WithCommandTx) reads before it writes; begun as SQLite's default deferred transaction, its first
// write would fail with SQLITE_BUSY whenever another connection committed after its first read.

package sqlite

import "context"

type hitscopeImmediateKey struct{}

// HitscopeImmediate marks ctx: a transaction begun with it takes the write lock at once.
func HitscopeImmediate(ctx context.Context) context.Context {
	return context.WithValue(ctx, hitscopeImmediateKey{}, true)
}

func hitscopeImmediate(ctx context.Context) bool {
	immediate, _ := ctx.Value(hitscopeImmediateKey{}).(bool)
	return immediate
}
