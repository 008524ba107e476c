using BLite.Bson;
using BLite.Core.BTrees;

namespace BLite.Core.Tests.BTrees;

public sealed class KeyReaderTests
{
    [Fact]
    public void Every_component_type_reads_back_its_value()
    {
        var guid = Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e");
        byte[] objectId = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
        var at = new DateTimeOffset(2024, 2, 29, 13, 45, 10, TimeSpan.FromMinutes(-330));
        var key = TestKeys.Encode((ref KeyWriter w) =>
        {
            w.WriteNull();
            w.WriteBoolean(true);
            w.WriteInt32(-42);
            w.WriteInt64(long.MinValue);
            w.WriteUInt64(ulong.MaxValue);
            w.WriteDouble(-1.25);
            w.WriteDecimal(-123.4500m);
            w.WriteDecimal(79228162514264337593543950335m);
            w.WriteDecimal(0.0000000000000000000000000001m);
            w.WriteString("a\0b\U0001F600");
            w.WriteBinary([0, 1, 0, 0xFF]);
            w.WriteGuid(guid);
            w.WriteObjectId(objectId);
            w.WriteDateTime(new DateTime(2020, 5, 6, 7, 8, 9, DateTimeKind.Utc));
            w.WriteDateTimeOffset(at);
            w.WriteTimeSpan(TimeSpan.FromTicks(-123456789));
            w.WriteDateOnly(new DateOnly(1999, 12, 31));
            w.WriteTimeOnly(new TimeOnly(23, 59, 58));
        });

        var reader = new KeyReader(key);
        reader.ReadNull();
        Assert.True(reader.ReadBoolean());
        Assert.Equal(-42, reader.ReadInt32());
        Assert.Equal(long.MinValue, reader.ReadInt64());
        Assert.Equal(ulong.MaxValue, reader.ReadUInt64());
        Assert.Equal(-1.25, reader.ReadDouble());
        Assert.Equal(-123.45m, reader.ReadDecimal());
        Assert.Equal(79228162514264337593543950335m, reader.ReadDecimal());
        Assert.Equal(0.0000000000000000000000000001m, reader.ReadDecimal());
        Assert.Equal("a\0b\U0001F600", reader.ReadString());
        Assert.Equal([0, 1, 0, 0xFF], reader.ReadBinary());
        Assert.Equal(guid, reader.ReadGuid());
        Assert.Equal(objectId, reader.ReadObjectIdBytes().ToArray());
        Assert.Equal(new DateTime(2020, 5, 6, 7, 8, 9).Ticks, reader.ReadDateTime().Ticks);
        var readAt = reader.ReadDateTimeOffset();
        Assert.Equal(at, readAt);
        Assert.Equal(at.Offset, readAt.Offset);
        Assert.Equal(TimeSpan.FromTicks(-123456789), reader.ReadTimeSpan());
        Assert.Equal(new DateOnly(1999, 12, 31), reader.ReadDateOnly());
        Assert.Equal(new TimeOnly(23, 59, 58), reader.ReadTimeOnly());
        Assert.True(reader.End);
    }

    [Fact]
    public void Documented_examples_encode_byte_for_byte()
    {
        Assert.Equal(Convert.FromHexString("14048390"), TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal(12.5m)));
        Assert.Equal(Convert.FromHexString("14027C6F"), TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal(-12.50m)));
        Assert.Equal(Convert.FromHexString("14048390"), TestKeys.Encode((ref KeyWriter w) => w.WriteDouble(12.5)));
        Assert.Equal(Convert.FromHexString("14048000"), TestKeys.Int(1));
        Assert.Equal(Convert.FromHexString("14048240"), TestKeys.Int(5));
        Assert.Equal(Convert.FromHexString("14027FFF"), TestKeys.Int(-1));
        Assert.Equal(Convert.FromHexString("1403"), TestKeys.Int(0));
        Assert.Equal(Convert.FromHexString("14048000"), TestKeys.Encode((ref KeyWriter w) => w.WriteDouble(1.0)));
        Assert.Equal(Convert.FromHexString("1400"), TestKeys.Encode((ref KeyWriter w) => w.WriteDouble(double.NaN)));
        Assert.Equal(Convert.FromHexString("1405"), TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal128(BsonDecimal128.PositiveInfinity)));

        // 0.1 has no finite binary form: 63 truncated fraction bits in nine bytes (bit 0 set), then its digits.
        var tenth = TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal(0.1m));
        Assert.Equal(14, tenth.Length);
        Assert.Equal(Convert.FromHexString("14047C"), tenth[..3]);
        Assert.All(tenth[3..12], b => Assert.Equal(1, b & 1));
        Assert.Equal(Convert.FromHexString("8020"), tenth[12..]);
        Assert.Equal(Convert.FromHexString("206100FF0001"), TestKeys.Str("a\0"));
        Assert.Equal(Convert.FromHexString("05"), TestKeys.Encode((ref KeyWriter w) => w.WriteNull()));
    }

    [Fact]
    public void Encoded_components_can_be_split_off_a_composite_key()
    {
        var fieldKey = TestKeys.Str("shipped");
        var primaryKey = TestKeys.Encode((ref KeyWriter w) => w.WriteObjectId(new byte[12]));
        var entry = TestKeys.Encode((ref KeyWriter w) =>
        {
            w.WriteEncoded(fieldKey);
            w.WriteEncoded(primaryKey);
        });

        var reader = new KeyReader(entry);
        Assert.Equal(fieldKey, reader.ReadEncodedComponent().ToArray());
        Assert.Equal(primaryKey, reader.ReadEncodedComponent().ToArray());
        Assert.True(reader.End);
    }

    [Fact]
    public void Decimals_with_trailing_zeros_encode_like_their_normalized_value()
    {
        Assert.Equal(TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal(1m)), TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal(1.000m)));
        Assert.Equal(TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal(0m)), TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal(new decimal(0, 0, 0, true, 3))));
    }

    [Fact]
    public void A_key_that_does_not_fit_the_buffer_throws_naming_sizes()
    {
        var buffer = new byte[16];
        var exception = Assert.Throws<BLiteKeyTooLargeException>(() =>
        {
            var writer = new KeyWriter(buffer);
            writer.WriteString("a string that is longer than sixteen bytes");
        });
        Assert.Equal(16, exception.MaxKeySize);
        Assert.True(exception.KeySize > 16);
        Assert.Contains("16 bytes", exception.Message);
    }

    [Fact]
    public void A_string_with_an_unpaired_surrogate_is_rejected()
    {
        var exception = Assert.Throws<ArgumentException>(() => TestKeys.Str("a\ud800b"));
        Assert.Contains("surrogate", exception.Message);
    }

    [Fact]
    public void Truncated_or_mistyped_keys_throw_format_errors()
    {
        var key = TestKeys.Int(5);
        Assert.Throws<FormatException>(() => new KeyReader(key.AsSpan(0, key.Length - 1)).ReadInt64());
        Assert.Throws<FormatException>(() => new KeyReader(TestKeys.Encode((ref KeyWriter w) => w.WriteDouble(0.5))).ReadInt64());
        Assert.Throws<FormatException>(() => new KeyReader(key).ReadString());
        Assert.Throws<FormatException>(() => new KeyReader([(byte)KeyType.String, (byte)'a']).ReadString());
        Assert.Throws<FormatException>(() => new KeyReader([0x99]).ReadEncodedComponent());
    }
}
