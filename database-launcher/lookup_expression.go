package main

// This file is compiled twice: into the launcher, which creates an index on each expression, and
// (copied by _ferretdb/patch with its package clause rewritten) into FerretDB's SQLite backend,
// whose pushed-down filters compare with the very same expression, so that SQLite's planner
// recognises the index. Standard library only, for that reason.

import "strings"

// lookupArray is what lookupExpression gives for a row where the field, or a step of its path, is
// an array. `->` returns JSON text, so no value's text can be this bare word.
const lookupArray = "array"

// lookupExpression is the SQL expression the launcher indexes and the SQLite pushdown compares a
// field with: the field's JSON text, or `array` when it, or a document on its dotted path, is an
// array (MongoDB's equality then may match an element, so those rows must reach FerretDB's own
// filter). One expression, so that SQLite answers `expression IN (?, 'array')` with one index;
// `_id` is never an array. `field` must be a plain dotted path (checked by the callers).
func lookupExpression(field string) string {
	if field == "_id" {
		return `_ferretdb_sjson->'$._id'`
	}
	segments := strings.Split(field, ".")
	arrays := make([]string, len(segments))
	for i := range segments {
		arrays[i] = `json_type(_ferretdb_sjson, '$.` + strings.Join(segments[:i+1], ".") + `') = 'array'`
	}
	return `iif(` + strings.Join(arrays, " OR ") + `, '` + lookupArray + `', _ferretdb_sjson->'$.` + field + `')`
}
