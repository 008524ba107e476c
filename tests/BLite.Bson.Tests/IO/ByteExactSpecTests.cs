namespace BLite.Bson.Tests.IO;

/// <summary>Expected bytes written by hand from docs/format.md, section 1.</summary>
public class ByteExactSpecTests
{
    private static byte[] Hex(string spaced) => Convert.FromHexString(spaced.Replace(" ", "", StringComparison.Ordinal));

    [Fact]
    public void Id_and_string_document_matches_the_spec()
    {
        var expected = Hex("1e000000 070000 0102030405060708090a0b0c 020100 03000000 416200 00");
        var dictionary = new BsonFieldDictionary();
        var document = new BsonDocument { { "_id", ObjectId.Parse("0102030405060708090a0b0c") }, { "name", "Ab" } };
        Assert.Equal(expected, document.ToBytes(dictionary));

        var buffer = new byte[64];
        var writer = new BsonSpanWriter(buffer);
        var token = writer.BeginDocument();
        writer.WriteFieldHeader(BsonType.ObjectId, 0);
        writer.WriteObjectId(ObjectId.Parse("0102030405060708090a0b0c"));
        writer.WriteFieldHeader(BsonType.String, 1);
        writer.WriteStringUtf8("Ab"u8);
        writer.EndDocument(token);
        Assert.Equal(expected, writer.WrittenSpan.ToArray());
    }

    [Fact]
    public void Array_items_carry_a_type_byte_but_no_field_id()
    {
        var expected = Hex("14000000 040100 0c000000 1001000000 0801 00 00");
        var dictionary = new BsonFieldDictionary();
        Assert.Equal(expected, new BsonDocument { { "a", new BsonArray { 1, true } } }.ToBytes(dictionary));
        var read = BsonDocument.FromBytes(expected, dictionary);
        Assert.Equal(new BsonArray { 1, true }, read["a"].AsArray);
    }

    [Fact]
    public void Extension_types_decimal_and_guid_match_the_spec()
    {
        var expected = Hex(
            "83000000"
            + " 200100 0100000000000080"
            + " 210200 0068c461080000003c00"
            + " 130300 96000000000000000000000000003c30"
            + " 130400 010000000000000000000000000040b0"
            + " 050500 10000000 04 00112233445566778899aabbccddeeff"
            + " 230600 01000000"
            + " 240700 0100000000000000"
            + " 220800 ffffffffffffffff"
            + " 250900 ffffffffffffffff"
            + " 00");
        var document = new BsonDocument
        {
            { "dt", new DateTime(1, DateTimeKind.Local) },
            { "dto", new DateTimeOffset(2 * TimeSpan.TicksPerHour, TimeSpan.FromHours(1)) },
            { "m", 1.50m },
            { "neg", -1m },
            { "g", Guid.Parse("00112233-4455-6677-8899-aabbccddeeff") },
            { "d", DateOnly.FromDayNumber(1) },
            { "t", new TimeOnly(1) },
            { "s", TimeSpan.FromTicks(-1) },
            { "u", ulong.MaxValue },
        };
        var dictionary = new BsonFieldDictionary();
        Assert.Equal(expected, document.ToBytes(dictionary));
        Assert.Equal(document, BsonDocument.FromBytes(expected, dictionary));
    }

    [Fact]
    public void Empty_document_is_five_bytes() =>
        Assert.Equal(Hex("05000000 00"), new BsonDocument().ToBytes(new BsonFieldDictionary()));
}
