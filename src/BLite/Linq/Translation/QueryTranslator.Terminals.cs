using System.Linq.Expressions;
using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq.Execution;

namespace BLite.Linq.Translation;

internal sealed partial class QueryTranslator
{
    private (QueryTerminal Terminal, LambdaExpression? Selector) ApplyTerminal(MethodCallExpression call)
    {
        if (call.Method.Name is nameof(Queryable.ElementAt) or nameof(Queryable.ElementAtOrDefault))
        {
            return (ElementAt(call), null);
        }

        var lambda = call.Arguments.Count == 2 ? Lambda(call, 1) : null;
        var terminal = call.Method.Name switch
        {
            nameof(Queryable.First) => QueryTerminal.First,
            nameof(Queryable.FirstOrDefault) => QueryTerminal.FirstOrDefault,
            nameof(Queryable.Single) => QueryTerminal.Single,
            nameof(Queryable.SingleOrDefault) => QueryTerminal.SingleOrDefault,
            nameof(Queryable.Any) => QueryTerminal.Any,
            nameof(Queryable.All) => QueryTerminal.All,
            nameof(Queryable.Count) => QueryTerminal.Count,
            nameof(Queryable.LongCount) => QueryTerminal.LongCount,
            nameof(Queryable.Min) => QueryTerminal.Min,
            nameof(Queryable.Max) => QueryTerminal.Max,
            nameof(Queryable.Sum) => QueryTerminal.Sum,
            nameof(Queryable.Last) => QueryTerminal.Last,
            nameof(Queryable.LastOrDefault) => QueryTerminal.LastOrDefault,
            _ => QueryTerminal.Average,
        };

        if (call.Arguments.Count > 2)
        {
            throw Unsupported(call, $"the {call.Method.Name} overload with {call.Arguments.Count - 1} arguments is not supported");
        }

        switch (terminal)
        {
            case QueryTerminal.Min or QueryTerminal.Max or QueryTerminal.Sum or QueryTerminal.Average:
                if (!(_stage == Stage.Grouped && _groupsProjected))
                {
                    RequireStage(call, call.Method.Name, Stage.Source, Stage.Limited, Stage.Projected);
                }

                return (terminal, lambda);
            case QueryTerminal.All:
                RequireStage(call, "All", Stage.Source);
                _filters.Add(QueryFilter.Not(TranslatePredicate(lambda!)));
                AddConstantTake(1);
                return (terminal, null);
        }

        if (lambda is not null)
        {
            RequireStage(call, call.Method.Name + " with a predicate", Stage.Source);
            _filters.Add(TranslatePredicate(lambda));
        }

        if (_stage != Stage.Grouped)
        {
            switch (terminal)
            {
                case QueryTerminal.First or QueryTerminal.FirstOrDefault or QueryTerminal.Any:
                    AddConstantTake(1);
                    break;
                case QueryTerminal.Single or QueryTerminal.SingleOrDefault:
                    // Two are enough to tell "exactly one" from "more than one".
                    AddConstantTake(2);
                    break;
                case QueryTerminal.Last or QueryTerminal.LastOrDefault when _limits.Count == 0:
                    // The last in query order is the first in the reversed order; with a window
                    // (Skip/Take) before it, the window's rows are read and the last one kept.
                    ReverseOrder();
                    AddConstantTake(1);
                    break;
            }
        }

        return (terminal, null);
    }

    /// <summary>
    /// Min / Max of a stored scalar path (as a selector or a single Select before it) read the
    /// first non-null value in the path's order, so an index on the path answers from one entry
    /// and a scan keeps only the best value. LINQ skips nulls too, and an empty result still
    /// throws (or gives null for a nullable type) in the aggregate.
    /// </summary>
    private void OrderForExtreme(QueryTerminal terminal, LambdaExpression? selector)
    {
        var lambda = selector ?? (_post.Count == 1 && _post[0].Kind == PostOperationKind.Select ? _post[0].Lambda : null);
        if (terminal is not (QueryTerminal.Min or QueryTerminal.Max) || lambda is null || (selector is not null && _post.Count > 0)
            || _limits.Count > 0 || _sort.Count > 0 || !BsonClrConverter.CanRead(lambda.Body.Type) || HasComputedMember(lambda.Body)
            || !TryPath(lambda.Body, lambda.Parameters[0], out var path, throwIfNotStored: false) || path.IsSelf)
        {
            return;
        }

        _filters.Add(QueryFilter.Ne(path, FilterOperand.FromConstant(BsonValue.Null)));
        _sort.Add(new SortKey(path, terminal == QueryTerminal.Max));
        AddConstantTake(1);
    }

    /// <summary>Every sort key flipped, and ties (kept in primary-key order by the engine) broken by the primary key descending.</summary>
    private void ReverseOrder()
    {
        var primaryKey = IndexDescriptor.PrimaryKey.Fields[0];
        var reversed = _sort.ConvertAll(key => new SortKey(key.Path, !key.Descending));
        if (!reversed.Exists(key => key.Path.Equals(primaryKey)))
        {
            reversed.Add(new SortKey(primaryKey, descending: true));
        }

        _sort.Clear();
        _sort.AddRange(reversed);
    }

    /// <summary>ElementAt(n) is Skip(n) then the first row; the index's slot is kept to refuse a negative one as LINQ does.</summary>
    private QueryTerminal ElementAt(MethodCallExpression call)
    {
        if (call.Arguments.Count != 2 || call.Arguments[1] is not QueryParameterExpression index || index.Type != typeof(int))
        {
            throw Unsupported(call, $"only {call.Method.Name}(int) is supported");
        }

        _elementIndexSlot = index.Index;
        AddLimit(isSkip: true, index.Index);
        if (_stage != Stage.Grouped)
        {
            AddConstantTake(1);
        }

        return call.Method.Name == nameof(Queryable.ElementAt) ? QueryTerminal.ElementAt : QueryTerminal.ElementAtOrDefault;
    }

    private void AddConstantTake(long count) => _limits.Add(new LimitStep(false, -1, count));
}
