using System.Buffers;
using BLite.Bson;
using BLite.Core.BTrees;
using BLite.Core.Documents;

namespace BLite.Core.Collections.Indexes;

/// <summary>
/// Turns C-BSON values (read straight from document bytes) into order-preserving key components.
/// Embedded documents and nested arrays have no key type of their own: they are encoded as
/// binary over their raw C-BSON bytes, which gives exact equality (the common use) and a
/// stable, if not meaningful, order.
/// </summary>
internal static class IndexKeyCodec
{
    /// <summary>
    /// Encodes one combination of field values. <paramref name="maxLength"/> is what the tree
    /// leaves for the field key once the primary key is appended; a longer key throws
    /// <see cref="BLiteKeyTooLargeException"/> before anything is written.
    /// </summary>
    public static byte[] EncodeComponents(ReadOnlySpan<byte> document, ReadOnlySpan<FieldValueRef> components, int maxLength)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(maxLength);
        try
        {
            var writer = new KeyWriter(buffer.AsSpan(0, maxLength));
            foreach (var component in components)
            {
                AppendValue(ref writer, component.Type, component.Bytes(document));
            }

            return writer.WrittenSpan.ToArray();
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>
    /// The primary key of a document: its <c>_id</c> as one component, or, when <c>_id</c> is an
    /// embedded document (a composite id), each of its fields' values in order.
    /// </summary>
    public static byte[] EncodePrimaryKey(ReadOnlySpan<byte> document, FieldValueRef id, int maxLength)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(maxLength);
        try
        {
            return buffer.AsSpan(0, EncodePrimaryKey(document, id, buffer.AsSpan(0, maxLength))).ToArray();
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>As above, into <paramref name="destination"/> (its length is the limit); returns the key's length.</summary>
    public static int EncodePrimaryKey(ReadOnlySpan<byte> document, FieldValueRef id, Span<byte> destination)
    {
        var writer = new KeyWriter(destination);
        AppendId(ref writer, id.Type, id.Bytes(document));
        return writer.WrittenSpan.Length;
    }

    public static void AppendId(ref KeyWriter writer, BsonType type, ReadOnlySpan<byte> raw)
    {
        switch (type)
        {
            case BsonType.Null:
                throw new BLiteException("A document's _id cannot be null.");
            case BsonType.Array:
                throw new BLiteException("A document's _id cannot be an array.");
            case BsonType.Document:
                var reader = new BsonSpanReader(raw);
                reader.ReadDocumentStart();
                var parts = 0;
                while (reader.TryReadFieldHeader(out var partType, out _))
                {
                    if (partType is BsonType.Document or BsonType.Array or BsonType.Null)
                    {
                        throw new BLiteException($"A composite _id may hold only scalar values, not {partType}.");
                    }

                    var part = reader.ReadRawValue(partType);
                    AppendValue(ref writer, partType, part);
                    parts++;
                }

                if (parts == 0)
                {
                    throw new BLiteException("A composite _id needs at least one field.");
                }

                break;
            default:
                AppendValue(ref writer, type, raw);
                break;
        }
    }

    /// <summary>
    /// Scalars go through <see cref="KeyWriter.WriteBsonValue(ref BsonSpanReader, BsonType)"/>, the
    /// same encoding queries use for their constants, so an index and a query always agree.
    /// </summary>
    public static void AppendValue(ref KeyWriter writer, BsonType type, ReadOnlySpan<byte> raw)
    {
        if (!KeyWriter.IsIndexable(type))
        {
            writer.WriteBinary(raw);
            return;
        }

        var reader = new BsonSpanReader(raw);
        writer.WriteBsonValue(ref reader, type);
    }
}
