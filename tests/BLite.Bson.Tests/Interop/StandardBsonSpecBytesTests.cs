using BLite.Bson.Interop;

namespace BLite.Bson.Tests.Interop;

/// <summary>
/// Documents whose standard BSON bytes were written by hand from the bsonspec.org grammar
/// (element = type byte, cstring name, value; document = int32 total length, elements, 0x00).
/// Each is checked both ways: the writer produces exactly these bytes and the reader reads them
/// back to the same document.
/// </summary>
public class StandardBsonSpecBytesTests
{
    public static TheoryData<string, string> Examples => new()
    {
        // bsonspec.org's first example, {"hello": "world"}.
        { """{"hello":"world"}""", "16000000" + "02" + "68656C6C6F00" + "06000000" + "776F726C6400" + "00" },
        // bsonspec.org's second example, {"BSON": ["awesome", 5.05, 1986]}: array items keyed "0", "1", "2".
        {
            """{"BSON":["awesome",5.05,1986]}""",
            "31000000" + "04" + "42534F4E00" + "26000000"
            + "02" + "3000" + "08000000" + "617765736F6D6500"
            + "01" + "3100" + "3333333333331440"
            + "10" + "3200" + "C2070000"
            + "00" + "00"
        },
        { "{}", "0500000000" },
        { """{"n":null,"t":true,"f":false}""", "10000000" + "0A6E00" + "087400" + "01" + "086600" + "00" + "00" },
        { """{"i":-2}""", "0C000000" + "106900" + "FEFFFFFF" + "00" },
        { """{"l":{"$numberLong":"4294967296"}}""", "10000000" + "126C00" + "0000000001000000" + "00" },
        { """{"o":{"$oid":"5f1d7a2b9c3e4f5a6b7c8d9e"}}""", "14000000" + "076F00" + "5F1D7A2B9C3E4F5A6B7C8D9E" + "00" },
        { """{"b":{"$binary":{"base64":"AQI=","subType":"80"}}}""", "0F000000" + "056200" + "02000000" + "80" + "0102" + "00" },
        // 1.50 as Decimal128: coefficient 150, exponent -2 (biased 6174 = 0x181E, shifted left 49 in the high word).
        { """{"d":{"$numberDecimal":"1.50"}}""", "18000000" + "136400" + "9600000000000000" + "0000000000003C30" + "00" },
        // The second after the Unix epoch: 1000 ms.
        { """{"t":{"$date":"1970-01-01T00:00:01Z"}}""", "10000000" + "097400" + "E803000000000000" + "00" },
        { """{"u":{"$uuid":"00112233-4455-6677-8899-aabbccddeeff"}}""", "1D000000" + "057500" + "10000000" + "04" + "00112233445566778899AABBCCDDEEFF" + "00" },
        { """{"x":{"y":{}}}""", "15000000" + "037800" + "0D000000" + "037900" + "0500000000" + "00" + "00" },
        { """{"é":""}""", "0E000000" + "02C3A900" + "01000000" + "00" + "00" },
    };

    [Theory]
    [MemberData(nameof(Examples))]
    public void Writer_produces_the_bytes_the_spec_defines(string json, string hex)
    {
        Assert.Equal(hex, Convert.ToHexString(StandardBsonWriter.ToBytes(BsonDocument.Parse(json))));
    }

    [Theory]
    [MemberData(nameof(Examples))]
    public void Reader_reads_the_spec_bytes_back_to_the_document(string json, string hex)
    {
        var document = StandardBsonReader.ReadDocument(Convert.FromHexString(hex));
        Assert.Equal(BsonDocument.Parse(json), document);
    }

    [Fact]
    public void Old_binary_subtype_carries_its_nested_length()
    {
        var document = new BsonDocument { { "b", BsonValue.FromBinary([0xAA, 0xBB], BsonBinarySubtype.OldBinary) } };
        const string hex = "13000000" + "056200" + "06000000" + "02" + "02000000" + "AABB" + "00";

        Assert.Equal(hex, Convert.ToHexString(StandardBsonWriter.ToBytes(document)));
        Assert.Equal(document, StandardBsonReader.ReadDocument(Convert.FromHexString(hex)));
    }

    [Fact]
    public void Concatenated_documents_read_as_a_dump_file()
    {
        var bytes = Convert.FromHexString("0500000000" + "0C000000106900FEFFFFFF00" + "0500000000");

        var documents = StandardBsonReader.ReadDocuments(new MemoryStream(bytes)).ToList();

        Assert.Equal([new BsonDocument(), new BsonDocument { { "i", -2 } }, new BsonDocument()], documents);
    }

    [Fact]
    public void Reading_a_document_reports_the_bytes_it_used()
    {
        var bytes = Convert.FromHexString("0C000000106900FEFFFFFF00" + "0500000000");

        var document = StandardBsonReader.ReadDocument(bytes, out var consumed);

        Assert.Equal(12, consumed);
        Assert.Equal(-2, document["i"].AsInt32);
    }
}
