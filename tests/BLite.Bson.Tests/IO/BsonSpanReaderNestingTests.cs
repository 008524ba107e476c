using System.Buffers.Binary;

namespace BLite.Bson.Tests.IO;

/// <summary>
/// The reader keeps the enclosing ends of its first <see cref="BsonSpanReader.InlineDepth"/>
/// levels in itself and deeper ones in an array: both sides of that boundary, and the limit,
/// must read and refuse exactly as one stack would.
/// </summary>
public class BsonSpanReaderNestingTests
{
    private const ushort ChildField = 1;
    private const ushort LevelField = 2;

    public static TheoryData<int> Depths => new()
    {
        1,
        BsonSpanReader.InlineDepth - 1,
        BsonSpanReader.InlineDepth,
        BsonSpanReader.InlineDepth + 1,
        BsonSpanReader.InlineDepth + 2,
        BsonLimits.MaxDepth,
    };

    [Theory]
    [MemberData(nameof(Depths))]
    public void Nested_documents_read_back_with_every_enclosing_end_restored(int depth)
    {
        var bytes = Nested(depth);
        var reader = new BsonSpanReader(bytes);
        reader.ReadDocumentStart();
        for (var level = 2; level <= depth; level++)
        {
            Assert.True(reader.TryReadFieldHeader(out var type, out var id));
            Assert.Equal((BsonType.Document, ChildField), (type, id));
            reader.ReadDocumentStart();
            Assert.Equal(level, reader.Depth);
        }

        // Each level's own field comes after its child, so reading it proves the level's end was
        // restored when the child closed.
        for (var level = depth; level >= 1; level--)
        {
            Assert.True(reader.TryReadFieldHeader(out var type, out var id));
            Assert.Equal((BsonType.Int32, LevelField), (type, id));
            Assert.Equal(level, reader.ReadInt32());
            Assert.False(reader.TryReadFieldHeader(out _, out _));
            Assert.Equal(level - 1, reader.Depth);
        }

        Assert.Equal(bytes.Length, reader.Position);
    }

    [Theory]
    [MemberData(nameof(Depths))]
    public void Skipping_a_nested_document_checks_every_level(int depth)
    {
        var bytes = Nested(depth);
        var reader = new BsonSpanReader(bytes);
        reader.ReadDocumentStart();
        if (depth > 1)
        {
            Assert.True(reader.TryReadFieldHeader(out var type, out _));
            reader.SkipValue(type);
        }

        Assert.True(reader.TryReadFieldHeader(out _, out _));
        Assert.Equal(1, reader.ReadInt32());
        Assert.False(reader.TryReadFieldHeader(out _, out _));
    }

    [Fact]
    public void One_level_past_the_limit_is_refused_where_it_starts()
    {
        var bytes = Nested(BsonLimits.MaxDepth + 1);
        var error = Record.Exception(() => ReadToTheBottom(bytes));
        var format = Assert.IsType<BsonFormatException>(error);
        Assert.Contains($"limit of {BsonLimits.MaxDepth}", format.Message);
        Assert.Equal(StartOfLevel(BsonLimits.MaxDepth + 1), format.Offset);
    }

    [Theory]
    [InlineData(BsonSpanReader.InlineDepth - 1)]
    [InlineData(BsonSpanReader.InlineDepth + 1)]
    [InlineData(BsonLimits.MaxDepth - 1)]
    public void A_child_claiming_more_than_its_parent_holds_is_refused_at_any_depth(int parentLevel)
    {
        var bytes = Nested(parentLevel + 1);
        var childStart = StartOfLevel(parentLevel + 1);
        // The parent holds 8 bytes after the child (its own field and terminator): one more
        // reaches past the parent's end, though not past the input's.
        var childLength = BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan(childStart));
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(childStart), childLength + 9);
        var format = Assert.IsType<BsonFormatException>(Record.Exception(() => ReadToTheBottom(bytes)));
        Assert.Equal(childStart, format.Offset);
    }

    [Theory]
    [InlineData(BsonSpanReader.InlineDepth)]
    [InlineData(BsonSpanReader.InlineDepth + 1)]
    [InlineData(BsonLimits.MaxDepth)]
    public void A_child_ending_before_its_length_says_is_refused_at_any_depth(int depth)
    {
        var bytes = Nested(depth);
        var childStart = StartOfLevel(depth);
        // The deepest document's length now claims one byte more than its terminator ends: the
        // byte after it (its parent's next header) is taken as a field of it, and so on: reading
        // must end in a format error, never in a wrong value.
        var length = BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan(childStart));
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(childStart), length + 1);
        Assert.IsType<BsonFormatException>(Record.Exception(() => ReadEverything(bytes, depth)));
    }

    [Fact]
    public void A_read_ahead_copy_below_the_inline_levels_leaves_the_original_intact()
    {
        var depth = BsonSpanReader.InlineDepth + 4;
        var bytes = Nested(depth);
        var reader = new BsonSpanReader(bytes);
        reader.ReadDocumentStart();
        for (var level = 2; level < depth; level++)
        {
            Assert.True(reader.TryReadFieldHeader(out _, out _));
            reader.ReadDocumentStart();
        }

        Assert.True(reader.TryReadFieldHeader(out _, out _));
        var probe = reader;
        probe.ReadDocumentStart();
        Assert.True(probe.TryFindField(LevelField, out _));
        Assert.Equal(depth, probe.ReadInt32());

        reader.ReadDocumentStart();
        Assert.True(reader.TryReadFieldHeader(out _, out _));
        Assert.Equal(depth, reader.ReadInt32());
        Assert.False(reader.TryReadFieldHeader(out _, out _));
        for (var level = depth - 1; level >= 1; level--)
        {
            Assert.True(reader.TryReadFieldHeader(out _, out _));
            Assert.Equal(level, reader.ReadInt32());
            Assert.False(reader.TryReadFieldHeader(out _, out _));
        }

        Assert.Equal(bytes.Length, reader.Position);
    }

    private static void ReadToTheBottom(byte[] bytes)
    {
        var reader = new BsonSpanReader(bytes);
        reader.ReadDocumentStart();
        while (reader.TryReadFieldHeader(out var type, out _) && type == BsonType.Document)
        {
            reader.ReadDocumentStart();
        }
    }

    private static void ReadEverything(byte[] bytes, int depth)
    {
        var reader = new BsonSpanReader(bytes);
        reader.ReadDocumentStart();
        while (reader.Depth > 0)
        {
            if (reader.TryReadFieldHeader(out var type, out _))
            {
                if (type == BsonType.Document)
                {
                    reader.ReadDocumentStart();
                }
                else
                {
                    reader.SkipValue(type);
                }
            }
        }

        Assert.Fail($"A document of {depth} levels with a wrong length was read to its end.");
    }

    /// <summary>Level 1's offset is 0; each level starts after its parent's length and child header.</summary>
    private static int StartOfLevel(int level) => (level - 1) * (4 + 3);

    /// <summary>
    /// <paramref name="depth"/> documents, each holding its child (field 1) and then its own level
    /// number (field 2), written by hand so the reader can be given more levels than the writer allows.
    /// </summary>
    private static byte[] Nested(int depth)
    {
        var bytes = new byte[depth * (4 + 3 + 3 + 4 + 1) - 3];
        Write(bytes, 0, 1, depth);
        return bytes;
    }

    private static int Write(byte[] bytes, int at, int level, int depth)
    {
        var start = at;
        at += 4;
        if (level < depth)
        {
            at = Header(bytes, at, BsonType.Document, ChildField);
            at = Write(bytes, at, level + 1, depth);
        }

        at = Header(bytes, at, BsonType.Int32, LevelField);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(at), level);
        at += 4;
        bytes[at++] = 0;
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(start), at - start);
        return at;
    }

    private static int Header(byte[] bytes, int at, BsonType type, ushort fieldId)
    {
        bytes[at] = (byte)type;
        BinaryPrimitives.WriteUInt16LittleEndian(bytes.AsSpan(at + 1), fieldId);
        return at + 3;
    }
}
