using System.Buffers.Text;
using System.Globalization;
using System.Text.Json;

namespace BLite.Bson.Jsonb;

public static partial class JsonbMemberReader
{
    public static string? ReadString(ref Utf8JsonReader json, string member)
    {
        if (json.TokenType == JsonTokenType.String)
        {
            return json.GetString();
        }

        return json.TokenType == JsonTokenType.Null ? null : Expect(ref json, member, BsonType.String).Text;
    }

    public static bool ReadBoolean(ref Utf8JsonReader json, string member) => json.TokenType switch
    {
        JsonTokenType.True => true,
        JsonTokenType.False => false,
        _ => Expect(ref json, member, BsonType.Boolean).Text == "true",
    };

    public static int ReadInt32(ref Utf8JsonReader json, string member)
        => json.TokenType == JsonTokenType.Number && json.TryGetInt32(out var value) ? value : (int)ReadIntegerSlow(ref json, member, int.MinValue, int.MaxValue);

    public static short ReadInt16(ref Utf8JsonReader json, string member) => (short)ReadNarrow(ref json, member, short.MinValue, short.MaxValue);

    public static ushort ReadUInt16(ref Utf8JsonReader json, string member) => (ushort)ReadNarrow(ref json, member, ushort.MinValue, ushort.MaxValue);

    public static byte ReadByte(ref Utf8JsonReader json, string member) => (byte)ReadNarrow(ref json, member, byte.MinValue, byte.MaxValue);

    public static sbyte ReadSByte(ref Utf8JsonReader json, string member) => (sbyte)ReadNarrow(ref json, member, sbyte.MinValue, sbyte.MaxValue);

    public static char ReadChar(ref Utf8JsonReader json, string member) => (char)ReadNarrow(ref json, member, char.MinValue, char.MaxValue);

    public static long ReadInt64(ref Utf8JsonReader json, string member) => ReadTaggedInt64(ref json, member, long.MinValue, long.MaxValue);

    public static uint ReadUInt32(ref Utf8JsonReader json, string member) => (uint)ReadTaggedInt64(ref json, member, uint.MinValue, uint.MaxValue);

    public static ulong ReadUInt64(ref Utf8JsonReader json, string member)
    {
        if (TryTag(json, "$ulong"u8, out var value) && value.TokenType == JsonTokenType.Number && value.TryGetUInt64(out var result) && TryEnd(ref value))
        {
            json = value;
            return result;
        }

        return (ulong)ReadIntegerSlow(ref json, member, 0, long.MaxValue);
    }

    /// <summary>Any plain number (an integer reads as the double it converts to, as C-BSON reads an Int32 or Int64); NaN, ±∞ and -0.0 are tagged.</summary>
    public static double ReadDouble(ref Utf8JsonReader json, string member)
    {
        if (json.TokenType == JsonTokenType.Number)
        {
            return double.Parse(json.ValueSpan, NumberStyles.Float, Invariant);
        }

        var stored = ReadStored(ref json);
        return stored.Type switch
        {
            BsonType.Double => double.Parse(stored.Text!, NumberStyles.Float, Invariant),
            BsonType.Int64 => long.Parse(stored.Text!, NumberStyles.AllowLeadingSign, Invariant),
            _ => throw Mismatch(member, BsonType.Double, stored.Type, stored.At),
        };
    }

    /// <summary>Floats are stored as doubles (an exact widening), so narrowing back is exact for them.</summary>
    public static float ReadSingle(ref Utf8JsonReader json, string member) => (float)ReadDouble(ref json, member);

    public static decimal ReadDecimal(ref Utf8JsonReader json, string member)
    {
        if (TryTag(json, "$decimal"u8, out var value) && value.TokenType == JsonTokenType.Number
            && JsonbTextParsing.TryParseDecimal(value.ValueSpan, out var number) && TryEnd(ref value))
        {
            json = value;
            return ToDecimal(number, member);
        }

        var stored = ReadStored(ref json);
        return stored.Type == BsonType.Decimal128
            ? ToDecimal(BsonDecimal128.Parse(stored.Text!), member)
            : IntegerFrom(stored, member, long.MinValue, long.MaxValue);
    }

    public static Guid ReadGuid(ref Utf8JsonReader json, string member)
    {
        if (TryTag(json, "$uuid"u8, out var value) && value.TokenType == JsonTokenType.String && !value.ValueIsEscaped
            && Utf8Parser.TryParse(value.ValueSpan, out Guid guid, out var used, 'D') && used == value.ValueSpan.Length && TryEnd(ref value))
        {
            json = value;
            return guid;
        }

        var stored = Expect(ref json, member, BsonType.Binary);
        if (stored.Tag == "$uuid")
        {
            return Guid.Parse(stored.Text!, Invariant);
        }

        var bytes = Convert.FromBase64String(stored.Text!);
        return Require(stored, "$subtype") == "4" && bytes.Length == 16
            ? new Guid(bytes, bigEndian: true)
            : throw new Mapping.BsonMappingException($"Cannot read '{member}': a Guid must be 16 bytes of binary subtype 4 (at byte {stored.At}).");
    }

    public static ObjectId ReadObjectId(ref Utf8JsonReader json, string member)
    {
        if (TryTag(json, "$oid"u8, out var value) && value.TokenType == JsonTokenType.String && !value.ValueIsEscaped && value.ValueSpan.Length == 24)
        {
            Span<char> hex = stackalloc char[24];
            for (var i = 0; i < hex.Length; i++)
            {
                hex[i] = (char)value.ValueSpan[i];
            }

            if (ObjectId.TryParse(hex, out var id) && TryEnd(ref value))
            {
                json = value;
                return id;
            }
        }

        return ObjectId.Parse(Expect(ref json, member, BsonType.ObjectId).Text!);
    }

    public static DateTime ReadDateTime(ref Utf8JsonReader json, string member)
    {
        if (TryTag(json, "$date"u8, out var value) && TryDateText(ref value, out var clock)
            && TryCompanion(ref value, "$kind"u8, out var kind) && kind is >= 0 and <= 2 && TryEnd(ref value))
        {
            json = value;
            return DateTime.SpecifyKind(clock, (DateTimeKind)kind);
        }

        var stored = Expect(ref json, member, BsonType.DateTime);
        return DateTime.SpecifyKind(ParseDate(stored.Text!), (DateTimeKind)int.Parse(Require(stored, "$kind"), Invariant));
    }

    public static DateTimeOffset ReadDateTimeOffset(ref Utf8JsonReader json, string member)
    {
        if (TryTag(json, "$dto"u8, out var value) && TryDateText(ref value, out var utc)
            && TryCompanion(ref value, "$offset"u8, out var minutes) && TryEnd(ref value))
        {
            json = value;
            return AtOffset(utc, minutes);
        }

        var stored = Expect(ref json, member, BsonType.DateTimeOffset);
        return AtOffset(ParseDate(stored.Text!), int.Parse(Require(stored, "$offset"), Invariant));
    }

    public static TimeSpan ReadTimeSpan(ref Utf8JsonReader json, string member)
    {
        if (TryTag(json, "$timeSpan"u8, out var value) && value.TokenType == JsonTokenType.Number && value.TryGetInt64(out var ticks) && TryEnd(ref value))
        {
            json = value;
            return new TimeSpan(ticks);
        }

        return new TimeSpan(long.Parse(Expect(ref json, member, BsonType.TimeSpan).Text!, Invariant));
    }

    public static DateOnly ReadDateOnly(ref Utf8JsonReader json, string member)
        => DateOnly.ParseExact(Expect(ref json, member, BsonType.DateOnly).Text!, JsonbMemberWriter.DateOnlyFormat, Invariant);

    public static TimeOnly ReadTimeOnly(ref Utf8JsonReader json, string member)
    {
        if (TryTag(json, "$timeOnly"u8, out var value) && value.TokenType == JsonTokenType.Number && value.TryGetInt64(out var ticks) && TryEnd(ref value))
        {
            json = value;
            return new TimeOnly(ticks);
        }

        return new TimeOnly(long.Parse(Expect(ref json, member, BsonType.TimeOnly).Text!, Invariant));
    }

    /// <summary>A binary value as a new array (any subtype), or null for a stored null.</summary>
    public static byte[]? ReadBinary(ref Utf8JsonReader json, string member)
    {
        if (json.TokenType == JsonTokenType.Null)
        {
            return null;
        }

        var stored = Expect(ref json, member, BsonType.Binary);
        return stored.Tag == "$uuid" ? Guid.Parse(stored.Text!, Invariant).ToByteArray(bigEndian: true) : Convert.FromBase64String(stored.Text!);
    }

    /// <summary>A float32 vector (binary subtype Vector), or an array of numbers as vectors were once stored; null for a stored null.</summary>
    public static float[]? ReadFloat32Vector(ref Utf8JsonReader json, string member)
    {
        if (json.TokenType == JsonTokenType.Null)
        {
            return null;
        }

        if (json.TokenType == JsonTokenType.StartArray)
        {
            var items = new float[CountArrayItems(json)];
            var count = 0;
            while (NextItem(ref json))
            {
                items[count++] = ReadSingle(ref json, member);
            }

            return items;
        }

        var stored = Expect(ref json, member, BsonType.Binary);
        var payload = stored.Tag == "$binary" ? Convert.FromBase64String(stored.Text!) : [];
        if (stored.Companion != "9" || BsonVector.GetFloat32Dimensions(payload) < 0)
        {
            throw new Mapping.BsonMappingException($"Cannot read '{member}': expected a float32 vector (binary subtype 9, dtype 0x27), found binary subtype {stored.Companion ?? "4"} of {payload.Length} bytes (at byte {stored.At}).");
        }

        return BsonVector.ToFloat32Array(payload);
    }

    /// <summary>A converted id's stored key, as the stored type it is (the converter checks it is the key type).</summary>
    public static BsonValue ReadKey(ref Utf8JsonReader json, string member)
    {
        var stored = ReadStored(ref json);
        return stored.Type switch
        {
            BsonType.Int32 => int.Parse(stored.Text!, Invariant),
            BsonType.Int64 => long.Parse(stored.Text!, Invariant),
            BsonType.String => stored.Text!,
            BsonType.ObjectId => ObjectId.Parse(stored.Text!),
            BsonType.Binary when stored.Tag == "$uuid" => Guid.Parse(stored.Text!, Invariant),
            _ => throw new Mapping.BsonMappingException($"Cannot read '{member}': a stored {stored.Type} is not an id key (at byte {stored.At})."),
        };
    }

    private static long ReadNarrow(ref Utf8JsonReader json, string member, long min, long max)
    {
        if (json.TokenType == JsonTokenType.Number && json.TryGetInt32(out var value))
        {
            return value >= min && value <= max ? value : throw OutOfRange(member, value);
        }

        return ReadIntegerSlow(ref json, member, min, max);
    }

    /// <summary>An Int64 as BLite writes it (<c>{"$long": n}</c>), range-checked; any other integer through the slow path.</summary>
    private static long ReadTaggedInt64(ref Utf8JsonReader json, string member, long min, long max)
    {
        if (TryTag(json, "$long"u8, out var value) && value.TokenType == JsonTokenType.Number && value.TryGetInt64(out var result) && TryEnd(ref value))
        {
            json = value;
            return result >= min && result <= max ? result : throw OutOfRange(member, result);
        }

        return ReadIntegerSlow(ref json, member, min, max);
    }

    private static decimal ToDecimal(BsonDecimal128 value, string member)
        => value.TryToDecimal(out var result) ? result : throw OutOfRange(member, value);

    private static DateTimeOffset AtOffset(DateTime utc, int minutes)
    {
        var offset = TimeSpan.FromMinutes(minutes);
        return new DateTimeOffset(utc.Ticks + offset.Ticks, offset);
    }

    /// <summary>On a copy: whether the object the reader stands on starts with <paramref name="tag"/>; the copy then stands on its value.</summary>
    private static bool TryTag(Utf8JsonReader json, ReadOnlySpan<byte> tag, out Utf8JsonReader value)
    {
        value = json;
        return json.TokenType == JsonTokenType.StartObject && value.Read() && value.TokenType == JsonTokenType.PropertyName && !value.ValueIsEscaped
            && value.ValueSpan.SequenceEqual(tag) && value.Read();
    }

    private static bool TryEnd(ref Utf8JsonReader value) => value.Read() && value.TokenType == JsonTokenType.EndObject;

    private static bool TryDateText(ref Utf8JsonReader value, out DateTime clock)
    {
        clock = default;
        return value.TokenType == JsonTokenType.String && !value.ValueIsEscaped && JsonbTextParsing.TryParseDate(value.ValueSpan, out clock);
    }

    private static bool TryCompanion(ref Utf8JsonReader value, ReadOnlySpan<byte> key, out int number)
    {
        number = 0;
        return value.Read() && value.TokenType == JsonTokenType.PropertyName && value.ValueTextEquals(key)
            && value.Read() && value.TokenType == JsonTokenType.Number && value.TryGetInt32(out number);
    }
}
