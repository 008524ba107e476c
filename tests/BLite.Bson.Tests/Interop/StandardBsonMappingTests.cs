using System.Buffers.Binary;
using BLite.Bson.Interop;

namespace BLite.Bson.Tests.Interop;

/// <summary>How BLite's extension types become standard BSON (docs/cli.md, "Standard BSON mapping").</summary>
public class StandardBsonMappingTests
{
    private static readonly DateTime _epoch = new(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    [Fact]
    public void Utc_datetime_becomes_milliseconds_since_the_epoch_dropping_sub_millisecond_ticks()
    {
        var value = new DateTime(2024, 2, 29, 12, 0, 0, DateTimeKind.Utc).AddTicks(12_345);

        var (type, payload) = WriteSingle(value);

        Assert.Equal(0x09, type);
        var expected = (long)(new DateTime(2024, 2, 29, 12, 0, 0, DateTimeKind.Utc) - _epoch).TotalMilliseconds + 1;
        Assert.Equal(expected, BinaryPrimitives.ReadInt64LittleEndian(payload));
        Assert.Equal(new DateTime(2024, 2, 29, 12, 0, 0, 1, DateTimeKind.Utc), ReadBack(value).AsDateTime);
        Assert.Equal(DateTimeKind.Utc, ReadBack(value).AsDateTime.Kind);
    }

    [Fact]
    public void Datetime_before_the_epoch_rounds_toward_the_past()
    {
        var value = _epoch.AddTicks(-1);

        var (_, payload) = WriteSingle(value);

        Assert.Equal(-1, BinaryPrimitives.ReadInt64LittleEndian(payload));
    }

    [Fact]
    public void Local_datetime_is_converted_to_utc_with_the_machines_zone()
    {
        var local = new DateTime(2024, 7, 1, 8, 30, 0, DateTimeKind.Local);

        Assert.Equal(local.ToUniversalTime(), ReadBack(local).AsDateTime);
    }

    [Fact]
    public void Unspecified_datetime_is_taken_as_utc()
    {
        var unspecified = new DateTime(2024, 7, 1, 8, 30, 0, DateTimeKind.Unspecified);

        Assert.Equal(new DateTime(2024, 7, 1, 8, 30, 0, DateTimeKind.Utc), ReadBack(unspecified).AsDateTime);
    }

    [Fact]
    public void DateTimeOffset_becomes_the_utc_datetime_of_its_instant()
    {
        var value = new DateTimeOffset(2024, 1, 2, 3, 4, 5, 678, TimeSpan.FromHours(2));

        var (type, _) = WriteSingle(value);

        Assert.Equal(0x09, type);
        Assert.Equal(new DateTime(2024, 1, 2, 1, 4, 5, 678, DateTimeKind.Utc), ReadBack(value).AsDateTime);
    }

    [Fact]
    public void DateOnly_becomes_midnight_utc()
    {
        Assert.Equal(new DateTime(2024, 3, 15, 0, 0, 0, DateTimeKind.Utc), ReadBack(new DateOnly(2024, 3, 15)).AsDateTime);
        Assert.Equal(DateTime.MinValue, ReadBack(DateOnly.MinValue).AsDateTime);
    }

    [Fact]
    public void TimeSpan_and_TimeOnly_become_int64_ticks()
    {
        var span = TimeSpan.FromMinutes(-90).Add(TimeSpan.FromTicks(3));
        var time = new TimeOnly(13, 14, 15).Add(TimeSpan.FromTicks(9));

        Assert.Equal(0x12, WriteSingle(span).Type);
        Assert.Equal(span.Ticks, ReadBack(span).AsInt64);
        Assert.Equal(0x12, WriteSingle(time).Type);
        Assert.Equal(time.Ticks, ReadBack(time).AsInt64);
    }

    [Fact]
    public void UInt64_becomes_int64_when_it_fits_and_decimal128_otherwise()
    {
        Assert.Equal(0x12, WriteSingle((ulong)long.MaxValue).Type);
        Assert.Equal(long.MaxValue, ReadBack((ulong)long.MaxValue).AsInt64);

        Assert.Equal(0x13, WriteSingle(ulong.MaxValue).Type);
        Assert.Equal(18446744073709551615m, ReadBack(ulong.MaxValue).AsDecimal);
    }

    [Fact]
    public void Guid_is_binary_subtype_4_in_rfc_4122_order()
    {
        var guid = Guid.Parse("00112233-4455-6677-8899-aabbccddeeff");

        var (type, payload) = WriteSingle(guid);

        Assert.Equal(0x05, type);
        Assert.Equal("1000000004" + "00112233445566778899AABBCCDDEEFF", Convert.ToHexString(payload));
        Assert.Equal(guid, ReadBack(guid).AsGuid);
    }

    [Fact]
    public void Decimal_keeps_scale_and_sign()
    {
        var value = new decimal(0, 0, 0, isNegative: true, scale: 3);

        var read = ReadBack(value).AsDecimal;

        Assert.Equal(decimal.GetBits(value), decimal.GetBits(read));
    }

    [Fact]
    public void A_field_name_with_a_nul_cannot_be_written()
    {
        var exception = Assert.Throws<ArgumentException>(() => StandardBsonWriter.ToBytes(new BsonDocument { { "a\0b", 1 } }));

        Assert.Contains("NUL", exception.Message);
    }

    [Fact]
    public void A_string_with_an_unpaired_surrogate_cannot_be_written()
    {
        var exception = Assert.Throws<ArgumentException>(() => StandardBsonWriter.ToBytes(new BsonDocument { { "s", "x\uD800" } }));

        Assert.Contains("surrogate", exception.Message);
    }

    private static (byte Type, byte[] Payload) WriteSingle(BsonValue value)
    {
        // {"v": value}: 4-byte length, type, "v\0", payload, terminator.
        var bytes = StandardBsonWriter.ToBytes(new BsonDocument { { "v", value } });
        return (bytes[4], bytes[7..^1]);
    }

    private static BsonValue ReadBack(BsonValue value) =>
        StandardBsonReader.ReadDocument(StandardBsonWriter.ToBytes(new BsonDocument { { "v", value } }))["v"];
}
