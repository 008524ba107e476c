namespace BLite.Bson.Tests.IO;

public class BsonSpanReaderMalformedInputTests
{
    private static BsonFormatException ReadAll(byte[] bytes) => Assert.Throws<BsonFormatException>(() =>
    {
        var reader = new BsonSpanReader(bytes);
        reader.ReadDocumentStart();
        while (reader.TryReadFieldHeader(out var type, out _))
        {
            reader.SkipValue(type);
        }
    });

    [Fact]
    public void Truncated_length_prefix_names_the_offset() =>
        Assert.Equal(0, ReadAll([5, 0, 0]).Offset);

    [Fact]
    public void Length_longer_than_the_input_is_refused() =>
        Assert.Contains("length 9", ReadAll([9, 0, 0, 0, 0]).Message);

    [Fact]
    public void Length_shorter_than_the_minimum_is_refused() =>
        Assert.Contains("length 4", ReadAll([4, 0, 0, 0, 0]).Message);

    [Fact]
    public void Negative_length_is_refused() => ReadAll([0xFF, 0xFF, 0xFF, 0xFF, 0]);

    [Fact]
    public void Unknown_type_code_is_refused_with_its_offset()
    {
        var error = ReadAll([8, 0, 0, 0, 0x30, 1, 0, 0]);
        Assert.Contains("0x30", error.Message);
        Assert.Equal(4, error.Offset);
    }

    [Fact]
    public void Terminator_before_declared_end_is_refused() =>
        Assert.Equal(4, ReadAll([6, 0, 0, 0, 0, 0]).Offset);

    [Fact]
    public void Value_running_past_its_document_is_refused() =>
        ReadAll([11, 0, 0, 0, (byte)BsonType.Int32, 1, 0, 1, 2, 3, 0, 0]);

    [Fact]
    public void Missing_terminator_is_refused() =>
        ReadAll([11, 0, 0, 0, (byte)BsonType.Int32, 1, 0, 1, 2, 3, 4]);

    [Fact]
    public void String_with_bad_length_or_terminator_or_utf8_is_refused()
    {
        ReadAll([13, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0]);
        ReadAll([14, 0, 0, 0, 2, 1, 0, 2, 0, 0, 0, (byte)'a', (byte)'b', 0]);
        var error = Assert.Throws<BsonFormatException>(() =>
        {
            var reader = new BsonSpanReader([14, 0, 0, 0, 2, 1, 0, 2, 0, 0, 0, 0xC3, 0, 0]);
            reader.ReadDocumentStart();
            reader.TryReadFieldHeader(out _, out _);
            reader.ReadString();
        });
        Assert.Contains("UTF-8", error.Message);
        Assert.Equal(7, error.Offset);
        Assert.Throws<BsonFormatException>(() =>
        {
            var reader = new BsonSpanReader([14, 0, 0, 0, 2, 1, 0, 2, 0, 0, 0, 0xFF, 0, 0]);
            reader.ReadDocumentStart();
            reader.TryReadFieldHeader(out _, out _);
            reader.ReadStringUtf8();
        });
    }

    [Fact]
    public void Boolean_other_than_zero_or_one_is_refused() => Assert.Throws<BsonFormatException>(() =>
    {
        var reader = new BsonSpanReader([9, 0, 0, 0, 8, 1, 0, 2, 0]);
        reader.ReadDocumentStart();
        reader.TryReadFieldHeader(out _, out _);
        reader.ReadBoolean();
    });

    [Fact]
    public void Out_of_range_temporal_values_are_refused()
    {
        var bytes = new byte[16];
        bytes[0] = 16;
        bytes[4] = (byte)BsonType.DateTime;
        Array.Fill(bytes, (byte)0xFF, 7, 8);
        bytes[15] = 0;
        Assert.Throws<BsonFormatException>(() =>
        {
            var reader = new BsonSpanReader(bytes);
            reader.ReadDocumentStart();
            reader.TryReadFieldHeader(out _, out _);
            reader.ReadDateTime();
        });
        Assert.Throws<BsonFormatException>(() =>
        {
            var reader = new BsonSpanReader(bytes);
            reader.ReadDocumentStart();
            reader.TryReadFieldHeader(out _, out _);
            reader.ReadTimeOnly();
        });
    }

    [Theory]
    [InlineData(3UL << 62, "DateTime kind 3 is not a DateTimeKind")]
    [InlineData((1UL << 62) | ((1UL << 62) - 1), "exceed DateTime.MaxValue")]
    public void A_datetime_with_an_invalid_kind_or_too_many_ticks_is_refused_naming_which(ulong packed, string message)
    {
        var bytes = new byte[16];
        bytes[0] = 16;
        bytes[4] = (byte)BsonType.DateTime;
        BitConverter.TryWriteBytes(bytes.AsSpan(7), packed);
        var error = Assert.Throws<BsonFormatException>(() =>
        {
            var reader = new BsonSpanReader(bytes);
            reader.ReadDocumentStart();
            reader.TryReadFieldHeader(out _, out _);
            reader.ReadDateTime();
        });

        Assert.Contains(message, error.Message);
        Assert.Equal(7, error.Offset);
    }

    [Fact]
    public void Nesting_deeper_than_the_limit_is_refused_without_recursion()
    {
        // 200 nested documents, each { 1: <next> }, built by hand so no writer limit applies.
        const int levels = 200;
        var bytes = new byte[5 + (8 * levels)];
        for (var level = 0; level <= levels; level++)
        {
            BitConverter.TryWriteBytes(bytes.AsSpan(7 * level), 5 + (8 * (levels - level)));
            if (level < levels)
            {
                bytes[(7 * level) + 4] = (byte)BsonType.Document;
                bytes[(7 * level) + 5] = 1;
            }
        }

        var error = Assert.Throws<BsonFormatException>(() =>
        {
            var reader = new BsonSpanReader(bytes);
            for (var level = 0; level <= levels; level++)
            {
                reader.ReadDocumentStart();
                reader.TryReadFieldHeader(out _, out _);
            }
        });
        Assert.Contains("Nesting", error.Message);
    }

    [Fact]
    public void Guid_needs_uuid_subtype_and_sixteen_bytes() => Assert.Throws<BsonFormatException>(() =>
    {
        var bytes = new byte[4 + 3 + 4 + 1 + 16 + 1];
        bytes[0] = (byte)bytes.Length;
        bytes[4] = (byte)BsonType.Binary;
        bytes[7] = 16;
        var reader = new BsonSpanReader(bytes);
        reader.ReadDocumentStart();
        reader.TryReadFieldHeader(out _, out _);
        reader.ReadGuid();
    });
}
