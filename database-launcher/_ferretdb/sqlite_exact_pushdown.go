// Hitscope's second addition to FerretDB's SQLite backend (see sqlite_pushdown.go and patch/main.go):
// pages and counts decided by SQLite.
//
// sqlite_pushdown.go hands SQLite a superset of a filter's rows; FerretDB still decodes each of
// them, then sorts, skips, limits and counts in Go. A page of an administrator's list (a sort over
// every user, then 50 of them) and its total therefore decoded the whole collection: seconds at
// 10 000 users. Here, when a query is a sorted page (find with sort and limit; FerretDB's handler
// hands over the sort, skip and limit) or a count (the Node driver's countDocuments pipeline), and
// SQLite can decide the whole filter and the order *exactly*, SQLite applies WHERE, ORDER BY, LIMIT
// and OFFSET, or answers COUNT(*), and FerretDB decodes only the page. FerretDB's handler still
// filters, sorts and limits the rows it gets (it skips only when the backend did not), so an exact
// plan only has to return the right rows.
//
// Exact means MongoDB's semantics on the stored JSON, for a deliberately small grammar, and nothing
// is guessed: anything outside it gives no plan (nil), and the query runs as before.
//
//   - top-level fields only (`_id` included). FerretDB stores each value's BSON type in the
//     document's schema (`$s.p.<field>.t`); conditions compare orderRankExpression (the type's rank
//     in MongoDB's order, lookup_expression.go) and orderValueExpression (the value as `->>` gives
//     it), so a string is never confused with an ObjectId's hex, nor a date with a number;
//   - equality and `$in` with strings, ObjectIds, 32- and 64-bit integers, booleans and dates;
//     equality with null (null or missing);
//   - `$gt`, `$gte`, `$lt`, `$lte` with those types (MongoDB compares within a type only);
//   - regular expressions that are literal text (metacharacters escaped, as the app's searches do),
//     options "" or "i": `instr` on the string; with "i", the pattern must be ASCII and the stored
//     text is folded as Go's case-insensitive matching folds it for ASCII letters (SQLite's lower()
//     folds ASCII only, and the two non-ASCII letters Go folds onto ASCII ones, KELVIN SIGN and LONG
//     S, are replaced first);
//   - `$and` of such documents, and `$or` as a union of each branch's rows (so that each branch
//     uses its own field's index: SQLite reads every row for an OR with a branch it cannot look up);
//   - sort keys on top-level fields, each 1 or -1, ordered by rank then value.
//
// Arrays are the one thing the stored JSON cannot decide cheaply (MongoDB's equality and ranges
// match an element, its sort uses the smallest or largest one), so before planning, one query asks
// whether any row of the collection holds, in a field of the filter or the sort, a value
// orderRankExpression cannot rank (arrays, documents, doubles, binary…); if one does, no plan.
// The launcher indexes every top-level field of a declared index on (rank, value): that index
// answers the probe, the equalities and ranges (lookups), the order (SQLite walks it and stops at
// the LIMIT) and the searches (a scan of the index, not of the documents).

package sqlite

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
)

// hitscopeExactPlan is the SQL for an exact page or count.
type hitscopeExactPlan struct {
	where   string // " WHERE …" or empty
	args    []any
	orderBy string // " ORDER BY …"
	limit   int64
	offset  int64 // the find's skip: the rows before the page are never decoded
}

// hitscopeExact plans filter, sort, skip and limit (count: COUNT(*) instead of a page) on a table, or
// answers nil when the query is not one it can decide exactly.
//
// It plans a page (sort and limit), a count, or, when sqlite_pushdown.go found nothing in the filter
// to hand SQLite (unpushed), the filter alone (ranges on dates, for instance): otherwise a plain
// find keeps the superset lookup, which needs no probe.
func hitscopeExact(ctx context.Context, db *fsql.DB, table string, capped bool, filter, sort *types.Document, skip, limit int64, count bool, groupBy string, unpushed bool) (*hitscopeExactPlan, error) {
	paged := !count && limit > 0 && sort.Len() > 0
	if capped || !(count || paged || (unpushed && filter.Len() > 0)) {
		return nil, nil
	}
	x := hitscopeExactBuilder{table: table, probe: map[string]bool{}, ranks: map[string]bool{}, fixed: map[string]int{}, fixedMany: map[string]bool{}}
	if paged {
		// For a page, a set of rows (a search, an $or) is a test while SQLite walks the order's
		// index and stops at the LIMIT; as a lookup (the default), SQLite fetches and parses every
		// row of the set to sort them: 231 ms for a search matching 10 000 of 100 000 users.
		x.setTest = "+"
	}
	var plan hitscopeExactPlan
	if filter.Len() > 0 {
		condition, ok := x.document(filter, 0)
		if !ok {
			return nil, nil
		}
		if condition != "" {
			plan.where = " WHERE " + condition
		}
	}
	plan.args = x.args
	if paged {
		terms, ok := x.order(sort)
		if !ok {
			return nil, nil
		}
		plan.orderBy = " ORDER BY " + strings.Join(terms, ", ")
		plan.limit, plan.offset = limit, max(skip, 0)
	}
	if count && groupBy != "" {
		if groupBy != "_id" && !hitscopePlainField.MatchString(groupBy) {
			return nil, nil
		}
		x.ranks[groupBy] = true
	}
	if safe, err := x.noArraysOrUnrankable(ctx, db, table); err != nil || !safe {
		return nil, err
	}
	return &plan, nil
}

// hitscopeGroups answers the plan's rows counted, and the given fields summed, per value of a
// top-level field (the probe made sure it holds no array and nothing unrankable) or, without one, as
// one group (none when no row matches, as `$group` outputs none). False when SQL cannot give
// MongoDB's answer: two values of the field that MongoDB groups as one (32- and 64-bit integers:
// 5 and 5), or a summed field holding a value $sum would add but SQL cannot (a double) or that rank
// cannot tell (an array). Strings, dates, null and missing values are not numbers: $sum ignores them,
// and so does the SQL (it adds only integers).
func hitscopeGroups(ctx context.Context, db *fsql.DB, table, groupBy string, sums []string, plan *hitscopeExactPlan) ([]backends.HitscopeGroup, bool, error) {
	columns := []string{"count(*)"}
	for _, field := range sums {
		if field == "" {
			continue
		}
		if field != "_id" && !hitscopePlainField.MatchString(field) {
			return nil, false, nil
		}
		rank := orderRankExpression(field)
		columns = append(columns, fmt.Sprintf("sum(iif((%s) = 2, %s, 0)), sum((%s) IS NULL)", rank, orderValueExpression(field), rank))
	}
	aggregate := fmt.Sprintf(`SELECT %s FROM %q%s`, strings.Join(columns, ", "), table, plan.where)
	if groupBy == "" {
		group, ok, err := hitscopeAggregate(ctx, db, aggregate, plan.args, sums)
		if err != nil || !ok || group.Count == 0 { // no row matched: no group
			return nil, ok, err
		}
		return []backends.HitscopeGroup{group}, true, nil
	}
	// The groups first, then each group's aggregate: SQLite answers both from the launcher's indexes
	// (a GROUP BY of the same expressions parses every matching document to sort them: 250 ms for
	// 60 000 orders, against 20 ms for the values and 20 ms per group).
	rank, value := orderRankExpression(groupBy), orderValueExpression(groupBy)
	rows, err := db.QueryContext(ctx, fmt.Sprintf(`SELECT DISTINCT %s, %s FROM %q%s LIMIT %d`, rank, value, table, plan.where, hitscopeMaxGroups+1), plan.args...)
	if err != nil {
		return nil, false, err
	}
	type key struct {
		rank   int64
		stored any
	}
	var keys []key
	for rows.Next() {
		var k key
		if err := rows.Scan(&k.rank, &k.stored); err != nil {
			rows.Close()
			return nil, false, err
		}
		if b, ok := k.stored.([]byte); ok {
			k.stored = string(b) // bound again as text, as stored
		}
		keys = append(keys, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	if len(keys) > hitscopeMaxGroups {
		return nil, false, nil // many groups: FerretDB's own $group
	}
	where := " WHERE "
	if plan.where != "" {
		where = " AND "
	}
	var groups []backends.HitscopeGroup
	for _, k := range keys {
		v, ok := hitscopeGroupValue(k.rank, k.stored)
		if !ok {
			return nil, false, nil
		}
		args := append(append([]any{}, plan.args...), k.rank, k.stored)
		group, ok, err := hitscopeAggregate(ctx, db, aggregate+fmt.Sprintf("%s(%s) = ? AND %s IS ?", where, rank, value), args, sums)
		if err != nil || !ok {
			return nil, ok, err
		}
		if group.Count == 0 {
			continue // deleted meanwhile
		}
		group.Value = v
		groups = append(groups, group)
	}
	return groups, true, nil
}

// hitscopeMaxGroups bounds the groups answered one by one.
const hitscopeMaxGroups = 64

// hitscopeAggregate runs one aggregate row of hitscopeGroups' columns: the count, then for each
// summed field its total and how many of its values SQL could not add (false when any: a double).
func hitscopeAggregate(ctx context.Context, db *fsql.DB, q string, args []any, sums []string) (backends.HitscopeGroup, bool, error) {
	group := backends.HitscopeGroup{Sums: make([]int64, len(sums))}
	unsummable := make([]int64, len(sums))
	scanned := []any{&group.Count}
	for i, field := range sums {
		if field != "" { // "" is a count: no column of its own
			scanned = append(scanned, &group.Sums[i], &unsummable[i])
		}
	}
	err := hitscopeQueryRow(ctx, db, q, args, scanned...)
	if err != nil {
		if strings.Contains(err.Error(), "integer overflow") { // MongoDB's sum would be a double
			return group, false, nil
		}
		return group, false, err
	}
	for _, u := range unsummable {
		if u != 0 {
			return group, false, nil
		}
	}
	return group, true, nil
}

// hitscopeGroupValue is the BSON value of a group's rank and stored value, or false (integers: see
// hitscopeGroups).
func hitscopeGroupValue(rank int64, stored any) (any, bool) {
	if b, ok := stored.([]byte); ok {
		stored = string(b)
	}
	switch rank {
	case 1:
		return types.Null, true
	case 3:
		s, ok := stored.(string)
		return s, ok
	case 7:
		s, _ := stored.(string)
		decoded, err := hex.DecodeString(s)
		if err != nil || len(decoded) != 12 {
			return nil, false
		}
		return types.ObjectID(decoded), true
	case 8:
		i, ok := stored.(int64)
		return i != 0, ok
	case 9:
		i, ok := stored.(int64)
		return time.UnixMilli(i), ok
	}
	return nil, false
}

const hitscopeExactMaxDepth = 4

type hitscopeExactBuilder struct {
	table   string
	setTest string // "+" when a set of rows must not drive the plan (a page: the order's index does)
	args    []any
	probe   map[string]bool // fields the filter compares: none may hold an array
	ranks   map[string]bool // fields the sort or the counts per value order by: none may hold a value rank cannot order
	// fixed is the one type rank every matching row has in a field, from a condition every matching
	// row meets (not under an $or, not one of several ranks of an $in); fixedMany, fields with two.
	// The order by such a field leaves its rank out: with `rank = 9 AND value > ?` in the filter,
	// SQLite does not see that `ORDER BY rank, value` is the index's order and sorts every matching
	// row (40 ms for the first of 100 000 users by _id, against 1 ms walking the index to the LIMIT).
	fixed     map[string]int
	fixedMany map[string]bool
	optional  int // > 0 while planning conditions a matching row need not meet
}

// document is the condition of a filter document (its keys ANDed); "" when it has none.
func (x *hitscopeExactBuilder) document(filter *types.Document, depth int) (string, bool) {
	if depth > hitscopeExactMaxDepth {
		return "", false
	}
	keys := filter.Keys()
	seen := make(map[string]bool, len(keys))
	var conditions []string
	for _, key := range keys {
		if seen[key] {
			return "", false
		}
		seen[key] = true
		v, _ := filter.Get(key)
		var condition string
		var ok bool
		switch {
		case key == "$comment":
			continue
		case key == "$and" || key == "$or":
			condition, ok = x.logical(key, v, depth)
		case key == "_id" || hitscopePlainField.MatchString(key):
			condition, ok = x.field(key, v)
		}
		if !ok {
			return "", false
		}
		conditions = append(conditions, condition)
	}
	if len(conditions) == 0 {
		return "", true
	}
	return "(" + strings.Join(conditions, " AND ") + ")", true
}

func (x *hitscopeExactBuilder) logical(operator string, v any, depth int) (string, bool) {
	branches, ok := v.(*types.Array)
	if !ok || branches.Len() == 0 || branches.Len() > hitscopeMaxBranches {
		return "", false
	}
	parts := make([]string, 0, branches.Len())
	if operator == "$or" {
		x.optional++
		defer func() { x.optional-- }()
	}
	for i := 0; i < branches.Len(); i++ {
		item, _ := branches.Get(i)
		branch, ok := item.(*types.Document)
		if !ok {
			return "", false
		}
		condition, ok := x.document(branch, depth+1)
		if !ok {
			return "", false
		}
		if condition == "" {
			condition = "1" // an empty document matches every row
		}
		parts = append(parts, condition)
	}
	if operator == "$and" {
		return "(" + strings.Join(parts, " AND ") + ")", true
	}
	// SQLite answers an OR with indexes only when every branch is an index lookup; a branch like a
	// search in a field's text makes it read and parse every row. A union of the branches' rows lets
	// each one use its own field's index (a search scans that index, not the table).
	selects := make([]string, len(parts))
	for i, part := range parts {
		selects[i] = fmt.Sprintf(`SELECT rowid FROM %q WHERE %s`, x.table, part)
	}
	return "(" + x.setTest + "rowid IN (" + strings.Join(selects, " UNION ") + "))", true
}

// field is the condition on one top-level field: a value (equality) or a document of operators.
func (x *hitscopeExactBuilder) field(field string, v any) (string, bool) {
	operators, isDocument := v.(*types.Document)
	if !isDocument {
		return x.equality(field, v)
	}
	keys := operators.Keys()
	if len(keys) == 0 || !strings.HasPrefix(keys[0], "$") {
		return "", false // equality with a document
	}
	var conditions []string
	options := ""
	if o, err := operators.Get("$options"); err == nil {
		s, ok := o.(string)
		if !ok {
			return "", false
		}
		options = s
	}
	for _, key := range keys {
		operand, _ := operators.Get(key)
		var condition string
		var ok bool
		switch key {
		case "$eq":
			condition, ok = x.equality(field, operand)
		case "$in":
			condition, ok = x.in(field, operand)
		case "$gt", "$gte", "$lt", "$lte":
			condition, ok = x.compare(field, key, operand)
		case "$regex":
			switch pattern := operand.(type) {
			case string:
				condition, ok = x.regex(field, pattern, options)
			case types.Regex:
				if options != "" && pattern.Options != "" {
					return "", false
				}
				condition, ok = x.regex(field, pattern.Pattern, options+pattern.Options)
			}
		case "$options":
			if !operators.Has("$regex") {
				return "", false
			}
			continue
		}
		if !ok {
			return "", false
		}
		conditions = append(conditions, condition)
	}
	return "(" + strings.Join(conditions, " AND ") + ")", true
}

// typed is `<field's type rank> = rank AND <condition>`, and notes the field for the probe (no
// array; for numbers, no double either). Both expressions are the launcher's order index on the field.
func (x *hitscopeExactBuilder) typed(field string, rank int, condition string) string {
	x.probe[field] = true
	if x.optional == 0 {
		if fixed, ok := x.fixed[field]; ok && fixed != rank {
			x.fixedMany[field] = true
		}
		x.fixed[field] = rank
	}
	if rank == 2 {
		// MongoDB compares numbers across their types: a double there (unranked) could match.
		x.ranks[field] = true
	}
	return fmt.Sprintf("(%s = %d AND %s)", orderRankExpression(field), rank, condition)
}

// hitscopeExactValue is a value's rank (orderRankExpression) and its stored form as SQLite's `->>`
// gives it, for the types compared exactly: strings, ObjectIds, 32- and 64-bit integers, booleans
// and dates.
func hitscopeExactValue(v any) (int, any, bool) {
	switch v := v.(type) {
	case string:
		return 3, v, true
	case types.ObjectID:
		return 7, fmt.Sprintf("%x", v[:]), true
	case int32:
		return 2, int64(v), true
	case int64:
		return 2, v, true
	case bool:
		if v {
			return 8, int64(1), true
		}
		return 8, int64(0), true
	case time.Time:
		return 9, v.UnixMilli(), true
	}
	return 0, nil, false
}

func (x *hitscopeExactBuilder) equality(field string, v any) (string, bool) {
	switch v := v.(type) {
	case types.NullType:
		x.probe[field] = true
		return fmt.Sprintf("%s = 1", orderRankExpression(field)), true
	case types.Regex:
		return x.regex(field, v.Pattern, v.Options)
	}
	rank, value, ok := hitscopeExactValue(v)
	if !ok {
		return "", false
	}
	x.args = append(x.args, value)
	return x.typed(field, rank, orderValueExpression(field)+" = ?"), true
}

func (x *hitscopeExactBuilder) in(field string, v any) (string, bool) {
	list, ok := v.(*types.Array)
	if !ok || list.Len() == 0 || list.Len() > hitscopeMaxIn {
		return "", false
	}
	byRank := map[int][]any{}
	var order []int
	for i := 0; i < list.Len(); i++ {
		item, _ := list.Get(i)
		rank, value, ok := hitscopeExactValue(item)
		if !ok {
			return "", false
		}
		if byRank[rank] == nil {
			order = append(order, rank)
		}
		byRank[rank] = append(byRank[rank], value)
	}
	parts := make([]string, 0, len(order))
	if len(order) > 1 {
		x.optional++
		defer func() { x.optional-- }()
	}
	for _, rank := range order {
		values := byRank[rank]
		x.args = append(x.args, values...)
		placeholders := "?" + strings.Repeat(", ?", len(values)-1)
		parts = append(parts, x.typed(field, rank, fmt.Sprintf("%s IN (%s)", orderValueExpression(field), placeholders)))
	}
	return "(" + strings.Join(parts, " OR ") + ")", true
}

var hitscopeComparisons = map[string]string{"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}

// compare is a range condition: MongoDB compares a value with those of its own type bracket only,
// as the ranked SQL comparison does.
func (x *hitscopeExactBuilder) compare(field, operator string, v any) (string, bool) {
	rank, value, ok := hitscopeExactValue(v)
	if !ok {
		return "", false
	}
	x.args = append(x.args, value)
	return x.typed(field, rank, fmt.Sprintf("%s %s ?", orderValueExpression(field), hitscopeComparisons[operator])), true
}

// regex is a literal pattern's condition (see the file's comment), or false.
func (x *hitscopeExactBuilder) regex(field, pattern, options string) (string, bool) {
	if options != "" && options != "i" {
		return "", false
	}
	text, ok := hitscopeRegexLiteral(pattern)
	if !ok {
		return "", false
	}
	value := orderValueExpression(field)
	if options == "i" {
		for i := 0; i < len(text); i++ {
			if text[i] >= 0x80 {
				return "", false
			}
		}
		text = strings.ToLower(text)
		value = fmt.Sprintf("lower(%s)", value)
		// KELVIN SIGN and LONG S can only match a k or an s of the pattern: folded only then (two
		// fewer function calls per row for the rest, a search scans every entry of the index).
		if strings.ContainsRune(text, 'k') {
			value = fmt.Sprintf("replace(%s, '\u212a', 'k')", value)
		}
		if strings.ContainsRune(text, 's') {
			value = fmt.Sprintf("replace(%s, '\u017f', 's')", value)
		}
	}
	x.args = append(x.args, text)
	// The rows a search finds, as a set SQLite builds first by scanning the field's index (its
	// values without parsing a document), rather than a test on every row it walks for the order.
	return fmt.Sprintf("(%srowid IN (SELECT rowid FROM %q WHERE %s))", x.setTest, x.table, x.typed(field, 3, fmt.Sprintf("instr(%s, ?) > 0", value))), true
}

// hitscopeRegexLiteral is the text a regular expression matches literally: printable characters
// other than metacharacters, and metacharacters or other ASCII punctuation escaped with `\`.
func hitscopeRegexLiteral(pattern string) (string, bool) {
	var b strings.Builder
	escaped := false
	for _, r := range pattern {
		switch {
		case escaped:
			if r >= 0x80 || !strings.ContainsRune(`!"#$%&'()*+,-./:;<=>?@[\]^_{|}~`+"`", r) {
				return "", false
			}
			b.WriteRune(r)
			escaped = false
		case r == '\\':
			escaped = true
		case strings.ContainsRune(`.*+?^$()[]{}|`, r):
			return "", false
		case r < 0x20 || r == 0x7f || r == 0xfffd:
			return "", false
		default:
			b.WriteRune(r)
		}
	}
	if escaped {
		return "", false
	}
	return b.String(), true
}

// order is the ORDER BY terms of a sort document, or false.
func (x *hitscopeExactBuilder) order(sort *types.Document) ([]string, bool) {
	var terms []string
	for _, key := range sort.Keys() {
		if key != "_id" && !hitscopePlainField.MatchString(key) {
			return nil, false
		}
		v, _ := sort.Get(key)
		var direction float64
		switch v := v.(type) {
		case int64:
			direction = float64(v)
		case int32:
			direction = float64(v)
		case float64:
			direction = v
		default:
			return nil, false
		}
		var suffix string
		switch direction {
		case 1:
		case -1:
			suffix = " DESC"
		default:
			return nil, false
		}
		x.ranks[key] = true
		if _, fixed := x.fixed[key]; fixed && !x.fixedMany[key] {
			terms = append(terms, orderValueExpression(key)+suffix)
			continue
		}
		terms = append(terms, orderRankExpression(key)+suffix, orderValueExpression(key)+suffix)
	}
	return terms, len(terms) > 0
}

// noArraysOrUnrankable answers true when every field of the filter and the sort has the launcher's
// indexes (lookup_expression.go), no row holds an array in a field the filter compares (an equality,
// a range or a search on an array looks at its elements: a document or another type there is
// simply not matched, as in MongoDB), and no row holds a value orderRankExpression cannot rank in a
// field the order or the counts use: one query of index lookups.
func (x *hitscopeExactBuilder) noArraysOrUnrankable(ctx context.Context, db *fsql.DB, table string) (bool, error) {
	type probe struct{ index, condition string }
	var probes []probe
	for field := range x.probe {
		if field != "_id" { // never an array
			probes = append(probes, probe{lookupExpression(field), fmt.Sprintf("%s = '%s'", lookupExpression(field), lookupArray)})
		}
		probes = append(probes, probe{orderRankExpression(field) + ", " + orderValueExpression(field), ""})
	}
	for field := range x.ranks {
		probes = append(probes, probe{orderRankExpression(field) + ", " + orderValueExpression(field), fmt.Sprintf("(%s) IS NULL", orderRankExpression(field))})
	}
	if len(probes) == 0 {
		return true, nil
	}
	// Only fields the launcher indexes: the probe and the plan are then index lookups; for any other
	// field both would read every row, and FerretDB's own path, narrowed by sqlite_pushdown.go's
	// lookups, is the better one.
	rows, err := db.QueryContext(ctx, `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`, table)
	if err != nil {
		return false, err
	}
	indexes := map[string]string{} // expression list → index name
	for rows.Next() {
		var name, sql string
		if err := rows.Scan(&name, &sql); err != nil {
			rows.Close()
			return false, err
		}
		if open, end := strings.Index(sql, "("), strings.LastIndex(sql, ")"); open >= 0 && end > open {
			indexes[sql[open+1:end]] = name
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, err
	}
	var exists []string
	for _, p := range probes {
		name, ok := indexes[p.index]
		if !ok {
			return false, nil
		}
		if p.condition != "" {
			// INDEXED BY: once FerretDB's ANALYZE has seen a field with one value in every row, the
			// planner reads the whole index for a value no row has rather than look it up.
			exists = append(exists, fmt.Sprintf(`EXISTS (SELECT 1 FROM %q INDEXED BY %q WHERE %s)`, table, name, p.condition))
		}
	}
	if len(exists) == 0 {
		return true, nil
	}
	var found int64
	if err := hitscopeQueryRow(ctx, db, "SELECT "+strings.Join(exists, " OR "), nil, &found); err != nil {
		// An index dropped a moment ago (its collection's index went): no plan this time.
		if strings.Contains(err.Error(), "no such index") {
			return false, nil
		}
		return false, err
	}
	return found == 0, nil
}

// hitscopeQueryRow scans the one row of q, through db.QueryContext (which asks again when the
// launcher changed the schema meanwhile, fsql_schema_retry.go; a *sql.Row could not).
func hitscopeQueryRow(ctx context.Context, db *fsql.DB, q string, args []any, dest ...any) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return errors.New("no row")
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	return rows.Err()
}
