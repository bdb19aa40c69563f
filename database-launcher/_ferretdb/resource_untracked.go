// Hitscope's replacement of FerretDB's resource tracking (package
// github.com/FerretDB/FerretDB/internal/util/resource), compiled into the patched copy
// (patch/main.go, which renames FerretDB's own Track and Untrack out of the way).
//
// FerretDB tracks every iterator, transaction, rows and cursor it creates: Track adds the object
// to a pprof profile (which records the caller's stack) and sets a finalizer that panics if the
// object is collected without Untrack. That is a leak detector for FerretDB's own tests; in a
// running database it cost 8.5 % of the CPU in `npm run bench`'s webhook run (a Go profile), and
// a leaked iterator would crash the database rather than cost a little memory. Here neither
// happens: tracking is a no-op.

package resource

// Track does nothing in Hitscope's build (see the file's comment).
func Track(obj any, token *Token) {}

// Untrack does nothing in Hitscope's build.
func Untrack(obj any, token *Token) {}
