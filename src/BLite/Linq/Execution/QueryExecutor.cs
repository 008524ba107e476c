using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq.Translation;

namespace BLite.Linq.Execution;

/// <summary>Runs a translated query: the engine part through the source, then the in-memory operations and the terminal.</summary>
internal static class QueryExecutor
{
    public static bool IsCountOnly(TranslatedQuery translated) =>
        translated.Vector is null && translated.Terminal is QueryTerminal.Count or QueryTerminal.LongCount or QueryTerminal.Any or QueryTerminal.All
        && !NeedsAllRows(translated);

    /// <summary>Grouping and Distinct see every row before yielding one; the engine cannot count for them.</summary>
    public static bool NeedsAllRows(TranslatedQuery translated) =>
        translated.PostOperations.Any(p => p.Kind is PostOperationKind.GroupBy or PostOperationKind.Distinct or PostOperationKind.SelectMany);

    public static object FromCount(TranslatedQuery translated, long count) => translated.Terminal switch
    {
        QueryTerminal.Count => checked((int)count),
        QueryTerminal.LongCount => count,
        QueryTerminal.Any => count > 0,
        _ => count == 0,
    };

    /// <summary>True when the query runs over rows of stored fields read from raw bytes instead of documents (never for NearestTo, whose rows come from the vector search).</summary>
    public static bool UsesProjection<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated) =>
        translated.Projection is not null && translated.Vector is null && source is IProjectingQuerySource;

    /// <summary>Rows of a pushed-down projection: each stored value converted to the member type it stands for.</summary>
    public static IEnumerable<object?> ProjectedRows(IEnumerable<BsonValue[]> rows, ProjectionPlan projection)
    {
        foreach (var values in rows)
        {
            var row = new object?[values.Length];
            for (var i = 0; i < row.Length; i++)
            {
                row[i] = BsonClrConverter.ToClr(values[i], projection.Types[i], projection.Names[i]);
            }

            yield return row;
        }
    }

    /// <param name="sourceRows">
    /// Rows already fetched (async paths): documents, or projected rows when
    /// <see cref="UsesProjection"/>; null to fetch them from the source now.
    /// </param>
    public static object? Run<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated, object?[] values, BsonValue[] parameters, IEnumerable<object?>? sourceRows)
    {
        if (sourceRows is null && IsCountOnly(translated))
        {
            return FromCount(translated, source.Count(translated.Query, parameters));
        }

        if (sourceRows is null && SourceAggregate.For(source, translated) is { } aggregate
            && ((IAggregatingQuerySource)source).Aggregate(translated.Query, parameters, aggregate.Value, aggregate.Kind) is { } totals
            && aggregate.TryResult(totals, out var total))
        {
            return total;
        }

        if (sourceRows is null && SourceGrouping.TryExtreme(source, translated, parameters, out var extreme))
        {
            return extreme;
        }

        var rows = Rows(source, translated, values, parameters, sourceRows);
        switch (translated.Terminal)
        {
            case QueryTerminal.Sequence:
                return rows.ToList();
            case QueryTerminal.First:
                return rows.First();
            case QueryTerminal.FirstOrDefault:
                return rows.FirstOrDefault();
            case QueryTerminal.Single:
                return rows.Single();
            case QueryTerminal.SingleOrDefault:
                return rows.SingleOrDefault();
            case QueryTerminal.Any:
                return rows.Any();
            case QueryTerminal.All:
                return !rows.Any();
            case QueryTerminal.Count:
                return rows.Count();
            case QueryTerminal.LongCount:
                return rows.LongCount();
            case QueryTerminal.Last:
                return rows.Last();
            case QueryTerminal.LastOrDefault:
                return rows.LastOrDefault();
            case QueryTerminal.ElementAt or QueryTerminal.ElementAtOrDefault:
                return ElementAt(rows, translated, values);
        }

        var terminalSelector = UsesProjection(source, translated) && translated.PostOperations.Count == 0
            ? translated.Projection!.TerminalSelector
            : translated.TerminalSelector;
        var selected = terminalSelector is { } selector
            ? rows.Select(row => ExpressionInterpreter.Invoke(selector, row, values))
            : rows;
        var kind = translated.Terminal switch
        {
            QueryTerminal.Min => AggregateKind.Min,
            QueryTerminal.Max => AggregateKind.Max,
            QueryTerminal.Sum => AggregateKind.Sum,
            _ => AggregateKind.Average,
        };
        return AggregateEvaluator.Aggregate(kind, selected, translated.AggregateValueType);
    }

    /// <summary>The rows were skipped to the index already: the first one is the element.</summary>
    private static object? ElementAt(IEnumerable<object?> rows, TranslatedQuery translated, object?[] values)
    {
        var index = (int)values[translated.ElementIndexSlot]!;
        using var enumerator = rows.GetEnumerator();
        if (index >= 0 && enumerator.MoveNext())
        {
            return enumerator.Current;
        }

        return translated.Terminal == QueryTerminal.ElementAtOrDefault
            ? null
            : throw new ArgumentOutOfRangeException(nameof(index), index, "Index was out of range. Must be non-negative and less than the size of the collection.");
    }

    /// <summary>True when an Include runs over the rows: they must then come from the snapshot it reads (<see cref="QuerySnapshot"/>).</summary>
    public static bool HasInclude(TranslatedQuery translated) =>
        translated.PostOperations.Any(p => p.Kind == PostOperationKind.Include)
        || translated.Projection?.PostOperations.Any(p => p.Kind == PostOperationKind.Include) == true;

    /// <summary>
    /// The source's documents as they are, when nothing runs on them after the engine (no
    /// projection, in-memory step or vector stage): the caller enumerates them without a row layer.
    /// Null otherwise; run <see cref="Rows{TRoot}(IDocumentQuerySource{TRoot}, TranslatedQuery, object?[], BsonValue[], IEnumerable{object?}?)"/> then.
    /// </summary>
    public static IEnumerable<TRoot>? DocumentsOnly<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated, BsonValue[] parameters) =>
        translated.Vector is null && translated.Projection is null && translated.PostOperations.Count == 0
            ? source.Execute(translated.Query, parameters)
            : null;

    /// <summary>
    /// The values of a query that ends by selecting one stored member as is (<c>Select(a =&gt; a.Id)</c>),
    /// read by the source straight into <typeparamref name="TElement"/>: no row, boxing or selector
    /// per document. Null for any other query, or when the source has no typed reader for the member;
    /// run <see cref="Rows{TRoot}(IDocumentQuerySource{TRoot}, TranslatedQuery, object?[], BsonValue[], IEnumerable{object?}?)"/> then.
    /// </summary>
    public static IEnumerable<TElement>? StoredValues<TRoot, TElement>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated, BsonValue[] parameters) =>
        translated.Vector is null && source is IRowProjectingSource typed
        && translated.Projection is { Values.Count: 1, PostOperations: [{ Kind: PostOperationKind.Select, Lambda.Body: ProjectedFieldExpression { Slot: 0 } field }] } projection
        && field.Type == typeof(TElement) && !HasInclude(translated)
            ? typed.ExecuteValues<TElement>(translated.Query, parameters, projection)
            : null;

    public static IEnumerable<object?> Rows<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated, object?[] values, BsonValue[] parameters, IEnumerable<object?>? sourceRows)
    {
        if (sourceRows is null && HasInclude(translated) && source is IReferenceResolvingSource resolving)
        {
            return RowsInSnapshot(source, resolving, translated, values, parameters);
        }

        return Rows(source, translated, values, parameters, sourceRows, snapshot: null);
    }

    /// <summary>One snapshot, opened when enumeration starts and held until it ends, for the query's documents and the ones they reference.</summary>
    private static IEnumerable<object?> RowsInSnapshot<TRoot>(IDocumentQuerySource<TRoot> source, IReferenceResolvingSource resolving, TranslatedQuery translated, object?[] values, BsonValue[] parameters)
    {
        using var snapshot = QuerySnapshot.Open(resolving.Context);
        foreach (var row in Rows(source, translated, values, parameters, sourceRows: null, snapshot))
        {
            yield return row;
        }
    }

    private static IEnumerable<object?> Rows<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated, object?[] values, BsonValue[] parameters, IEnumerable<object?>? sourceRows, QuerySnapshot? snapshot)
    {
        IEnumerable<object?> rows;
        IReadOnlyList<PostOperation> operations;
        var projected = UsesProjection(source, translated);
        if (translated.Vector is { } vector)
        {
            rows = Nearest(source, translated, vector, values, parameters);
            operations = translated.PostOperations;
        }
        else if (projected && sourceRows is null && snapshot is null && DistinctThroughIndex(source, translated) is { } distinct)
        {
            rows = distinct;
            operations = translated.Projection!.PostOperations.Skip(2).ToList();
        }
        else if (projected && (sourceRows as GroupedRows ?? (sourceRows is null && snapshot is null ? SourceGrouping.TryRows(source, translated, values, parameters) : null)) is { } grouped)
        {
            rows = grouped;
            operations = translated.Projection!.PostOperations.Skip(2).ToList();
        }
        else if (projected)
        {
            var projection = translated.Projection!;
            rows = sourceRows
                ?? (snapshot is null && source is IRowProjectingSource typed ? typed.ExecuteRows(translated.Query, parameters, projection) : null)
                ?? ProjectedRows(snapshot is not null
                    ? ((IReferenceResolvingSource)source).ExecuteFieldsIn(snapshot, translated.Query, parameters, projection.Values)
                    : ((IProjectingQuerySource)source).ExecuteFields(translated.Query, parameters, projection.Values), projection);
            operations = projection.PostOperations;
        }
        else
        {
            rows = sourceRows ?? (snapshot is not null
                ? ((IReferenceResolvingSource)source).ExecuteIn(snapshot, translated.Query, parameters)
                : source.Execute(translated.Query, parameters).Select(d => (object?)d));
            operations = translated.PostOperations;
        }

        foreach (var operation in operations)
        {
            rows = operation.Kind switch
            {
                PostOperationKind.Select when projected && RowConstructor.Of(operation.Lambda!, translated.Projection!.Types) is { } constructor =>
                    rows.Select(row => (object?)constructor.Invoke((object?[])row!)),
                PostOperationKind.Select => Project(rows, operation.Lambda!, values),
                PostOperationKind.GroupBy when projected => Group<object?[]>(rows, operation.Lambda!, values),
                PostOperationKind.GroupBy => Group<TRoot>(rows, operation.Lambda!, values),
                PostOperationKind.Distinct => rows.Distinct(),
                PostOperationKind.SelectMany => Flatten(rows, operation.Lambda!, operation.ResultSelector, values),
                PostOperationKind.Include => ReferenceIncluder.Include(rows, operation.Lambda!, values, operation.Missing,
                    snapshot ?? throw new NotSupportedException("Include needs a collection of a DocumentDbContext as the query source, queried directly.")),
                PostOperationKind.Skip => rows.Skip(checked((int)operation.Limit!.Resolve(values))),
                _ => rows.Take(checked((int)operation.Limit!.Resolve(values))),
            };
        }

        return rows;
    }

    /// <summary>
    /// <c>Select(o => o.Path).Distinct()</c> over the whole collection (no filter, order or page
    /// before it): the distinct values read from an index on the path, or null when the source
    /// has none that answers exactly (the values are then read from the documents).
    /// </summary>
    private static IEnumerable<object?>? DistinctThroughIndex<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated) =>
        DistinctWalk(source, translated) is var (values, type) ? ((IDistinctValueSource)source).DistinctValues(values, type) : null;

    /// <summary>The index <see cref="DistinctThroughIndex"/> would walk, for Explain.</summary>
    public static string? DistinctIndex<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated) =>
        UsesProjection(source, translated) && DistinctWalk(source, translated) is var (values, type) ? ((IDistinctValueSource)source).DistinctIndex(values, type) : null;

    private static (ValueExpression Value, Type Type)? DistinctWalk<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated)
    {
        var query = translated.Query;
        var projection = translated.Projection!;
        if (source is not IDistinctValueSource || query.Filter is not null || query.Sort.Count != 0 || query.Skip is not null || query.Take is not null
            || projection.Values.Count != 1 || projection.PostOperations.Count < 2
            || projection.PostOperations[0] is not { Kind: PostOperationKind.Select, Lambda.Body: ProjectedFieldExpression { Slot: 0 } field }
            || field.Type != projection.Types[0] || projection.PostOperations[1].Kind != PostOperationKind.Distinct)
        {
            return null;
        }

        return (projection.Values[0], projection.Types[0]);
    }

    /// <summary>The k nearest (Skip and Take applied to them, in distance order), as documents or as matches.</summary>
    private static IEnumerable<object?> Nearest<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated, VectorStage vector, object?[] values, BsonValue[] parameters)
    {
        if (source is not IVectorQuerySource<TRoot> vectors)
        {
            throw new NotSupportedException("This query source does not support NearestTo.");
        }

        var matches = vectors.Nearest(vector.Resolve(values), translated.Query.Filter, parameters);
        var (skip, take) = translated.ResolveLimits(values);
        var page = matches.Skip((int)Math.Min(skip, int.MaxValue)).Take((int)Math.Min(take, int.MaxValue));
        return translated.WithDistance ? page.Select(m => (object?)m) : page.Select(m => (object?)m.Document);
    }

    private static IEnumerable<object?> Flatten(IEnumerable<object?> rows, System.Linq.Expressions.LambdaExpression lambda,
        System.Linq.Expressions.LambdaExpression? resultSelector, object?[] values)
    {
        foreach (var row in rows)
        {
            var items = ExpressionInterpreter.Invoke(lambda, row, values) as System.Collections.IEnumerable
                ?? throw new InvalidOperationException($"SelectMany's selector '{lambda}' returned null.");
            foreach (var item in items)
            {
                yield return resultSelector is null ? item : ExpressionInterpreter.Invoke(resultSelector, row, item, values);
            }
        }
    }

    private static IEnumerable<object?> Project(IEnumerable<object?> rows, System.Linq.Expressions.LambdaExpression lambda, object?[] values)
    {
        foreach (var row in rows)
        {
            yield return ExpressionInterpreter.Invoke(lambda, row, values);
        }
    }

    /// <summary>Groups in order of first appearance, elements in input order, null keys allowed — LINQ's GroupBy contract.</summary>
    private static IEnumerable<object?> Group<TRoot>(IEnumerable<object?> rows, System.Linq.Expressions.LambdaExpression keySelector, object?[] values)
    {
        var groups = new Dictionary<GroupKey, Grouping<TRoot>>();
        var ordered = new List<Grouping<TRoot>>();
        foreach (var row in rows)
        {
            var key = ExpressionInterpreter.Invoke(keySelector, row, values);
            if (!groups.TryGetValue(new GroupKey(key), out var group))
            {
                group = new Grouping<TRoot>(key);
                groups.Add(new GroupKey(key), group);
                ordered.Add(group);
            }

            group.Add((TRoot)row!);
        }

        return ordered;
    }

    private readonly record struct GroupKey(object? Value);
}
