using BLite.Core.Query;

namespace BLite.Linq;

/// <summary>
/// A source that can list the distinct values of one stored path from an index on it, reading
/// index keys only: <c>Select(o => o.Status).Distinct()</c> over a whole collection.
/// </summary>
internal interface IDistinctValueSource
{
    /// <summary>
    /// The distinct values of <paramref name="value"/> in the order a primary-key scan first meets them, each as
    /// <paramref name="type"/>; null when no index answers exactly (none on that path alone, a
    /// multi-valued path, a type whose key does not give the stored value back, a key of another
    /// type): the caller then reads the values from the documents.
    /// </summary>
    IReadOnlyList<object?>? DistinctValues(ValueExpression value, Type type);

    /// <summary>The index <see cref="DistinctValues"/> would walk for <paramref name="value"/> read as <paramref name="type"/>, or null.</summary>
    string? DistinctIndex(ValueExpression value, Type type);
}
