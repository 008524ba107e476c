using System.Buffers;

namespace BLite.Bson.Tests.IO;

public class BsonSpanWriterReaderStructureTests
{
    [Fact]
    public void Nested_documents_and_arrays_round_trip()
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new BsonSpanWriter(output);
        var root = writer.BeginDocument();
        writer.WriteFieldHeader(BsonType.Array, 1);
        var array = writer.BeginArray();
        writer.WriteItemHeader(BsonType.Int32);
        writer.WriteInt32(10);
        writer.WriteItemHeader(BsonType.Document);
        var inner = writer.BeginDocument();
        writer.WriteFieldHeader(BsonType.String, 2);
        writer.WriteString("x");
        writer.EndDocument(inner);
        writer.EndArray(array);
        writer.WriteFieldHeader(BsonType.Boolean, 3);
        writer.WriteBoolean(true);
        writer.EndDocument(root);

        var reader = new BsonSpanReader(output.WrittenSpan);
        reader.ReadDocumentStart();
        Assert.True(reader.TryReadFieldHeader(out var type, out var id));
        Assert.Equal((BsonType.Array, (ushort)1), (type, id));
        reader.ReadArrayStart();
        Assert.True(reader.TryReadItemHeader(out type));
        Assert.Equal(BsonType.Int32, type);
        Assert.Equal(10, reader.ReadInt32());
        Assert.True(reader.TryReadItemHeader(out type));
        Assert.Equal(BsonType.Document, type);
        reader.ReadDocumentStart();
        Assert.True(reader.TryReadFieldHeader(out type, out id));
        Assert.Equal("x", reader.ReadString());
        Assert.False(reader.TryReadFieldHeader(out _, out _));
        Assert.False(reader.TryReadItemHeader(out _));
        Assert.True(reader.TryReadFieldHeader(out type, out id));
        Assert.Equal((BsonType.Boolean, (ushort)3), (type, id));
        Assert.True(reader.ReadBoolean());
        Assert.False(reader.TryReadFieldHeader(out _, out _));
        Assert.Equal(0, reader.Depth);
        Assert.Equal(output.WrittenCount, reader.Position);
    }

    [Fact]
    public void SkipValue_and_ReadRawValue_step_over_every_type()
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new BsonSpanWriter(output);
        var root = writer.BeginDocument();
        writer.WriteFieldHeader(BsonType.Document, 1);
        var inner = writer.BeginDocument();
        writer.WriteFieldHeader(BsonType.Int64, 9);
        writer.WriteInt64(5);
        writer.EndDocument(inner);
        writer.WriteFieldHeader(BsonType.String, 2);
        writer.WriteString("skip me");
        writer.WriteFieldHeader(BsonType.Binary, 3);
        writer.WriteBinary([1, 2, 3], BsonBinarySubtype.Generic);
        writer.WriteFieldHeader(BsonType.DateTimeOffset, 4);
        writer.WriteDateTimeOffset(DateTimeOffset.UnixEpoch);
        writer.WriteFieldHeader(BsonType.Decimal128, 5);
        writer.WriteDecimal(1m);
        writer.WriteFieldHeader(BsonType.Int32, 6);
        writer.WriteInt32(42);
        writer.EndDocument(root);

        var reader = new BsonSpanReader(output.WrittenSpan);
        reader.ReadDocumentStart();
        reader.TryReadFieldHeader(out var type, out _);
        Assert.Equal(4 + 3 + 8 + 1, reader.ReadRawValue(type).Length);
        reader.TryReadFieldHeader(out type, out _);
        Assert.Equal(4 + 7 + 1, reader.ReadRawValue(type).Length);
        reader.TryReadFieldHeader(out type, out _);
        reader.SkipValue(type);
        reader.TryReadFieldHeader(out type, out _);
        reader.SkipValue(type);
        reader.TryReadFieldHeader(out type, out _);
        reader.SkipValue(type);
        reader.TryReadFieldHeader(out type, out var id);
        Assert.Equal((ushort)6, id);
        Assert.Equal(42, reader.ReadInt32());
        Assert.False(reader.TryReadFieldHeader(out _, out _));
    }

    [Fact]
    public void Nesting_up_to_the_limit_round_trips_and_one_more_level_is_refused()
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new BsonSpanWriter(output);
        var tokens = new int[BsonLimits.MaxDepth];
        for (var depth = 0; depth < BsonLimits.MaxDepth; depth++)
        {
            if (depth > 0)
            {
                writer.WriteFieldHeader(BsonType.Document, 1);
            }

            tokens[depth] = writer.BeginDocument();
        }

        Assert.Equal(BsonLimits.MaxDepth, writer.Depth);
        InvalidOperationException? tooDeep = null;
        try
        {
            writer.BeginDocument();
        }
        catch (InvalidOperationException ex)
        {
            tooDeep = ex;
        }

        Assert.NotNull(tooDeep);
        Assert.Equal(BsonLimits.MaxDepth, writer.Depth);
        for (var depth = BsonLimits.MaxDepth - 1; depth >= 0; depth--)
        {
            writer.EndDocument(tokens[depth]);
        }

        var reader = new BsonSpanReader(output.WrittenSpan);
        for (var depth = 0; depth < BsonLimits.MaxDepth; depth++)
        {
            if (depth > 0)
            {
                Assert.True(reader.TryReadFieldHeader(out _, out _));
            }

            reader.ReadDocumentStart();
        }

        for (var depth = 0; depth < BsonLimits.MaxDepth; depth++)
        {
            Assert.False(reader.TryReadFieldHeader(out _, out _));
        }

        Assert.Equal(output.WrittenCount, reader.Position);
    }

    [Fact]
    public void Fixed_span_writer_reports_written_bytes_and_refuses_overflow_with_a_clear_error()
    {
        var buffer = new byte[8];
        var writer = new BsonSpanWriter(buffer);
        var token = writer.BeginDocument();
        writer.WriteFieldHeader(BsonType.Null, 0);
        writer.EndDocument(token);
        Assert.Equal(8, writer.BytesWritten);
        Assert.Equal(new byte[] { 8, 0, 0, 0, (byte)BsonType.Null, 0, 0, 0 }, writer.WrittenSpan.ToArray());

        var error = Assert.Throws<InvalidOperationException>(() =>
        {
            var small = new BsonSpanWriter(new byte[6]);
            small.BeginDocument();
            small.WriteFieldHeader(BsonType.Int32, 1);
        });
        Assert.Contains("too small", error.Message);
    }

    [Fact]
    public void Buffer_writer_receives_consecutive_documents_and_flushed_top_level_values()
    {
        var output = new ArrayBufferWriter<byte>(4);
        var writer = new BsonSpanWriter(output);
        for (var i = 0; i < 3; i++)
        {
            var token = writer.BeginDocument();
            writer.WriteFieldHeader(BsonType.String, (ushort)i);
            writer.WriteString(new string('z', 300 * i));
            writer.EndDocument(token);
        }

        writer.WriteInt32(77);
        writer.Flush();
        Assert.Equal(output.WrittenCount, writer.BytesWritten);

        var reader = new BsonSpanReader(output.WrittenSpan);
        for (var i = 0; i < 3; i++)
        {
            reader.ReadDocumentStart();
            Assert.True(reader.TryReadFieldHeader(out _, out var id));
            Assert.Equal((ushort)i, id);
            Assert.Equal(300 * i, reader.ReadString().Length);
            Assert.False(reader.TryReadFieldHeader(out _, out _));
        }

        Assert.Equal(77, reader.ReadInt32());
    }

    [Fact]
    public void Ending_without_an_open_container_is_a_usage_error()
    {
        Assert.Throws<InvalidOperationException>(() =>
        {
            var writer = new BsonSpanWriter(new byte[16]);
            writer.EndDocument(0);
        });
        Assert.Throws<InvalidOperationException>(() =>
        {
            var reader = new BsonSpanReader(new byte[] { 0 });
            reader.TryReadFieldHeader(out _, out _);
        });
    }
}
