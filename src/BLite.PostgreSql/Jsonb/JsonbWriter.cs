using System.Text.Json;
using BLite.Bson;
using BLite.Bson.Jsonb;

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
                JsonbMemberWriter.WriteString(json, reader.ReadString());
                break;
            case BsonType.Int32:
                json.WriteNumberValue(reader.ReadInt32());
                break;
            case BsonType.Double:
                JsonbMemberWriter.WriteDouble(json, reader.ReadDouble());
                break;
            case BsonType.Int64:
                JsonbMemberWriter.WriteInt64(json, reader.ReadInt64());
                break;
            case BsonType.UInt64:
                JsonbMemberWriter.WriteUInt64(json, reader.ReadUInt64());
                break;
            case BsonType.Decimal128:
                JsonbMemberWriter.WriteDecimal128(json, reader.ReadDecimal128());
                break;
            case BsonType.Document:
                WriteDocument(ref reader, json, fields);
                break;
            case BsonType.Array:
                WriteArray(ref reader, json, fields);
                break;
            case BsonType.DateTime:
                JsonbMemberWriter.WriteDateTime(json, reader.ReadDateTime());
                break;
            case BsonType.DateTimeOffset:
                JsonbMemberWriter.WriteDateTimeOffset(json, reader.ReadDateTimeOffset());
                break;
            case BsonType.UtcDateTime:
                Tagged(json, JsonbTags.UtcDate).WriteNumberValue(reader.ReadUtcDateTimeMilliseconds());
                json.WriteEndObject();
                break;
            case BsonType.TimeSpan:
                JsonbMemberWriter.WriteTimeSpan(json, reader.ReadTimeSpan());
                break;
            case BsonType.DateOnly:
                JsonbMemberWriter.WriteDateOnly(json, reader.ReadDateOnly());
                break;
            case BsonType.TimeOnly:
                JsonbMemberWriter.WriteTimeOnly(json, reader.ReadTimeOnly());
                break;
            case BsonType.ObjectId:
                JsonbMemberWriter.WriteObjectId(json, reader.ReadObjectId());
                break;
            case BsonType.Binary:
                var bytes = reader.ReadBinary(out var subtype);
                JsonbMemberWriter.WriteBinary(json, bytes, subtype);
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
                JsonbMemberWriter.WriteString(json, reader.ReadString());
                json.WriteEndObject();
                break;
            case BsonType.JavaScript:
                Tagged(json, JsonbTags.Code);
                JsonbMemberWriter.WriteString(json, reader.ReadString());
                json.WriteEndObject();
                break;
            case BsonType.JavaScriptWithScope:
                var end = reader.BeginJavaScriptWithScope(out var code);
                Tagged(json, JsonbTags.Code);
                JsonbMemberWriter.WriteString(json, code);
                json.WritePropertyName(JsonbTags.Scope);
                WriteDocument(ref reader, json, fields);
                reader.EndJavaScriptWithScope(end);
                json.WriteEndObject();
                break;
            case BsonType.DbPointer:
                var pointer = reader.ReadDbPointer();
                Tagged(json, JsonbTags.DbPointer);
                JsonbMemberWriter.WriteString(json, pointer.Namespace);
                json.WriteString(JsonbTags.Id, pointer.Id.ToString());
                json.WriteEndObject();
                break;
            default:
                throw new BsonFormatException($"BSON type 0x{(byte)type:X2} has no jsonb form", reader.Position);
        }
    }

    private static Utf8JsonWriter Tagged(Utf8JsonWriter json, string tag)
    {
        json.WriteStartObject();
        json.WritePropertyName(tag);
        return json;
    }
}
