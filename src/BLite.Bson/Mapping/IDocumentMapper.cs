using System.Diagnostics.CodeAnalysis;

namespace BLite.Bson.Mapping;

/// <summary>
/// Converts one document type to C-BSON and back. The source generator emits an implementation
/// per document type; an instance is bound to one database's <see cref="BsonFieldDictionary"/>
/// (field names are resolved to ids once, in the constructor) and is thread-safe.
/// </summary>
/// <typeparam name="TId">The id type: ObjectId, Guid, int, long or string.</typeparam>
/// <typeparam name="T">The document type.</typeparam>
public interface IDocumentMapper<TId, T>
    where T : class
{
    /// <summary>The collection name: the <see cref="BLiteDocumentAttribute"/> name or the type name.</summary>
    string CollectionName { get; }

    /// <summary>Every mapped member path, with its field ids resolved for this database.</summary>
    IReadOnlyList<MappedField> Fields { get; }

    /// <summary>Writes the whole document (length, elements, terminator).</summary>
    void Serialize(T document, ref BsonSpanWriter writer);

    /// <summary>Reads one whole document; the reader is positioned at its length prefix.</summary>
    T Deserialize(ref BsonSpanReader reader);

    TId GetId(T document);

    void SetId(T document, TId id);

    /// <summary>
    /// Finds a mapped path by C# member names joined with '.', e.g. <c>Customer.BillingAddress.City</c>.
    /// </summary>
    bool TryGetField(string memberPath, [NotNullWhen(true)] out MappedField? field);

    /// <summary>
    /// Reads one field out of raw document bytes without materializing the document; false when the
    /// path is unknown, multi-valued, or absent from this document.
    /// </summary>
    bool TryReadField(ReadOnlySpan<byte> document, string memberPath, out BsonValue value);
}
