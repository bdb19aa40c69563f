// Hitscope's addition to modernc.org/sqlite's SQLite library (package modernc.org/sqlite/lib, in the
// copy of that module the launcher is built with; patch/main.go).
//
// SQLite keeps the last few JSON documents it parsed for a statement, and each JSON function call
// first looks its argument up there: by address, then by comparing the whole text. Each index on a
// JSON expression (FerretDB's and the launcher's: 29 on `orders`) calls json_extract or json_type on
// the document's text, at every insert and twice at every update, and the address differs at each
// call, so every call compared the whole document. modernc.org/libc's memcmp, translated from C,
// compares one byte at a time: 27 % of the database's CPU in bulk updates of order-shaped documents.
// hitscopeEqual answers the same (the cache only asks whether the texts are equal) with Go's
// vectorised comparison.

package sqlite3

import (
	"bytes"
	"unsafe"
)

// hitscopeEqual says whether the n bytes at a and b are the same.
func hitscopeEqual(a, b uintptr, n int32) bool {
	if n <= 0 {
		return true
	}

	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(a)), n), unsafe.Slice((*byte)(unsafe.Pointer(b)), n))
}
