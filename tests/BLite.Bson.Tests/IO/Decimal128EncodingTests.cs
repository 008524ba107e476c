using System.Buffers.Binary;

namespace BLite.Bson.Tests.IO;

public class Decimal128EncodingTests
{
    private static decimal RoundTrip(decimal value)
    {
        var bytes = new byte[16];
        Decimal128Encoding.Write(value, bytes);
        return Decimal128Encoding.Read(bytes, 0);
    }

    private static int[] Bits(decimal value) => decimal.GetBits(value);

    private static readonly decimal[] _values =
    [
        0m, 1m, -1m, 1.50m, 0.0000000000000000000000000001m, decimal.MaxValue, decimal.MinValue,
        79228162514264337593543950335m, 7.9228162514264337593543950335m, 123456789.123456789m, -0.001m,
        new decimal(0, 0, 0, false, 28), new decimal(0, 0, 0, true, 5), new decimal(0, 0, 0, true, 0),
        new decimal(-1, -1, -1, true, 28), 100.000m,
    ];

    [Fact]
    public void Decimal_round_trips_with_sign_scale_and_all_digits()
    {
        foreach (var value in _values)
        {
            Assert.Equal(Bits(value), Bits(RoundTrip(value)));
        }
    }

    [Fact]
    public void Encoding_follows_the_bid_layout()
    {
        // 1.50 = coefficient 150, exponent -2: biased exponent 6174 in bits 49-62 of the high word.
        var bytes = new byte[16];
        Decimal128Encoding.Write(1.50m, bytes);
        Assert.Equal(150UL, BinaryPrimitives.ReadUInt64LittleEndian(bytes));
        Assert.Equal(6174UL << 49, BinaryPrimitives.ReadUInt64LittleEndian(bytes.AsSpan(8)));

        Decimal128Encoding.Write(-1m, bytes);
        Assert.Equal(1UL, BinaryPrimitives.ReadUInt64LittleEndian(bytes));
        Assert.Equal((1UL << 63) | (6176UL << 49), BinaryPrimitives.ReadUInt64LittleEndian(bytes.AsSpan(8)));
    }

    private static byte[] Encode(bool negative, UInt128 coefficient, int exponent)
    {
        var bytes = new byte[16];
        BinaryPrimitives.WriteUInt64LittleEndian(bytes, (ulong)coefficient);
        var high = (ulong)(coefficient >> 64) | ((ulong)(exponent + 6176) << 49) | (negative ? 1UL << 63 : 0);
        BinaryPrimitives.WriteUInt64LittleEndian(bytes.AsSpan(8), high);
        return bytes;
    }

    [Fact]
    public void Foreign_decimal128_values_that_a_decimal_holds_exactly_are_normalized()
    {
        Assert.Equal(1200m, Decimal128Encoding.Read(Encode(false, 12, 2), 0));
        Assert.Equal(Bits(1.0000000000000000000000000000m), Bits(Decimal128Encoding.Read(Encode(false, UInt128.Parse("10000000000000000000000000000000"), -31), 0)));
        Assert.Equal(0m, Decimal128Encoding.Read(Encode(false, 0, 6000), 0));
        Assert.Equal(0m, Decimal128Encoding.Read(Encode(true, 0, -6000), 0));
    }

    [Fact]
    public void Decimal128_values_a_decimal_cannot_hold_exactly_are_refused_with_the_value()
    {
        var tooPrecise = Assert.Throws<BsonFormatException>(() => Decimal128Encoding.Read(Encode(false, 1, -29), 40));
        Assert.Contains("cannot be represented exactly", tooPrecise.Message);
        Assert.Equal(40, tooPrecise.Offset);
        Assert.Throws<BsonFormatException>(() => Decimal128Encoding.Read(Encode(false, UInt128.Parse("9999999999999999999999999999999999"), 0), 0));
        Assert.Throws<BsonFormatException>(() => Decimal128Encoding.Read(Encode(true, 1, 29), 0));
    }

    [Fact]
    public void Random_decimals_round_trip_bit_for_bit()
    {
        const int seed = 20261121;
        var random = new Random(seed);
        for (var i = 0; i < 10_000; i++)
        {
            var value = new decimal(random.Next(int.MinValue, int.MaxValue), random.Next(int.MinValue, int.MaxValue), random.Next(int.MinValue, int.MaxValue), random.Next(2) == 1, (byte)random.Next(29));
            Assert.True(Bits(value).SequenceEqual(Bits(RoundTrip(value))), $"seed {seed}, value {value}");
        }
    }

    [Fact]
    public void Coefficients_at_the_96_bit_edge_are_read_exactly_or_refused()
    {
        var max96 = (UInt128.One << 96) - 1;
        Assert.Equal(Bits(new decimal(-1, -1, -1, false, 28)), Bits(Decimal128Encoding.Read(Encode(false, max96, -28), 0)));
        Assert.Equal(Bits(new decimal(-1, -1, -1, true, 0)), Bits(Decimal128Encoding.Read(Encode(true, max96, 0), 0)));
        Assert.Throws<BsonFormatException>(() => Decimal128Encoding.Read(Encode(false, max96 + 1, 0), 0));
        Assert.Equal(Bits(new decimal(10, 0, 10, false, 28)), Bits(Decimal128Encoding.Read(Encode(false, ((UInt128.One << 64) + 1) * 10, -28), 0)));
        Assert.Equal(Bits(1.0000000000000000000000000000m), Bits(Decimal128Encoding.Read(Encode(false, UInt128.Parse("100000000000000000000000000000"), -29), 0)));
    }

    [Fact]
    public void Infinity_nan_and_non_canonical_decimal128_are_refused()
    {
        var bytes = new byte[16];
        BinaryPrimitives.WriteUInt64LittleEndian(bytes.AsSpan(8), 0x7800_0000_0000_0000);
        Assert.Contains("Infinity", Assert.Throws<BsonFormatException>(() => Decimal128Encoding.Read(bytes, 0)).Message);
        BinaryPrimitives.WriteUInt64LittleEndian(bytes.AsSpan(8), 0x7C00_0000_0000_0000);
        Assert.Contains("NaN", Assert.Throws<BsonFormatException>(() => Decimal128Encoding.Read(bytes, 0)).Message);
        BinaryPrimitives.WriteUInt64LittleEndian(bytes.AsSpan(8), 0x6000_0000_0000_0000);
        Assert.Throws<BsonFormatException>(() => Decimal128Encoding.Read(bytes, 0));
        Assert.Throws<BsonFormatException>(() => Decimal128Encoding.Read(Encode(false, UInt128.Parse("10000000000000000000000000000000000"), 0), 0));
    }

    [Fact]
    public void Writer_and_reader_carry_decimals()
    {
        var buffer = new byte[64];
        var writer = new BsonSpanWriter(buffer);
        var token = writer.BeginDocument();
        writer.WriteFieldHeader(BsonType.Decimal128, 3);
        writer.WriteDecimal(decimal.MinValue);
        writer.EndDocument(token);

        var reader = new BsonSpanReader(writer.WrittenSpan);
        reader.ReadDocumentStart();
        Assert.True(reader.TryReadFieldHeader(out var type, out _));
        Assert.Equal(BsonType.Decimal128, type);
        Assert.Equal(decimal.MinValue, reader.ReadDecimal());
    }
}
