using System.Buffers.Text;
using System.Text.Json;
using BLite.Bson;
using BLite.Bson.Jsonb;

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
            if (reader.TokenType != JsonTokenType.Number || !JsonbTextParsing.TryParseDecimal(reader.ValueSpan, out var value) || !End(ref reader))
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

    /// <summary>The fixed-width date text the reader stands on, as a clock reading (Kind unspecified).</summary>
    private static bool TryReadDate(ref Utf8JsonReader reader, out DateTime clock)
    {
        clock = default;
        return reader.TokenType == JsonTokenType.String && !reader.ValueIsEscaped && JsonbTextParsing.TryParseDate(reader.ValueSpan, out clock);
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
