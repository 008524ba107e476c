using System.Globalization;
using System.Text.Json;
using BLite.Bson;

namespace BLite.Core.Query;

public static partial class JsonFilterParser
{
    private static bool IsExtendedJsonWrapper(string key) => key is "$oid" or "$date" or "$numberInt" or "$numberLong"
        or "$numberDouble" or "$numberDecimal" or "$binary" or "$uuid" || IsInteropWrapper(key);

    /// <summary>The wrappers of the MongoDB interop types, which BLite.Bson's Extended JSON parser reads.</summary>
    private static bool IsInteropWrapper(string key) => key is "$regularExpression" or "$timestamp" or "$minKey" or "$maxKey"
        or "$undefined" or "$symbol" or "$code" or "$dbPointer";

    /// <summary>The object at the reader, when its first key is an interop wrapper, parsed by BLite.Bson's Extended JSON reader.</summary>
    private static bool TryParseInteropWrapper(ref Utf8JsonReader reader, out BsonValue value)
    {
        var lookahead = reader;
        if (lookahead.Read() && lookahead.TokenType == JsonTokenType.PropertyName && lookahead.GetString() is { } key && IsInteropWrapper(key))
        {
            var position = reader.TokenStartIndex;
            using var element = JsonDocument.ParseValue(ref reader);
            try
            {
                value = BsonDocument.Parse("{\"v\":" + element.RootElement.GetRawText() + "}")["v"];
                return true;
            }
            catch (BsonFormatException e)
            {
                throw new JsonFilterException($"Invalid {key} value: {e.Message}", position, key);
            }
        }

        value = default;
        return false;
    }

    /// <summary>One Extended JSON value; the reader is on its first token and ends on its last.</summary>
    private static BsonValue ParseValue(ref Utf8JsonReader reader)
    {
        switch (reader.TokenType)
        {
            case JsonTokenType.String:
                return reader.GetString();
            case JsonTokenType.Number:
                // Relaxed Extended JSON: integers that fit are Int32 / Int64, anything else a double.
                if (reader.TryGetInt32(out var int32))
                {
                    return int32;
                }

                if (reader.TryGetInt64(out var int64))
                {
                    return int64;
                }

                // An overflowing literal would otherwise become an infinity that silently matches nothing.
                if (!reader.TryGetDouble(out var number) || !double.IsFinite(number))
                {
                    throw Error(ref reader, $"The number {System.Text.Encoding.UTF8.GetString(reader.ValueSpan)} is out of the range of a double");
                }

                return number;
            case JsonTokenType.True:
                return true;
            case JsonTokenType.False:
                return false;
            case JsonTokenType.Null:
                return BsonValue.Null;
            case JsonTokenType.StartArray:
                var array = new BsonArray();
                while (Read(ref reader) != JsonTokenType.EndArray)
                {
                    array.Add(ParseValue(ref reader));
                }

                return array;
            case JsonTokenType.StartObject:
                return TryParseInteropWrapper(ref reader, out var wrapped) ? wrapped : ParseObjectValue(ref reader);
            default:
                throw Error(ref reader, $"Expected a value but found {reader.TokenType}");
        }
    }

    private static BsonValue ParseObjectValue(ref Utf8JsonReader reader)
    {
        var document = new BsonDocument();
        var first = true;
        while (Read(ref reader) != JsonTokenType.EndObject)
        {
            var position = reader.TokenStartIndex;
            var key = reader.GetString()!;
            Read(ref reader);
            if (first && IsExtendedJsonWrapper(key))
            {
                var value = ParseWrapper(ref reader, key, position);
                if (Read(ref reader) != JsonTokenType.EndObject)
                {
                    throw Error(ref reader, $"The Extended JSON value {key} must be the only key of its object");
                }

                return value;
            }

            if (key.StartsWith('$'))
            {
                throw new JsonFilterException($"Unknown Extended JSON type or misplaced operator '{key}' inside a value", position, key);
            }

            document.Add(key, ParseValue(ref reader));
            first = false;
        }

        return document;
    }

    private static BsonValue ParseWrapper(ref Utf8JsonReader reader, string key, long position)
    {
        try
        {
            switch (key)
            {
                case "$oid":
                    return ObjectId.Parse(RequireString(ref reader, key, position));
                case "$numberInt":
                    return int.Parse(RequireString(ref reader, key, position), NumberStyles.Integer, CultureInfo.InvariantCulture);
                case "$numberLong":
                    return long.Parse(RequireString(ref reader, key, position), NumberStyles.Integer, CultureInfo.InvariantCulture);
                case "$numberDouble":
                    return ParseDouble(RequireString(ref reader, key, position));
                case "$numberDecimal":
                    return BsonDecimal128.Parse(RequireString(ref reader, key, position));
                case "$uuid":
                    return Guid.Parse(RequireString(ref reader, key, position));
                case "$date":
                    return ParseDate(ref reader, position);
                default:
                    return ParseBinary(ref reader, position);
            }
        }
        catch (Exception e) when (e is FormatException or BsonFormatException or OverflowException or ArgumentException)
        {
            throw new JsonFilterException($"Invalid {key} value: {e.Message}", position, key);
        }
    }

    private static double ParseDouble(string text) => text switch
    {
        "Infinity" => double.PositiveInfinity,
        "-Infinity" => double.NegativeInfinity,
        "NaN" => double.NaN,
        _ => double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture),
    };

    /// <summary>
    /// <c>{"$date": "2024-05-01T10:00:00Z"}</c> (relaxed), <c>{"$date": {"$numberLong": "1714557600000"}}</c>
    /// (canonical) or a plain number of milliseconds since the Unix epoch; always a UTC DateTime.
    /// </summary>
    private static BsonValue ParseDate(ref Utf8JsonReader reader, long position)
    {
        switch (reader.TokenType)
        {
            case JsonTokenType.String:
                var text = reader.GetString()!;
                return DateTime.Parse(text, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal);
            case JsonTokenType.Number:
                return DateTime.UnixEpoch.AddMilliseconds(reader.GetInt64());
            case JsonTokenType.StartObject:
                var inner = ParseObjectValue(ref reader);
                if (inner.Type == BsonType.Int64 || inner.Type == BsonType.Int32)
                {
                    return DateTime.UnixEpoch.AddMilliseconds(inner.ToInt64());
                }

                break;
        }

        throw new JsonFilterException("$date needs an ISO-8601 string, a number of milliseconds or {\"$numberLong\": ...}", position, "$date");
    }

    /// <summary><c>{"$binary": {"base64": "...", "subType": "04"}}</c>.</summary>
    private static BsonValue ParseBinary(ref Utf8JsonReader reader, long position)
    {
        Expect(ref reader, JsonTokenType.StartObject, "an object after $binary");
        byte[]? bytes = null;
        var subtype = BsonBinarySubtype.Generic;
        while (Read(ref reader) != JsonTokenType.EndObject)
        {
            var name = reader.GetString();
            Read(ref reader);
            var value = RequireString(ref reader, "$binary." + name, position);
            switch (name)
            {
                case "base64":
                    bytes = Convert.FromBase64String(value);
                    break;
                case "subType":
                    subtype = (BsonBinarySubtype)byte.Parse(value, NumberStyles.HexNumber, CultureInfo.InvariantCulture);
                    break;
                default:
                    throw new JsonFilterException($"Unknown $binary field '{name}'", position, "$binary");
            }
        }

        return bytes is null
            ? throw new JsonFilterException("$binary needs a base64 field", position, "$binary")
            : BsonValue.FromBinary(bytes, subtype);
    }

    private static string RequireString(ref Utf8JsonReader reader, string key, long position) =>
        reader.TokenType == JsonTokenType.String
            ? reader.GetString()!
            : throw new JsonFilterException($"{key} needs a string value", position, key);
}
