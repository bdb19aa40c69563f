// Command patch prepares the build of the launcher with Hitscope's additions to FerretDB 1.24:
//
//	go run ./_ferretdb/patch -out DIR && go build -modfile DIR/go.mod .
//
// (It downloads the two modules it copies when the module cache lacks them: a fresh machine.)
//
// It copies FerretDB's module from the module cache to DIR/ferretdb and changes the copy:
//
//   - the SQLite backend's filter pushdown (../sqlite_pushdown.go replaces the two "lone `_id`
//     equality" blocks of collection.go) and its exact pages, counts and sums
//     (../sqlite_exact_pushdown.go, in Query's and Explain's ORDER BY / LIMIT);
//   - the handler hands the backend a find's sort, skip and limit, and a counting aggregation
//     (../handler_count.go), through fields added to the backend's parameters and results;
//   - the SQLite handler hands dotted keys to the backend (FerretDB's "nested pushdown" option);
//   - a fix to the $group stage, whose accumulators after the first read an exhausted iterator;
//   - reads asked again when SQLite answers SQLITE_SCHEMA (../fsql_schema_retry.go);
//   - SQL debug lines built only when debug logging is on (../fsql_quiet_debug.go);
//   - no resource tracking: a stack and a finalizer per iterator (../resource_untracked.go);
//   - deletes of more than SQLite's 32 766 parameters, in chunks (../sqlite_delete_chunks.go);
//   - an update's read closed before its writes, so that SQLite's log can be checkpointed whole
//     (findAndModify's too);
//   - the statements of a bulk update by _id in one SQLite transaction (../fsql_command_tx.go,
//     ../handler_command_tx.go, ../sqlite_begin_immediate.go);
//
// copies modernc.org/sqlite's driver into the copy with a statement cache (../sqlite_stmt_cache.go)
// for FerretDB's SQLite backend, adds the launcher's lookup_expression.go to the SQLite backend,
// copies modernc.org/sqlite's module to DIR/sqlite with a faster JSON cache lookup in its SQLite
// library (../sqlite_json_cache.go), and writes DIR/go.mod: the launcher's own, with FerretDB and
// modernc.org/sqlite replaced by the copies. (`go build -overlay` would be simpler, but Go
// refuses to overlay files in the module cache.) Any other FerretDB version fails here, loudly,
// rather than building a launcher without them: every change is matched byte for byte.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

const queryBlock = `	if params.Filter.Len() == 1 {
		v, _ := params.Filter.Get("_id")
		switch v.(type) {
		case string, types.ObjectID:
			whereClause = fmt.Sprintf(` + "` WHERE %s = ?`" + `, metadata.IDColumn)
			args = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}
		}
	}
`

const explainBlock = `	if params.Filter.Len() == 1 {
		v, _ := params.Filter.Get("_id")
		switch v.(type) {
		case string, types.ObjectID:
			filterPushdown = true
			whereClause = fmt.Sprintf(` + "` WHERE %s = ?`" + `, metadata.IDColumn)
			args = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}
		}
	}
`

// The ORDER BY and LIMIT of Query and Explain, replaced by the exact plan when there is one.
const queryOrderBlock = "\tq += whereClause\n\tq += prepareOrderByClause(params.Sort)\n\n\tif params.Limit != 0 {\n\t\tq += ` LIMIT ?`\n\t\targs = append(args, params.Limit)\n\t}\n"

const queryOrderExact = `	orderByClause, limit := prepareOrderByClause(params.Sort), params.Limit

	// Hitscope: a page or a count SQLite decides exactly (hitscope_exact_pushdown.go).
	exact, err := hitscopeExact(ctx, db, meta.TableName, meta.Capped(), params.Filter, params.HitscopeSort, params.HitscopeSkip, params.HitscopeLimit, params.HitscopeCount, params.HitscopeGroupBy, whereClause == "")
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	if exact != nil && params.HitscopeCount {
		groups, ok, err := hitscopeGroups(ctx, db, meta.TableName, params.HitscopeGroupBy, params.HitscopeSums, exact)
		if err != nil {
			return nil, lazyerrors.Error(err)
		}

		if ok {
			return &backends.QueryResult{
				Iter:            newQueryIterator(ctx, nil, params.OnlyRecordIDs),
				HitscopeGroups:  groups,
				HitscopeCounted: true,
			}, nil
		}
	}

	var skipped bool

	if exact != nil {
		whereClause, args, orderByClause, limit = exact.where, exact.args, exact.orderBy, exact.limit
	}

	q += whereClause
	q += orderByClause

	if limit != 0 {
		q += ` + "` LIMIT ?`" + `
		args = append(args, limit)
	}

	if exact != nil && exact.offset > 0 {
		q += ` + "` OFFSET ?`" + `
		args = append(args, exact.offset)
		skipped = true
	}
`

const explainOrderBlock = "\torderByClause := prepareOrderByClause(params.Sort)\n\tsortPushdown := orderByClause != \"\"\n\n\tq := `EXPLAIN QUERY PLAN ` + selectClause + whereClause + orderByClause\n\n\tvar limitPushdown bool\n\n\tif params.Limit != 0 {\n\t\tq += ` LIMIT ?`\n\t\targs = append(args, params.Limit)\n\t\tlimitPushdown = true\n\t}\n"

const explainOrderExact = `	orderByClause, limit := prepareOrderByClause(params.Sort), params.Limit

	// Hitscope: the exact plan Query would use (hitscope_exact_pushdown.go).
	exact, err := hitscopeExact(ctx, db, meta.TableName, meta.Capped(), params.Filter, params.HitscopeSort, params.HitscopeSkip, params.HitscopeLimit, false, "", whereClause == "")
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	if exact != nil {
		whereClause, args, orderByClause, limit = exact.where, exact.args, exact.orderBy, exact.limit
		filterPushdown = filterPushdown || whereClause != ""
	}

	sortPushdown := orderByClause != ""

	q := ` + "`EXPLAIN QUERY PLAN `" + ` + selectClause + whereClause + orderByClause

	var limitPushdown bool

	if limit != 0 {
		q += ` + "` LIMIT ?`" + `
		args = append(args, limit)
		limitPushdown = true
	}

	if exact != nil && exact.offset > 0 {
		q += ` + "` OFFSET ?`" + `
		args = append(args, exact.offset)
	}
`

// The find's skip, when the backend applied it already.
const hitscopeSkipped = `	// Hitscope: the backend skipped already (an exact page, hitscope_exact_pushdown.go).
	if queryRes.HitscopeSkipped {
		unskipped := *params
		unskipped.Skip = 0
		params = &unskipped
	}

`

// A fix to FerretDB 1.24's $group stage: it handed one iterator over a group's documents to every
// accumulator in turn, so each accumulator after the first read an exhausted iterator (`{n: {$sum:
// 1}, total: {$sum: "$amount"}}` gave a total of 0).
const hitscopeGroupIterator = `			// Hitscope: each accumulator reads the group's documents from the start (FerretDB 1.24
			// gave every accumulator after the first an exhausted iterator).
			groupIter := iterator.Values(iterator.ForSlice(groupedDocument.documents))
`

// A read that met SQLITE_SCHEMA (the launcher created an index meanwhile) is asked again
// (../fsql_schema_retry.go).
const hitscopeSchemaRetry = `	for attempt := 0; attempt < hitscopeSchemaRetries && hitscopeSchemaChanged(err); attempt++ {
		rows, err = db.sqlDB.QueryContext(ctx, query, args...) // Hitscope: the schema changed meanwhile
	}
`

// An update (and findAndModify) reads the documents it changes, then closes its read before it
// writes, as FerretDB's delete already does. FerretDB's update kept its query's rows open on one
// connection while it wrote through another, so at every commit a reader was on SQLite's log and no
// checkpoint could copy all of it: the log never started again and grew without end (100 MB after
// 6 000 updates of 2 000 small documents), and once past 1000 pages every commit ran a checkpoint
// of its own on the way of the command (an update by _id: 0.65 ms of database CPU, 0.4 without).
const hitscopeUpdateRead = `		if !u.Multi {
			iter = common.LimitIterator(iter, closer, 1)
		}

		// Hitscope: the documents are read, and the read closed, before the writes (see the patch).
		docs, err := iterator.ConsumeValues(iter)
		res.Iter.Close()
		if err != nil {
			return 0, 0, nil, lazyerrors.Error(err)
		}

		read := iterator.Values(iterator.ForSlice(docs))
		result, err := common.UpdateDocument(ctx, c, "update", read, &u)
		read.Close()
`

// A bulk update by _id runs its statements in one transaction (../handler_command_tx.go), committed
// every hitscopeCommandTxStatements statements and at the end; the deferred Finish commits the
// statements done before an error, as their own transactions had.
const hitscopeUpdateCommandTx = `	var commandTx *fsql.CommandTx
	if hitscopeOneTransaction(params.Updates) {
		ctx, commandTx = fsql.WithCommandTx(ctx)
		defer func() { _ = commandTx.Finish() }()
	}

	for i, u := range params.Updates {
		if commandTx != nil && i > 0 && i%hitscopeCommandTxStatements == 0 {
			if err := commandTx.Finish(); err != nil {
				return 0, 0, nil, lazyerrors.Error(err)
			}
		}

`

const hitscopeUpdateCommit = `	if commandTx != nil {
		if err := commandTx.Finish(); err != nil {
			return 0, 0, nil, lazyerrors.Error(err)
		}
	}

	return matched, modified, &upserted, nil
}
`

const hitscopeFindAndModifyRead = `	// findAndModify modifies a single document
	iter = common.LimitIterator(iter, closer, 1)

	// Hitscope: the document is read, and the read closed, before the write (see the patch).
	docs, err := iterator.ConsumeValues(iter)
	queryRes.Iter.Close()
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	iter = iterator.Values(iterator.ForSlice(docs))
	closer.Add(iter)
`

// Fields added to FerretDB's backend parameters and results (internal/backends/collection.go).
const hitscopeQueryParams = `	// Hitscope: a sort, skip and limit the backend may apply when it decides the whole filter and
	// the order exactly, or a count it may answer instead of the documents.
	HitscopeSort    *types.Document
	HitscopeSkip    int64
	HitscopeLimit   int64
	HitscopeCount   bool
	HitscopeGroupBy string   // with HitscopeCount: counts per value of this top-level field
	HitscopeSums    []string // with HitscopeCount: for each "$sum" of the group, the field summed ("": a count)
`

const hitscopeQueryResult = `	// Hitscope: the groups (counts and sums), when HitscopeCount was asked and answered (Iter is
	// then empty); whether
	// the backend applied HitscopeSkip itself (the handler must not skip again).
	HitscopeGroups  []HitscopeGroup
	HitscopeCounted bool
	HitscopeSkipped bool
`

const hitscopeGroupType = `// HitscopeGroup is one value of the field counted by (HitscopeGroupBy), and its count.
type HitscopeGroup struct {
	Value any
	Count int64
	Sums  []int64 // per QueryParams.HitscopeSums (0 for a count)
}
`

const hitscopeExplainParams = `	// Hitscope: as QueryParams.
	HitscopeSort  *types.Document
	HitscopeSkip  int64
	HitscopeLimit int64
`

// The handler's find and explain hand the sort, skip and limit over (the backend ignores them unless
// it can apply them exactly; the handler sorts and limits what it gets as before, and skips unless
// the backend says it did).
const hitscopeHandOver = `	// Hitscope: the sort, skip and limit, for a backend that can apply them exactly (SQLite).
	if !h.DisablePushdown && params.Limit > 0 && params.Sort.Len() > 0 {
		qp.HitscopeSort, qp.HitscopeSkip, qp.HitscopeLimit = params.Sort, params.Skip, params.Limit
	}

`

func main() {
	out := flag.String("out", "", "folder for the patched copy of FerretDB and its go.mod")
	flag.Parse()
	if *out == "" {
		fail("-out is required")
	}
	if err := run(*out); err != nil {
		fail(err.Error())
	}
}

func fail(message string) {
	fmt.Fprintln(os.Stderr, "patch:", message)
	os.Exit(1)
}

func run(out string) error {
	module, err := moduleDir("github.com/FerretDB/FerretDB")
	if err != nil {
		return err
	}
	goMod, err := os.ReadFile("go.mod")
	if err != nil {
		return err
	}
	goSum, err := os.ReadFile("go.sum")
	if err != nil {
		return err
	}

	absOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	copyDir := filepath.Join(absOut, "ferretdb")
	if err := os.RemoveAll(copyDir); err != nil {
		return err
	}
	if err := copyTree(module, copyDir); err != nil {
		return err
	}

	sqliteDir := filepath.Join(copyDir, "internal", "backends", "sqlite")
	collection := filepath.Join(sqliteDir, "collection.go")
	source, err := os.ReadFile(collection)
	if err != nil {
		return err
	}
	patched := string(source)
	for _, replacement := range []struct{ block, with string }{
		{queryBlock, "\twhereClause, args = hitscopeWhereClause(params.Filter)\n"},
		{explainBlock, "\twhereClause, args = hitscopeWhereClause(params.Filter)\n\tfilterPushdown = whereClause != \"\"\n"},
		{queryOrderBlock, queryOrderExact},
		{explainOrderBlock, explainOrderExact},
		{"\tq := fmt.Sprintf(`DELETE FROM %q WHERE %s IN (%s)`, meta.TableName, column, strings.Join(placeholders, \", \"))\n\n\tres, err := db.ExecContext(ctx, q, args...)\n\tif err != nil {\n\t\treturn nil, lazyerrors.Error(err)\n\t}\n\n\tra, err := res.RowsAffected()\n\tif err != nil {\n\t\treturn nil, lazyerrors.Error(err)\n\t}\n",
			"\t// Hitscope: in statements SQLite accepts, in one transaction (hitscope_delete_chunks.go).\n\t_ = placeholders\n\n\tra, err := hitscopeDeleteIn(ctx, db, meta.TableName, column, args)\n\tif err != nil {\n\t\treturn nil, lazyerrors.Error(err)\n\t}\n"},
		{"\treturn &backends.QueryResult{\n\t\tIter: newQueryIterator(ctx, rows, params.OnlyRecordIDs),\n\t}, nil\n",
			"\treturn &backends.QueryResult{\n\t\tIter:            newQueryIterator(ctx, rows, params.OnlyRecordIDs),\n\t\tHitscopeSkipped: skipped,\n\t}, nil\n"},
	} {
		if count := strings.Count(patched, replacement.block); count != 1 {
			return fmt.Errorf("FerretDB's internal/backends/sqlite/collection.go: expected a block of its query once, found it %d times (another FerretDB version?):\n%s", count, replacement.block)
		}
		patched = strings.Replace(patched, replacement.block, replacement.with, 1)
	}
	if err := os.WriteFile(collection, []byte(patched), 0o644); err != nil {
		return err
	}
	for _, file := range []struct{ from, to string }{
		{filepath.Join("_ferretdb", "sqlite_pushdown.go"), filepath.Join(sqliteDir, "hitscope_pushdown.go")},
		{filepath.Join("_ferretdb", "sqlite_exact_pushdown.go"), filepath.Join(sqliteDir, "hitscope_exact_pushdown.go")},
		{filepath.Join("_ferretdb", "handler_count.go"), filepath.Join(copyDir, "internal", "handler", "hitscope_count.go")},
		{filepath.Join("_ferretdb", "fsql_schema_retry.go"), filepath.Join(copyDir, "internal", "util", "fsql", "hitscope_schema_retry.go")},
		{filepath.Join("_ferretdb", "fsql_quiet_debug.go"), filepath.Join(copyDir, "internal", "util", "fsql", "hitscope_quiet_debug.go")},
		{filepath.Join("_ferretdb", "sqlite_delete_chunks.go"), filepath.Join(sqliteDir, "hitscope_delete_chunks.go")},
		{filepath.Join("_ferretdb", "resource_untracked.go"), filepath.Join(copyDir, "internal", "util", "resource", "hitscope_untracked.go")},
		{filepath.Join("_ferretdb", "fsql_command_tx.go"), filepath.Join(copyDir, "internal", "util", "fsql", "hitscope_command_tx.go")},
		{filepath.Join("_ferretdb", "handler_command_tx.go"), filepath.Join(copyDir, "internal", "handler", "hitscope_command_tx.go")},
	} {
		data, err := os.ReadFile(file.from)
		if err != nil {
			return fmt.Errorf("run this from database-launcher: %w", err)
		}
		if err := os.WriteFile(file.to, data, 0o644); err != nil {
			return err
		}
	}
	// What the handler hands the backend beyond FerretDB's own parameters, and what it gets back.
	handler := filepath.Join(copyDir, "internal", "handler")
	for _, edit := range []struct{ path, old, new string }{
		{filepath.Join(copyDir, "internal", "backends", "collection.go"),
			"\tOnlyRecordIDs bool\n\tComment       string\n}\n",
			"\tOnlyRecordIDs bool\n\tComment       string\n\n" + hitscopeQueryParams + "}\n"},
		{filepath.Join(copyDir, "internal", "backends", "collection.go"),
			"type QueryResult struct {\n\tIter types.DocumentsIterator\n}\n",
			"type QueryResult struct {\n\tIter types.DocumentsIterator\n\n" + hitscopeQueryResult + "}\n\n" + hitscopeGroupType},
		{filepath.Join(copyDir, "internal", "backends", "collection.go"),
			"type ExplainParams struct {\n\tFilter *types.Document\n\tSort   *types.Document\n\tLimit  int64\n}\n",
			"type ExplainParams struct {\n\tFilter *types.Document\n\tSort   *types.Document\n\tLimit  int64\n\n" + hitscopeExplainParams + "}\n"},
		{filepath.Join(handler, "msg_find.go"),
			"\th.L.DebugContext(ctx, fmt.Sprintf(\"Converted %+v for %+v to %+v.\", params, cInfo, qp))\n",
			hitscopeHandOver + "\th.L.DebugContext(ctx, fmt.Sprintf(\"Converted %+v for %+v to %+v.\", params, cInfo, qp))\n"},
		{filepath.Join(handler, "msg_find.go"),
			"\titer, err := h.makeFindIter(queryRes.Iter, closer, params)\n",
			hitscopeSkipped + "\titer, err := h.makeFindIter(queryRes.Iter, closer, params)\n"},
		{filepath.Join(handler, "msg_explain.go"),
			"\tres, err := coll.Explain(connCtx, qp)\n",
			hitscopeHandOver + "\tres, err := coll.Explain(connCtx, qp)\n"},
		{filepath.Join(handler, "common", "aggregations", "stages", "group.go"),
			"\t\tgroupIter := iterator.Values(iterator.ForSlice(groupedDocument.documents))\n\t\tdefer groupIter.Close()\n\n\t\tfor _, accumulation := range g.groupBy {\n\t\t\tout, err := accumulation.accumulator.Accumulate(groupIter)\n",
			"\t\tfor _, accumulation := range g.groupBy {\n" + hitscopeGroupIterator + "\t\t\tout, err := accumulation.accumulator.Accumulate(groupIter)\n\t\t\tgroupIter.Close()\n"},
		{filepath.Join(copyDir, "internal", "util", "fsql", "db.go"),
			"\trows, err := db.sqlDB.QueryContext(ctx, query, args...)\n",
			"\trows, err := db.sqlDB.QueryContext(ctx, query, args...)\n" + hitscopeSchemaRetry},
		{filepath.Join(handler, "msg_update.go"),
			"\t\tif !u.Multi {\n\t\t\titer = common.LimitIterator(iter, closer, 1)\n\t\t}\n\n\t\tresult, err := common.UpdateDocument(ctx, c, \"update\", iter, &u)\n",
			hitscopeUpdateRead},
		{filepath.Join(handler, "msg_update.go"), "\tfor _, u := range params.Updates {\n", hitscopeUpdateCommandTx},
		{filepath.Join(handler, "msg_update.go"), "\treturn matched, modified, &upserted, nil\n}\n", hitscopeUpdateCommit},
		{filepath.Join(handler, "msg_update.go"), "\t\"github.com/FerretDB/FerretDB/internal/util/iterator\"\n",
			"\t\"github.com/FerretDB/FerretDB/internal/util/fsql\"\n\t\"github.com/FerretDB/FerretDB/internal/util/iterator\"\n"},
		{filepath.Join(handler, "msg_findandmodify.go"),
			"\t// findAndModify modifies a single document\n\titer = common.LimitIterator(iter, closer, 1)\n",
			hitscopeFindAndModifyRead},
		// FerretDB's resource tracking, replaced by ../resource_untracked.go (these stay, unused).
		{filepath.Join(copyDir, "internal", "util", "resource", "resource.go"),
			"func Track(obj any, token *Token) {\n", "func ferretdbTrack(obj any, token *Token) {\n"},
		{filepath.Join(copyDir, "internal", "util", "resource", "resource.go"),
			"func Untrack(obj any, token *Token) {\n", "func ferretdbUntrack(obj any, token *Token) {\n"},
		{filepath.Join(handler, "msg_aggregate.go"),
			"iter, err = processStagesDocuments(ctx, closer, &stagesDocumentsParams{c, qp, stagesDocuments})",
			"iter, err = hitscopeProcessStagesDocuments(ctx, closer, &stagesDocumentsParams{c, qp, stagesDocuments}, aggregationStages)"},
	} {
		if err := replaceOnce(edit.path, edit.old, edit.new); err != nil {
			return err
		}
	}
	// Reads, writes and transactions on the helper's DB join a command's transaction when the context
	// carries one (../fsql_command_tx.go).
	for _, hook := range []struct{ signature, answer string }{
		{"func (db *DB) QueryContext(ctx context.Context, query string, args ...any) (*Rows, error) {\n",
			"\tif tx, err := hitscopeCommandTx(ctx, db); err != nil {\n\t\treturn nil, err\n\t} else if tx != nil {\n\t\treturn tx.QueryContext(ctx, query, args...)\n\t}\n"},
		{"func (db *DB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {\n",
			"\tif tx, err := hitscopeCommandTx(ctx, db); err == nil && tx != nil {\n\t\treturn tx.QueryRowContext(ctx, query, args...)\n\t}\n"},
		{"func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {\n",
			"\tif tx, err := hitscopeCommandTx(ctx, db); err != nil {\n\t\treturn nil, err\n\t} else if tx != nil {\n\t\treturn tx.ExecContext(ctx, query, args...)\n\t}\n"},
		{"func (db *DB) InTransaction(ctx context.Context, f func(*Tx) error) (err error) {\n",
			"\tif tx, err := hitscopeCommandTx(ctx, db); err != nil {\n\t\treturn err\n\t} else if tx != nil {\n\t\treturn tx.hitscopeSavepoint(ctx, f)\n\t}\n"},
	} {
		if err := replaceOnce(filepath.Join(copyDir, "internal", "util", "fsql", "db.go"), hook.signature, hook.signature+hook.answer); err != nil {
			return err
		}
	}
	// FerretDB's SQL debug lines, built only when they are printed (../fsql_quiet_debug.go): each
	// of the helper's two files (receivers db and tx) logs three statements before and after.
	for file, receiver := range map[string]string{"db.go": "db", "tx.go": "tx"} {
		path := filepath.Join(copyDir, "internal", "util", "fsql", file)
		for _, direction := range []string{">>>", "<<<"} {
			old := fmt.Sprintf("\t%s.l.With(fields...).DebugContext(ctx, fmt.Sprintf(\"%s %%s\", query))\n", receiver, direction)
			new := fmt.Sprintf("\thitscopeDebug(ctx, %s.l, fields, func() string { return fmt.Sprintf(\"%s %%s\", query) })\n", receiver, direction)
			if err := replaceEach(path, old, new, 3); err != nil {
				return err
			}
		}
	}
	// modernc.org/sqlite's driver with a statement cache (../sqlite_stmt_cache.go), as a package of
	// the copy registered under a name of its own: FerretDB's SQLite backend uses it, the launcher's
	// own connections keep the original driver.
	if err := copyDriver(copyDir); err != nil {
		return err
	}

	// The expression the launcher indexes, from the launcher's own source: one definition for both.
	expression, err := os.ReadFile("lookup_expression.go")
	if err != nil {
		return err
	}
	if !strings.HasPrefix(string(expression), "package main\n") {
		return fmt.Errorf("lookup_expression.go must begin with its package clause")
	}
	expression = append([]byte("package sqlite\n"), expression[len("package main\n"):]...)
	if err := os.WriteFile(filepath.Join(sqliteDir, "hitscope_lookup_expression.go"), expression, 0o644); err != nil {
		return err
	}

	// The SQLite handler keeps dotted keys in the filters it hands the backend (FerretDB drops them
	// unless its "nested pushdown" test option is on; the embeddable package cannot set it): the
	// pushdown follows dotted paths. The PostgreSQL handler is left as it is.
	registry := filepath.Join(copyDir, "internal", "handler", "registry", "sqlite.go")
	if err := replaceOnce(registry, "\t\t\tEnableNestedPushdown:    opts.EnableNestedPushdown,\n",
		"\t\t\tEnableNestedPushdown:    true, // Hitscope: dotted paths reach the SQLite pushdown\n"); err != nil {
		return err
	}

	sqliteModule := filepath.Join(absOut, "sqlite")
	if err := copySQLiteModule(sqliteModule); err != nil {
		return err
	}

	replace := fmt.Sprintf("\nreplace github.com/FerretDB/FerretDB => %s\n\nreplace modernc.org/sqlite => %s\n", copyDir, sqliteModule)
	if err := os.WriteFile(filepath.Join(absOut, "go.mod"), append(goMod, replace...), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(absOut, "go.sum"), goSum, 0o644)
}

// hitscopeDriver is the import path of the copied driver in the patched FerretDB.
const hitscopeDriver = "github.com/FerretDB/FerretDB/internal/hitscopesqlite"

// copyDriver copies modernc.org/sqlite's root package (its SQLite library, modernc.org/sqlite/lib,
// stays where it is) into the FerretDB copy, adds the statement cache, registers the copy as
// "hitscope-sqlite", and points FerretDB's SQLite backend at it.
func copyDriver(copyDir string) error {
	from, err := moduleDir("modernc.org/sqlite")
	if err != nil {
		return err
	}
	driver := filepath.Join(copyDir, "internal", "hitscopesqlite")
	if err := os.MkdirAll(driver, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, entry := range entries {
		name := entry.Name()
		if entry.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(driver, name), data, 0o644); err != nil {
			return err
		}
	}
	for _, file := range []struct{ from, to string }{
		{"sqlite_stmt_cache.go", "hitscope_stmt_cache.go"},
		{"sqlite_begin_immediate.go", "hitscope_begin_immediate.go"},
	} {
		data, err := os.ReadFile(filepath.Join("_ferretdb", file.from))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(driver, file.to), data, 0o644); err != nil {
			return err
		}
	}

	source := filepath.Join(driver, "sqlite.go")
	for _, edit := range []struct {
		old, new string
		count    int
	}{
		{"	driverName              = \"sqlite\"\n", "	driverName              = \"hitscope-sqlite\"\n", 1},
		{"type stmt struct {\n\tc    *conn\n\tpsql uintptr\n}\n",
			"type stmt struct {\n\tc    *conn\n\tpsql uintptr\n\tsql  string // Hitscope: the key of the statement cache\n}\n", 1},
		{"\tstm := stmt{c: c, psql: p}\n", "\tstm := stmt{c: c, psql: p, sql: sql}\n", 1},
		{"\twriteTimeFormat string\n\tbeginMode       string\n}\n",
			"\twriteTimeFormat string\n\tbeginMode       string\n\n\thitscopeStmts        *hitscopeStmtCache // Hitscope: the prepared statements kept\n\thitscopePrepareFlags uint32             // Hitscope: for the next prepare\n}\n", 1},
		{"\tc.db = db\n\tif err = c.extendedResultCodes(true); err != nil {\n",
			"\tc.db = db\n\tc.hitscopeLookaside()\n\tif err = c.extendedResultCodes(true); err != nil {\n", 1},
		{"sqlite3.Xsqlite3_prepare_v2(c.tls, c.db, *zSQL, -1, ppstmt, pptail)",
			"sqlite3.Xsqlite3_prepare_v3(c.tls, c.db, *zSQL, -1, c.hitscopePrepareFlags, ppstmt, pptail)", 1},
		{"\t\tif pstmt, err = s.c.prepareV2(&psql); err != nil {\n", "\t\tif pstmt, err = s.c.hitscopePrepare(s, &psql); err != nil {\n", 2},
		{"\t\te := s.c.finalize(pstmt)\n\t\tpstmt = 0 // done with\n", "\t\te := s.c.hitscopeRelease(pstmt)\n\t\tpstmt = 0 // done with\n", 2},
		{"\tr.allocs = nil\n\treturn r.c.finalize(r.pstmt)\n", "\tr.allocs = nil\n\treturn r.c.hitscopeRelease(r.pstmt)\n", 1},
		{"func (c *conn) finalize(pstmt uintptr) error {\n", "func (c *conn) finalize(pstmt uintptr) error {\n\tc.hitscopeForget(pstmt)\n", 1},
		{"\tif !opts.ReadOnly && c.beginMode != \"\" {\n\t\tsql = \"begin \" + c.beginMode\n\t}\n",
			"\tif !opts.ReadOnly && c.beginMode != \"\" {\n\t\tsql = \"begin \" + c.beginMode\n\t}\n\tif hitscopeImmediate(ctx) {\n\t\tsql = \"begin immediate\" // Hitscope: a command's transaction\n\t}\n", 1},
		{"\tif c.db != 0 {\n\t\tif err := c.closeV2(c.db); err != nil {\n",
			"\tif c.db != 0 {\n\t\tc.hitscopeFinalizeAll()\n\t\tif err := c.closeV2(c.db); err != nil {\n", 1},
	} {
		if err := replaceEach(source, edit.old, edit.new, edit.count); err != nil {
			return err
		}
	}

	backend := filepath.Join(copyDir, "internal", "backends", "sqlite")
	for _, edit := range []struct{ path, old, new string }{
		{filepath.Join(backend, "metadata", "pool", "opendb.go"),
			"\t_ \"modernc.org/sqlite\" // register database/sql driver\n",
			"\t_ \"" + hitscopeDriver + "\" // Hitscope: the driver with a statement cache\n"},
		{filepath.Join(backend, "metadata", "pool", "opendb.go"),
			"\tdb, err := sql.Open(\"sqlite\", uri)\n", "\tdb, err := sql.Open(\"hitscope-sqlite\", uri)\n"},
		{filepath.Join(backend, "collection.go"), "\tsqlite3 \"modernc.org/sqlite\"\n", "\tsqlite3 \"" + hitscopeDriver + "\"\n"},
	} {
		if err := replaceOnce(edit.path, edit.old, edit.new); err != nil {
			return err
		}
	}
	return nil
}

// The comparison in SQLite's JSON cache lookup (_jsonCacheSearch), in each platform's translation.
const jsonCacheCompare = "libc.Xmemcmp(tls, (*TJsonParse)(unsafe.Pointer(*(*uintptr)(unsafe.Pointer(p + 16 + uintptr(i)*8)))).FzJson, zJson, uint64(nJson)) == 0"

// copySQLiteModule copies modernc.org/sqlite's module (without its tests and their data) to dir,
// with its SQLite library's JSON cache lookup comparing texts through hitscopeEqual
// (../sqlite_json_cache.go) on every platform it is translated for.
func copySQLiteModule(dir string) error {
	from, err := moduleDir("modernc.org/sqlite")
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	err = copyTreeExcept(from, dir, func(path string, entry os.DirEntry) bool {
		return (entry.IsDir() && entry.Name() == "testdata") || strings.HasSuffix(path, "_test.go")
	})
	if err != nil {
		return err
	}

	lib := filepath.Join(dir, "lib")
	translations, err := filepath.Glob(filepath.Join(lib, "sqlite_*.go"))
	if err != nil {
		return err
	}
	// The 64-bit translations share this text (the 32-bit ones keep memcmp); this machine's must have it.
	own := filepath.Join(lib, fmt.Sprintf("sqlite_%s_%s.go", runtime.GOOS, runtime.GOARCH))
	for _, path := range translations {
		source, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if path != own && !strings.Contains(string(source), jsonCacheCompare) {
			continue
		}
		if err := replaceOnce(path, jsonCacheCompare, "hitscopeEqual((*TJsonParse)(unsafe.Pointer(*(*uintptr)(unsafe.Pointer(p + 16 + uintptr(i)*8)))).FzJson, zJson, nJson)"); err != nil {
			return err
		}
	}
	equal, err := os.ReadFile(filepath.Join("_ferretdb", "sqlite_json_cache.go"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(lib, "hitscope_json_cache.go"), equal, 0o644)
}

// moduleDir is the folder of a module the launcher requires, downloaded into the module cache
// first when it is not there (a fresh machine: `go list -m` would answer an empty folder).
func moduleDir(path string) (string, error) {
	output, err := exec.Command("go", "mod", "download", "-json", path).Output()
	if err != nil {
		var stderr string
		if exit, ok := err.(*exec.ExitError); ok {
			stderr = strings.TrimSpace(string(exit.Stderr))
		}
		return "", fmt.Errorf("downloading %s: %w %s %s", path, err, stderr, strings.TrimSpace(string(output)))
	}
	var module struct{ Dir, Error string }
	if err := json.Unmarshal(output, &module); err != nil {
		return "", fmt.Errorf("reading go mod download's answer for %s: %w", path, err)
	}
	if module.Error != "" || module.Dir == "" {
		return "", fmt.Errorf("downloading %s: %s", path, module.Error)
	}
	return module.Dir, nil
}

// replaceOnce replaces text that must occur exactly once in a file of the copy.
func replaceOnce(path, old, new string) error {
	source, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if count := strings.Count(string(source), old); count != 1 {
		return fmt.Errorf("%s: expected %q once, found it %d times (another FerretDB version?)", path, old, count)
	}
	return os.WriteFile(path, []byte(strings.Replace(string(source), old, new, 1)), 0o644)
}

// replaceEach replaces text that must occur exactly count times in a file of the copy.
func replaceEach(path, old, new string, count int) error {
	source, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if found := strings.Count(string(source), old); found != count {
		return fmt.Errorf("%s: expected %q %d times, found it %d times (another FerretDB version?)", path, old, count, found)
	}
	return os.WriteFile(path, []byte(strings.ReplaceAll(string(source), old, new)), 0o644)
}

// copyTree copies a module's files (read-only in the module cache) as writable files.
func copyTree(from, to string) error {
	return copyTreeExcept(from, to, func(string, os.DirEntry) bool { return false })
}

// copyTreeExcept is copyTree without the files and folders leaveOut names.
func copyTreeExcept(from, to string, leaveOut func(path string, entry os.DirEntry) bool) error {
	return filepath.WalkDir(from, func(path string, entry os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if leaveOut(path, entry) {
			if entry.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(to, strings.TrimPrefix(path, from))
		if entry.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
