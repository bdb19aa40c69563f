// Hitscope's addition to FerretDB's command handler (package
// github.com/FerretDB/FerretDB/internal/handler), compiled into the patched copy (patch/main.go):
// counts answered by the backend's COUNT(*) when it can decide the filter exactly
// (sqlite_exact_pushdown.go), instead of decoding and counting every matching document in Go.
// Two pipelines: the Node driver's countDocuments (`$group` by a constant) and the counts per
// value of one field (`$group` by `$field`, the admin pages' "per status" figures).

package handler

import (
	"context"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// hitscopeCountPipeline is a recognised counting pipeline: `[{$match: F}, {$group: {_id: X,
// <name>: {$sum: 1}}}]` (or the `$group` alone), where X is a constant, or `$field` for a top-level
// field.
type hitscopeCountPipeline struct {
	id      any    // the constant `_id`
	groupBy string // or the field grouped by
	name    string // the count's field
}

// hitscopeCountShape recognises a counting pipeline.
func hitscopeCountShape(stages []any) (*hitscopeCountPipeline, bool) {
	if len(stages) == 0 || len(stages) > 2 {
		return nil, false
	}
	if len(stages) == 2 {
		match, ok := stages[0].(*types.Document)
		if !ok || match.Len() != 1 || match.Command() != "$match" {
			return nil, false
		}
		if _, ok := must.NotFail(match.Get("$match")).(*types.Document); !ok {
			return nil, false
		}
	}
	stage, ok := stages[len(stages)-1].(*types.Document)
	if !ok || stage.Len() != 1 || stage.Command() != "$group" {
		return nil, false
	}
	group, ok := must.NotFail(stage.Get("$group")).(*types.Document)
	if !ok || group.Len() != 2 || group.Keys()[0] != "_id" {
		return nil, false
	}
	pipeline := &hitscopeCountPipeline{name: group.Keys()[1]}
	switch id := must.NotFail(group.Get("_id")).(type) {
	case int32, int64, types.NullType:
		pipeline.id = id
	case string:
		if strings.HasPrefix(id, "$") {
			field := id[1:]
			if field == "" || strings.ContainsAny(field, ".$") {
				return nil, false
			}
			pipeline.groupBy = field
		} else {
			pipeline.id = id
		}
	default:
		return nil, false
	}
	accumulator, ok := must.NotFail(group.Get(pipeline.name)).(*types.Document)
	if !ok || accumulator.Len() != 1 || accumulator.Command() != "$sum" {
		return nil, false
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
	if !ok || pipeline.name == "" || strings.HasPrefix(pipeline.name, "$") {
		return nil, false
	}
	return pipeline, true
}

// hitscopeProcessStagesDocuments is processStagesDocuments, but asks the backend for the counts when
// the pipeline is a counting one; a backend that cannot answer exactly returns the documents as
// usual, and the stages run on them.
func hitscopeProcessStagesDocuments(ctx context.Context, closer *iterator.MultiCloser, p *stagesDocumentsParams, stages []any) (types.DocumentsIterator, error) { //nolint:lll // for readability
	pipeline, ok := hitscopeCountShape(stages)
	if !ok {
		return processStagesDocuments(ctx, closer, p)
	}
	qp := *p.qp
	qp.HitscopeCount = true
	qp.HitscopeGroupBy = pipeline.groupBy
	queryRes, err := p.c.Query(ctx, &qp)
	if err != nil {
		closer.Close()
		return nil, lazyerrors.Error(err)
	}
	closer.Add(queryRes.Iter)
	if queryRes.HitscopeCounted {
		return iterator.Values(iterator.ForSlice(hitscopeCountDocuments(pipeline, queryRes))), nil
	}
	iter := queryRes.Iter
	for _, s := range p.stages {
		if iter, err = s.Process(ctx, iter, closer); err != nil {
			return nil, err
		}
	}
	return iter, nil
}

// hitscopeCountDocuments are the `$group` stage's output for the backend's counts: one document per
// group (none for no matching document, as `$group` outputs none).
func hitscopeCountDocuments(pipeline *hitscopeCountPipeline, res *backends.QueryResult) []*types.Document {
	var docs []*types.Document
	if pipeline.groupBy == "" {
		if res.HitscopeCount > 0 {
			docs = append(docs, must.NotFail(types.NewDocument("_id", pipeline.id, pipeline.name, hitscopeCountValue(res.HitscopeCount))))
		}
		return docs
	}
	for _, group := range res.HitscopeGroups {
		docs = append(docs, must.NotFail(types.NewDocument("_id", group.Value, pipeline.name, hitscopeCountValue(group.Count))))
	}
	return docs
}

// hitscopeCountValue is a count as MongoDB's $sum of 1s gives it: a 32-bit integer while it fits.
func hitscopeCountValue(n int64) any {
	if n <= 1<<31-1 {
		return int32(n)
	}
	return n
}
