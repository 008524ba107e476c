using System.Text;

namespace BLite.Bson.Tests.IO;

/// <summary>Strings decode exactly whether they are ASCII or not, and invalid UTF-8 is refused wherever it sits.</summary>
public class BsonSpanReaderStringTests
{
    public static TheoryData<string> Texts => new()
    {
        "",
        "a",
        "pending",
        "jane.customer@example.com",
        "with a \0 NUL inside",
        new string('x', 31),
        new string('x', 32),
        new string('y', 33),
        new string('z', 100),
        "café",
        "é",
        new string('a', 40) + "é" + new string('b', 40),
        new string('a', 64) + "漢字",
        "😀 emoji and ascii 😀",
        "\u007F\u0080\u00FF\u0100",
    };

    [Theory]
    [MemberData(nameof(Texts))]
    public void A_string_reads_back_as_written(string text)
    {
        var bytes = DocumentWithString(Encoding.UTF8.GetBytes(text));

        Assert.Equal(text, ReadString(bytes));

        // Through a string table, the first read decodes and keeps the value, the second finds it.
        var table = new BsonStringTable();
        Assert.Equal(text, ReadString(bytes, table));
        Assert.Equal(text, ReadString(bytes, table));
    }

    [Theory]
    [InlineData(new byte[] { 0xE9 })]
    [InlineData(new byte[] { 0x80 })]
    [InlineData(new byte[] { 0xC0, 0x80 })]
    [InlineData(new byte[] { 0xED, 0xA0, 0x80 })]
    [InlineData(new byte[] { 0xF4, 0x90, 0x80, 0x80 })]
    [InlineData(new byte[] { 0xE2, 0x82 })]
    public void Invalid_utf8_is_refused_at_the_start_middle_or_end_of_a_string(byte[] invalid)
    {
        var prefixes = new[] { "", "ab", new string('a', 40) };
        foreach (var prefix in prefixes)
        {
            foreach (var suffix in new[] { "", "cd", new string('c', 40) })
            {
                var utf8 = Encoding.ASCII.GetBytes(prefix).Concat(invalid).Concat(Encoding.ASCII.GetBytes(suffix)).ToArray();
                var error = Assert.Throws<BsonFormatException>(() => ReadString(DocumentWithString(utf8)));
                Assert.Contains("UTF-8", error.Message);
                Assert.Equal(7, error.Offset);

                var throughTable = Assert.Throws<BsonFormatException>(() => ReadString(DocumentWithString(utf8), new BsonStringTable()));
                Assert.Equal(7, throughTable.Offset);
            }
        }
    }

    internal static string ReadString(byte[] document, BsonStringTable? strings = null)
    {
        var reader = new BsonSpanReader(document, strings);
        reader.ReadDocumentStart();
        Assert.True(reader.TryReadFieldHeader(out var type, out _));
        Assert.Equal(BsonType.String, type);
        var text = reader.ReadString();
        Assert.False(reader.TryReadFieldHeader(out _, out _));
        return text;
    }

    // Built by hand rather than with the writer, which would refuse the invalid strings: length
    // prefix, one String element with field id 1 (its value at offset 7), terminator.
    internal static byte[] DocumentWithString(byte[] utf8)
    {
        var length = 4 + 3 + 4 + utf8.Length + 1 + 1;
        var document = new byte[length];
        BitConverter.TryWriteBytes(document.AsSpan(0), length);
        document[4] = (byte)BsonType.String;
        document[5] = 1;
        BitConverter.TryWriteBytes(document.AsSpan(7), utf8.Length + 1);
        utf8.CopyTo(document, 11);
        return document;
    }
}
