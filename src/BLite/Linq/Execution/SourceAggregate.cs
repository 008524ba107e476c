using BLite.Core.Query;
using BLite.Linq.Translation;

namespace BLite.Linq.Execution;

/// <summary>
/// A terminal Sum or Average over one stored or computed value, totalled by an
/// <see cref="IAggregatingQuerySource"/> and turned into exactly what LINQ to Objects returns for
/// the value type: checked integer sums, integer averages as double, float accumulated as double,
/// decimal averages divided in decimal, "Sequence contains no elements" for an empty
/// non-nullable Average, null for an empty nullable one.
/// </summary>
internal readonly record struct SourceAggregate(ValueExpression Value, NumericKind Kind, Type ValueType, bool Nullable, bool IsSum)
{
    /// <summary>The aggregate the source can total, when the query ends in Sum or Average over exactly one pushed-down value.</summary>
    public static SourceAggregate? For<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated) =>
        source is IAggregatingQuerySource && translated.Terminal is QueryTerminal.Sum or QueryTerminal.Average && SingleValue(translated) is { } value
            ? Of(value, translated.AggregateValueType, translated.Terminal == QueryTerminal.Sum)
            : null;

    /// <summary>The one pushed-down value a terminal aggregate reads as it is (a selector or a single Select before it), or null.</summary>
    public static ValueExpression? SingleValue(TranslatedQuery translated)
    {
        if (translated.Vector is not null || translated.Projection is not { Values.Count: 1 } projection || projection.Types[0] != translated.AggregateValueType)
        {
            return null;
        }

        var readsTheValue = (projection.PostOperations, projection.TerminalSelector) switch
        {
            ([], { Body: ProjectedFieldExpression { Slot: 0 } }) => true,
            ([{ Kind: PostOperationKind.Select, Lambda.Body: ProjectedFieldExpression { Slot: 0 } }], null) => translated.TerminalSelector is null,
            _ => false,
        };
        return readsTheValue ? projection.Values[0] : null;
    }

    /// <summary>The Sum or Average of <paramref name="value"/> read as <paramref name="type"/>, or null when that is not a number type a source totals.</summary>
    public static SourceAggregate? Of(ValueExpression value, Type type, bool isSum)
    {
        var underlying = System.Nullable.GetUnderlyingType(type) ?? type;
        NumericKind? kind = underlying switch
        {
            _ when underlying == typeof(int) => NumericKind.Int32,
            _ when underlying == typeof(long) => NumericKind.Int64,
            _ when underlying == typeof(double) || underlying == typeof(float) => NumericKind.Double,
            _ when underlying == typeof(decimal) => NumericKind.Decimal,
            _ => null,
        };
        return kind is { } numeric ? new SourceAggregate(value, numeric, underlying, underlying != type, isSum) : null;
    }

    /// <summary>LINQ's result from the totals, or false when they hold values LINQ would refuse (the caller streams them to raise its error).</summary>
    public bool TryResult(AggregateTotals totals, out object? result)
    {
        result = null;
        if (totals.Numbers != totals.Values || (!Nullable && totals.Values != totals.Rows))
        {
            return false;
        }

        if (!IsSum && totals.Numbers == 0)
        {
            return Nullable ? true : throw new InvalidOperationException("Sequence contains no elements");
        }

        result = IsSum ? Sum(totals) : Average(totals);
        return true;
    }

    private object Sum(AggregateTotals totals) => ValueType switch
    {
        _ when ValueType == typeof(int) => totals.ExactSum is >= int.MinValue and <= int.MaxValue ? (int)totals.ExactSum : throw new OverflowException(),
        _ when ValueType == typeof(long) => Int64(totals.ExactSum),
        _ when ValueType == typeof(float) => (float)totals.DoubleSum,
        _ when ValueType == typeof(double) => totals.DoubleSum,
        _ => totals.ExactSum,
    };

    private object Average(AggregateTotals totals) => ValueType switch
    {
        _ when ValueType == typeof(int) || ValueType == typeof(long) => (double)Int64(totals.ExactSum) / totals.Numbers,
        _ when ValueType == typeof(float) => (float)(totals.DoubleSum / totals.Numbers),
        _ when ValueType == typeof(double) => totals.DoubleSum / totals.Numbers,
        _ => totals.ExactSum / totals.Numbers,
    };

    /// <summary>LINQ sums integers checked, in a long for Average: a total outside long's range overflows with its words.</summary>
    private static long Int64(decimal sum) => sum is >= long.MinValue and <= long.MaxValue ? (long)sum : throw new OverflowException();
}
