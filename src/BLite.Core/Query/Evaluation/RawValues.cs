using System.Buffers;
using System.Buffers.Binary;
using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>
/// Comparisons between raw C-BSON values (a type code and the value's bytes, as
/// <see cref="BsonSpanReader.ReadRawValue"/> returns them) without building objects: strings,
/// binaries and ObjectIds compare their bytes, scalars decode into a <see cref="BsonValue"/>
/// struct (no allocation), documents and arrays compare element by element. The order agrees with
/// <see cref="BsonValueComparer"/>.
/// </summary>
internal static class RawValues
{
    /// <summary>The value bytes of <paramref name="value"/> with field names resolved through <paramref name="dictionary"/>.</summary>
    public static byte[] ToRaw(BsonValue value, BsonFieldDictionary dictionary)
    {
        var output = new ArrayBufferWriter<byte>(16);
        var writer = new BsonSpanWriter(output);
        value.WriteTo(ref writer, dictionary);
        writer.Flush();
        return output.WrittenSpan.ToArray();
    }

    public static BsonValue ToBsonValue(BsonType type, ReadOnlySpan<byte> raw, BsonFieldDictionary dictionary)
    {
        var reader = new BsonSpanReader(raw);
        return BsonValue.ReadFrom(ref reader, type, dictionary);
    }

    /// <summary>The UTF-8 bytes of a raw string value (without length prefix and terminator).</summary>
    public static ReadOnlySpan<byte> StringBytes(ReadOnlySpan<byte> raw) => raw.Slice(4, raw.Length - 5);

    /// <summary>Orders two raw values: by type class first, then by value within the class.</summary>
    public static int Compare(BsonType leftType, ReadOnlySpan<byte> left, BsonType rightType, ReadOnlySpan<byte> right)
    {
        var leftClass = BsonValueComparer.TypeClass(leftType);
        var byClass = leftClass.CompareTo(BsonValueComparer.TypeClass(rightType));
        if (byClass != 0)
        {
            return byClass;
        }

        switch (leftType)
        {
            case BsonType.Null:
                return 0;
            case BsonType.String or BsonType.Symbol or BsonType.JavaScript:
                return StringBytes(left).SequenceCompareTo(StringBytes(right));
            case BsonType.JavaScriptWithScope:
                // Code and scope bytes; the scope's field ids make this a stable, not a
                // name-ordered, comparison, which is all sorting these deprecated values needs.
                return left[4..].SequenceCompareTo(right[4..]);
            case BsonType.ObjectId:
                return left.SequenceCompareTo(right);
            case BsonType.Binary:
                var byLength = BinaryPrimitives.ReadInt32LittleEndian(left).CompareTo(BinaryPrimitives.ReadInt32LittleEndian(right));
                return byLength != 0 ? byLength : left[4..].SequenceCompareTo(right[4..]);
            case BsonType.Document:
                return CompareContainers(left, right, isDocument: true);
            case BsonType.Array:
                return CompareContainers(left, right, isDocument: false);
            default:
                return DecodeScalar(leftType, left).CompareTo(DecodeScalar(rightType, right));
        }
    }

    /// <summary>Equality as queries see it: same type class and equal value (1, 1L and 1.0 are equal).</summary>
    public static bool AreEqual(BsonType leftType, ReadOnlySpan<byte> left, BsonType rightType, ReadOnlySpan<byte> right) =>
        BsonValueComparer.TypeClass(leftType) == BsonValueComparer.TypeClass(rightType) && Compare(leftType, left, rightType, right) == 0;

    private static BsonValue DecodeScalar(BsonType type, ReadOnlySpan<byte> raw)
    {
        var reader = new BsonSpanReader(raw);
        return type switch
        {
            BsonType.Int32 => reader.ReadInt32(),
            BsonType.Int64 => reader.ReadInt64(),
            BsonType.UInt64 => reader.ReadUInt64(),
            BsonType.Double => reader.ReadDouble(),
            BsonType.Decimal128 => reader.ReadDecimal128(),
            BsonType.UtcDateTime => BsonValue.FromUnixMilliseconds(reader.ReadUtcDateTimeMilliseconds()),
            BsonType.Timestamp => reader.ReadTimestamp(),
            BsonType.Regex => reader.ReadRegex(),
            BsonType.DbPointer => reader.ReadDbPointer(),
            BsonType.Boolean => reader.ReadBoolean(),
            BsonType.DateTime => reader.ReadDateTime(),
            BsonType.DateTimeOffset => reader.ReadDateTimeOffset(),
            BsonType.TimeSpan => reader.ReadTimeSpan(),
            BsonType.DateOnly => reader.ReadDateOnly(),
            BsonType.TimeOnly => reader.ReadTimeOnly(),
            _ => BsonValue.Null,
        };
    }

    /// <summary>
    /// Documents compare field by field (field id, then value), arrays item by item; the shorter
    /// one sorts first when one is a prefix of the other.
    /// </summary>
    private static int CompareContainers(ReadOnlySpan<byte> left, ReadOnlySpan<byte> right, bool isDocument)
    {
        var l = new BsonSpanReader(left);
        var r = new BsonSpanReader(right);
        if (isDocument)
        {
            l.ReadDocumentStart();
            r.ReadDocumentStart();
        }
        else
        {
            l.ReadArrayStart();
            r.ReadArrayStart();
        }

        while (true)
        {
            BsonType lt, rt;
            ushort lid = 0, rid = 0;
            var lHas = isDocument ? l.TryReadFieldHeader(out lt, out lid) : l.TryReadItemHeader(out lt);
            var rHas = isDocument ? r.TryReadFieldHeader(out rt, out rid) : r.TryReadItemHeader(out rt);
            if (!lHas || !rHas)
            {
                return lHas.CompareTo(rHas);
            }

            var byId = lid.CompareTo(rid);
            if (byId != 0)
            {
                return byId;
            }

            var byValue = Compare(lt, l.ReadRawValue(lt), rt, r.ReadRawValue(rt));
            if (byValue != 0)
            {
                return byValue;
            }
        }
    }
}
