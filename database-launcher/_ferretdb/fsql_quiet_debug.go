// Hitscope's addition to FerretDB's SQL helper (package
// github.com/FerretDB/FerretDB/internal/util/fsql), compiled into the patched copy (patch/main.go).
//
// FerretDB logs every SQL statement at debug level, and built each line before asking whether
// debug is on: `l.With(fields...)` formats the statement's arguments (whole documents, quoted
// rune by rune) for every query, insert and update. At the launcher's usual warn level that was
// 6.5 % of the database's CPU in the webhook benchmark (a profile of `npm run bench`, webhooks).
// The line is now built only when a debug logger will print it.

package fsql

import (
	"context"
	"log/slog"
)

// hitscopeDebug logs the SQL line message() with fields when l prints debug lines, and costs
// nothing otherwise.
func hitscopeDebug(ctx context.Context, l *slog.Logger, fields []any, message func() string) {
	if !l.Enabled(ctx, slog.LevelDebug) {
		return
	}
	l.With(fields...).DebugContext(ctx, message())
}
