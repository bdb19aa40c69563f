// Hitscope's addition to FerretDB's command handler (package
// github.com/FerretDB/FerretDB/internal/handler), compiled into the patched copy (patch/main.go):
// the Node driver's countDocuments pipeline answered by the backend's COUNT(*) when it can decide the
// filter exactly (sqlite_exact_pushdown.go), instead of decoding and counting every matching
// document in Go.

package handler

import (
	"context"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// hitscopeCountShape recognises `[{$match: F}, {$group: {_id: <constant>, <name>: {$sum: 1}}}]`
// (or the `$group` alone): the pipeline countDocuments sends. It answers the `_id` constant and the
// count's field name.
func hitscopeCountShape(stages []any) (any, string, bool) {
	if len(stages) == 0 || len(stages) > 2 {
		return nil, "", false
	}
	if len(stages) == 2 {
		match, ok := stages[0].(*types.Document)
		if !ok || match.Len() != 1 || match.Command() != "$match" {
			return nil, "", false
		}
		if _, ok := must.NotFail(match.Get("$match")).(*types.Document); !ok {
			return nil, "", false
		}
	}
	stage, ok := stages[len(stages)-1].(*types.Document)
	if !ok || stage.Len() != 1 || stage.Command() != "$group" {
		return nil, "", false
	}
	group, ok := must.NotFail(stage.Get("$group")).(*types.Document)
	if !ok || group.Len() != 2 || group.Keys()[0] != "_id" {
		return nil, "", false
	}
	id := must.NotFail(group.Get("_id"))
	switch id := id.(type) {
	case int32, int64, types.NullType:
	case string:
		if len(id) > 0 && id[0] == '$' {
			return nil, "", false
		}
	default:
		return nil, "", false
	}
	name := group.Keys()[1]
	accumulator, ok := must.NotFail(group.Get(name)).(*types.Document)
	if !ok || accumulator.Len() != 1 || accumulator.Command() != "$sum" {
		return nil, "", false
	}
	switch one := must.NotFail(accumulator.Get("$sum")).(type) {
	case int32:
		ok = one == 1
	case int64:
		ok = one == 1
	case float64:
		ok = one == 1
	default:
		ok = false
	}
	if !ok || len(name) == 0 || name[0] == '$' {
		return nil, "", false
	}
	return id, name, true
}

// hitscopeProcessStagesDocuments is processStagesDocuments, but asks the backend for the count when
// the pipeline is countDocuments'; a backend that cannot answer it exactly returns the documents as
// usual, and the stages run on them.
func hitscopeProcessStagesDocuments(ctx context.Context, closer *iterator.MultiCloser, p *stagesDocumentsParams, stages []any) (types.DocumentsIterator, error) { //nolint:lll // for readability
	id, name, ok := hitscopeCountShape(stages)
	if !ok {
		return processStagesDocuments(ctx, closer, p)
	}
	qp := *p.qp
	qp.HitscopeCount = true
	queryRes, err := p.c.Query(ctx, &qp)
	if err != nil {
		closer.Close()
		return nil, lazyerrors.Error(err)
	}
	closer.Add(queryRes.Iter)
	if queryRes.HitscopeCounted {
		var docs []*types.Document
		if queryRes.HitscopeCount > 0 { // $group over no document outputs none
			docs = append(docs, must.NotFail(types.NewDocument("_id", id, name, hitscopeCountValue(queryRes.HitscopeCount))))
		}
		return iterator.Values(iterator.ForSlice(docs)), nil
	}
	iter := queryRes.Iter
	for _, s := range p.stages {
		if iter, err = s.Process(ctx, iter, closer); err != nil {
			return nil, err
		}
	}
	return iter, nil
}

// hitscopeCountValue is a count as MongoDB's $sum of 1s gives it: a 32-bit integer while it fits.
func hitscopeCountValue(n int64) any {
	if n <= 1<<31-1 {
		return int32(n)
	}
	return n
}
