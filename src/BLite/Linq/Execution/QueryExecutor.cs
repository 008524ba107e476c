using BLite.Bson;
using BLite.Linq.Translation;

namespace BLite.Linq.Execution;

/// <summary>Runs a translated query: the engine part through the source, then the in-memory operations and the terminal.</summary>
internal static class QueryExecutor
{
    public static bool IsCountOnly(TranslatedQuery translated) =>
        translated.Vector is null && translated.Terminal is QueryTerminal.Count or QueryTerminal.LongCount or QueryTerminal.Any or QueryTerminal.All
        && !translated.PostOperations.Any(p => p.Kind == PostOperationKind.GroupBy);

    public static object FromCount(TranslatedQuery translated, long count) => translated.Terminal switch
    {
        QueryTerminal.Count => checked((int)count),
        QueryTerminal.LongCount => count,
        QueryTerminal.Any => count > 0,
        _ => count == 0,
    };

    /// <param name="sourceRows">Documents already fetched (async paths); null to fetch them from the source now.</param>
    public static object? Run<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated, object?[] values, BsonValue[] parameters, IEnumerable<TRoot>? sourceRows)
    {
        if (sourceRows is null && IsCountOnly(translated))
        {
            return FromCount(translated, source.Count(translated.Query, parameters));
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
        }

        var selected = translated.TerminalSelector is { } selector
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

    public static IEnumerable<object?> Rows<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated, object?[] values, BsonValue[] parameters, IEnumerable<TRoot>? sourceRows)
    {
        IEnumerable<object?> rows;
        if (translated.Vector is { } vector)
        {
            rows = Nearest(source, translated, vector, values, parameters);
        }
        else
        {
            var documents = sourceRows ?? source.Execute(translated.Query, parameters);
            rows = documents.Select(d => (object?)d);
        }

        foreach (var operation in translated.PostOperations)
        {
            rows = operation.Kind switch
            {
                PostOperationKind.Select => Project(rows, operation.Lambda!, values),
                PostOperationKind.GroupBy => Group<TRoot>(rows, operation.Lambda!, values),
                PostOperationKind.Skip => rows.Skip(checked((int)operation.Limit!.Resolve(values))),
                _ => rows.Take(checked((int)operation.Limit!.Resolve(values))),
            };
        }

        return rows;
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
