using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq.Execution;

namespace BLite.Linq;

/// <summary>
/// A query source that groups the matching documents itself (a server, with one <c>GROUP BY</c>),
/// so <c>GroupBy(key).Select(g => ... g.Count() ... g.Sum(x => x.Total) ...)</c> reads one row per
/// group instead of one per document. The LINQ layer turns each group's totals into LINQ's results
/// with LINQ's rules (<see cref="SourceGrouping"/>); when a group shows values LINQ would not accept
/// (a key or value of another type, a null for a non-nullable type, a sum whose partial totals may
/// overflow) it reads the values and groups them itself instead, so the result or error is the
/// embedded engine's. Internal: the server providers of this repository implement it.
/// </summary>
internal interface IGroupingQuerySource
{
    /// <summary>One row per group of the documents <c>Execute</c> would return, in order of each group's first document; null when this source cannot group by this key or total these values.</summary>
    IReadOnlyList<GroupTotals>? Group(DocumentQuery query, IReadOnlyList<BsonValue> parameters, GroupQuery group);

    ValueTask<IReadOnlyList<GroupTotals>?> GroupAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, GroupQuery group, CancellationToken cancellationToken);
}

/// <summary>Group by <paramref name="Key"/> (read as <paramref name="KeyType"/>, whose equality decides the groups) and total <paramref name="Aggregates"/> per group.</summary>
internal sealed record GroupQuery(ValueExpression Key, Type KeyType, IReadOnlyList<GroupAggregate> Aggregates);

/// <summary>
/// One aggregate of each group: <c>Count</c> / <c>LongCount</c> (no value), or <c>Sum</c> /
/// <c>Average</c> of a number of <paramref name="Numeric"/> kind, or <c>Min</c> / <c>Max</c> of a
/// value read as <paramref name="ValueType"/>.
/// </summary>
internal sealed record GroupAggregate(GroupAggregateKind Kind, ValueExpression? Value, Type ValueType, NumericKind Numeric);

internal enum GroupAggregateKind
{
    Count,
    LongCount,
    Sum,
    Average,
    Min,
    Max,
}

/// <summary>
/// One group: the key of its first document (<see cref="BsonValue.Null"/> for null or missing),
/// whether every non-null key of the group is of the key type's class, its document count, and one
/// <see cref="GroupValueTotals"/> per aggregate (in <see cref="GroupQuery.Aggregates"/> order).
/// </summary>
internal sealed record GroupTotals(BsonValue Key, bool KeyOfType, long Rows, GroupValueTotals[] Values);

/// <summary>
/// The totals of one aggregate's value over a group: <paramref name="Present"/> non-null values,
/// <paramref name="Matching"/> of them of the expected class (integral numbers for the integer
/// kinds), their exact sum and the sums of the positive and of the negative ones (each null when
/// it leaves <see cref="decimal"/>'s range), the doubles added in query order (when
/// <paramref name="DoublesAdded"/>: none could reach an infinity), and for Min / Max the first
/// least or greatest value.
/// </summary>
internal readonly record struct GroupValueTotals(long Present, long Matching, decimal? Sum, decimal? PositiveSum, decimal? NegativeSum, double DoubleSum,
    bool DoublesAdded, BsonValue Extreme);
