// Hitscope's addition to FerretDB's command handler (package
// github.com/FerretDB/FerretDB/internal/handler), compiled into the patched copy (patch/main.go):
// counts and sums answered by the backend's SQL when it can decide the filter exactly
// (sqlite_exact_pushdown.go), instead of decoding every matching document in Go. The pipelines:
// the Node driver's countDocuments (`$group` by a constant), counts per value of one field (`$group`
// by `$field`, the admin pages' "per status" figures), and sums of integer fields (revenue).

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
// <name>: {$sum: 1}, <name>: {$sum: "$field"}, …}}]` (or the `$group` alone), where X is a constant
// or `$field`, for top-level fields.
type hitscopeCountPipeline struct {
	id           any      // the constant `_id`
	groupBy      string   // or the field grouped by
	accumulators []string // the output fields, in order
	sums         []string // for each: the field summed, or "" to count
}

// hitscopeTopLevelField is `$field` for a top-level field, as a field name.
func hitscopeTopLevelField(v any) (string, bool) {
	s, ok := v.(string)
	if !ok || !strings.HasPrefix(s, "$") || len(s) < 2 || strings.ContainsAny(s[1:], ".$") {
		return "", false
	}
	return s[1:], true
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
	if !ok || group.Len() < 2 || group.Keys()[0] != "_id" {
		return nil, false
	}
	pipeline := new(hitscopeCountPipeline)
	switch id := must.NotFail(group.Get("_id")).(type) {
	case int32, int64, types.NullType:
		pipeline.id = id
	case string:
		if field, ok := hitscopeTopLevelField(id); ok {
			pipeline.groupBy = field
		} else if strings.HasPrefix(id, "$") {
			return nil, false
		} else {
			pipeline.id = id
		}
	default:
		return nil, false
	}
	seen := map[string]bool{}
	for _, name := range group.Keys()[1:] {
		accumulator, ok := must.NotFail(group.Get(name)).(*types.Document)
		if seen[name] {
			return nil, false
		}
		seen[name] = true
		if name == "" || strings.HasPrefix(name, "$") || !ok || accumulator.Len() != 1 || accumulator.Command() != "$sum" {
			return nil, false
		}
		var sum string
		switch operand := must.NotFail(accumulator.Get("$sum")).(type) {
		case int32:
			ok = operand == 1
		case int64:
			ok = operand == 1
		case float64:
			ok = operand == 1
		case string:
			sum, ok = hitscopeTopLevelField(operand)
		default:
			ok = false
		}
		if !ok {
			return nil, false
		}
		pipeline.accumulators = append(pipeline.accumulators, name)
		pipeline.sums = append(pipeline.sums, sum)
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
	qp.HitscopeSums = pipeline.sums
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

// hitscopeCountDocuments are the `$group` stage's output for the backend's groups: one document
// per group (none for no matching document, as `$group` outputs none).
func hitscopeCountDocuments(pipeline *hitscopeCountPipeline, res *backends.QueryResult) []*types.Document {
	docs := make([]*types.Document, 0, len(res.HitscopeGroups))
	for _, group := range res.HitscopeGroups {
		id := pipeline.id
		if pipeline.groupBy != "" {
			id = group.Value
		}
		doc := must.NotFail(types.NewDocument("_id", id))
		for i, name := range pipeline.accumulators {
			n := group.Count
			if pipeline.sums[i] != "" {
				n = group.Sums[i]
			}
			doc.Set(name, hitscopeCountValue(n))
		}
		docs = append(docs, doc)
	}
	return docs
}

// hitscopeCountValue is a count or a sum of integers as MongoDB's $sum gives it: a 32-bit integer
// while it fits (a sum of 64-bit integers is a 64-bit one there; the value is the same).
func hitscopeCountValue(n int64) any {
	if n >= -1<<31 && n <= 1<<31-1 {
		return int32(n)
	}
	return n
}
