using BLite.Bson;

namespace BLite.Core.Documents;

/// <summary>
/// One value found at a field path: its type and where its bytes lie inside the document being
/// indexed, so extraction copies nothing until the key is encoded.
/// </summary>
internal readonly record struct FieldValueRef(BsonType Type, int Offset, int Length)
{
    /// <summary>What a missing field (or an empty array) indexes as.</summary>
    public static FieldValueRef Null => new(BsonType.Null, 0, 0);

    public ReadOnlySpan<byte> Bytes(ReadOnlySpan<byte> document) => document.Slice(Offset, Length);
}
