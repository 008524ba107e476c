using System.Globalization;
using System.Text;
using System.Text.Json;

namespace BLite.Bson.Jsonb;

/// <summary>
/// The slow path: any jsonb value as the stored type the transcoder would read it as, with its
/// text, for the conversions <see cref="Mapping.BsonMemberReader"/> accepts and for naming what
/// was found when it is refused. The fast paths never come here for the form BLite writes.
/// </summary>
public static partial class JsonbMemberReader
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>Reads (and consumes) the value the reader stands on.</summary>
    private static Stored ReadStored(ref Utf8JsonReader json)
    {
        var at = json.TokenStartIndex;
        switch (json.TokenType)
        {
            case JsonTokenType.Null:
                return new Stored(BsonType.Null, null, null, at);
            case JsonTokenType.True:
            case JsonTokenType.False:
                return new Stored(BsonType.Boolean, json.TokenType == JsonTokenType.True ? "true" : "false", null, at);
            case JsonTokenType.String:
                return new Stored(BsonType.String, json.GetString(), null, at);
            case JsonTokenType.Number:
                var type = json.TryGetInt32(out _) ? BsonType.Int32 : json.TryGetInt64(out _) ? BsonType.Int64 : BsonType.Double;
                return new Stored(type, Encoding.UTF8.GetString(json.ValueSpan), null, at);
            case JsonTokenType.StartArray:
                json.Skip();
                return new Stored(BsonType.Array, null, null, at);
            case JsonTokenType.StartObject when IsTagged(json):
                return ReadTagged(ref json, at);
            case JsonTokenType.StartObject:
                json.Skip();
                return new Stored(BsonType.Document, null, null, at);
            default:
                throw new JsonException($"unexpected {json.TokenType}");
        }
    }

    /// <summary>A tagged value: its tag and value, and at most one companion key (any order).</summary>
    private static Stored ReadTagged(ref Utf8JsonReader json, long at)
    {
        string? tag = null, text = null, companion = null;
        while (NextProperty(ref json))
        {
            var key = json.GetString()!;
            Next(ref json);
            if (key == "$scope")
            {
                json.Skip();
                tag = key;
                continue;
            }

            var value = json.TokenType switch
            {
                JsonTokenType.String => json.GetString()!,
                JsonTokenType.Number => Encoding.UTF8.GetString(json.ValueSpan),
                JsonTokenType.True => "true",
                JsonTokenType.False => "false",
                _ => throw new JsonException($"a tagged value holds a {json.TokenType}"),
            };
            if (key is "$kind" or "$offset" or "$options" or "$subtype" or "$id")
            {
                companion = value;
            }
            else
            {
                (tag, text) = (key, value);
            }
        }

        var type = tag switch
        {
            "$long" => BsonType.Int64,
            "$ulong" => BsonType.UInt64,
            "$decimal" => BsonType.Decimal128,
            "$double" => BsonType.Double,
            "$date" => BsonType.DateTime,
            "$dto" => BsonType.DateTimeOffset,
            "$utcDate" => BsonType.UtcDateTime,
            "$timeSpan" => BsonType.TimeSpan,
            "$dateOnly" => BsonType.DateOnly,
            "$timeOnly" => BsonType.TimeOnly,
            "$oid" => BsonType.ObjectId,
            "$uuid" or "$binary" => BsonType.Binary,
            "$utf8" => BsonType.String,
            "$regex" => BsonType.Regex,
            "$timestamp" => BsonType.Timestamp,
            "$minKey" => BsonType.MinKey,
            "$maxKey" => BsonType.MaxKey,
            "$undefined" => BsonType.Undefined,
            "$symbol" => BsonType.Symbol,
            "$code" => BsonType.JavaScript,
            "$scope" => BsonType.JavaScriptWithScope,
            _ => throw new JsonException($"unknown tag '{tag}'"),
        };
        return new Stored(type, tag == "$utf8" ? Encoding.UTF8.GetString(Convert.FromBase64String(text!)) : text, companion, at) { Tag = tag };
    }

    /// <summary>An integer member from any stored integer in range (Int32, Int64, UInt64), as C-BSON reads it.</summary>
    private static long ReadIntegerSlow(ref Utf8JsonReader json, string member, long min, long max)
        => IntegerFrom(ReadStored(ref json), member, min, max);

    private static long IntegerFrom(Stored stored, string member, long min, long max)
    {
        long value;
        switch (stored.Type)
        {
            case BsonType.Int32:
            case BsonType.Int64:
                value = long.Parse(stored.Text!, NumberStyles.AllowLeadingSign, Invariant);
                break;
            case BsonType.UInt64:
                var unsigned = ulong.Parse(stored.Text!, NumberStyles.None, Invariant);
                if (unsigned > long.MaxValue)
                {
                    throw OutOfRange(member, unsigned);
                }

                value = (long)unsigned;
                break;
            default:
                throw Mismatch(member, BsonType.Int64, stored.Type, stored.At);
        }

        return value < min || value > max ? throw OutOfRange(member, value) : value;
    }

    private static Stored Expect(ref Utf8JsonReader json, string member, BsonType expected)
    {
        var stored = ReadStored(ref json);
        return stored.Type == expected && stored.Text is not null ? stored : throw Mismatch(member, expected, stored.Type, stored.At);
    }

    private static DateTime ParseDate(string text) => DateTime.ParseExact(text, JsonbMemberWriter.DateFormat, Invariant);

    private static string Require(Stored stored, string companion) =>
        stored.Companion ?? throw new JsonException($"the tagged value lacks its '{companion}' key");

    private readonly record struct Stored(BsonType Type, string? Text, string? Companion, long At)
    {
        public string? Tag { get; init; }
    }
}
