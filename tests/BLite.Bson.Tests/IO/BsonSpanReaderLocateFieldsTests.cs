namespace BLite.Bson.Tests.IO;

/// <summary>
/// <see cref="BsonSpanReader.LocateFields"/> must find each asked-for field exactly where a full
/// walk with <see cref="BsonSpanReader.TryReadFieldHeader"/> and <see cref="BsonSpanReader.SkipValue"/>
/// finds it, over every value type, and refuse malformed bytes with a <see cref="BsonFormatException"/>.
/// </summary>
public class BsonSpanReaderLocateFieldsTests
{
    private delegate void WriteValue(ref BsonSpanWriter writer);

    // Field id i + 1 holds value i: every type the format has, fixed-size and length-prefixed.
    private static readonly (BsonType Type, WriteValue Write)[] Values =
    [
        (BsonType.Double, (ref BsonSpanWriter w) => w.WriteDouble(1.5)),
        (BsonType.String, (ref BsonSpanWriter w) => w.WriteString("shipped")),
        (BsonType.Document, (ref BsonSpanWriter w) =>
        {
            var token = w.BeginDocument();
            w.WriteFieldHeader(BsonType.Int32, 40);
            w.WriteInt32(7);
            w.EndDocument(token);
        }),
        (BsonType.Array, (ref BsonSpanWriter w) =>
        {
            var token = w.BeginArray();
            w.WriteItemHeader(BsonType.String);
            w.WriteString("a");
            w.EndArray(token);
        }),
        (BsonType.Binary, (ref BsonSpanWriter w) => w.WriteBinary([1, 2, 3], BsonBinarySubtype.Generic)),
        (BsonType.Undefined, (ref BsonSpanWriter w) => { }),
        (BsonType.ObjectId, (ref BsonSpanWriter w) => w.WriteObjectId(ObjectId.NewObjectId())),
        (BsonType.Boolean, (ref BsonSpanWriter w) => w.WriteBoolean(true)),
        (BsonType.UtcDateTime, (ref BsonSpanWriter w) => w.WriteUtcDateTimeMilliseconds(-1)),
        (BsonType.Null, (ref BsonSpanWriter w) => { }),
        (BsonType.Regex, (ref BsonSpanWriter w) => w.WriteRegex(new BsonRegex("^a+$", "i"))),
        (BsonType.DbPointer, (ref BsonSpanWriter w) => w.WriteDbPointer(new BsonDbPointer("db.orders", ObjectId.NewObjectId()))),
        (BsonType.JavaScript, (ref BsonSpanWriter w) => w.WriteString("return 1;")),
        (BsonType.Symbol, (ref BsonSpanWriter w) => w.WriteString("sym")),
        (BsonType.Int32, (ref BsonSpanWriter w) => w.WriteInt32(-3)),
        (BsonType.Timestamp, (ref BsonSpanWriter w) => w.WriteTimestamp(new BsonTimestamp(5, 6))),
        (BsonType.Int64, (ref BsonSpanWriter w) => w.WriteInt64(long.MinValue)),
        (BsonType.Decimal128, (ref BsonSpanWriter w) => w.WriteDecimal(12.34m)),
        (BsonType.DateTime, (ref BsonSpanWriter w) => w.WriteDateTime(new DateTime(2026, 11, 25, 0, 0, 0, DateTimeKind.Utc))),
        (BsonType.DateTimeOffset, (ref BsonSpanWriter w) => w.WriteDateTimeOffset(new DateTimeOffset(2026, 11, 25, 8, 0, 0, TimeSpan.FromHours(2)))),
        (BsonType.TimeSpan, (ref BsonSpanWriter w) => w.WriteTimeSpan(TimeSpan.FromMinutes(3))),
        (BsonType.DateOnly, (ref BsonSpanWriter w) => w.WriteDateOnly(new DateOnly(2026, 11, 25))),
        (BsonType.TimeOnly, (ref BsonSpanWriter w) => w.WriteTimeOnly(new TimeOnly(8, 30))),
        (BsonType.UInt64, (ref BsonSpanWriter w) => w.WriteUInt64(ulong.MaxValue)),
        (BsonType.MinKey, (ref BsonSpanWriter w) => { }),
        (BsonType.MaxKey, (ref BsonSpanWriter w) => { }),
    ];

    private static byte[] EveryType()
    {
        var buffer = new byte[1024];
        var writer = new BsonSpanWriter(buffer);
        var token = writer.BeginDocument();
        for (var i = 0; i < Values.Length; i++)
        {
            writer.WriteFieldHeader(Values[i].Type, (ushort)(i + 1));
            Values[i].Write(ref writer);
        }

        writer.EndDocument(token);
        return writer.WrittenSpan.ToArray();
    }

    private static Dictionary<ushort, (int Offset, BsonType Type)> FullWalk(byte[] document)
    {
        var found = new Dictionary<ushort, (int, BsonType)>();
        var reader = new BsonSpanReader(document);
        reader.ReadDocumentStart();
        while (reader.TryReadFieldHeader(out var type, out var id))
        {
            found.TryAdd(id, (reader.Position, type));
            reader.SkipValue(type);
        }

        return found;
    }

    private static (int Found, int[] Offsets, BsonType[] Types) Locate(byte[] document, params ushort[] ids)
    {
        var offsets = new int[ids.Length];
        var types = new BsonType[ids.Length];
        var found = BsonSpanReader.LocateFields(document, ids, offsets, types);
        return (found, offsets, types);
    }

    [Fact]
    public void Every_value_type_is_located_where_a_full_walk_finds_it_whatever_the_order_asked()
    {
        var document = EveryType();
        var expected = FullWalk(document);
        Assert.Equal(Values.Length, expected.Count);

        var ids = Enumerable.Range(1, Values.Length).Select(i => (ushort)i).Reverse().ToArray();
        var (found, offsets, types) = Locate(document, ids);

        Assert.Equal(ids.Length, found);
        for (var k = 0; k < ids.Length; k++)
        {
            Assert.Equal(expected[ids[k]], (offsets[k], types[k]));
        }

        // Each field alone, so the walk steps over every value before it (the rare types included).
        foreach (var id in ids)
        {
            var (one, offset, type) = Locate(document, id);
            Assert.Equal(1, one);
            Assert.Equal(expected[id], (offset[0], type[0]));
        }
    }

    [Fact]
    public void Missing_fields_are_minus_one_and_the_first_of_a_repeated_field_wins()
    {
        var buffer = new byte[64];
        var writer = new BsonSpanWriter(buffer);
        var token = writer.BeginDocument();
        writer.WriteFieldHeader(BsonType.Int32, 2);
        writer.WriteInt32(1);
        writer.WriteFieldHeader(BsonType.Int32, 2);
        writer.WriteInt32(2);
        writer.WriteFieldHeader(BsonType.Null, 3);
        writer.EndDocument(token);
        var document = writer.WrittenSpan.ToArray();

        var (found, offsets, types) = Locate(document, 9, 2, 3);

        Assert.Equal(2, found);
        Assert.Equal(-1, offsets[0]);
        Assert.Equal(7, offsets[1]);
        Assert.Equal(BsonType.Int32, types[1]);
        Assert.Equal(BsonType.Null, types[2]);
        var (none, empty, _) = Locate(EmptyDocument, 1);
        Assert.Equal(0, none);
        Assert.Equal([-1], empty);
    }

    private static readonly byte[] EmptyDocument = [5, 0, 0, 0, 0];

    [Fact]
    public void The_walk_stops_at_the_last_field_asked_for()
    {
        // { 1: int32 } followed by a byte that is no type code: a reader refuses it, but a walk
        // that has found everything never reaches it.
        byte[] document = [15, 0, 0, 0, (byte)BsonType.Int32, 1, 0, 7, 0, 0, 0, 0x30, 2, 0, 0];

        Assert.Equal(7, Locate(document, 1).Offsets[0]);
        var error = Assert.Throws<BsonFormatException>(() => Locate(document, 1, 2));
        Assert.Contains("0x30", error.Message);
        Assert.Equal(11, error.Offset);
    }

    [Theory]
    [InlineData(new byte[] { 5, 0, 0 }, 0)] // truncated length prefix
    [InlineData(new byte[] { 9, 0, 0, 0, 0 }, 0)] // length past the input
    [InlineData(new byte[] { 4, 0, 0, 0, 0 }, 0)] // length below the minimum
    [InlineData(new byte[] { 6, 0, 0, 0, 0, 1 }, 5)] // no terminator at the declared end
    [InlineData(new byte[] { 6, 0, 0, 0, 0, 0 }, 4)] // terminator before the declared end
    [InlineData(new byte[] { 7, 0, 0, 0, (byte)BsonType.Int32, 1, 0 }, 7)] // value cut by the end
    [InlineData(new byte[] { 11, 0, 0, 0, (byte)BsonType.Int32, 1, 0, 1, 2, 3, 0 }, 11)] // value swallowing the terminator
    [InlineData(new byte[] { 13, 0, 0, 0, (byte)BsonType.String, 1, 0, 9, 0, 0, 0, 0, 0 }, 7)] // string length past the document
    [InlineData(new byte[] { 13, 0, 0, 0, (byte)BsonType.Document, 1, 0, 2, 0, 0, 0, 0, 0 }, 7)] // nested length below the minimum
    [InlineData(new byte[] { 13, 0, 0, 0, (byte)BsonType.Array, 1, 0, 9, 0, 0, 0, 0, 0 }, 7)] // nested length past the document
    [InlineData(new byte[] { 13, 0, 0, 0, (byte)BsonType.Binary, 1, 0, 2, 0, 0, 0, 0, 0 }, 7)] // binary payload past the document
    [InlineData(new byte[] { 12, 0, 0, 0, (byte)BsonType.String, 1, 0, 0, 0, 0, 0, 0 }, 7)] // string length below the minimum
    [InlineData(new byte[] { 9, 0, 0, 0, (byte)BsonType.String, 1, 0, 4, 0 }, 7)] // length prefix cut by the end
    [InlineData(new byte[] { 6, 0, 0, 0, (byte)BsonType.Int32, 0 }, 4)] // header cut by the end
    [InlineData(new byte[] { 9, 0, 0, 0, 0, 1, 0, 0, 0 }, 4)] // terminator in the middle
    [InlineData(new byte[] { 9, 0, 0, 0, 0x9A, 1, 0, 0, 0 }, 4)] // no type code
    public void Malformed_documents_are_refused_with_the_offset_of_the_problem(byte[] document, int offset)
    {
        var error = Assert.Throws<BsonFormatException>(() => Locate(document, 1, 2));
        Assert.Equal(offset, error.Offset);
    }

    [Fact]
    public void Ids_that_share_their_low_bits_are_told_apart()
    {
        // Field 65 comes first and shares field 1's low six bits; field 129 is asked for and absent.
        var buffer = new byte[64];
        var writer = new BsonSpanWriter(buffer);
        var token = writer.BeginDocument();
        writer.WriteFieldHeader(BsonType.Int32, 65);
        writer.WriteInt32(1);
        writer.WriteFieldHeader(BsonType.String, 1);
        writer.WriteString("one");
        writer.WriteFieldHeader(BsonType.Int64, 2);
        writer.WriteInt64(2);
        writer.EndDocument(token);
        var document = writer.WrittenSpan.ToArray();

        var (found, offsets, types) = Locate(document, 129, 1);

        Assert.Equal(1, found);
        Assert.Equal([-1, 14], offsets);
        Assert.Equal(BsonType.String, types[1]);
        Assert.Equal(FullWalk(document)[1], (offsets[1], types[1]));
    }

    [Fact]
    public void Too_many_ids_or_too_few_slots_are_argument_errors()
    {
        var document = EveryType();
        Assert.Throws<ArgumentOutOfRangeException>(() => Locate(document, new ushort[BsonSpanReader.MaxLocatedFields + 1]));
        Assert.Throws<ArgumentException>(() => BsonSpanReader.LocateFields(document, [1, 2], new int[1], new BsonType[2]));

        // The most ids one walk takes, some repeated and some absent: each present id is found once.
        var most = Enumerable.Range(0, BsonSpanReader.MaxLocatedFields).Select(i => (ushort)(i % 30 + 1)).ToArray();
        var (found, offsets, _) = Locate(document, most);
        Assert.Equal(Values.Length, found);
        Assert.Equal(-1, offsets[^1]);
    }
}
