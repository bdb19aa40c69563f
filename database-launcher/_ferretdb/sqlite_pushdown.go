// Hitscope's addition to FerretDB's SQLite backend (package
// github.com/FerretDB/FerretDB/internal/backends/sqlite), compiled into it by `go build -overlay`
// (see overlay/main.go): not part of the launcher's own package.
//
// FerretDB 1.24 hands SQLite one filter only, a lone `_id` equality; every other query reads and
// decodes the whole table in Go, then filters. This builds a WHERE clause from the equality
// conditions SQLite can decide on the stored JSON, as a superset of the matching documents:
// FerretDB's handler filters every row the backend returns again (FilterIterator), so a row too
// many costs a decode, never a wrong answer, and only a row too few would be wrong. Hence:
//
//   - only top-level fields with plain names, and values that are strings or ObjectIDs (their JSON
//     is a string on both sides), or `{$in: [...]}` of such values, or `{$eq: ...}` of one;
//   - only strings whose JSON needs no escaping (Go's encoder and SQLite could spell an escape
//     differently), so the stored text and the argument are the same bytes;
//   - a field other than `_id` may hold an array whose element matches (MongoDB's equality matches
//     it), so its rows are let through: `(field = ? OR json_type(field) = 'array')`; both sides have
//     an index (the launcher's, indexes.go), and SQLite answers the OR with both (MULTI-INDEX OR).
//
// Anything else in the filter (operators, dotted paths, numbers, dates, null) is left to the
// handler, as before.

package sqlite

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/types"
)

// hitscopeMaxIn bounds the values of an `$in` pushed down (SQLite allows 32 766 parameters).
const hitscopeMaxIn = 1000

var hitscopePlainField = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// hitscopeLiteral is the JSON text SQLite's `->` returns for v, when it is certain to be the
// same bytes as the stored value's.
func hitscopeLiteral(v any) (string, bool) {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case types.ObjectID:
		return `"` + fmt.Sprintf("%x", v[:]) + `"`, true
	default:
		return "", false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '"' || r == '\\' || r == '<' || r == '>' || r == '&' || r == 0x2028 || r == 0x2029 || r == 0xfffd {
			return "", false
		}
	}
	encoded, err := json.Marshal(s)
	if err != nil || string(encoded) != `"`+s+`"` {
		return "", false
	}
	return string(encoded), true
}

// hitscopeValues are the literals a field's condition compares with, or false.
func hitscopeValues(v any) ([]string, bool) {
	if literal, ok := hitscopeLiteral(v); ok {
		return []string{literal}, true
	}
	operators, ok := v.(*types.Document)
	if !ok || operators.Len() != 1 {
		return nil, false
	}
	switch operators.Keys()[0] {
	case "$eq":
		eq, _ := operators.Get("$eq")
		literal, ok := hitscopeLiteral(eq)
		return []string{literal}, ok
	case "$in":
		in, _ := operators.Get("$in")
		list, ok := in.(*types.Array)
		if !ok || list.Len() == 0 || list.Len() > hitscopeMaxIn {
			return nil, false
		}
		literals := make([]string, 0, list.Len())
		for i := 0; i < list.Len(); i++ {
			item, _ := list.Get(i)
			literal, ok := hitscopeLiteral(item)
			if !ok {
				return nil, false
			}
			literals = append(literals, literal)
		}
		return literals, true
	}
	return nil, false
}

// hitscopeWhereClause is the WHERE clause (with its arguments) for filter's equality conditions
// that SQLite can decide; empty when there are none.
func hitscopeWhereClause(filter *types.Document) (string, []any) {
	if filter == nil || filter.Len() == 0 {
		return "", nil
	}
	keys := filter.Keys()
	seen := make(map[string]bool, len(keys))
	for _, key := range keys {
		if seen[key] {
			return "", nil // a repeated key: leave the whole filter to the handler
		}
		seen[key] = true
	}
	var conditions []string
	var args []any
	for _, key := range keys {
		if !hitscopePlainField.MatchString(key) {
			continue
		}
		v, _ := filter.Get(key)
		literals, ok := hitscopeValues(v)
		if !ok {
			continue
		}
		path := fmt.Sprintf("%s->'$.%s'", metadata.DefaultColumn, key)
		var condition string
		if len(literals) == 1 {
			condition = path + " = ?"
		} else {
			condition = path + " IN (?" + strings.Repeat(", ?", len(literals)-1) + ")"
		}
		for _, literal := range literals {
			args = append(args, literal)
		}
		if key != "_id" {
			condition = fmt.Sprintf("(%s OR json_type(%s, '$.%s') = 'array')", condition, metadata.DefaultColumn, key)
		}
		conditions = append(conditions, condition)
	}
	if len(conditions) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conditions, " AND "), args
}
