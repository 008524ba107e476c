using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace BLite.Bson.Mapping;

/// <summary>
/// Typed value reads for generated deserializers, after the element header has been read. The
/// expected stored type is checked inline; anything else goes to a slow path that accepts lossless
/// integer conversions (a field written as Int32 read into a long, or the reverse when it fits) and
/// otherwise throws a <see cref="BsonMappingException"/> naming the member.
/// <paramref name="member"/> arguments are "Type.Member" literals, used only in messages.
/// </summary>
public static class BsonMemberReader
{
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static string? ReadString(ref BsonSpanReader reader, BsonType type, string member)
    {
        if (type == BsonType.String)
        {
            return reader.ReadString();
        }

        return type == BsonType.Null ? null : ThrowMismatch<string>(ref reader, type, member, BsonType.String);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int ReadInt32(ref BsonSpanReader reader, BsonType type, string member)
        => type == BsonType.Int32 ? reader.ReadInt32() : (int)ReadIntegerSlow(ref reader, type, member, int.MinValue, int.MaxValue);

    public static short ReadInt16(ref BsonSpanReader reader, BsonType type, string member)
        => (short)ReadNarrow(ref reader, type, member, short.MinValue, short.MaxValue);

    public static ushort ReadUInt16(ref BsonSpanReader reader, BsonType type, string member)
        => (ushort)ReadNarrow(ref reader, type, member, ushort.MinValue, ushort.MaxValue);

    public static byte ReadByte(ref BsonSpanReader reader, BsonType type, string member)
        => (byte)ReadNarrow(ref reader, type, member, byte.MinValue, byte.MaxValue);

    public static sbyte ReadSByte(ref BsonSpanReader reader, BsonType type, string member)
        => (sbyte)ReadNarrow(ref reader, type, member, sbyte.MinValue, sbyte.MaxValue);

    public static char ReadChar(ref BsonSpanReader reader, BsonType type, string member)
        => (char)ReadNarrow(ref reader, type, member, char.MinValue, char.MaxValue);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long ReadInt64(ref BsonSpanReader reader, BsonType type, string member)
        => type == BsonType.Int64 ? reader.ReadInt64() : ReadIntegerSlow(ref reader, type, member, long.MinValue, long.MaxValue);

    public static uint ReadUInt32(ref BsonSpanReader reader, BsonType type, string member)
        => (uint)ReadIntegerSlow(ref reader, type, member, uint.MinValue, uint.MaxValue);

    public static ulong ReadUInt64(ref BsonSpanReader reader, BsonType type, string member)
    {
        if (type == BsonType.UInt64)
        {
            return reader.ReadUInt64();
        }

        return (ulong)ReadIntegerSlow(ref reader, type, member, 0, long.MaxValue);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static double ReadDouble(ref BsonSpanReader reader, BsonType type, string member)
        => type == BsonType.Double ? reader.ReadDouble() : ReadDoubleSlow(ref reader, type, member);

    /// <summary>Floats are stored as doubles (an exact widening), so narrowing back is exact for them.</summary>
    public static float ReadSingle(ref BsonSpanReader reader, BsonType type, string member)
        => (float)ReadDouble(ref reader, type, member);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static decimal ReadDecimal(ref BsonSpanReader reader, BsonType type, string member)
        => type == BsonType.Decimal128 ? reader.ReadDecimal() : ReadIntegerSlow(ref reader, type, member, long.MinValue, long.MaxValue);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool ReadBoolean(ref BsonSpanReader reader, BsonType type, string member)
        => type == BsonType.Boolean ? reader.ReadBoolean() : ThrowMismatch<bool>(ref reader, type, member, BsonType.Boolean);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ObjectId ReadObjectId(ref BsonSpanReader reader, BsonType type, string member)
        => type == BsonType.ObjectId ? reader.ReadObjectId() : ThrowMismatch<ObjectId>(ref reader, type, member, BsonType.ObjectId);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static Guid ReadGuid(ref BsonSpanReader reader, BsonType type, string member)
        => type == BsonType.Binary ? reader.ReadGuid() : ThrowMismatch<Guid>(ref reader, type, member, BsonType.Binary);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static DateTime ReadDateTime(ref BsonSpanReader reader, BsonType type, string member)
        => type == BsonType.DateTime ? reader.ReadDateTime() : ThrowMismatch<DateTime>(ref reader, type, member, BsonType.DateTime);

    public static DateTimeOffset ReadDateTimeOffset(ref BsonSpanReader reader, BsonType type, string member)
        => type == BsonType.DateTimeOffset ? reader.ReadDateTimeOffset() : ThrowMismatch<DateTimeOffset>(ref reader, type, member, BsonType.DateTimeOffset);

    public static TimeSpan ReadTimeSpan(ref BsonSpanReader reader, BsonType type, string member)
        => type == BsonType.TimeSpan ? reader.ReadTimeSpan() : ThrowMismatch<TimeSpan>(ref reader, type, member, BsonType.TimeSpan);

    public static DateOnly ReadDateOnly(ref BsonSpanReader reader, BsonType type, string member)
        => type == BsonType.DateOnly ? reader.ReadDateOnly() : ThrowMismatch<DateOnly>(ref reader, type, member, BsonType.DateOnly);

    public static TimeOnly ReadTimeOnly(ref BsonSpanReader reader, BsonType type, string member)
        => type == BsonType.TimeOnly ? reader.ReadTimeOnly() : ThrowMismatch<TimeOnly>(ref reader, type, member, BsonType.TimeOnly);

    /// <summary>A binary value as a new array (any subtype), or null for a stored null.</summary>
    public static byte[]? ReadBinary(ref BsonSpanReader reader, BsonType type, string member)
    {
        if (type == BsonType.Binary)
        {
            return reader.ReadBinary(out _).ToArray();
        }

        return type == BsonType.Null ? null : ThrowMismatch<byte[]>(ref reader, type, member, BsonType.Binary);
    }

    /// <summary>
    /// A binary vector of float32 components (subtype Vector), or null for a stored Null. An array
    /// of numbers is read too: that is how <c>float[]</c> members were stored before vectors
    /// became binary, so documents written then stay readable (and are rewritten as vectors on
    /// their next update).
    /// </summary>
    public static float[]? ReadFloat32Vector(ref BsonSpanReader reader, BsonType type, string member)
    {
        if (type == BsonType.Array)
        {
            return ReadFloat32Array(ref reader, member);
        }

        if (type != BsonType.Binary)
        {
            return type == BsonType.Null ? null : ThrowMismatch<float[]>(ref reader, type, member, BsonType.Binary);
        }

        var start = reader.Position;
        var payload = reader.ReadBinary(out var subtype);
        if (subtype != BsonBinarySubtype.Vector || BsonVector.GetFloat32Dimensions(payload) < 0)
        {
            throw new BsonMappingException($"Cannot read '{member}': expected a float32 vector (binary subtype 9, dtype 0x27), found binary subtype {(byte)subtype} of {payload.Length} bytes (at offset {start}).");
        }

        return BsonVector.ToFloat32Array(payload);
    }

    private static float[] ReadFloat32Array(ref BsonSpanReader reader, string member)
    {
        var items = new float[CountArrayItems(reader)];
        reader.ReadArrayStart();
        var count = 0;
        while (reader.TryReadItemHeader(out var itemType))
        {
            items[count++] = ReadSingle(ref reader, itemType, member);
        }

        return items;
    }

    /// <summary>Checks that an embedded document or array has the expected container type.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void ExpectType(ref BsonSpanReader reader, BsonType type, BsonType expected, string member)
    {
        if (type != expected)
        {
            ThrowMismatch<bool>(ref reader, type, member, expected);
        }
    }

    /// <summary>
    /// Counts the items of the array the reader is positioned at, without moving it, so a
    /// deserializer can allocate its collection at the exact size instead of growing it.
    /// </summary>
    public static int CountArrayItems(in BsonSpanReader probe) => probe.CountEntries(entriesHaveFieldIds: false);

    /// <summary>Counts the fields of the embedded document the reader is positioned at, without moving it.</summary>
    public static int CountDocumentFields(in BsonSpanReader probe) => probe.CountEntries(entriesHaveFieldIds: true);

    /// <summary>
    /// The UTF-8 discriminator (<c>_t</c>) of the document the reader is positioned at, read on a
    /// copy; empty when the document has none.
    /// </summary>
    public static ReadOnlySpan<byte> ReadDiscriminator(BsonSpanReader probe, ushort discriminatorFieldId, string member)
    {
        probe.ReadDocumentStart();
        while (probe.TryReadFieldHeader(out var type, out var id))
        {
            if (id == discriminatorFieldId)
            {
                if (type != BsonType.String)
                {
                    ThrowMismatch<bool>(ref probe, type, member + "._t", BsonType.String);
                }

                return probe.ReadStringUtf8();
            }

            probe.SkipValue(type);
        }

        return default;
    }

    /// <summary>The name of a field id found in a dictionary-shaped document.</summary>
    public static string ReadDictionaryKey(BsonFieldDictionary fieldDictionary, ushort fieldId, string member)
    {
        if (fieldDictionary.TryGetName(fieldId, out var name))
        {
            return name;
        }

        throw new BsonMappingException($"Cannot read '{member}': field id {fieldId} is not in the database's field dictionary.");
    }

    public static BsonMappingException UnknownDiscriminator(ReadOnlySpan<byte> discriminator, string baseType)
        => new($"Cannot read a '{baseType}': discriminator '{System.Text.Encoding.UTF8.GetString(discriminator)}' is not declared by a [BLiteDerivedType] attribute.");

    public static BsonMappingException MissingDiscriminator(string baseType)
        => new($"Cannot read a '{baseType}': it is abstract and the stored document has no '_t' discriminator.");

    private static long ReadNarrow(ref BsonSpanReader reader, BsonType type, string member, long min, long max)
    {
        if (type == BsonType.Int32)
        {
            var value = reader.ReadInt32();
            if (value >= min && value <= max)
            {
                return value;
            }

            ThrowOutOfRange(member, value);
        }

        return ReadIntegerSlow(ref reader, type, member, min, max);
    }

    private static long ReadIntegerSlow(ref BsonSpanReader reader, BsonType type, string member, long min, long max)
    {
        long value;
        switch (type)
        {
            case BsonType.Int32:
                value = reader.ReadInt32();
                break;
            case BsonType.Int64:
                value = reader.ReadInt64();
                break;
            case BsonType.UInt64:
                var unsigned = reader.ReadUInt64();
                if (unsigned > long.MaxValue)
                {
                    ThrowOutOfRange(member, unsigned);
                }

                value = (long)unsigned;
                break;
            default:
                return ThrowMismatch<long>(ref reader, type, member, BsonType.Int64);
        }

        if (value < min || value > max)
        {
            ThrowOutOfRange(member, value);
        }

        return value;
    }

    private static double ReadDoubleSlow(ref BsonSpanReader reader, BsonType type, string member)
        => type switch
        {
            BsonType.Int32 => reader.ReadInt32(),
            BsonType.Int64 => reader.ReadInt64(),
            _ => ThrowMismatch<double>(ref reader, type, member, BsonType.Double),
        };

    [DoesNotReturn]
    private static T ThrowMismatch<T>(ref BsonSpanReader reader, BsonType found, string member, BsonType expected)
        => throw new BsonMappingException($"Cannot read '{member}': expected a stored {expected}, found {found} (at offset {reader.Position}).");

    [DoesNotReturn]
    private static void ThrowOutOfRange<TValue>(string member, TValue value)
        => throw new BsonMappingException($"Cannot read '{member}': the stored value {value} is out of the member type's range.");
}
