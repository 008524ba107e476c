using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Linq;

/// <summary>
/// A query source that totals one value of each matching document itself (a server, in SQL), so a
/// terminal <c>Sum</c> or <c>Average</c> reads one row instead of every value. The LINQ layer
/// turns the totals into LINQ's result, with LINQ's rules; when the totals show values LINQ would
/// not accept (a null for a non-nullable type, a value that is not a number of the right kind) it
/// streams the values instead, so the error is the one the embedded engine raises. The embedded
/// engine does not implement it: its scan already reads only the stored field. Internal: the
/// server providers of this repository implement it.
/// </summary>
internal interface IAggregatingQuerySource
{
    /// <summary>The totals of <paramref name="value"/> over the documents <c>Execute</c> would return, in their order; null when this source cannot total it.</summary>
    AggregateTotals? Aggregate(DocumentQuery query, IReadOnlyList<BsonValue> parameters, ValueExpression value, NumericKind kind);

    ValueTask<AggregateTotals?> AggregateAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, ValueExpression value, NumericKind kind,
        CancellationToken cancellationToken);
}

/// <summary>
/// What a source totalled: <paramref name="Rows"/> matching documents, <paramref name="Values"/> of
/// them with a non-null value, <paramref name="Numbers"/> of those a number of the requested kind
/// (integral for <see cref="NumericKind.Int32"/> and <see cref="NumericKind.Int64"/>), and their sum:
/// exact for the integer and decimal kinds (<see cref="OverflowException"/> when it leaves
/// <see cref="decimal"/>'s range), added in query order as doubles for <see cref="NumericKind.Double"/>.
/// </summary>
internal readonly record struct AggregateTotals(long Rows, long Values, long Numbers, decimal ExactSum, double DoubleSum);
