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

// The expressions Hitscope's exact pushdown orders a top-level field by, shared with the launcher,
// which indexes each declared field on (orderRankExpression, orderValueExpression) so that SQLite
// walks a page in order and stops at its LIMIT.
//
// FerretDB's SQLite storage keeps each value's BSON type in the document's schema (`$s.p.<field>.t`),
// and the value itself as JSON. MongoDB orders values of different types by type first (null and
// missing, numbers, strings, …, ObjectIds, booleans, dates); orderRankExpression is that rank for
// the types whose JSON SQLite compares exactly as MongoDB compares the values: 32- and 64-bit
// integers (numbers), strings (byte-wise, as MongoDB's simple binary comparison), ObjectIds
// (lowercase hex: the bytes' order), booleans (0 < 1) and dates (milliseconds). For any other type
// (documents, arrays, doubles with their NaN and infinities, binary, timestamps, regexes) it is
// NULL: the pushdown then leaves the query to FerretDB's own sort.
func orderTypeExpression(field string) string {
	return `_ferretdb_sjson->>'$."$s".p.` + field + `.t'`
}

func orderRankExpression(field string) string {
	return `CASE coalesce(` + orderTypeExpression(field) + `, 'null') WHEN 'null' THEN 1 WHEN 'int' THEN 2 WHEN 'long' THEN 2 ` +
		`WHEN 'string' THEN 3 WHEN 'objectId' THEN 7 WHEN 'bool' THEN 8 WHEN 'date' THEN 9 END`
}

func orderValueExpression(field string) string {
	return `_ferretdb_sjson->>'$.` + field + `'`
}
