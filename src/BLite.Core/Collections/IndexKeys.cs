using System.Buffers;
using BLite.Bson;
using BLite.Core.Collections.Indexes;
using BLite.Core.BTrees;
using BLite.Core.Documents;

namespace BLite.Core.Collections;

/// <summary>
/// Encodes <see cref="BsonValue"/>s the way the collections layer keys them, for callers that
/// hold values rather than document bytes: <see cref="EncodeId"/> gives the primary key of an
/// <c>_id</c>; <see cref="Encode"/> gives the leading components of a secondary-index key, to
/// use as bounds with <see cref="KeyRange"/> in <see cref="RawCollection.ScanIndex"/>.
/// </summary>
internal static class IndexKeys
{
    /// <summary>Above any tree's key limit, so a value too long to be stored is reported by the tree, not here.</summary>
    private const int ScratchKeyLimit = 64 * 1024;

    /// <summary>The encoded primary key for this <c>_id</c> value (a document value is a composite id).</summary>
    public static byte[] EncodeId(BsonValue id)
    {
        if (id.IsNull || id.IsArray)
        {
            throw new ArgumentException($"An _id cannot be {id.Type}.", nameof(id));
        }

        if (!id.IsDocument)
        {
            return EncodeScalars([id]);
        }

        var document = WrapAsIdField(id, new BsonFieldDictionary());
        FieldValueExtractor.TryFindTopLevel(document, 0, out var value);
        return IndexKeyCodec.EncodePrimaryKey(document, value, ScratchKeyLimit);
    }

    /// <summary>
    /// The encoded components for <paramref name="values"/>, in index-field order: all of them
    /// for an equality match on a whole composite key, or the first few as a prefix. Pass the
    /// database's dictionary: an embedded-document value is keyed by its C-BSON bytes, which
    /// hold that database's field ids.
    /// </summary>
    public static byte[] Encode(BsonFieldDictionary fields, params ReadOnlySpan<BsonValue> values)
    {
        ArgumentNullException.ThrowIfNull(fields);
        var buffer = ArrayPool<byte>.Shared.Rent(ScratchKeyLimit);
        try
        {
            var writer = new KeyWriter(buffer.AsSpan(0, ScratchKeyLimit));
            foreach (var value in values)
            {
                if (KeyWriter.IsIndexable(value.Type))
                {
                    writer.WriteBsonValue(value);
                    continue;
                }

                var document = WrapAsIdField(value, fields);
                FieldValueExtractor.TryFindTopLevel(document, 0, out var raw);
                IndexKeyCodec.AppendValue(ref writer, raw.Type, raw.Bytes(document));
            }

            return writer.WrittenSpan.ToArray();
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private static byte[] EncodeScalars(ReadOnlySpan<BsonValue> values)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(ScratchKeyLimit);
        try
        {
            var writer = new KeyWriter(buffer.AsSpan(0, ScratchKeyLimit));
            foreach (var value in values)
            {
                writer.WriteBsonValue(value);
            }

            return writer.WrittenSpan.ToArray();
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>
    /// Serializes the value as the <c>_id</c> of a one-field document, so it is encoded from
    /// C-BSON bytes exactly as a stored document's field would be. (A composite id is keyed by
    /// its values only, so <see cref="EncodeId"/> uses a private dictionary and leaves the
    /// database's alone.)
    /// </summary>
    private static byte[] WrapAsIdField(BsonValue value, BsonFieldDictionary fields)
    {
        var wrapper = new BsonDocument { [BsonFieldDictionary.IdFieldName] = value };
        return wrapper.ToBytes(fields);
    }
}
