using System.Buffers;

namespace BLite.Bson.Tests.IO;

public class BsonSpanWriterReaderRoundTripTests
{
    private delegate void WriteValue(ref BsonSpanWriter writer);

    private delegate T ReadValue<T>(ref BsonSpanReader reader);

    // Writes { 1: value } through the IBufferWriter path, reads it back with the span reader and
    // checks that the document was consumed exactly.
    private static T RoundTrip<T>(BsonType type, WriteValue write, ReadValue<T> read)
    {
        var output = new ArrayBufferWriter<byte>(16);
        var writer = new BsonSpanWriter(output);
        var token = writer.BeginDocument();
        writer.WriteFieldHeader(type, 1);
        write(ref writer);
        writer.EndDocument(token);
        Assert.Equal(output.WrittenCount, writer.BytesWritten);

        var reader = new BsonSpanReader(output.WrittenSpan);
        reader.ReadDocumentStart();
        Assert.True(reader.TryReadFieldHeader(out var readType, out var fieldId));
        Assert.Equal(type, readType);
        Assert.Equal((ushort)1, fieldId);
        var value = read(ref reader);
        Assert.False(reader.TryReadFieldHeader(out _, out _));
        Assert.Equal(output.WrittenCount, reader.Position);
        return value;
    }

    [Theory]
    [InlineData(0.0)]
    [InlineData(1.5)]
    [InlineData(double.MinValue)]
    [InlineData(double.MaxValue)]
    [InlineData(double.Epsilon)]
    [InlineData(double.PositiveInfinity)]
    [InlineData(double.NegativeInfinity)]
    public void Double_round_trips(double value)
    {
        var read = RoundTrip(BsonType.Double, (ref BsonSpanWriter w) => w.WriteDouble(value), (ref BsonSpanReader r) => r.ReadDouble());
        Assert.Equal(BitConverter.DoubleToInt64Bits(value), BitConverter.DoubleToInt64Bits(read));
    }

    [Fact]
    public void Double_keeps_negative_zero_and_nan_bits()
    {
        foreach (var value in new[] { -0.0, double.NaN, BitConverter.Int64BitsToDouble(0x7FF0_0000_0000_0001) })
        {
            var read = RoundTrip(BsonType.Double, (ref BsonSpanWriter w) => w.WriteDouble(value), (ref BsonSpanReader r) => r.ReadDouble());
            Assert.Equal(BitConverter.DoubleToInt64Bits(value), BitConverter.DoubleToInt64Bits(read));
        }
    }

    [Fact]
    public void Float_widens_to_double_exactly()
    {
        foreach (var value in new[] { float.MinValue, float.MaxValue, float.Epsilon, 0.1f, -0.0f })
        {
            var read = RoundTrip(BsonType.Double, (ref BsonSpanWriter w) => w.WriteDouble(value), (ref BsonSpanReader r) => r.ReadDouble());
            Assert.Equal(BitConverter.SingleToInt32Bits(value), BitConverter.SingleToInt32Bits((float)read));
        }
    }

    [Theory]
    [InlineData("")]
    [InlineData("hello")]
    [InlineData("héllo wörld ✓")]
    [InlineData("emoji 😀 and 𝄞 clef")]
    [InlineData("nul\0inside")]
    public void String_round_trips(string value)
    {
        Assert.Equal(value, RoundTrip(BsonType.String, (ref BsonSpanWriter w) => w.WriteString(value), (ref BsonSpanReader r) => r.ReadString()));
        Assert.Equal(value, RoundTrip(BsonType.String, (ref BsonSpanWriter w) => w.WriteString(value.AsSpan()), (ref BsonSpanReader r) => System.Text.Encoding.UTF8.GetString(r.ReadStringUtf8())));
        var utf8 = System.Text.Encoding.UTF8.GetBytes(value);
        Assert.Equal(value, RoundTrip(BsonType.String, (ref BsonSpanWriter w) => w.WriteStringUtf8(utf8), (ref BsonSpanReader r) => r.ReadString()));
    }

    [Fact]
    public void Long_string_round_trips_through_the_pooled_buffer()
    {
        var value = string.Concat(Enumerable.Repeat("ab€😀", 5000));
        Assert.Equal(value, RoundTrip(BsonType.String, (ref BsonSpanWriter w) => w.WriteString(value), (ref BsonSpanReader r) => r.ReadString()));
    }

    [Fact]
    public void String_with_lone_surrogate_is_refused_by_the_writer()
    {
        var buffer = new byte[64];
        Assert.ThrowsAny<ArgumentException>(() =>
        {
            var writer = new BsonSpanWriter(buffer);
            writer.WriteString("bad \uD800 surrogate");
        });
    }

    [Fact]
    public void Binary_round_trips_with_subtype()
    {
        byte[] value = [0, 1, 2, 255];
        foreach (var subtype in new[] { BsonBinarySubtype.Generic, BsonBinarySubtype.Md5, BsonBinarySubtype.UserDefined, (BsonBinarySubtype)0xFF })
        {
            var read = RoundTrip(BsonType.Binary, (ref BsonSpanWriter w) => w.WriteBinary(value, subtype), (ref BsonSpanReader r) =>
            {
                var bytes = r.ReadBinary(out var readSubtype);
                Assert.Equal(subtype, readSubtype);
                return bytes.ToArray();
            });
            Assert.Equal(value, read);
        }

        Assert.Empty(RoundTrip(BsonType.Binary, (ref BsonSpanWriter w) => w.WriteBinary([], BsonBinarySubtype.Generic), (ref BsonSpanReader r) => r.ReadBinary(out _).ToArray()));
    }

    [Fact]
    public void ObjectId_round_trips()
    {
        var value = ObjectId.NewObjectId();
        Assert.Equal(value, RoundTrip(BsonType.ObjectId, (ref BsonSpanWriter w) => w.WriteObjectId(value), (ref BsonSpanReader r) => r.ReadObjectId()));
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Boolean_round_trips(bool value) =>
        Assert.Equal(value, RoundTrip(BsonType.Boolean, (ref BsonSpanWriter w) => w.WriteBoolean(value), (ref BsonSpanReader r) => r.ReadBoolean()));

    [Theory]
    [InlineData(int.MinValue)]
    [InlineData(-1)]
    [InlineData(0)]
    [InlineData(int.MaxValue)]
    public void Int32_round_trips(int value) =>
        Assert.Equal(value, RoundTrip(BsonType.Int32, (ref BsonSpanWriter w) => w.WriteInt32(value), (ref BsonSpanReader r) => r.ReadInt32()));

    [Theory]
    [InlineData(long.MinValue)]
    [InlineData(0L)]
    [InlineData(long.MaxValue)]
    public void Int64_round_trips(long value) =>
        Assert.Equal(value, RoundTrip(BsonType.Int64, (ref BsonSpanWriter w) => w.WriteInt64(value), (ref BsonSpanReader r) => r.ReadInt64()));

    [Theory]
    [InlineData(0UL)]
    [InlineData(ulong.MaxValue)]
    [InlineData((ulong)long.MaxValue + 1)]
    public void UInt64_round_trips(ulong value) =>
        Assert.Equal(value, RoundTrip(BsonType.UInt64, (ref BsonSpanWriter w) => w.WriteUInt64(value), (ref BsonSpanReader r) => r.ReadUInt64()));

    [Fact]
    public void Guid_round_trips_as_uuid_binary_in_rfc_order()
    {
        var value = Guid.Parse("00112233-4455-6677-8899-aabbccddeeff");
        var read = RoundTrip(BsonType.Binary, (ref BsonSpanWriter w) => w.WriteGuid(value), (ref BsonSpanReader r) =>
        {
            var copy = r;
            var bytes = copy.ReadBinary(out var subtype);
            Assert.Equal(BsonBinarySubtype.Uuid, subtype);
            Assert.Equal(Convert.FromHexString("00112233445566778899aabbccddeeff"), bytes.ToArray());
            return r.ReadGuid();
        });
        Assert.Equal(value, read);
        Assert.Equal(Guid.Empty, RoundTrip(BsonType.Binary, (ref BsonSpanWriter w) => w.WriteGuid(Guid.Empty), (ref BsonSpanReader r) => r.ReadGuid()));
    }

    [Fact]
    public void DateTime_keeps_full_ticks_and_kind()
    {
        DateTime[] values =
        [
            DateTime.MinValue, DateTime.MaxValue,
            new DateTime(2024, 2, 29, 23, 59, 59, DateTimeKind.Utc).AddTicks(1234567),
            new DateTime(638_000_000_000_000_001, DateTimeKind.Local),
            new DateTime(638_000_000_000_000_001, DateTimeKind.Unspecified),
            DateTime.SpecifyKind(DateTime.MaxValue, DateTimeKind.Local),
        ];
        foreach (var value in values)
        {
            var read = RoundTrip(BsonType.DateTime, (ref BsonSpanWriter w) => w.WriteDateTime(value), (ref BsonSpanReader r) => r.ReadDateTime());
            Assert.Equal(value.Ticks, read.Ticks);
            Assert.Equal(value.Kind, read.Kind);
        }
    }

    [Fact]
    public void DateTimeOffset_keeps_ticks_and_offset()
    {
        DateTimeOffset[] values =
        [
            DateTimeOffset.MinValue, DateTimeOffset.MaxValue,
            new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.FromHours(14)).AddTicks(1),
            new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.FromMinutes(-14 * 60)),
            new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.FromMinutes(345)),
        ];
        foreach (var value in values)
        {
            var read = RoundTrip(BsonType.DateTimeOffset, (ref BsonSpanWriter w) => w.WriteDateTimeOffset(value), (ref BsonSpanReader r) => r.ReadDateTimeOffset());
            Assert.Equal(value.Ticks, read.Ticks);
            Assert.Equal(value.Offset, read.Offset);
        }
    }

    [Fact]
    public void TimeSpan_DateOnly_and_TimeOnly_round_trip_at_their_limits()
    {
        foreach (var value in new[] { TimeSpan.MinValue, TimeSpan.Zero, TimeSpan.MaxValue, TimeSpan.FromTicks(-1) })
        {
            Assert.Equal(value, RoundTrip(BsonType.TimeSpan, (ref BsonSpanWriter w) => w.WriteTimeSpan(value), (ref BsonSpanReader r) => r.ReadTimeSpan()));
        }

        foreach (var value in new[] { DateOnly.MinValue, new DateOnly(2024, 2, 29), DateOnly.MaxValue })
        {
            Assert.Equal(value, RoundTrip(BsonType.DateOnly, (ref BsonSpanWriter w) => w.WriteDateOnly(value), (ref BsonSpanReader r) => r.ReadDateOnly()));
        }

        foreach (var value in new[] { TimeOnly.MinValue, new TimeOnly(12, 34, 56, 789).Add(TimeSpan.FromTicks(1)), TimeOnly.MaxValue })
        {
            Assert.Equal(value, RoundTrip(BsonType.TimeOnly, (ref BsonSpanWriter w) => w.WriteTimeOnly(value), (ref BsonSpanReader r) => r.ReadTimeOnly()));
        }
    }

    [Fact]
    public void Null_has_no_value_bytes()
    {
        var buffer = new byte[16];
        var writer = new BsonSpanWriter(buffer);
        var token = writer.BeginDocument();
        writer.WriteFieldHeader(BsonType.Null, 7);
        writer.EndDocument(token);
        Assert.Equal(4 + 3 + 1, writer.BytesWritten);

        var reader = new BsonSpanReader(writer.WrittenSpan);
        reader.ReadDocumentStart();
        Assert.True(reader.TryReadFieldHeader(out var type, out var id));
        Assert.Equal((BsonType.Null, (ushort)7), (type, id));
        Assert.Equal(0, reader.ReadRawValue(type).Length);
        Assert.False(reader.TryReadFieldHeader(out _, out _));
    }

    [Fact]
    public void Enums_and_small_integers_travel_as_their_widened_type()
    {
        Assert.Equal(DayOfWeek.Saturday, (DayOfWeek)RoundTrip(BsonType.Int32, (ref BsonSpanWriter w) => w.WriteInt32((int)DayOfWeek.Saturday), (ref BsonSpanReader r) => r.ReadInt32()));
        Assert.Equal(uint.MaxValue, checked((uint)RoundTrip(BsonType.Int64, (ref BsonSpanWriter w) => w.WriteInt64(uint.MaxValue), (ref BsonSpanReader r) => r.ReadInt64())));
        Assert.Equal("😀"[0], (char)RoundTrip(BsonType.Int32, (ref BsonSpanWriter w) => w.WriteInt32("😀"[0]), (ref BsonSpanReader r) => r.ReadInt32()));
    }
}
