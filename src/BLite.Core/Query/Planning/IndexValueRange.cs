using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>One side of an <see cref="IndexValueRange"/>.</summary>
internal readonly record struct RangeBound(BsonValue Value, bool Inclusive);

/// <summary>
/// A concrete key range for one execution: index keys whose first <see cref="Prefix"/>.Count
/// components equal <see cref="Prefix"/> and whose next component lies between
/// <see cref="Lower"/> and <see cref="Upper"/> (a null side is open). Values compare by value
/// (5, 5L and 5.0 are equal), so a numeric bound covers the integer, double and decimal key
/// classes alike. An open side never leaves the type class of the other side: a range with only a
/// numeric lower bound reaches the largest number, not the strings that sort after it — query
/// comparisons never match across types. With both sides open the range is every key with the
/// prefix.
/// </summary>
internal sealed class IndexValueRange
{
    public IndexValueRange(IReadOnlyList<BsonValue> prefix, RangeBound? lower = null, RangeBound? upper = null)
        : this(lower, upper, CopyOf(prefix))
    {
    }

    private IndexValueRange(RangeBound? lower, RangeBound? upper, BsonValue[] prefix)
    {
        Prefix = prefix;
        Lower = lower;
        Upper = upper;
    }

    /// <summary>A range over a prefix array made for it and never changed afterwards, kept without a copy.</summary>
    internal static IndexValueRange Owning(BsonValue[] prefix, RangeBound? lower, RangeBound? upper) => new(lower, upper, prefix);

    private static BsonValue[] CopyOf(IReadOnlyList<BsonValue> prefix)
    {
        ArgumentNullException.ThrowIfNull(prefix);
        return prefix.ToArray();
    }

    public IReadOnlyList<BsonValue> Prefix { get; }

    public RangeBound? Lower { get; }

    public RangeBound? Upper { get; }

    /// <summary>Whether the range pins every component it constrains to one value.</summary>
    public bool IsPoint => Lower is null && Upper is null;

    public override string ToString()
    {
        var parts = Prefix.Select(FilterText.Value).ToList();
        if (Lower is not null || Upper is not null)
        {
            var lower = Lower is { } l ? (l.Inclusive ? "[" : "(") + FilterText.Value(l.Value) : "(-inf";
            var upper = Upper is { } u ? FilterText.Value(u.Value) + (u.Inclusive ? "]" : ")") : "+inf)";
            parts.Add(lower + ", " + upper);
        }

        return "(" + string.Join(", ", parts) + ")";
    }
}
