using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Generators.ExecutionTests.Models;

namespace BLite.Generators.ExecutionTests.Mapping;

/// <summary>
/// The generated jsonb half of a mapper: edge values of every scalar, the text as PostgreSQL
/// prints it back (keys reordered, spaces), the conversions the C-BSON reader accepts, and bad
/// input refused naming the member. (Every round-trip test of this project also goes through jsonb:
/// see <see cref="RoundTrip.AssertRoundTrips{TId, T}"/>.)
/// </summary>
public sealed class JsonbTests
{
    private readonly ScalarDocumentDocumentMapper _mapper = new(new BsonFieldDictionary());

    public static TheoryData<ScalarDocument> EdgeDocuments() =>
    [
        ScalarTests.Sample(),
        new ScalarDocument
        {
            Text = "nul \0 inside, \"quotes\", \\ and \u001f control",
            Double = -0.0,
            Single = float.Epsilon,
            Int32 = int.MaxValue,
            Int16 = short.MaxValue,
            SByte = sbyte.MaxValue,
            Byte = byte.MinValue,
            Char = '\0',
            Int64 = long.MaxValue,
            UInt64 = long.MaxValue + 1UL,
            Decimal = decimal.MinValue,
            LocalTime = DateTime.MinValue,
            UtcTime = DateTime.SpecifyKind(DateTime.MaxValue, DateTimeKind.Utc),
            Offset = new DateTimeOffset(9999, 12, 31, 9, 59, 59, TimeSpan.FromHours(14)),
            Duration = TimeSpan.MinValue,
            Day = DateOnly.MinValue,
            Clock = TimeOnly.MaxValue,
            Payload = [],
        },
        new ScalarDocument { Double = double.NaN, Single = float.NegativeInfinity, Decimal = -0.00m, Offset = DateTimeOffset.MinValue, Duration = TimeSpan.MaxValue },
        new ScalarDocument { Double = double.PositiveInfinity, Single = float.MaxValue, Decimal = 0.0000001m, Guid = Guid.AllBitsSet },
        new ScalarDocument { Double = double.Epsilon, Single = -0.0f, Decimal = 0.000001000m, Offset = new DateTimeOffset(1, 1, 1, 14, 0, 0, TimeSpan.FromHours(14)) },
        new ScalarDocument { Double = double.MaxValue, Single = float.MinValue, Decimal = 1E-28m },
        new ScalarDocument { Double = 1E+20, Decimal = decimal.MaxValue, Int64 = long.MinValue },
        new ScalarDocument { Double = 1.5E-07, Decimal = 1.50m, Text = "" },
    ];

    [Theory]
    [MemberData(nameof(EdgeDocuments))]
    public void Edge_values_of_every_scalar_round_trip_through_jsonb_to_the_same_bytes(ScalarDocument document)
    {
        RoundTrip.AssertRoundTrips(_mapper, document);
    }

    [Theory]
    [MemberData(nameof(EdgeDocuments))]
    public void Text_as_PostgreSQL_prints_it_back_reads_to_the_same_document(ScalarDocument document)
    {
        var printed = AsPostgreSqlPrintsIt(RoundTrip.ToJsonb(_mapper, document));

        var copy = _mapper.ReadJsonb(Encoding.UTF8.GetBytes(printed));

        Assert.Equal(RoundTrip.ToBytes(_mapper, document), RoundTrip.ToBytes(_mapper, copy));
    }

    [Fact]
    public void Values_are_written_in_the_documented_form()
    {
        var document = new ScalarDocument
        {
            Int32 = 42,
            Int64 = 5,
            UInt64 = ulong.MaxValue,
            Double = 1E+20,
            Decimal = 1.50m,
            UtcTime = new DateTime(2024, 2, 29, 23, 59, 59, DateTimeKind.Utc).AddTicks(1234567),
            Offset = new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.FromMinutes(-210)).AddTicks(7),
            Guid = Guid.Parse("00112233-4455-6677-8899-aabbccddeeff"),
        };

        var json = Encoding.UTF8.GetString(RoundTrip.ToJsonb(_mapper, document));

        Assert.Contains("\"Int32\":42,", json, StringComparison.Ordinal);
        Assert.Contains("\"Int64\":{\"$long\":5}", json, StringComparison.Ordinal);
        Assert.Contains("\"UInt64\":{\"$ulong\":18446744073709551615}", json, StringComparison.Ordinal);
        Assert.Contains("\"Double\":100000000000000000000.0,", json, StringComparison.Ordinal);
        Assert.Contains("\"Decimal\":{\"$decimal\":1.50}", json, StringComparison.Ordinal);
        Assert.Contains("\"UtcTime\":{\"$date\":\"2024-02-29T23:59:59.1234567\",\"$kind\":1}", json, StringComparison.Ordinal);
        Assert.Contains("\"Offset\":{\"$dto\":\"2024-01-02T06:34:05.0000007\",\"$offset\":-210}", json, StringComparison.Ordinal);
        Assert.Contains("\"Guid\":{\"$uuid\":\"00112233-4455-6677-8899-aabbccddeeff\"}", json, StringComparison.Ordinal);
    }

    [Fact]
    public void Integers_stored_in_another_width_read_as_the_C_BSON_reader_reads_them()
    {
        var copy = _mapper.ReadJsonb("""{"Int32": {"$long": -7}, "Int64": 12, "UInt64": {"$long": 3}, "UInt32": 4, "Double": 2, "Decimal": {"$long": 9}, "Single": {"$long": 8}}"""u8);

        Assert.Equal((-7, 12L, 3UL, 4U, 2.0, 9m, 8f), (copy.Int32, copy.Int64, copy.UInt64, copy.UInt32, copy.Double, copy.Decimal, copy.Single));
    }

    [Fact]
    public void Keys_the_type_does_not_map_are_skipped()
    {
        var copy = _mapper.ReadJsonb("""{"Gone": {"deep": [1, {"$date": "x"}]}, "Text": "kept", "$$dollar": 1}"""u8);

        Assert.Equal("kept", copy.Text);
    }

    [Theory]
    [InlineData("""{"Int32": "seven"}""", "ScalarDocument.Int32", "found String")]
    [InlineData("""{"Int16": 40000}""", "ScalarDocument.Int16", "out of the member type's range")]
    [InlineData("""{"UInt64": -1}""", "ScalarDocument.UInt64", "out of the member type's range")]
    [InlineData("""{"Flag": 1}""", "ScalarDocument.Flag", "found Int32")]
    [InlineData("""{"Double": {"$date": "2024-02-29T23:59:59.1234567", "$kind": 1}}""", "ScalarDocument.Double", "found DateTime")]
    [InlineData("""{"UtcTime": {"$long": 5}}""", "ScalarDocument.UtcTime", "found Int64")]
    [InlineData("""{"Guid": "00112233-4455-6677-8899-aabbccddeeff"}""", "ScalarDocument.Guid", "found String")]
    [InlineData("""{"Decimal": 1.5}""", "ScalarDocument.Decimal", "found Double")]
    [InlineData("""{"Text": [1]}""", "ScalarDocument.Text", "found Array")]
    public void A_value_of_the_wrong_type_is_refused_naming_the_member(string stored, string member, string problem)
    {
        var error = Assert.Throws<BsonMappingException>(() => _mapper.ReadJsonb(Encoding.UTF8.GetBytes(stored)));

        Assert.Contains($"'{member}'", error.Message, StringComparison.Ordinal);
        Assert.Contains(problem, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("""{"Text": "open""", "ScalarDocument")]
    [InlineData("""{"Int32": 1,, "Text": "x"}""", "ScalarDocument.Int32")]
    [InlineData("""{"UtcTime": {"$date": "2024-13-45T00:00:00.0000000", "$kind": 1}}""", "ScalarDocument.UtcTime")]
    [InlineData("""{"Decimal": {"$decimal": "lots"}}""", "ScalarDocument.Decimal")]
    [InlineData("""{"Guid": {"$uuid": "not-a-guid"}}""", "ScalarDocument.Guid")]
    [InlineData("""{"Int64": {"$mystery": 1}}""", "ScalarDocument.Int64")]
    [InlineData("""[1, 2]""", "ScalarDocument")]
    [InlineData("""{"Text": "x"} trailing""", "ScalarDocument")]
    [InlineData("""{"$utf8": "not base64!"}""", "ScalarDocument")]
    public void Text_that_is_not_a_BLite_document_is_refused_naming_the_member(string stored, string member)
    {
        var error = Assert.ThrowsAny<BLiteException>(() => _mapper.ReadJsonb(Encoding.UTF8.GetBytes(stored)));

        Assert.True(error is BsonFormatException or BsonMappingException, error.GetType().Name);
        Assert.Contains($"'{member}'", error.Message, StringComparison.Ordinal);
    }

    /// <summary>
    /// What PostgreSQL's jsonb output does to the text: keys of each object shorter first, then by
    /// bytes (so <c>$date</c> still precedes <c>$kind</c>), and a space after every colon and comma.
    /// </summary>
    internal static string AsPostgreSqlPrintsIt(byte[] json)
    {
        var builder = new StringBuilder();
        Print(JsonNode.Parse(json), builder);
        return builder.ToString();
    }

    private static void Print(JsonNode? node, StringBuilder builder)
    {
        switch (node)
        {
            case JsonObject obj:
                builder.Append('{');
                var keys = obj.Select(p => p.Key).OrderBy(k => Encoding.UTF8.GetByteCount(k)).ThenBy(k => k, StringComparer.Ordinal).ToList();
                for (var i = 0; i < keys.Count; i++)
                {
                    builder.Append(i == 0 ? "" : ", ").Append(JsonSerializer.Serialize(keys[i])).Append(": ");
                    Print(obj[keys[i]], builder);
                }

                builder.Append('}');
                break;
            case JsonArray array:
                builder.Append('[');
                for (var i = 0; i < array.Count; i++)
                {
                    builder.Append(i == 0 ? "" : ", ");
                    Print(array[i], builder);
                }

                builder.Append(']');
                break;
            default:
                builder.Append(node is null ? "null" : node.ToJsonString());
                break;
        }
    }
}
