using BLite.Bson;

namespace BLite.Linq;

/// <summary>
/// Stores query values of types the LINQ layer does not know itself — a custom id type mapped by
/// the collection's id converter — the way the collection stores them. The field-path resolver of
/// a source implements it when the model has such a type.
/// </summary>
internal interface IQueryValueConverter
{
    /// <summary>Whether <paramref name="type"/> is stored through this converter (its operators compare stored keys).</summary>
    bool Converts(Type type);

    /// <summary>The stored form of <paramref name="value"/>; false when its type is not converted here.</summary>
    bool TryToStored(object value, out BsonValue stored);
}
