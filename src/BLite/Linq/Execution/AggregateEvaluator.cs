namespace BLite.Linq.Execution;

public enum AggregateKind
{
    Sum,
    Average,
    Min,
    Max,
}

/// <summary>
/// Sum / Average / Min / Max over already computed values with the exact LINQ to Objects
/// semantics for the value type: checked integer sums, double averages of integers, nulls
/// skipped for nullable types, "Sequence contains no elements" for empty non-nullable Min, Max
/// and Average. Strings compare ordinally, as everywhere in BLite.
/// </summary>
internal static class AggregateEvaluator
{
    public static object? Aggregate(AggregateKind kind, IEnumerable<object?> values, Type valueType) => kind switch
    {
        AggregateKind.Sum => Sum(values, valueType),
        AggregateKind.Average => Average(values, valueType),
        _ => MinMax(kind == AggregateKind.Min, values, valueType),
    };

    private static object? Sum(IEnumerable<object?> values, Type type) => type switch
    {
        _ when type == typeof(int) => values.Sum(v => (int)v!),
        _ when type == typeof(long) => values.Sum(v => (long)v!),
        _ when type == typeof(float) => values.Sum(v => (float)v!),
        _ when type == typeof(double) => values.Sum(v => (double)v!),
        _ when type == typeof(decimal) => values.Sum(v => (decimal)v!),
        _ when type == typeof(int?) => values.Sum(v => (int?)v),
        _ when type == typeof(long?) => values.Sum(v => (long?)v),
        _ when type == typeof(float?) => values.Sum(v => (float?)v),
        _ when type == typeof(double?) => values.Sum(v => (double?)v),
        _ when type == typeof(decimal?) => values.Sum(v => (decimal?)v),
        _ => throw new NotSupportedException($"Sum over values of type {type.Name} is not supported."),
    };

    private static object? Average(IEnumerable<object?> values, Type type) => type switch
    {
        _ when type == typeof(int) => values.Average(v => (int)v!),
        _ when type == typeof(long) => values.Average(v => (long)v!),
        _ when type == typeof(float) => values.Average(v => (float)v!),
        _ when type == typeof(double) => values.Average(v => (double)v!),
        _ when type == typeof(decimal) => values.Average(v => (decimal)v!),
        _ when type == typeof(int?) => values.Average(v => (int?)v),
        _ when type == typeof(long?) => values.Average(v => (long?)v),
        _ when type == typeof(float?) => values.Average(v => (float?)v),
        _ when type == typeof(double?) => values.Average(v => (double?)v),
        _ when type == typeof(decimal?) => values.Average(v => (decimal?)v),
        _ => throw new NotSupportedException($"Average over values of type {type.Name} is not supported."),
    };

    /// <summary>
    /// Min/Max keep LINQ's rules: for a reference or nullable type nulls are skipped and an empty
    /// input gives null; for a non-nullable value type an empty input throws. Double's NaN is
    /// the smallest value, as in LINQ.
    /// </summary>
    private static object? MinMax(bool min, IEnumerable<object?> values, Type type)
    {
        var nullable = !type.IsValueType || Nullable.GetUnderlyingType(type) is not null;
        object? best = null;
        var any = false;
        foreach (var value in values)
        {
            if (value is null)
            {
                if (!nullable)
                {
                    throw new InvalidOperationException("Nullable object must have a value.");
                }

                continue;
            }

            if (!any)
            {
                best = value;
                any = true;
                continue;
            }

            var order = Compare(value, best!);
            if (min ? order < 0 : order > 0)
            {
                best = value;
            }
        }

        if (!any && !nullable)
        {
            throw new InvalidOperationException("Sequence contains no elements");
        }

        return best;
    }

    internal static int Compare(object left, object right) => (left, right) switch
    {
        (string a, string b) => string.CompareOrdinal(a, b),
        (IComparable a, _) => a.CompareTo(right),
        _ => throw new InvalidOperationException($"Values of type {left.GetType().Name} cannot be ordered."),
    };
}
