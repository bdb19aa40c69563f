// Hitscope's addition to FerretDB's SQLite backend (package
// github.com/FerretDB/FerretDB/internal/backends/sqlite), compiled into a patched copy of FerretDB's
// module (see patch/main.go): not part of the launcher's own package.
//
// FerretDB 1.24 hands SQLite one filter only, a lone `_id` equality; every other query reads and
// decodes the whole table in Go, then filters. This builds a WHERE clause from the equality
// conditions SQLite can decide on the stored JSON, as a superset of the matching documents:
// FerretDB's handler filters every row the backend returns again (FilterIterator), so a row too
// many costs a decode, never a wrong answer, and only a row too few would be wrong. Hence:
//
//   - only fields with plain names (dotted paths of up to three), and values that are strings or
//     ObjectIDs (their JSON is a string on both sides), or `{$in: [...]}` of such values, or
//     `{$eq: ...}` of one; and `$or` of branches that each have such a condition;
//   - only strings whose JSON needs no escaping (Go's encoder and SQLite could spell an escape
//     differently), so the stored text and the argument are the same bytes;
//   - a field other than `_id` may hold an array whose element matches (MongoDB's equality matches
//     it), and so may each document on a dotted path, so those rows are let through: the condition
//     is `lookupExpression(field) IN (?, 'array')`, where the expression is the field's JSON text
//     or 'array' (lookup_expression.go, shared with the launcher, which indexes it: one index
//     lookup per value, whatever SQLite's statistics say about the field).
//
// Anything else in the filter (other operators, numbers, dates, null, `$and`, `$nor`) is left to
// the handler, as before.

package sqlite

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

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

// hitscopeMaxDepth bounds the nesting of `$or` the pushdown follows, and hitscopeMaxSegments the
// length of a dotted path.
const (
	hitscopeMaxDepth    = 3
	hitscopeMaxSegments = 3
	hitscopeMaxBranches = 100
)

// hitscopeField says whether a field is one the pushdown handles: a plain name, or a dotted path
// of up to hitscopeMaxSegments plain names.
func hitscopeField(key string) bool {
	segments := strings.Split(key, ".")
	if len(segments) > hitscopeMaxSegments {
		return false
	}
	for _, segment := range segments {
		if !hitscopePlainField.MatchString(segment) {
			return false
		}
	}
	return true
}

// hitscopeConditions are the conditions (ANDed) SQLite can decide for a filter document, with
// their arguments in order.
func hitscopeConditions(filter *types.Document, depth int) ([]string, []any) {
	keys := filter.Keys()
	seen := make(map[string]bool, len(keys))
	for _, key := range keys {
		if seen[key] {
			return nil, nil // a repeated key: leave the whole filter to the handler
		}
		seen[key] = true
	}
	var conditions []string
	var args []any
	for _, key := range keys {
		v, _ := filter.Get(key)
		if key == "$or" {
			if condition, orArgs := hitscopeOr(v, depth); condition != "" {
				conditions = append(conditions, condition)
				args = append(args, orArgs...)
			}
			continue
		}
		if !hitscopeField(key) {
			continue
		}
		literals, ok := hitscopeValues(v)
		if !ok {
			continue
		}
		// lookupExpression (the launcher's lookup_expression.go, compiled into this package): the
		// field's JSON text, or 'array' for the rows where it or its path holds an array, which must
		// reach FerretDB's own filter. The launcher indexes the same expression.
		placeholders := "?" + strings.Repeat(", ?", len(literals)-1)
		for _, literal := range literals {
			args = append(args, literal)
		}
		var condition string
		if key == "_id" {
			condition = fmt.Sprintf("%s IN (%s)", lookupExpression(key), placeholders)
		} else {
			condition = fmt.Sprintf("%s IN (%s, '%s')", lookupExpression(key), placeholders, lookupArray)
		}
		conditions = append(conditions, condition)
	}
	return conditions, args
}

// hitscopeOr is the condition of `$or: [...]`, when every branch has one (a branch without one
// may match any row, and so may the `$or`).
func hitscopeOr(v any, depth int) (string, []any) {
	branches, ok := v.(*types.Array)
	if !ok || depth >= hitscopeMaxDepth || branches.Len() == 0 || branches.Len() > hitscopeMaxBranches {
		return "", nil
	}
	var alternatives []string
	var args []any
	for i := 0; i < branches.Len(); i++ {
		item, _ := branches.Get(i)
		branch, ok := item.(*types.Document)
		if !ok {
			return "", nil
		}
		conditions, branchArgs := hitscopeConditions(branch, depth+1)
		if len(conditions) == 0 {
			return "", nil
		}
		alternatives = append(alternatives, "("+strings.Join(conditions, " AND ")+")")
		args = append(args, branchArgs...)
	}
	return "(" + strings.Join(alternatives, " OR ") + ")", args
}

// hitscopeWhereClause is the WHERE clause (with its arguments) for filter's equality conditions
// that SQLite can decide; empty when there are none.
func hitscopeWhereClause(filter *types.Document) (string, []any) {
	if filter == nil || filter.Len() == 0 {
		return "", nil
	}
	conditions, args := hitscopeConditions(filter, 0)
	if len(conditions) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conditions, " AND "), args
}
