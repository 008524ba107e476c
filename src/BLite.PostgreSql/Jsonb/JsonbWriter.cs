using System.Globalization;
using System.Text.Json;
using BLite.Bson;

namespace BLite.PostgreSql.Jsonb;

/// <summary>
/// Converts a C-BSON document, as a generated mapper wrote it, into BLite's jsonb text in one walk
/// over the bytes: no <see cref="BsonDocument"/>, no reflection. Values JSON holds exactly stay
/// plain JSON (so PostgreSQL can compare and index them); the others become tagged objects
/// (<see cref="JsonbTags"/>).
/// </summary>
internal static class JsonbWriter
{
    public static void WriteDocument(ReadOnlySpan<byte> document, Utf8JsonWriter json, BsonFieldDictionary fields)
    {
        var reader = new BsonSpanReader(document);
        WriteDocument(ref reader, json, fields);
    }

    private static void WriteDocument(ref BsonSpanReader reader, Utf8JsonWriter json, BsonFieldDictionary fields)
    {
        reader.ReadDocumentStart();
        json.WriteStartObject();
        while (reader.TryReadFieldHeader(out var type, out var fieldId))
        {
            if (!fields.TryGetName(fieldId, out var name))
            {
                throw new BsonFormatException($"Field id {fieldId} is not in the field dictionary", reader.Position);
            }

            json.WritePropertyName(JsonbTags.EscapeName(name));
            WriteValue(ref reader, type, json, fields);
        }

        json.WriteEndObject();
    }

    private static void WriteArray(ref BsonSpanReader reader, Utf8JsonWriter json, BsonFieldDictionary fields)
    {
        reader.ReadArrayStart();
        json.WriteStartArray();
        while (reader.TryReadItemHeader(out var type))
        {
            WriteValue(ref reader, type, json, fields);
        }

        json.WriteEndArray();
    }

    private static void WriteValue(ref BsonSpanReader reader, BsonType type, Utf8JsonWriter json, BsonFieldDictionary fields)
    {
        switch (type)
        {
            case BsonType.Null:
                json.WriteNullValue();
                break;
            case BsonType.Boolean:
                json.WriteBooleanValue(reader.ReadBoolean());
                break;
            case BsonType.String:
                WriteString(json, reader.ReadString());
                break;
            case BsonType.Int32:
                json.WriteNumberValue(reader.ReadInt32());
                break;
            case BsonType.Double:
                WriteDouble(json, reader.ReadDouble());
                break;
            case BsonType.Int64:
                Tagged(json, JsonbTags.Long).WriteNumberValue(reader.ReadInt64());
                json.WriteEndObject();
                break;
            case BsonType.UInt64:
                Tagged(json, JsonbTags.ULong).WriteNumberValue(reader.ReadUInt64());
                json.WriteEndObject();
                break;
            case BsonType.Decimal128:
                WriteDecimal(json, reader.ReadDecimal128());
                break;
            case BsonType.Document:
                WriteDocument(ref reader, json, fields);
                break;
            case BsonType.Array:
                WriteArray(ref reader, json, fields);
                break;
            case BsonType.DateTime:
                var dateTime = reader.ReadDateTime();
                WriteInstant(Tagged(json, JsonbTags.Date), dateTime);
                json.WriteNumber(JsonbTags.Kind, (int)dateTime.Kind);
                json.WriteEndObject();
                break;
            case BsonType.DateTimeOffset:
                var offset = reader.ReadDateTimeOffset();
                WriteInstant(Tagged(json, JsonbTags.DateTimeOffset), offset.UtcDateTime);
                json.WriteNumber(JsonbTags.Offset, (int)(offset.Offset.Ticks / TimeSpan.TicksPerMinute));
                json.WriteEndObject();
                break;
            case BsonType.UtcDateTime:
                Tagged(json, JsonbTags.UtcDate).WriteNumberValue(reader.ReadUtcDateTimeMilliseconds());
                json.WriteEndObject();
                break;
            case BsonType.TimeSpan:
                Tagged(json, JsonbTags.TimeSpan).WriteNumberValue(reader.ReadTimeSpan().Ticks);
                json.WriteEndObject();
                break;
            case BsonType.DateOnly:
                Tagged(json, JsonbTags.DateOnly).WriteStringValue(reader.ReadDateOnly().ToString(JsonbTags.DateOnlyFormat, CultureInfo.InvariantCulture));
                json.WriteEndObject();
                break;
            case BsonType.TimeOnly:
                Tagged(json, JsonbTags.TimeOnly).WriteNumberValue(reader.ReadTimeOnly().Ticks);
                json.WriteEndObject();
                break;
            case BsonType.ObjectId:
                Tagged(json, JsonbTags.ObjectId).WriteStringValue(reader.ReadObjectId().ToString());
                json.WriteEndObject();
                break;
            case BsonType.Binary:
                WriteBinary(ref reader, json);
                break;
            case BsonType.Regex:
                var regex = reader.ReadRegex();
                Tagged(json, JsonbTags.Regex).WriteStringValue(regex.Pattern);
                json.WriteString(JsonbTags.Options, regex.Options);
                json.WriteEndObject();
                break;
            case BsonType.Timestamp:
                Tagged(json, JsonbTags.Timestamp).WriteNumberValue(reader.ReadTimestamp().Value);
                json.WriteEndObject();
                break;
            case BsonType.MinKey:
                Tagged(json, JsonbTags.MinKey).WriteNumberValue(1);
                json.WriteEndObject();
                break;
            case BsonType.MaxKey:
                Tagged(json, JsonbTags.MaxKey).WriteNumberValue(1);
                json.WriteEndObject();
                break;
            case BsonType.Undefined:
                Tagged(json, JsonbTags.Undefined).WriteBooleanValue(true);
                json.WriteEndObject();
                break;
            case BsonType.Symbol:
                Tagged(json, JsonbTags.Symbol);
                WriteString(json, reader.ReadString());
                json.WriteEndObject();
                break;
            case BsonType.JavaScript:
                Tagged(json, JsonbTags.Code);
                WriteString(json, reader.ReadString());
                json.WriteEndObject();
                break;
            case BsonType.JavaScriptWithScope:
                var end = reader.BeginJavaScriptWithScope(out var code);
                Tagged(json, JsonbTags.Code);
                WriteString(json, code);
                json.WritePropertyName(JsonbTags.Scope);
                WriteDocument(ref reader, json, fields);
                reader.EndJavaScriptWithScope(end);
                json.WriteEndObject();
                break;
            case BsonType.DbPointer:
                var pointer = reader.ReadDbPointer();
                Tagged(json, JsonbTags.DbPointer);
                WriteString(json, pointer.Namespace);
                json.WriteString(JsonbTags.Id, pointer.Id.ToString());
                json.WriteEndObject();
                break;
            default:
                throw new BsonFormatException($"BSON type 0x{(byte)type:X2} has no jsonb form", reader.Position);
        }
    }

    /// <summary>The fixed-width date text, formatted straight to UTF-8 (dates are in most documents).</summary>
    private static void WriteInstant(Utf8JsonWriter json, DateTime value)
    {
        Span<byte> text = stackalloc byte[32];
        if (!value.TryFormat(text, out var written, JsonbTags.DateFormat, CultureInfo.InvariantCulture))
        {
            throw new InvalidOperationException($"The date {value:O} does not fit its jsonb text form.");
        }

        json.WriteStringValue(text[..written]);
    }

    private static Utf8JsonWriter Tagged(Utf8JsonWriter json, string tag)
    {
        json.WriteStartObject();
        json.WritePropertyName(tag);
        return json;
    }

    /// <summary>PostgreSQL text cannot hold U+0000; such a string is kept as its UTF-8 bytes.</summary>
    private static void WriteString(Utf8JsonWriter json, string value)
    {
        if (value.Contains('\0', StringComparison.Ordinal))
        {
            Tagged(json, JsonbTags.Utf8).WriteBase64StringValue(System.Text.Encoding.UTF8.GetBytes(value));
            json.WriteEndObject();
            return;
        }

        json.WriteStringValue(value);
    }

    private static void WriteBinary(ref BsonSpanReader reader, Utf8JsonWriter json)
    {
        var bytes = reader.ReadBinary(out var subtype);
        if (subtype == BsonBinarySubtype.Uuid && bytes.Length == 16)
        {
            Tagged(json, JsonbTags.Uuid).WriteStringValue(new Guid(bytes, bigEndian: true).ToString());
            json.WriteEndObject();
            return;
        }

        Tagged(json, JsonbTags.Binary).WriteBase64StringValue(bytes);
        json.WriteNumber(JsonbTags.Subtype, (byte)subtype);
        json.WriteEndObject();
    }

    /// <summary>
    /// A finite double other than -0.0 is a plain number in positional notation with a fraction
    /// (jsonb would turn <c>1E+20</c> into an integer and lose that it was a double); the others
    /// are tagged text.
    /// </summary>
    private static void WriteDouble(Utf8JsonWriter json, double value)
    {
        if (!double.IsFinite(value) || (value == 0 && double.IsNegative(value)))
        {
            Tagged(json, JsonbTags.Double).WriteStringValue(double.IsNaN(value) ? "NaN" : value.ToString("R", CultureInfo.InvariantCulture));
            json.WriteEndObject();
            return;
        }

        json.WriteRawValue(JsonbNumbers.PositionalDouble(value), skipInputValidation: true);
    }

    /// <summary>A decimal keeps its scale as a jsonb number (numeric keeps trailing zeros); NaN, infinities, -0 and exponents are tagged text.</summary>
    private static void WriteDecimal(Utf8JsonWriter json, BsonDecimal128 value)
    {
        var text = value.ToString();
        Tagged(json, JsonbTags.Decimal);
        if (JsonbNumbers.IsPlainDecimal(text))
        {
            json.WriteRawValue(text, skipInputValidation: true);
        }
        else
        {
            json.WriteStringValue(text);
        }

        json.WriteEndObject();
    }
}
