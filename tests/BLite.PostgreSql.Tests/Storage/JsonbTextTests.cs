using System.Buffers;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using BLite.Bson;
using BLite.PostgreSql.Jsonb;

namespace BLite.PostgreSql.Tests.Storage;

/// <summary>
/// The reader's fast paths (names looked up without a string, unescaped strings copied as bytes)
/// read escaped and plain text alike: jsonb text in, C-BSON, and the same document written back.
/// </summary>
public sealed class JsonbTextTests
{
    [Fact]
    public void Escaped_plain_dollar_and_long_names_and_strings_read_back_unchanged()
    {
        var longName = new string('n', 200);
        var stored = "{\"plain\": \"ünï ß\", \"esc\\\"aped\": \"a \\\"quoted\\\"\\n line \\u00e9\", \"$$dollar\": \"x\", \"" + longName + "\": \"y\", \"half\": 2.5, \"again\": {\"plain\": \"z\"}}";
        var fields = new BsonFieldDictionary();
        fields.GetOrAdd("plain");

        var bson = new ArrayBufferWriter<byte>();
        var writer = new BsonSpanWriter(bson);
        JsonbReader.ReadDocument(Encoding.UTF8.GetBytes(stored), ref writer, fields);
        writer.Flush();

        var text = new ArrayBufferWriter<byte>();
        using (var json = new Utf8JsonWriter(text, new JsonWriterOptions { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping }))
        {
            JsonbWriter.WriteDocument(bson.WrittenSpan, json, fields);
        }

        Assert.Equal(
            "{\"plain\":\"ünï ß\",\"esc\\\"aped\":\"a \\\"quoted\\\"\\n line é\",\"$$dollar\":\"x\",\"" + longName + "\":\"y\",\"half\":2.5,\"again\":{\"plain\":\"z\"}}",
            Encoding.UTF8.GetString(text.WrittenSpan));
        Assert.True(fields.TryGetId("$dollar", out _), "a $$ name is stored under its own name");
        Assert.True(fields.TryGetId("esc\"aped", out _), "an escaped name is stored unescaped");
    }

    /// <summary>
    /// The common tags (decimal, long, date, offset date, uuid) read on their fast path give the
    /// values the general path gives; shapes it does not take (escapes, keys in another order,
    /// exponents, too many digits) fall back to the general path and still read right.
    /// </summary>
    [Theory]
    [InlineData("{\"$decimal\": 1.50}")]
    [InlineData("{\"$decimal\": -0.0001000}")]
    [InlineData("{\"$decimal\": 79228162514264337593543950335}")]
    [InlineData("{\"$decimal\": 1234567890123456789012345678901234}")]
    [InlineData("{\"$decimal\": 0.1234567890123456789012345678901234}")]
    [InlineData("{\"$decimal\": 120}")]
    [InlineData("{\"$decimal\": \"1E+3\"}")]
    [InlineData("{\"$long\": -9223372036854775808}")]
    [InlineData("{\"$long\": 9223372036854775807}")]
    [InlineData("{\"$date\": \"2024-02-29T23:59:59.1234567\", \"$kind\": 1}")]
    [InlineData("{\"$date\": \"0001-01-01T00:00:00.0000000\", \"$kind\": 2}")]
    [InlineData("{\"$kind\": 0, \"$date\": \"9999-12-31T23:59:59.9999999\"}")]
    [InlineData("{\"$date\": \"2024-01-02T03:04:05.\\u0030000001\", \"$kind\": 0}")]
    [InlineData("{\"$dto\": \"2024-01-02T06:34:05.0000007\", \"$offset\": -210}")]
    [InlineData("{\"$dto\": \"2024-01-02T06:34:05.0000007\", \"$offset\": 840}")]
    [InlineData("{\"$uuid\": \"00112233-4455-6677-8899-aabbccddeeff\"}")]
    public void Common_tags_read_the_same_value_as_the_general_path(string tagged)
    {
        var fields = new BsonFieldDictionary();
        var value = ReadValue("{\"v\": " + tagged + "}", fields);
        var expected = Expected(tagged);

        Assert.Equal(expected.Type, value.Type);
        Assert.Equal(expected, value);
        Assert.Equal(expected.ToString(), value.ToString());
    }

    private static BsonValue ReadValue(string document, BsonFieldDictionary fields)
    {
        var bson = new ArrayBufferWriter<byte>();
        var writer = new BsonSpanWriter(bson);
        JsonbReader.ReadDocument(Encoding.UTF8.GetBytes(document), ref writer, fields);
        writer.Flush();
        return BsonDocument.FromBytes(bson.WrittenSpan, fields)["v"];
    }

    /// <summary>The value each text stands for, built without the reader.</summary>
    private static BsonValue Expected(string tagged) => tagged switch
    {
        _ when tagged.Contains("1.50") => (BsonValue)BsonDecimal128.Parse("1.50"),
        _ when tagged.Contains("-0.0001000") => BsonDecimal128.Parse("-0.0001000"),
        _ when tagged.Contains("79228162514264337593543950335") => BsonDecimal128.Parse("79228162514264337593543950335"),
        _ when tagged.Contains("0.1234567890123456789012345678901234") => BsonDecimal128.Parse("0.1234567890123456789012345678901234"),
        _ when tagged.Contains("1234567890123456789012345678901234") => BsonDecimal128.Parse("1234567890123456789012345678901234"),
        _ when tagged.Contains(" 120") => BsonDecimal128.Parse("120"),
        _ when tagged.Contains("1E+3") => BsonDecimal128.Parse("1E+3"),
        _ when tagged.Contains("-9223372036854775808") => long.MinValue,
        _ when tagged.Contains("9223372036854775807") => long.MaxValue,
        _ when tagged.Contains("2024-02-29") => new DateTime(2024, 2, 29, 23, 59, 59, DateTimeKind.Utc).AddTicks(1234567),
        _ when tagged.Contains("0001-01-01") => new DateTime(1, 1, 1, 0, 0, 0, DateTimeKind.Local),
        _ when tagged.Contains("9999-12-31") => DateTime.MaxValue,
        _ when tagged.Contains("2024-01-02T03:04:05") => new DateTime(2024, 1, 2, 3, 4, 5, DateTimeKind.Unspecified).AddTicks(1),
        _ when tagged.Contains("-210") => new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.FromMinutes(-210)).AddTicks(7),
        _ when tagged.Contains("840") => new DateTimeOffset(2024, 1, 2, 20, 34, 5, TimeSpan.FromHours(14)).AddTicks(7),
        _ => new Guid("00112233-4455-6677-8899-aabbccddeeff"),
    };
}
