namespace BLite.Core.Query;

/// <summary>
/// The engine-level shape of a query: filter, order, skip and take. Constants inside may be
/// parameter slots, so one instance stands for every execution of the same query shape and can
/// be planned once (the LINQ layer caches and reuses instances; a source may cache its plan per
/// instance). Skip and take resolve to non-negative integers.
/// </summary>
public sealed class DocumentQuery
{
    public DocumentQuery(QueryFilter? filter = null, IReadOnlyList<SortKey>? sort = null, FilterOperand? skip = null, FilterOperand? take = null)
    {
        Filter = filter;
        Sort = sort?.ToArray() ?? [];
        Skip = skip;
        Take = take;
    }

    /// <summary>Null matches every document.</summary>
    public QueryFilter? Filter { get; }

    public IReadOnlyList<SortKey> Sort { get; }

    public FilterOperand? Skip { get; }

    public FilterOperand? Take { get; }

    /// <summary>The number of documents to skip in this execution (0 when absent).</summary>
    public long ResolveSkip(IReadOnlyList<BsonValue>? parameters) => ResolveLimit(Skip, parameters, 0, "Skip");

    /// <summary>The number of documents to return in this execution (<see cref="long.MaxValue"/> when absent).</summary>
    public long ResolveTake(IReadOnlyList<BsonValue>? parameters) => ResolveLimit(Take, parameters, long.MaxValue, "Take");

    public override string ToString()
    {
        var text = "filter: " + (Filter?.ToString() ?? "{}");
        if (Sort.Count > 0)
        {
            text += ", sort: " + string.Join(", ", Sort);
        }

        if (Skip is { } skip)
        {
            text += ", skip: " + skip;
        }

        if (Take is { } take)
        {
            text += ", take: " + take;
        }

        return text;
    }

    private static long ResolveLimit(FilterOperand? operand, IReadOnlyList<BsonValue>? parameters, long absent, string what)
    {
        if (operand is not { } limit)
        {
            return absent;
        }

        var value = limit.Resolve(parameters);
        if (!BsonNumbers.TryGetInt64(value, out var count) || count < 0)
        {
            throw new ArgumentException($"{what} must be a non-negative integer, not {FilterText.Value(value)}.");
        }

        return count;
    }
}
