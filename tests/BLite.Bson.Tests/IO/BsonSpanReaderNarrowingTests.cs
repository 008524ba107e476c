namespace BLite.Bson.Tests.IO;

public class BsonSpanReaderNarrowingTests
{
    private static byte[] Int32Document(int value)
    {
        var buffer = new byte[16];
        var writer = new BsonSpanWriter(buffer);
        var token = writer.BeginDocument();
        writer.WriteFieldHeader(BsonType.Int32, 1);
        writer.WriteInt32(value);
        writer.EndDocument(token);
        return writer.WrittenSpan.ToArray();
    }

    private delegate T Read<T>(ref BsonSpanReader reader);

    private static T ReadField<T>(byte[] document, Read<T> read)
    {
        var reader = new BsonSpanReader(document);
        reader.ReadDocumentStart();
        reader.TryReadFieldHeader(out _, out _);
        return read(ref reader);
    }

    [Fact]
    public void Small_integers_narrow_back_at_their_limits()
    {
        Assert.Equal(short.MinValue, ReadField(Int32Document(short.MinValue), (ref BsonSpanReader r) => r.ReadInt16()));
        Assert.Equal(ushort.MaxValue, ReadField(Int32Document(ushort.MaxValue), (ref BsonSpanReader r) => r.ReadUInt16()));
        Assert.Equal(byte.MaxValue, ReadField(Int32Document(byte.MaxValue), (ref BsonSpanReader r) => r.ReadByte()));
        Assert.Equal(sbyte.MinValue, ReadField(Int32Document(sbyte.MinValue), (ref BsonSpanReader r) => r.ReadSByte()));
        Assert.Equal(char.MaxValue, ReadField(Int32Document(char.MaxValue), (ref BsonSpanReader r) => r.ReadChar()));
    }

    [Fact]
    public void Out_of_range_narrowing_is_a_format_error_naming_the_value()
    {
        var error = Assert.Throws<BsonFormatException>(() => ReadField(Int32Document(short.MaxValue + 1), (ref BsonSpanReader r) => r.ReadInt16()));
        Assert.Contains("32768", error.Message);
        Assert.Equal(7, error.Offset);
        Assert.Throws<BsonFormatException>(() => ReadField(Int32Document(-1), (ref BsonSpanReader r) => r.ReadUInt16()));
        Assert.Throws<BsonFormatException>(() => ReadField(Int32Document(256), (ref BsonSpanReader r) => r.ReadByte()));
        Assert.Throws<BsonFormatException>(() => ReadField(Int32Document(-129), (ref BsonSpanReader r) => r.ReadSByte()));
        Assert.Throws<BsonFormatException>(() => ReadField(Int32Document(-1), (ref BsonSpanReader r) => r.ReadChar()));
    }

    [Fact]
    public void UInt32_and_Single_narrow_from_their_wide_types()
    {
        var buffer = new byte[64];
        var writer = new BsonSpanWriter(buffer);
        var token = writer.BeginDocument();
        writer.WriteFieldHeader(BsonType.Int64, 1);
        writer.WriteInt64(uint.MaxValue);
        writer.WriteFieldHeader(BsonType.Int64, 2);
        writer.WriteInt64((long)uint.MaxValue + 1);
        writer.WriteFieldHeader(BsonType.Double, 3);
        writer.WriteDouble(float.MaxValue);
        writer.WriteFieldHeader(BsonType.Double, 4);
        writer.WriteDouble(double.MaxValue);
        writer.EndDocument(token);
        var bytes = writer.WrittenSpan.ToArray();

        var reader = new BsonSpanReader(bytes);
        reader.ReadDocumentStart();
        reader.TryReadFieldHeader(out _, out _);
        Assert.Equal(uint.MaxValue, reader.ReadUInt32());
        reader.TryReadFieldHeader(out _, out _);
        var position = reader.Position;
        var error = Assert.Throws<BsonFormatException>(() =>
        {
            var copy = new BsonSpanReader(bytes);
            copy.ReadDocumentStart();
            copy.TryReadFieldHeader(out _, out _);
            copy.SkipValue(BsonType.Int64);
            copy.TryReadFieldHeader(out _, out _);
            copy.ReadUInt32();
        });
        Assert.Equal(position, error.Offset);
        reader.SkipValue(BsonType.Int64);
        reader.TryReadFieldHeader(out _, out _);
        Assert.Equal(float.MaxValue, reader.ReadSingle());
        var doubleOffset = reader.Position + 3;
        var tooBig = Assert.Throws<BsonFormatException>(() =>
        {
            var copy = new BsonSpanReader(bytes);
            copy.ReadDocumentStart();
            for (var field = 0; field < 3; field++)
            {
                copy.TryReadFieldHeader(out var type, out _);
                copy.SkipValue(type);
            }

            copy.TryReadFieldHeader(out _, out _);
            copy.ReadSingle();
        });
        Assert.Equal(doubleOffset, tooBig.Offset);
        Assert.Contains("Single", tooBig.Message);
    }
}
