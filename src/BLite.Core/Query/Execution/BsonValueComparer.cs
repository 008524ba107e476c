using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>
/// The total order BLite sorts by: MongoDB's cross-type order (null, numbers, strings,
/// documents, arrays, binary, ObjectId, booleans, instants, TimeSpan, DateOnly, TimeOnly), numbers
/// by value whatever their width, strings ordinally. Query comparisons only ever compare values of
/// the same <em>type class</em> (<see cref="SameTypeClass"/>); the cross-type order exists so
/// sorting mixed data is deterministic.
/// </summary>
internal sealed class BsonValueComparer : IComparer<BsonValue>
{
    public static BsonValueComparer Instance { get; } = new();

    public int Compare(BsonValue x, BsonValue y) => x.CompareTo(y);

    /// <summary>Whether two values can satisfy a comparison with each other (both numbers, both strings, both instants...).</summary>
    public static bool SameTypeClass(BsonValue x, BsonValue y) => TypeClass(x.Type) == TypeClass(y.Type);

    /// <summary>The comparison class of a BSON type; its number is also its cross-type sort rank.</summary>
    public static int TypeClass(BsonType type) => BsonValue.TypeClassOf(type);
}
