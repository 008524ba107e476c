using BLite.Bson.Tests.Documents;

namespace BLite.Bson.Tests.Json;

public class BsonJsonTests
{
    [Fact]
    public void Relaxed_output_matches_the_documented_mapping()
    {
        var document = new BsonDocument
        {
            { "_id", ObjectId.Parse("5f1d7a2b9c3e4f5a6b7c8d9e") },
            { "i", 1 },
            { "l", 2L },
            { "d", 3.0 },
            { "nan", double.NaN },
            { "m", 1.50m },
            { "s", "a\"b\n" },
            { "t", true },
            { "n", BsonValue.Null },
            { "bin", new byte[] { 1, 2, 3 } },
            { "g", Guid.Parse("00112233-4455-6677-8899-aabbccddeeff") },
            { "utc", new DateTime(2024, 1, 2, 3, 4, 5, 678, DateTimeKind.Utc) },
            { "local", new DateTime(2024, 1, 2, 3, 4, 5, DateTimeKind.Local).AddTicks(1) },
            { "plain", new DateTime(2024, 1, 2) },
            { "dto", new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.FromHours(2)) },
            { "ts", new TimeSpan(1, 2, 3, 4, 5) },
            { "do", new DateOnly(2024, 1, 2) },
            { "to", new TimeOnly(3, 4, 5) },
            { "u", ulong.MaxValue },
            { "a", new BsonArray { 1, "x" } },
        };
        var expected = """
            {"_id":{"$oid":"5f1d7a2b9c3e4f5a6b7c8d9e"},"i":1,"l":2,"d":3.0,"nan":{"$numberDouble":"NaN"},"m":{"$numberDecimal":"1.50"},
            "s":"a\"b\n","t":true,"n":null,"bin":{"$binary":{"base64":"AQID","subType":"00"}},
            "g":{"$binary":{"base64":"ABEiM0RVZneImaq7zN3u/w==","subType":"04"}},"utc":{"$date":"2024-01-02T03:04:05.678Z"},
            "local":{"$dateLocal":"2024-01-02T03:04:05.0000001"},"plain":{"$dateUnspecified":"2024-01-02T00:00:00"},
            "dto":{"$dateTimeOffset":"2024-01-02T03:04:05+02:00"},"ts":{"$timeSpan":"1.02:03:04.0050000"},"do":{"$dateOnly":"2024-01-02"},
            "to":{"$timeOnly":"03:04:05"},"u":{"$numberULong":"18446744073709551615"},"a":[1,"x"]}
            """.Replace("\n", "", StringComparison.Ordinal);
        Assert.Equal(expected, document.ToJson());
    }

    [Fact]
    public void Canonical_output_wraps_every_number()
    {
        var document = new BsonDocument { { "i", 1 }, { "l", 2L }, { "d", -0.0 } };
        Assert.Equal("""{"i":{"$numberInt":"1"},"l":{"$numberLong":"2"},"d":{"$numberDouble":"-0.0"}}""", document.ToJson(BsonJsonMode.Canonical));
    }

    [Fact]
    public void Canonical_json_round_trips_every_type_exactly()
    {
        var original = SampleDocuments.EveryType();
        var parsed = BsonDocument.Parse(original.ToJson(BsonJsonMode.Canonical));
        Assert.True(SampleDocuments.DeepEqualsExact(original, parsed), parsed.ToJson());
    }

    [Fact]
    public void Relaxed_json_round_trips_every_type_except_small_int64_which_comes_back_as_int32()
    {
        var original = SampleDocuments.EveryType();
        var parsed = BsonDocument.Parse(original.ToJson());
        Assert.Equal(BsonType.Int32, parsed["int64Small"].Type);
        Assert.Equal(5, parsed["int64Small"].AsInt32);
        parsed["int64Small"] = 5L;
        parsed["uint"] = uint.MaxValue;
        Assert.True(SampleDocuments.DeepEqualsExact(original, parsed), parsed.ToJson());
    }

    [Fact]
    public void Mongodb_canonical_and_relaxed_inputs_are_accepted()
    {
        var document = BsonDocument.Parse("""
            {
              "int": {"$numberInt": "-5"}, "long": {"$numberLong": "9007199254740993"},
              "double": {"$numberDouble": "-Infinity"}, "plainDouble": 1e3, "bigInteger": 123456789012345678901234567890,
              "dec": {"$numberDecimal": "-1.2E+3"}, "date": {"$date": {"$numberLong": "1577836800000"}},
              "isoDate": {"$date": "2020-01-01T01:00:00+01:00"}, "uuid": {"$uuid": "00112233-4455-6677-8899-aabbccddeeff"},
              "bin": {"$binary": {"subType": "80", "base64": ""}}, "$notAWrapper": 1
            }
            """);
        Assert.Equal(-5, document["int"].AsInt32);
        Assert.Equal(9007199254740993L, document["long"].AsInt64);
        Assert.Equal(double.NegativeInfinity, document["double"].AsDouble);
        Assert.Equal(1000.0, document["plainDouble"].AsDouble);
        Assert.Equal(BsonType.Double, document["bigInteger"].Type);
        Assert.Equal(-1200m, document["dec"].AsDecimal);
        var newYear = new DateTime(2020, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        Assert.Equal(newYear, document["date"].AsDateTime);
        Assert.Equal(DateTimeKind.Utc, document["date"].AsDateTime.Kind);
        Assert.Equal(newYear, document["isoDate"].AsDateTime);
        Assert.Equal(Guid.Parse("00112233-4455-6677-8899-aabbccddeeff"), document["uuid"].AsGuid);
        Assert.Equal((BsonBinarySubtype)0x80, document["bin"].BinarySubtype);
        Assert.Empty(document["bin"].AsBinary);
        Assert.Equal(1, document["$notAWrapper"].AsInt32);
    }

    [Fact]
    public void Decimal_text_keeps_scale_sign_and_every_digit()
    {
        var document = BsonDocument.Parse("""{"a":{"$numberDecimal":"-0.000"},"b":{"$numberDecimal":"79228162514264337593543950335"},"c":{"$numberDecimal":"1.0000000000000000000000000000"}}""");
        Assert.Equal(decimal.GetBits(new decimal(0, 0, 0, true, 3)), decimal.GetBits(document["a"].AsDecimal));
        Assert.Equal(decimal.MaxValue, document["b"].AsDecimal);
        Assert.Equal(28, document["c"].AsDecimal.Scale);
    }

    [Theory]
    [InlineData("""{"a":1""", "Invalid JSON")]
    [InlineData("""{"a":1,}""", "Invalid JSON")]
    [InlineData("""{"a":1} x""", "Invalid JSON")]
    [InlineData("""[1]""", "must be a JSON object")]
    [InlineData("", "Invalid JSON")]
    [InlineData("""{"a":1,"a":2}""", "Duplicate field")]
    [InlineData("""{"a":{"$oid":"xyz"}}""", "$oid")]
    [InlineData("""{"a":{"$oid":"5f1d7a2b9c3e4f5a6b7c8d9e","b":1}}""", "only key")]
    [InlineData("""{"a":{"$numberInt":"99999999999"}}""", "$numberInt")]
    [InlineData("""{"a":{"$numberDecimal":"nan1"}}""", "Infinity, Inf and NaN")]
    [InlineData("""{"a":{"$numberDecimal":"1.2.3"}}""", "second decimal point")]
    [InlineData("""{"a":{"$numberDecimal":"1E+6145"}}""", "$numberDecimal")]
    [InlineData("""{"a":{"$numberDecimal":"1234567890123456789012345678901234.5"}}""", "$numberDecimal")]
    [InlineData("""{"a":{"$regularExpression":{"pattern":"x"}}}""", "needs both")]
    [InlineData("""{"a":{"$regularExpression":{"pattern":1,"options":""}}}""", "$regularExpression.pattern")]
    [InlineData("""{"a":{"$regularExpression":{"pattern":"x","options":"","z":""}}}""", "unexpected or repeated key")]
    [InlineData("""{"a":{"$timestamp":{"t":-1,"i":0}}}""", "$timestamp.t")]
    [InlineData("""{"a":{"$timestamp":{"t":1}}}""", "needs both")]
    [InlineData("""{"a":{"$minKey":2}}""", "$minKey")]
    [InlineData("""{"a":{"$undefined":false}}""", "$undefined")]
    [InlineData("""{"a":{"$code":"x","$scope":1}}""", "$scope")]
    [InlineData("""{"a":{"$code":"x","b":1}}""", "$code")]
    [InlineData("""{"a":{"$dbPointer":{"$ref":"db.c","$id":"x"}}}""", "$oid")]
    [InlineData("""{"a":{"$symbol":1}}""", "$symbol")]
    [InlineData("""{"a":{"$date":42}}""", "legacy")]
    [InlineData("""{"a":{"$binary":{"base64":"!!","subType":"00"}}}""", "base64")]
    [InlineData("""{"a":{"$binary":{"base64":"AA=="}}}""", "subType")]
    [InlineData("""{"a":{"$date":"2020-01-01"}}""", "$date")]
    [InlineData("""{"a":{"$date":{"$numberLong":"x"}}}""", "$numberLong")]
    [InlineData("""{"a":1e400}""", "out of the range")]
    [InlineData("""{"a":"\ud800"}""", "Invalid string")]
    [InlineData("""{"a":{"$timeOnly":"25:00:00"}}""", "$timeOnly")]
    public void Malformed_json_gives_a_format_exception_that_says_what(string json, string expectedFragment)
    {
        var error = Assert.Throws<BsonFormatException>(() => BsonDocument.Parse(json));
        Assert.Contains(expectedFragment, error.Message);
        Assert.InRange(error.Offset, 0, json.Length);
    }

    [Fact]
    public void Legacy_mode_reads_a_bare_number_date_as_unix_milliseconds_and_standard_mode_refuses_it()
    {
        const string json = """{"a":{"$date":1577836800000},"b":{"$date":-62135596800001},"c":{"$date":"2020-01-01T00:00:00Z"}}""";

        var legacy = BsonDocument.Parse(json, BsonJsonParseMode.Legacy);

        Assert.Equal(new DateTime(2020, 1, 1, 0, 0, 0, DateTimeKind.Utc), legacy["a"].AsDateTime);
        Assert.Equal(BsonType.UtcDateTime, legacy["b"].Type);
        Assert.Equal(legacy["a"], legacy["c"]);
        Assert.Equal(BsonDocument.Parse(legacy.ToJson(BsonJsonMode.Canonical)), legacy);
        var refused = Assert.Throws<BsonFormatException>(() => BsonDocument.Parse(json, BsonJsonParseMode.Standard));
        Assert.Contains("BsonJsonParseMode.Legacy", refused.Message);
        Assert.Equal(json.IndexOf("1577836800000", StringComparison.Ordinal), refused.Offset);
        Assert.Throws<BsonFormatException>(() => BsonDocument.Parse("""{"a":{"$date":1.5}}""", BsonJsonParseMode.Legacy));
        Assert.Throws<BsonFormatException>(() => BsonDocument.Parse("""{"a":{"$date":1e30}}""", BsonJsonParseMode.Legacy));
        Assert.Throws<ArgumentOutOfRangeException>(() => BsonDocument.Parse("{}", (BsonJsonParseMode)7));
    }

    [Fact]
    public void Json_error_offset_points_at_the_bad_token_in_characters()
    {
        const string json = """{"é😀":1, "x": {"$oid": "bad"}}""";
        var error = Assert.Throws<BsonFormatException>(() => BsonDocument.Parse(json));
        Assert.Equal(json.IndexOf("\"bad\"", StringComparison.Ordinal), error.Offset);
    }

    [Fact]
    public void Json_nesting_to_the_limit_parses_and_deeper_is_refused()
    {
        var ok = string.Concat(Enumerable.Repeat("{\"a\":", BsonLimits.MaxDepth - 1)) + "{}" + new string('}', BsonLimits.MaxDepth - 1);
        Assert.Equal(1, BsonDocument.Parse(ok).Count);
        var tooDeep = string.Concat(Enumerable.Repeat("{\"a\":", BsonLimits.MaxDepth)) + "[]" + new string('}', BsonLimits.MaxDepth);
        Assert.Contains("Nesting", Assert.Throws<BsonFormatException>(() => BsonDocument.Parse(tooDeep)).Message);
        var farTooDeep = new string('[', 100_000);
        Assert.Throws<BsonFormatException>(() => BsonDocument.Parse("{\"a\":" + farTooDeep));
    }

    [Fact]
    public void Strings_with_escapes_controls_and_surrogate_pairs_round_trip()
    {
        var text = "quote\" backslash\\ slash/ tab\t nul\0 bell\u0007 é 😀 \u2028";
        var document = BsonDocument.Parse(new BsonDocument { { text, text } }.ToJson());
        Assert.Equal(text, document[text].AsString);
    }

    [Fact]
    public void Unpaired_surrogate_in_the_text_is_a_format_error() =>
        Assert.Throws<BsonFormatException>(() => BsonDocument.Parse("{\"a\":\"\uD800\"}"));
}
