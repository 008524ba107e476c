using BLite.Bson.Interop;

namespace BLite.Bson.Tests.Interop;

/// <summary>
/// Cases written from the BSON 1.1 and Extended JSON v2 specification texts: for each type, the
/// standard BSON bytes its grammar gives, the canonical and relaxed Extended JSON, and a round
/// trip through both that changes nothing.
/// </summary>
public class MongoTypesSpecTests
{
    public static TheoryData<string, string, string> Cases => new()
    {
        { "08000000" + "FF6100" + "00", """{"a":{"$minKey":1}}""", """{"a":{"$minKey":1}}""" },
        { "08000000" + "7F6100" + "00", """{"a":{"$maxKey":1}}""", """{"a":{"$maxKey":1}}""" },
        { "08000000" + "066100" + "00", """{"a":{"$undefined":true}}""", """{"a":{"$undefined":true}}""" },
        // Timestamp: increment in the low 32 bits (first), seconds in the high 32 bits.
        { "10000000" + "116100" + "2A000000" + "15CD5B07" + "00", """{"a":{"$timestamp":{"t":123456789,"i":42}}}""", """{"a":{"$timestamp":{"t":123456789,"i":42}}}""" },
        { "10000000" + "116100" + "FFFFFFFF" + "FFFFFFFF" + "00", """{"a":{"$timestamp":{"t":4294967295,"i":4294967295}}}""", """{"a":{"$timestamp":{"t":4294967295,"i":4294967295}}}""" },
        // Regex: two cstrings.
        { "0F000000" + "0B6100" + "61626300" + "696D00" + "00", """{"a":{"$regularExpression":{"pattern":"abc","options":"im"}}}""", """{"a":{"$regularExpression":{"pattern":"abc","options":"im"}}}""" },
        { "0A000000" + "0B6100" + "00" + "00" + "00", """{"a":{"$regularExpression":{"pattern":"","options":""}}}""", """{"a":{"$regularExpression":{"pattern":"","options":""}}}""" },
        { "10000000" + "0E6100" + "04000000" + "61626300" + "00", """{"a":{"$symbol":"abc"}}""", """{"a":{"$symbol":"abc"}}""" },
        { "10000000" + "0D6100" + "04000000" + "61626300" + "00", """{"a":{"$code":"abc"}}""", """{"a":{"$code":"abc"}}""" },
        // Code with scope: int32 total, string, document; the scope follows the mode.
        { "1E000000" + "0F6100" + "16000000" + "02000000" + "7800" + "0C000000" + "107900" + "01000000" + "00" + "00",
            """{"a":{"$code":"x","$scope":{"y":{"$numberInt":"1"}}}}""", """{"a":{"$code":"x","$scope":{"y":1}}}""" },
        { "1A000000" + "0C6100" + "02000000" + "6200" + "56E1FC72E0C917E9C4714161" + "00",
            """{"a":{"$dbPointer":{"$ref":"b","$id":{"$oid":"56e1fc72e0c917e9c4714161"}}}}""", """{"a":{"$dbPointer":{"$ref":"b","$id":{"$oid":"56e1fc72e0c917e9c4714161"}}}}""" },
        // UTC datetime: canonical is always $numberLong; relaxed is ISO-8601 for years 1970-9999 only.
        { "10000000" + "096100" + "0100000000000000" + "00", """{"a":{"$date":{"$numberLong":"1"}}}""", """{"a":{"$date":"1970-01-01T00:00:00.001Z"}}""" },
        { "10000000" + "096100" + "0000000000000000" + "00", """{"a":{"$date":{"$numberLong":"0"}}}""", """{"a":{"$date":"1970-01-01T00:00:00Z"}}""" },
        { "10000000" + "096100" + "FFFFFFFFFFFFFFFF" + "00", """{"a":{"$date":{"$numberLong":"-1"}}}""", """{"a":{"$date":{"$numberLong":"-1"}}}""" },
        { "10000000" + "096100" + "00DC1FD277E60000" + "00", """{"a":{"$date":{"$numberLong":"253402300800000"}}}""", """{"a":{"$date":{"$numberLong":"253402300800000"}}}""" },
        { "10000000" + "096100" + "FFFFFFFFFFFFFF7F" + "00", """{"a":{"$date":{"$numberLong":"9223372036854775807"}}}""", """{"a":{"$date":{"$numberLong":"9223372036854775807"}}}""" },
        // Decimal128: the exponent and the sign of zero are kept.
        { "18000000" + "136100" + "0100000000000000" + "0000000000004630" + "00", """{"a":{"$numberDecimal":"1E+3"}}""", """{"a":{"$numberDecimal":"1E+3"}}""" },
        { "18000000" + "136100" + "0000000000000000" + "0000000000000080" + "00", """{"a":{"$numberDecimal":"-0E-6176"}}""", """{"a":{"$numberDecimal":"-0E-6176"}}""" },
        { "18000000" + "136100" + "0000000000000000" + "000000000000007C" + "00", """{"a":{"$numberDecimal":"NaN"}}""", """{"a":{"$numberDecimal":"NaN"}}""" },
        { "18000000" + "136100" + "0000000000000000" + "00000000000000F8" + "00", """{"a":{"$numberDecimal":"-Infinity"}}""", """{"a":{"$numberDecimal":"-Infinity"}}""" },
        // Doubles: -0.0 and the special values are strings in both modes where JSON has no number for them.
        { "10000000" + "016100" + "0000000000000080" + "00", """{"a":{"$numberDouble":"-0.0"}}""", """{"a":-0.0}""" },
        // JSON keeps no NaN payload; this one is .NET's double.NaN, which parsing "NaN" gives.
        { "10000000" + "016100" + "000000000000F8FF" + "00", """{"a":{"$numberDouble":"NaN"}}""", """{"a":{"$numberDouble":"NaN"}}""" },
        { "10000000" + "016100" + "000000000000F07F" + "00", """{"a":{"$numberDouble":"Infinity"}}""", """{"a":{"$numberDouble":"Infinity"}}""" },
        { "10000000" + "016100" + "000000000000F03F" + "00", """{"a":{"$numberDouble":"1.0"}}""", """{"a":1.0}""" },
        { "10000000" + "126100" + "0100000000000000" + "00", """{"a":{"$numberLong":"1"}}""", """{"a":1}""" },
        { "0C000000" + "106100" + "FFFFFFFF" + "00", """{"a":{"$numberInt":"-1"}}""", """{"a":-1}""" },
        { "0F000000" + "056100" + "02000000" + "80" + "0102" + "00", """{"a":{"$binary":{"base64":"AQI=","subType":"80"}}}""", """{"a":{"$binary":{"base64":"AQI=","subType":"80"}}}""" },
        // Old binary (0x02) nests its own length, which is written back.
        { "13000000" + "056100" + "06000000" + "02" + "02000000" + "0102" + "00", """{"a":{"$binary":{"base64":"AQI=","subType":"02"}}}""", """{"a":{"$binary":{"base64":"AQI=","subType":"02"}}}""" },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Bytes_and_both_json_modes_agree_and_round_trip(string hex, string canonical, string relaxed)
    {
        var bytes = Convert.FromHexString(hex);
        var document = StandardBsonReader.ReadDocument(bytes);

        Assert.Equal(canonical, document.ToJson(BsonJsonMode.Canonical));
        Assert.Equal(relaxed, document.ToJson(BsonJsonMode.Relaxed));
        Assert.Equal(hex, Convert.ToHexString(StandardBsonWriter.ToBytes(document)));
        Assert.Equal(hex, Convert.ToHexString(StandardBsonWriter.ToBytes(BsonDocument.Parse(canonical))));
        var dictionary = new BsonFieldDictionary();
        Assert.Equal(hex, Convert.ToHexString(StandardBsonWriter.ToBytes(BsonDocument.FromBytes(document.ToBytes(dictionary), dictionary))));
    }

    [Fact]
    public void Relaxed_json_of_every_case_parses_to_the_same_value()
    {
        foreach (var (hex, _, relaxed) in Cases.Select(row => ((string)row[0], (string)row[1], (string)row[2])))
        {
            var expected = StandardBsonReader.ReadDocument(Convert.FromHexString(hex))["a"];
            var parsed = BsonDocument.Parse(relaxed)["a"];
            // Relaxed JSON writes Int64 1 as a plain 1, which reads back as the smallest integer type.
            Assert.True(expected.Type == BsonType.Int64 ? parsed.ToInt64() == expected.AsInt64 : parsed.Equals(expected), relaxed);
        }
    }

    [Fact]
    public void Degenerate_array_keys_are_read_in_order_and_written_back_as_indexes()
    {
        // {"a": ["x" keyed "5", "y" keyed "2"]}
        var bytes = Convert.FromHexString("1F000000" + "046100" + "17000000" + "023500" + "02000000" + "7800" + "023200" + "02000000" + "7900" + "00" + "00");

        var document = StandardBsonReader.ReadDocument(bytes);

        Assert.Equal(new BsonArray { "x", "y" }, document["a"].AsArray);
        Assert.Equal("1F000000" + "046100" + "17000000" + "023000" + "02000000" + "7800" + "023100" + "02000000" + "7900" + "00" + "00",
            Convert.ToHexString(StandardBsonWriter.ToBytes(document)));
    }

    [Fact]
    public void Legacy_extended_json_pairs_are_accepted_and_dollar_keys_that_are_no_wrapper_stay_plain()
    {
        var document = BsonDocument.Parse("""
            {"r":{"$regex":"^a","$options":"i"},"b":{"$binary":"AQI=","$type":"05"},"s":{"$scope":{},"$code":"f()"},
             "q":{"$regex":{"$regularExpression":{"pattern":"x","options":""}}},"ref":{"$ref":"c","$id":1},"u":{"$uuid":"00112233-4455-6677-8899-aabbccddeeff"}}
            """);

        Assert.Equal(new BsonRegex("^a", "i"), document["r"].AsRegex);
        Assert.Equal(BsonBinarySubtype.Md5, document["b"].BinarySubtype);
        Assert.Equal("f()", document["s"].AsJavaScriptWithScope.Code);
        Assert.Equal(new BsonRegex("x", ""), document["q"].AsDocument["$regex"].AsRegex);
        Assert.Equal(new BsonDocument { { "$ref", "c" }, { "$id", 1 } }, document["ref"].AsDocument);
        Assert.Equal(Guid.Parse("00112233-4455-6677-8899-aabbccddeeff"), document["u"].AsGuid);
    }

    [Fact]
    public void Cross_type_order_puts_MinKey_first_and_MaxKey_last()
    {
        BsonValue[] ascending =
        [
            BsonValue.MinKey, BsonValue.Undefined, BsonValue.Null, BsonDecimal128.NaN, -1, BsonDecimal128.Parse("0.5"), 1, BsonDecimal128.PositiveInfinity,
            "s", new BsonSymbol("t"), new BsonDocument(), new BsonArray(), new byte[1], ObjectId.Empty, false,
            BsonValue.FromUnixMilliseconds(long.MinValue), new DateTime(2000, 1, 1, 0, 0, 0, DateTimeKind.Utc), BsonValue.FromUnixMilliseconds(long.MaxValue),
            TimeSpan.Zero, DateOnly.MinValue, TimeOnly.MinValue, new BsonTimestamp(0, 1), new BsonTimestamp(1, 0), new BsonRegex("a"),
            new BsonDbPointer("n", ObjectId.Empty), new BsonJavaScript("c"), new BsonJavaScriptWithScope("c", new BsonDocument()), BsonValue.MaxKey,
        ];
        for (var i = 1; i < ascending.Length; i++)
        {
            Assert.True(ascending[i - 1].CompareTo(ascending[i]) < 0, $"{ascending[i - 1]} should sort before {ascending[i]}");
            Assert.True(ascending[i].CompareTo(ascending[i - 1]) > 0, $"{ascending[i]} should sort after {ascending[i - 1]}");
        }

        Assert.Equal(0, ((BsonValue)BsonDecimal128.Parse("1E+3")).CompareTo(1000));
        Assert.Equal((BsonValue)BsonDecimal128.Parse("1.0"), (BsonValue)BsonDecimal128.Parse("1.00"));
    }
}
