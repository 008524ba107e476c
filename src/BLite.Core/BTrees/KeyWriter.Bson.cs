using BLite.Bson;

namespace BLite.Core.BTrees;

// From C-BSON values to key components, so index maintenance can key a field straight from
// the raw document without materialising it. A Binary of subtype Uuid with 16 bytes becomes a
// Guid component (its BSON bytes are already the big-endian Guid layout the key uses).
internal ref partial struct KeyWriter
{
    /// <summary>Whether values of <paramref name="type"/> can be a key component (documents and arrays cannot).</summary>
    public static bool IsIndexable(BsonType type) => type is not (BsonType.Document or BsonType.Array);

    /// <summary>
    /// Reads the value of <paramref name="type"/> at the reader's position (after its header)
    /// and writes it as one key component. Documents and arrays throw <see cref="ArgumentException"/>.
    /// </summary>
    public void WriteBsonValue(ref BsonSpanReader reader, BsonType type)
    {
        switch (type)
        {
            case BsonType.Null: WriteNull(); break;
            case BsonType.Boolean: WriteBoolean(reader.ReadBoolean()); break;
            case BsonType.Int32: WriteInt32(reader.ReadInt32()); break;
            case BsonType.Int64: WriteInt64(reader.ReadInt64()); break;
            case BsonType.UInt64: WriteUInt64(reader.ReadUInt64()); break;
            case BsonType.Double: WriteDouble(reader.ReadDouble()); break;
            case BsonType.Decimal128: WriteDecimal128(reader.ReadDecimal128()); break;
            case BsonType.String or BsonType.Symbol: WriteEscaped(KeyType.String, reader.ReadStringUtf8(), terminate: true); break;
            case BsonType.Timestamp: WriteTimestamp(reader.ReadTimestamp()); break;
            case BsonType.MinKey: Reserve(1)[0] = (byte)KeyType.MinKey; break;
            case BsonType.MaxKey: Reserve(1)[0] = (byte)KeyType.MaxKey; break;
            case BsonType.Binary:
                var bytes = reader.ReadBinary(out var subtype);
                WriteBinaryValue(bytes, subtype);
                break;
            case BsonType.ObjectId: WriteObjectId(reader.ReadObjectId()); break;
            case BsonType.DateTime: WriteDateTime(reader.ReadDateTime()); break;
            case BsonType.DateTimeOffset: WriteDateTimeOffset(reader.ReadDateTimeOffset()); break;
            case BsonType.TimeSpan: WriteTimeSpan(reader.ReadTimeSpan()); break;
            case BsonType.DateOnly: WriteDateOnly(reader.ReadDateOnly()); break;
            case BsonType.TimeOnly: WriteTimeOnly(reader.ReadTimeOnly()); break;
            default: ThrowNotIndexable(type); break;
        }
    }

    /// <summary>Writes a <see cref="BsonValue"/> as one key component; documents and arrays throw <see cref="ArgumentException"/>.</summary>
    public void WriteBsonValue(BsonValue value)
    {
        switch (value.Type)
        {
            case BsonType.Null: WriteNull(); break;
            case BsonType.Boolean: WriteBoolean(value.AsBoolean); break;
            case BsonType.Int32: WriteInt32(value.AsInt32); break;
            case BsonType.Int64: WriteInt64(value.AsInt64); break;
            case BsonType.UInt64: WriteUInt64(value.AsUInt64); break;
            case BsonType.Double: WriteDouble(value.AsDouble); break;
            case BsonType.Decimal128: WriteDecimal128(value.AsDecimal128); break;
            case BsonType.String: WriteString(value.AsString); break;
            case BsonType.Symbol: WriteString(value.AsSymbol.Name); break;
            case BsonType.Timestamp: WriteTimestamp(value.AsTimestamp); break;
            case BsonType.MinKey: Reserve(1)[0] = (byte)KeyType.MinKey; break;
            case BsonType.MaxKey: Reserve(1)[0] = (byte)KeyType.MaxKey; break;
            case BsonType.Binary: WriteBinaryValue(value.AsBinary, value.BinarySubtype); break;
            case BsonType.ObjectId: WriteObjectId(value.AsObjectId); break;
            case BsonType.DateTime: WriteDateTime(value.AsDateTime); break;
            case BsonType.DateTimeOffset: WriteDateTimeOffset(value.AsDateTimeOffset); break;
            case BsonType.TimeSpan: WriteTimeSpan(value.AsTimeSpan); break;
            case BsonType.DateOnly: WriteDateOnly(value.AsDateOnly); break;
            case BsonType.TimeOnly: WriteTimeOnly(value.AsTimeOnly); break;
            default: ThrowNotIndexable(value.Type); break;
        }
    }

    private void WriteTimestamp(BsonTimestamp value) => WriteTagged64(KeyType.Timestamp, value.Value);

    private void WriteBinaryValue(ReadOnlySpan<byte> bytes, BsonBinarySubtype subtype)
    {
        if (subtype == BsonBinarySubtype.Uuid && bytes.Length == 16)
        {
            var span = Reserve(17);
            span[0] = (byte)KeyType.Guid;
            bytes.CopyTo(span[1..]);
        }
        else
        {
            WriteBinary(bytes);
        }
    }

    private static void ThrowNotIndexable(BsonType type) =>
        throw new ArgumentException($"A BSON {type} cannot be an index key component; index one of its fields or items instead.", nameof(type));
}
