using System.Buffers.Text;
using System.Text.Json;
using BLite.Bson;

namespace BLite.PostgreSql.Jsonb;

/// <summary>
/// The tagged values typed documents hold many of (<c>$decimal</c>, <c>$long</c>, <c>$date</c>,
/// <c>$dto</c>, <c>$uuid</c>), read straight from the UTF-8 tokens: no strings, no culture-aware
/// parsing (these were most of a document's decoding time). jsonb stores an object's keys
/// shortest first, so <c>$date</c> comes before <c>$kind</c> and <c>$dto</c> before <c>$offset</c>.
/// Any other tag or shape leaves the reader untouched and returns false; the general path
/// (<see cref="WriteTagged"/>) then reads it, or reports what is wrong with it.
/// </summary>
internal static partial class JsonbReader
{
    /// <summary>Length of <see cref="JsonbTags.DateFormat"/> text: <c>2024-02-29T23:59:59.1234567</c>.</summary>
    private const int DateTextLength = 27;

    private static bool TryWriteCommonTag(ref Utf8JsonReader json, ref BsonSpanWriter bson, ushort fieldId, bool isItem)
    {
        var reader = json;
        if (!reader.Read() || reader.TokenType != JsonTokenType.PropertyName || reader.ValueIsEscaped)
        {
            return false;
        }

        var tag = reader.ValueSpan;
        if (!reader.Read())
        {
            return false;
        }

        if (tag.SequenceEqual("$decimal"u8))
        {
            if (reader.TokenType != JsonTokenType.Number || !TryParseDecimal(reader.ValueSpan, out var value) || !End(ref reader))
            {
                return false;
            }

            Header(ref bson, BsonType.Decimal128, fieldId, isItem);
            bson.WriteDecimal128(value);
        }
        else if (tag.SequenceEqual("$long"u8))
        {
            if (reader.TokenType != JsonTokenType.Number || !Utf8Parser.TryParse(reader.ValueSpan, out long value, out var used) || used != reader.ValueSpan.Length
                || !End(ref reader))
            {
                return false;
            }

            Header(ref bson, BsonType.Int64, fieldId, isItem);
            bson.WriteInt64(value);
        }
        else if (tag.SequenceEqual("$date"u8))
        {
            if (!TryReadDate(ref reader, out var clock) || !TryReadCompanion(ref reader, "$kind"u8, out var kind) || kind is < 0 or > 2 || !End(ref reader))
            {
                return false;
            }

            Header(ref bson, BsonType.DateTime, fieldId, isItem);
            bson.WriteDateTime(DateTime.SpecifyKind(clock, (DateTimeKind)kind));
        }
        else if (tag.SequenceEqual("$dto"u8))
        {
            if (!TryReadDate(ref reader, out var utc) || !TryReadCompanion(ref reader, "$offset"u8, out var minutes) || !End(ref reader))
            {
                return false;
            }

            var offset = TimeSpan.FromMinutes(minutes);
            Header(ref bson, BsonType.DateTimeOffset, fieldId, isItem);
            bson.WriteDateTimeOffset(new DateTimeOffset(utc.Ticks + offset.Ticks, offset));
        }
        else if (tag.SequenceEqual("$uuid"u8))
        {
            if (reader.TokenType != JsonTokenType.String || reader.ValueIsEscaped || !Guid.TryParseExact(Ascii(reader.ValueSpan, stackalloc char[36]), "D", out var value)
                || !End(ref reader))
            {
                return false;
            }

            Header(ref bson, BsonType.Binary, fieldId, isItem);
            bson.WriteGuid(value);
        }
        else
        {
            return false;
        }

        json = reader;
        return true;
    }

    private static bool End(ref Utf8JsonReader reader) => reader.Read() && reader.TokenType == JsonTokenType.EndObject;

    private static bool TryReadCompanion(ref Utf8JsonReader reader, ReadOnlySpan<byte> key, out int value)
    {
        value = 0;
        return reader.Read() && reader.TokenType == JsonTokenType.PropertyName && reader.ValueTextEquals(key)
            && reader.Read() && reader.TokenType == JsonTokenType.Number && reader.TryGetInt32(out value);
    }

    /// <summary>Plain digits with an optional sign and fraction, as numeric prints them: the coefficient and scale kept exactly.</summary>
    private static bool TryParseDecimal(ReadOnlySpan<byte> text, out BsonDecimal128 value)
    {
        value = default;
        var negative = text is [(byte)'-', ..];
        var digits = 0;
        var scale = -1;
        UInt128 coefficient = 0;
        foreach (var c in negative ? text[1..] : text)
        {
            if (c == '.' && scale < 0)
            {
                scale = 0;
                continue;
            }

            if (c is < (byte)'0' or > (byte)'9' || ++digits > 34)
            {
                return false;
            }

            coefficient = (coefficient * 10) + (uint)(c - '0');
            scale += scale >= 0 ? 1 : 0;
        }

        if (digits == 0 || scale == 0)
        {
            return false;
        }

        value = BsonDecimal128.FromParts(negative, coefficient, scale < 0 ? 0 : -scale);
        return true;
    }

    /// <summary>The fixed-width <see cref="JsonbTags.DateFormat"/> text the reader stands on, as a clock reading (Kind unspecified).</summary>
    private static bool TryReadDate(ref Utf8JsonReader reader, out DateTime clock)
    {
        clock = default;
        if (reader.TokenType != JsonTokenType.String || reader.ValueIsEscaped || reader.ValueSpan.Length != DateTextLength)
        {
            return false;
        }

        var t = reader.ValueSpan;
        if (t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' || t[16] != ':' || t[19] != '.'
            || !TryDigits(t[..4], out var year) || !TryDigits(t.Slice(5, 2), out var month) || !TryDigits(t.Slice(8, 2), out var day)
            || !TryDigits(t.Slice(11, 2), out var hour) || !TryDigits(t.Slice(14, 2), out var minute) || !TryDigits(t.Slice(17, 2), out var second)
            || !TryDigits(t[20..], out var fraction)
            || year < 1 || month is < 1 or > 12 || day < 1 || day > DateTime.DaysInMonth(year, month) || hour > 23 || minute > 59 || second > 59)
        {
            return false;
        }

        clock = new DateTime(year, month, day, hour, minute, second).AddTicks(fraction);
        return true;
    }

    private static bool TryDigits(ReadOnlySpan<byte> text, out int value)
    {
        value = 0;
        foreach (var c in text)
        {
            if (c is < (byte)'0' or > (byte)'9')
            {
                return false;
            }

            value = (value * 10) + (c - '0');
        }

        return true;
    }

    private static ReadOnlySpan<char> Ascii(ReadOnlySpan<byte> text, Span<char> buffer)
    {
        if (text.Length > buffer.Length)
        {
            return [];
        }

        for (var i = 0; i < text.Length; i++)
        {
            buffer[i] = (char)text[i];
        }

        return buffer[..text.Length];
    }
}
