using System.Globalization;
using System.Text;
using System.Text.Json;
using BLite.Bson;

namespace BLite.PostgreSql.Jsonb;

/// <summary>
/// Converts BLite's jsonb text back into the C-BSON bytes the generated mapper reads, in one
/// pass of a <see cref="Utf8JsonReader"/>: the inverse of <see cref="JsonbWriter"/>. Malformed
/// input raises <see cref="BsonFormatException"/>.
/// </summary>
internal static partial class JsonbReader
{
    public static void ReadDocument(ReadOnlySpan<byte> utf8Json, ref BsonSpanWriter bson, BsonFieldDictionary fields)
    {
        var json = new Utf8JsonReader(utf8Json, new JsonReaderOptions { MaxDepth = BsonLimits.MaxDepth + 2 });
        try
        {
            Next(ref json);
            if (json.TokenType != JsonTokenType.StartObject)
            {
                throw Malformed("a stored document must be a JSON object", json);
            }

            WriteDocumentBody(ref json, ref bson, fields);
        }
        catch (Exception error) when (error is JsonException or FormatException or OverflowException or InvalidOperationException or ArgumentException)
        {
            throw new BsonFormatException($"The stored jsonb is not a BLite document: {error.Message}", (int)json.TokenStartIndex);
        }
    }

    /// <summary>Writes the object the reader stands on (its start token already read) as a document.</summary>
    private static void WriteDocumentBody(ref Utf8JsonReader json, ref BsonSpanWriter bson, BsonFieldDictionary fields)
    {
        var token = bson.BeginDocument();
        var byUtf8 = Utf8FieldIds.For(fields);
        while (Next(ref json) == JsonTokenType.PropertyName)
        {
            var fieldId = FieldId(ref json, fields, byUtf8);
            Next(ref json);
            WriteValue(ref json, ref bson, fields, fieldId, isItem: false);
        }

        bson.EndDocument(token);
    }

    private static void WriteValue(ref Utf8JsonReader json, ref BsonSpanWriter bson, BsonFieldDictionary fields, ushort fieldId, bool isItem)
    {
        switch (json.TokenType)
        {
            case JsonTokenType.Null:
                Header(ref bson, BsonType.Null, fieldId, isItem);
                break;
            case JsonTokenType.True:
            case JsonTokenType.False:
                Header(ref bson, BsonType.Boolean, fieldId, isItem);
                bson.WriteBoolean(json.TokenType == JsonTokenType.True);
                break;
            case JsonTokenType.String:
                Header(ref bson, BsonType.String, fieldId, isItem);
                if (json.ValueIsEscaped)
                {
                    bson.WriteString(json.GetString()!);
                }
                else
                {
                    // PostgreSQL's jsonb text is valid UTF-8: the unescaped bytes go to the document as they are.
                    bson.WriteStringUtf8(json.ValueSpan);
                }

                break;
            case JsonTokenType.Number:
                WriteNumber(ref json, ref bson, fieldId, isItem);
                break;
            case JsonTokenType.StartArray:
                Header(ref bson, BsonType.Array, fieldId, isItem);
                var array = bson.BeginArray();
                while (Next(ref json) != JsonTokenType.EndArray)
                {
                    WriteValue(ref json, ref bson, fields, 0, isItem: true);
                }

                bson.EndArray(array);
                break;
            case JsonTokenType.StartObject:
                var peek = json;
                if (Next(ref peek) == JsonTokenType.PropertyName && IsTagKey(ref peek))
                {
                    if (!TryWriteCommonTag(ref json, ref bson, fieldId, isItem))
                    {
                        WriteTagged(ref json, ref bson, fields, fieldId, isItem);
                    }
                }
                else
                {
                    Header(ref bson, BsonType.Document, fieldId, isItem);
                    WriteDocumentBody(ref json, ref bson, fields);
                }

                break;
            default:
                throw Malformed($"unexpected {json.TokenType}", json);
        }
    }

    /// <summary>
    /// The field id of the property name the reader stands on, found without allocating a string
    /// for names the dictionary already holds (every name after a document's first read).
    /// </summary>
    private static ushort FieldId(ref Utf8JsonReader json, BsonFieldDictionary fields, Utf8FieldIds byUtf8)
    {
        if (!json.ValueIsEscaped && byUtf8.TryGet(json.ValueSpan, out var known))
        {
            return known;
        }

        var fieldId = FieldIdByName(ref json, fields);
        if (!json.ValueIsEscaped)
        {
            byUtf8.Add(json.ValueSpan, fieldId);
        }

        return fieldId;
    }

    private static ushort FieldIdByName(ref Utf8JsonReader json, BsonFieldDictionary fields)
    {
        const int MaxStackName = 128;
        if (json.ValueSpan.Length <= MaxStackName)
        {
            Span<char> buffer = stackalloc char[MaxStackName];
            ReadOnlySpan<char> name = buffer[..json.CopyString(buffer)];
            if (name.StartsWith("$$", StringComparison.Ordinal))
            {
                name = name[1..];
            }

            if (fields.TryGetId(name, out var id))
            {
                return id;
            }
        }

        return fields.GetOrAdd(JsonbTags.UnescapeName(json.GetString()!));
    }

    private static bool IsTagKey(ref Utf8JsonReader key) =>
        key.ValueIsEscaped ? JsonbTags.IsTag(key.GetString()) : key.ValueSpan is [(byte)'$', var second, ..] && second != (byte)'$';

    /// <summary>A plain number: an integer is an Int32 (larger ones, never written by BLite, an Int64), one with a fraction a Double.</summary>
    private static void WriteNumber(ref Utf8JsonReader json, ref BsonSpanWriter bson, ushort fieldId, bool isItem)
    {
        if (json.TryGetInt32(out var int32))
        {
            Header(ref bson, BsonType.Int32, fieldId, isItem);
            bson.WriteInt32(int32);
        }
        else if (json.TryGetInt64(out var int64))
        {
            Header(ref bson, BsonType.Int64, fieldId, isItem);
            bson.WriteInt64(int64);
        }
        else
        {
            Header(ref bson, BsonType.Double, fieldId, isItem);
            bson.WriteDouble(double.Parse(json.ValueSpan, NumberStyles.Float, CultureInfo.InvariantCulture));
        }
    }

    /// <summary>A tagged value: its tag key, its value, and at most one companion key (any order; a <c>$scope</c> comes after <c>$code</c>).</summary>
    private static void WriteTagged(ref Utf8JsonReader json, ref BsonSpanWriter bson, BsonFieldDictionary fields, ushort fieldId, bool isItem)
    {
        string? tag = null, value = null, companion = null, companionValue = null;
        while (Next(ref json) == JsonTokenType.PropertyName)
        {
            var key = json.GetString()!;
            Next(ref json);
            if (key == JsonbTags.Scope)
            {
                if (tag != JsonbTags.Code || value is null)
                {
                    throw Malformed("$scope must follow $code", json);
                }

                Header(ref bson, BsonType.JavaScriptWithScope, fieldId, isItem);
                var token = bson.BeginJavaScriptWithScope(value);
                if (json.TokenType != JsonTokenType.StartObject)
                {
                    throw Malformed("$scope must be an object", json);
                }

                WriteDocumentBody(ref json, ref bson, fields);
                bson.EndJavaScriptWithScope(token);
                Next(ref json);
                return;
            }

            var text = ScalarText(ref json);
            if (key is JsonbTags.Kind or JsonbTags.Offset or JsonbTags.Options or JsonbTags.Subtype or JsonbTags.Id)
            {
                (companion, companionValue) = (key, text);
            }
            else
            {
                (tag, value) = (key, text);
            }
        }

        if (tag is null || value is null)
        {
            throw Malformed("a tagged value has no tag", json);
        }

        WriteTaggedScalar(ref bson, tag, value, companion, companionValue, fieldId, isItem);
    }

    private static void WriteTaggedScalar(ref BsonSpanWriter bson, string tag, string value, string? companion, string? companionValue, ushort fieldId, bool isItem)
    {
        var invariant = CultureInfo.InvariantCulture;
        switch (tag)
        {
            case JsonbTags.Long:
                Header(ref bson, BsonType.Int64, fieldId, isItem);
                bson.WriteInt64(long.Parse(value, invariant));
                break;
            case JsonbTags.ULong:
                Header(ref bson, BsonType.UInt64, fieldId, isItem);
                bson.WriteUInt64(ulong.Parse(value, invariant));
                break;
            case JsonbTags.Decimal:
                Header(ref bson, BsonType.Decimal128, fieldId, isItem);
                bson.WriteDecimal128(BsonDecimal128.Parse(value));
                break;
            case JsonbTags.Double:
                Header(ref bson, BsonType.Double, fieldId, isItem);
                bson.WriteDouble(double.Parse(value, NumberStyles.Float, invariant));
                break;
            case JsonbTags.Date:
                var kind = (DateTimeKind)int.Parse(Require(companion, companionValue, JsonbTags.Kind), invariant);
                Header(ref bson, BsonType.DateTime, fieldId, isItem);
                bson.WriteDateTime(DateTime.SpecifyKind(DateTime.ParseExact(value, JsonbTags.DateFormat, invariant), kind));
                break;
            case JsonbTags.DateTimeOffset:
                var offset = TimeSpan.FromMinutes(int.Parse(Require(companion, companionValue, JsonbTags.Offset), invariant));
                var utc = DateTime.ParseExact(value, JsonbTags.DateFormat, invariant);
                Header(ref bson, BsonType.DateTimeOffset, fieldId, isItem);
                bson.WriteDateTimeOffset(new DateTimeOffset(utc.Ticks + offset.Ticks, offset));
                break;
            case JsonbTags.UtcDate:
                Header(ref bson, BsonType.UtcDateTime, fieldId, isItem);
                bson.WriteUtcDateTimeMilliseconds(long.Parse(value, invariant));
                break;
            case JsonbTags.TimeSpan:
                Header(ref bson, BsonType.TimeSpan, fieldId, isItem);
                bson.WriteTimeSpan(new TimeSpan(long.Parse(value, invariant)));
                break;
            case JsonbTags.DateOnly:
                Header(ref bson, BsonType.DateOnly, fieldId, isItem);
                bson.WriteDateOnly(DateOnly.ParseExact(value, JsonbTags.DateOnlyFormat, invariant));
                break;
            case JsonbTags.TimeOnly:
                Header(ref bson, BsonType.TimeOnly, fieldId, isItem);
                bson.WriteTimeOnly(new TimeOnly(long.Parse(value, invariant)));
                break;
            case JsonbTags.ObjectId:
                Header(ref bson, BsonType.ObjectId, fieldId, isItem);
                bson.WriteObjectId(ObjectId.Parse(value));
                break;
            case JsonbTags.Uuid:
                Header(ref bson, BsonType.Binary, fieldId, isItem);
                bson.WriteGuid(Guid.Parse(value, invariant));
                break;
            case JsonbTags.Binary:
                Header(ref bson, BsonType.Binary, fieldId, isItem);
                bson.WriteBinary(Convert.FromBase64String(value), (BsonBinarySubtype)byte.Parse(Require(companion, companionValue, JsonbTags.Subtype), invariant));
                break;
            case JsonbTags.Utf8:
                Header(ref bson, BsonType.String, fieldId, isItem);
                bson.WriteStringUtf8(Convert.FromBase64String(value));
                break;
            case JsonbTags.Regex:
                Header(ref bson, BsonType.Regex, fieldId, isItem);
                bson.WriteRegex(new BsonRegex(value, Require(companion, companionValue, JsonbTags.Options)));
                break;
            case JsonbTags.Timestamp:
                Header(ref bson, BsonType.Timestamp, fieldId, isItem);
                bson.WriteTimestamp(BsonTimestamp.FromValue(ulong.Parse(value, invariant)));
                break;
            case JsonbTags.MinKey:
                Header(ref bson, BsonType.MinKey, fieldId, isItem);
                break;
            case JsonbTags.MaxKey:
                Header(ref bson, BsonType.MaxKey, fieldId, isItem);
                break;
            case JsonbTags.Undefined:
                Header(ref bson, BsonType.Undefined, fieldId, isItem);
                break;
            case JsonbTags.Symbol:
                Header(ref bson, BsonType.Symbol, fieldId, isItem);
                bson.WriteString(value);
                break;
            case JsonbTags.Code:
                Header(ref bson, BsonType.JavaScript, fieldId, isItem);
                bson.WriteString(value);
                break;
            case JsonbTags.DbPointer:
                Header(ref bson, BsonType.DbPointer, fieldId, isItem);
                bson.WriteDbPointer(new BsonDbPointer(value, ObjectId.Parse(Require(companion, companionValue, JsonbTags.Id))));
                break;
            default:
                throw new FormatException($"unknown tag '{tag}'");
        }
    }

    private static string Require(string? companion, string? companionValue, string expected) =>
        companion == expected && companionValue is not null ? companionValue : throw new FormatException($"the tagged value lacks its '{expected}' key");

    /// <summary>The text of a scalar token: a string's value, a number's digits as written, true/false.</summary>
    private static string ScalarText(ref Utf8JsonReader json) => json.TokenType switch
    {
        JsonTokenType.String => json.GetString()!,
        JsonTokenType.Number => Encoding.UTF8.GetString(json.ValueSpan),
        JsonTokenType.True => "true",
        JsonTokenType.False => "false",
        _ => throw new FormatException($"a tagged value holds a {json.TokenType}"),
    };

    private static void Header(ref BsonSpanWriter bson, BsonType type, ushort fieldId, bool isItem)
    {
        if (isItem)
        {
            bson.WriteItemHeader(type);
        }
        else
        {
            bson.WriteFieldHeader(type, fieldId);
        }
    }

    private static JsonTokenType Next(ref Utf8JsonReader json)
    {
        if (!json.Read())
        {
            throw new FormatException("the JSON ends early");
        }

        return json.TokenType;
    }

    private static FormatException Malformed(string problem, Utf8JsonReader json) =>
        new($"{problem} (at byte {json.TokenStartIndex})");
}
