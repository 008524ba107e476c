using BLite.Bson.Interop;

namespace BLite.Bson.Tests.Interop;

/// <summary>Malformed standard BSON ends in <see cref="BsonFormatException"/> naming the problem and its byte offset.</summary>
public class StandardBsonMalformedInputTests
{
    public static TheoryData<string, string, long> Cases => new()
    {
        { "", "needs 4 byte(s)", 0 },
        { "050000", "needs 4 byte(s)", 0 },
        { "04000000" + "00", "length 4", 0 },
        { "06000000" + "00", "length 6", 0 },
        { "0500000001", "0x00 terminator", 5 },
        // {"i": int32} cut short: the int32 runs past the declared end.
        { "0A000000" + "106900" + "FEFF" + "00", "needs 4 byte(s)", 7 },
        // Undefined has no value bytes, so the next byte is a type byte.
        { "0B000000" + "066900" + "306A00" + "00", "unknown element type 0x30", 7 },
        { "0C000000" + "116900" + "FEFFFFFF" + "00", "needs 8 byte(s)", 7 },
        // A regex whose options never end.
        { "0B000000" + "0B6900" + "7800" + "7878", "regex options has no 0x00", 9 },
        // Code with scope: a length below the 14-byte minimum, then one that disagrees with its parts.
        { "0E000000" + "0F6300" + "0D000000" + "0000" + "00", "below 14", 7 },
        { "18000000" + "0F6300" + "10000000" + "02000000" + "7800" + "05000000" + "00" + "00" + "00", "JavaScript with scope ends", 22 },
        { "0C000000" + "156900" + "FEFFFFFF" + "00", "unknown element type 0x15", 4 },
        // A field name that never ends.
        { "08000000" + "10696969", "field name has no 0x00", 5 },
        { "0A000000" + "08FF00" + "01" + "0000", "not valid UTF-8", 5 },
        { "09000000" + "086200" + "02" + "00", "boolean byte 0x02", 7 },
        { "0D000000" + "026100" + "03000000" + "78" + "00", "runs past", 7 },
        { "0E000000" + "026100" + "02000000" + "7878" + "00", "does not end with 0x00", 7 },
        { "0F000000" + "026100" + "03000000" + "78FF00" + "00", "not valid UTF-8", 11 },
        { "0D000000" + "086100" + "01" + "086100" + "00" + "00", "field \"a\" twice", 9 },
        { "10000000" + "056200" + "03000000" + "02" + "AABBCC" + "00", "subtype 0x02", 12 },
        { "10000000" + "056200" + "FFFFFFFF" + "00" + "AABBCC" + "00", "binary length -1", 7 },
        // An embedded document whose length runs past its parent.
        { "0E000000" + "037800" + "09000000" + "0000" + "00", "runs past the enclosing document", 7 },
        { "0500000000" + "00", "1 byte(s) follow the document", 5 },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Malformed_bytes_are_refused_with_their_offset(string hex, string expectedMessage, long expectedOffset)
    {
        var exception = Assert.Throws<BsonFormatException>(() => StandardBsonReader.ReadDocument(Convert.FromHexString(hex)));

        Assert.Contains(expectedMessage, exception.Message);
        Assert.Equal(expectedOffset, exception.Offset);
    }

    [Fact]
    public void Nesting_beyond_the_limit_is_refused()
    {
        var document = new BsonDocument();
        var innermost = document;
        for (var depth = 1; depth < BsonLimits.MaxDepth; depth++)
        {
            var child = new BsonDocument();
            innermost.Add("x", child);
            innermost = child;
        }

        var bytes = StandardBsonWriter.ToBytes(document);
        Assert.Equal(document, StandardBsonReader.ReadDocument(bytes));

        innermost.Add("x", new BsonDocument());
        Assert.Throws<ArgumentException>(() => StandardBsonWriter.ToBytes(document));

        // Splice one more level into the bytes by hand: wrap the whole document as field "x" of a new one.
        var deeper = new byte[bytes.Length + 8];
        BitConverter.TryWriteBytes(deeper.AsSpan(0, 4), deeper.Length);
        deeper[4] = 0x03;
        deeper[5] = (byte)'x';
        bytes.CopyTo(deeper, 7);
        var exception = Assert.Throws<BsonFormatException>(() => StandardBsonReader.ReadDocument(deeper));
        Assert.Contains("nests deeper", exception.Message);
    }

    [Fact]
    public void A_dump_file_cut_inside_a_document_reports_the_documents_offset()
    {
        var bytes = Convert.FromHexString("0500000000" + "0C000000106900FEFF");

        var exception = Assert.Throws<BsonFormatException>(() => StandardBsonReader.ReadDocuments(new MemoryStream(bytes)).ToList());

        Assert.Equal(5, exception.Offset);
    }

    [Fact]
    public void A_dump_file_cut_inside_a_length_prefix_is_refused()
    {
        var bytes = Convert.FromHexString("0500000000" + "0C00");

        var exception = Assert.Throws<BsonFormatException>(() => StandardBsonReader.ReadDocuments(new MemoryStream(bytes)).ToList());

        Assert.Equal(5, exception.Offset);
        Assert.Contains("length prefix", exception.Message);
    }

    [Fact]
    public void Errors_in_later_documents_of_a_dump_count_from_the_start_of_the_file()
    {
        var bytes = Convert.FromHexString("0500000000" + "09000000" + "086200" + "02" + "00");

        var exception = Assert.Throws<BsonFormatException>(() => StandardBsonReader.ReadDocuments(new MemoryStream(bytes)).ToList());

        Assert.Equal(5 + 7, exception.Offset);
    }
}
