namespace BLite.Core.Query;

/// <summary>All of the filters (an empty list matches every document).</summary>
public sealed class AndFilter : QueryFilter
{
    internal static readonly AndFilter Empty = new([]);

    public AndFilter(IEnumerable<QueryFilter> filters) => Filters = CopyOperands(filters);

    public IReadOnlyList<QueryFilter> Filters { get; }

    internal static QueryFilter[] CopyOperands(IEnumerable<QueryFilter> filters)
    {
        ArgumentNullException.ThrowIfNull(filters);
        var copy = filters.ToArray();
        foreach (var filter in copy)
        {
            ArgumentNullException.ThrowIfNull(filter, nameof(filters));
        }

        return copy;
    }
}

/// <summary>Any of the filters (an empty list matches nothing).</summary>
public sealed class OrFilter : QueryFilter
{
    public OrFilter(IEnumerable<QueryFilter> filters) => Filters = AndFilter.CopyOperands(filters);

    public IReadOnlyList<QueryFilter> Filters { get; }
}

/// <summary>The exact negation: matches every document the inner filter rejects, including those missing the field.</summary>
public sealed class NotFilter : QueryFilter
{
    public NotFilter(QueryFilter filter)
    {
        ArgumentNullException.ThrowIfNull(filter);
        Filter = filter;
    }

    public QueryFilter Filter { get; }
}
