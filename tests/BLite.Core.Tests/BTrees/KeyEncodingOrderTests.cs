using System.Text;
using BLite.Core.BTrees;

namespace BLite.Core.Tests.BTrees;

/// <summary>For each type: comparing encodings byte-wise must agree with comparing the values.</summary>
public sealed class KeyEncodingOrderTests
{
    private const int RandomCount = 250;

    [Fact]
    public void Integers_of_every_width_order_numerically_and_share_one_encoding()
    {
        var random = new Random(101);
        var values = new List<Int128> { long.MinValue, long.MinValue + 1, int.MinValue, -1, 0, 1, int.MaxValue, uint.MaxValue, long.MaxValue, (Int128)long.MaxValue + 1, ulong.MaxValue - 1, ulong.MaxValue };
        for (var i = 0; i < RandomCount; i++)
            values.Add(random.Next(3) == 0 ? (Int128)(ulong)random.NextInt64() << random.Next(2) : random.NextInt64(long.MinValue, long.MaxValue));

        AssertOrderPreserved(values, (a, b) => a.CompareTo(b), EncodeInteger);
        Assert.Equal(TestKeys.Encode((ref KeyWriter w) => w.WriteByte(5)), TestKeys.Encode((ref KeyWriter w) => w.WriteInt64(5)));
        Assert.Equal(TestKeys.Encode((ref KeyWriter w) => w.WriteInt16(-5)), TestKeys.Encode((ref KeyWriter w) => w.WriteInt32(-5)));
        Assert.Equal(TestKeys.Encode((ref KeyWriter w) => w.WriteUInt64(7)), TestKeys.Encode((ref KeyWriter w) => w.WriteUInt32(7)));
    }

    [Fact]
    public void Doubles_order_like_CompareTo_with_NaN_first_and_negative_zero_equal_to_zero()
    {
        var random = new Random(102);
        var values = new List<double>
        {
            double.NaN, -double.NaN, BitConverter.Int64BitsToDouble(0x7FF0_0000_0000_0001), double.NegativeInfinity, double.MinValue,
            -1.0, -double.Epsilon, -0.0, 0.0, double.Epsilon, 1.0, double.MaxValue, double.PositiveInfinity, 1e-300, -1e-300,
        };
        for (var i = 0; i < RandomCount; i++)
            values.Add(random.Next(2) == 0 ? BitConverter.Int64BitsToDouble(random.NextInt64(long.MinValue, long.MaxValue)) : (random.NextDouble() - 0.5) * 1000);

        AssertOrderPreserved(values, (a, b) => a.CompareTo(b), v => TestKeys.Encode((ref KeyWriter w) => w.WriteDouble(v)));
        Assert.Equal(TestKeys.Encode((ref KeyWriter w) => w.WriteSingle(1.5f)), TestKeys.Encode((ref KeyWriter w) => w.WriteDouble(1.5)));
    }

    [Fact]
    public void Decimals_order_exactly_across_scales_and_equal_values_encode_equal()
    {
        var random = new Random(103);
        var values = new List<decimal>
        {
            decimal.MinValue, decimal.MaxValue, 0m, new decimal(0, 0, 0, true, 5), 1m, 1.0m, 1.00m, -1m, -1.000m,
            0.0000000000000000000000000001m, -0.0000000000000000000000000001m, 10m, 100m, 1e28m, 0.1m, 0.10m, 9.99m, 10.01m,
        };
        for (var i = 0; i < RandomCount; i++)
        {
            var value = new decimal(random.Next(), random.Next(), random.Next(3) == 0 ? random.Next() : 0, random.Next(2) == 0, (byte)random.Next(0, 29));
            values.Add(value);
            values.Add(Math.Round(value, random.Next(0, 5)));
        }

        AssertOrderPreserved(values, decimal.Compare, v => TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal(v)));
    }

    [Fact]
    public void Decimal128_values_order_numerically_NaN_first_and_fitting_values_encode_like_their_decimal()
    {
        var random = new Random(107);
        var values = new List<BLite.Bson.BsonDecimal128>
        {
            BLite.Bson.BsonDecimal128.NaN, BLite.Bson.BsonDecimal128.NegativeInfinity, BLite.Bson.BsonDecimal128.PositiveInfinity,
            BLite.Bson.BsonDecimal128.MaxValue, BLite.Bson.BsonDecimal128.MinValue, BLite.Bson.BsonDecimal128.Parse("-0E-6176"),
            BLite.Bson.BsonDecimal128.Parse("0E+9"), BLite.Bson.BsonDecimal128.Parse("1E-6176"), BLite.Bson.BsonDecimal128.Parse("-1E-6176"),
            BLite.Bson.BsonDecimal128.Parse("1E+3"), BLite.Bson.BsonDecimal128.Parse("1000"), BLite.Bson.BsonDecimal128.Parse("1E-28"),
            BLite.Bson.BsonDecimal128.Parse("1E-29"), BLite.Bson.BsonDecimal128.Parse("9.9E+28"), BLite.Bson.BsonDecimal128.Parse("1E+29"),
            BLite.Bson.BsonDecimal128.Parse("1234567890123456789012345678901234"), BLite.Bson.BsonDecimal128.Parse("-1.000000000000000000000000000000001E-6000"),
        };
        for (var i = 0; i < RandomCount; i++)
        {
            var coefficient = ((UInt128)(ulong)random.NextInt64() << 50) ^ (ulong)random.NextInt64();
            values.Add(BLite.Bson.BsonDecimal128.FromParts(random.Next(2) == 0, coefficient % UInt128.Parse("10000000000000000000000000000000000"), random.Next(-6176, 6112)));
            values.Add(BLite.Bson.BsonDecimal128.FromParts(random.Next(2) == 0, (ulong)random.Next(1, 1000), random.Next(-40, 40)));
        }

        AssertOrderPreserved(values, (a, b) => a.CompareTo(b), v => TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal128(v)));
        foreach (var value in values)
        {
            var key = TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal128(value));
            var decoded = new KeyReader(key).ReadDecimal128();
            Assert.True(decoded == value || (decoded.IsNaN && value.IsNaN), $"{value} decoded as {decoded}");
            if (value.TryToDecimal(out var exact))
            {
                Assert.Equal(TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal(exact)), key);
            }
        }
    }

    [Fact]
    public void Strings_order_by_code_point_including_zero_characters_and_surrogate_pairs()
    {
        var random = new Random(104);
        string[] pieces = ["", "a", "b", "\0", "\u007f", "\u00e9", "\u4e2d", "\ue000", "\uffff", "\U0001F600", "\U00010000", "z"];
        var values = new List<string> { "", "a", "a\0", "a\0\0", "ab", "\U0001F600", "\uffff", "\ue000" };
        for (var i = 0; i < RandomCount; i++)
        {
            var builder = new StringBuilder();
            for (var j = random.Next(0, 6); j > 0; j--)
                builder.Append(pieces[random.Next(pieces.Length)]);
            values.Add(builder.ToString());
        }

        AssertOrderPreserved(values, CompareByCodePoint, v => TestKeys.Str(v));
    }

    [Fact]
    public void Binary_orders_lexicographically_with_shorter_prefixes_first()
    {
        var random = new Random(105);
        List<byte[]> values = [[], [0], [0, 0], [0, 1], [0, 0xFF], [1], [0xFF], [0xFF, 0]];
        for (var i = 0; i < RandomCount; i++)
        {
            var bytes = new byte[random.Next(0, 6)];
            for (var j = 0; j < bytes.Length; j++)
                bytes[j] = (byte)(random.Next(3) == 0 ? 0 : random.Next(256));
            values.Add(bytes);
        }

        AssertOrderPreserved(values, (a, b) => a.AsSpan().SequenceCompareTo(b), v => TestKeys.Encode((ref KeyWriter w) => w.WriteBinary(v)));
    }

    [Fact]
    public void Guids_order_like_their_hex_string_form()
    {
        var random = new Random(106);
        var values = new List<Guid> { Guid.Empty, Guid.AllBitsSet, Guid.Parse("00000001-0000-0000-0000-000000000000"), Guid.Parse("00000000-0000-0000-0000-000000000001") };
        for (var i = 0; i < RandomCount; i++)
        {
            var bytes = new byte[16];
            random.NextBytes(bytes);
            values.Add(new Guid(bytes));
        }

        AssertOrderPreserved(values, (a, b) => string.CompareOrdinal(a.ToString("N"), b.ToString("N")), v => TestKeys.Encode((ref KeyWriter w) => w.WriteGuid(v)));
    }

    [Fact]
    public void ObjectIds_order_by_their_twelve_bytes()
    {
        var random = new Random(107);
        var values = new List<byte[]> { new byte[12], Enumerable.Repeat((byte)0xFF, 12).ToArray() };
        for (var i = 0; i < RandomCount; i++)
        {
            var bytes = new byte[12];
            random.NextBytes(bytes);
            values.Add(bytes);
        }

        AssertOrderPreserved(values, (a, b) => a.AsSpan().SequenceCompareTo(b), v => TestKeys.Encode((ref KeyWriter w) => w.WriteObjectId(v)));
    }

    [Fact]
    public void Bson_ObjectIds_order_like_their_CompareTo_and_encode_like_their_bytes()
    {
        var random = new Random(110);
        var values = new List<ObjectId> { ObjectId.Empty };
        for (var i = 0; i < RandomCount; i++)
            values.Add(ObjectId.Create((uint)random.Next(), (ulong)random.NextInt64(0, 1L << 40), (uint)random.Next(0, 1 << 24)));

        AssertOrderPreserved(values, (a, b) => a.CompareTo(b), v => TestKeys.Encode((ref KeyWriter w) => w.WriteObjectId(v)));
        var id = values[^1];
        var bytes = new byte[12];
        id.WriteTo(bytes);
        Assert.Equal(TestKeys.Encode((ref KeyWriter w) => w.WriteObjectId(bytes)), TestKeys.Encode((ref KeyWriter w) => w.WriteObjectId(id)));
        Assert.Equal(id, new KeyReader(TestKeys.Encode((ref KeyWriter w) => w.WriteObjectId(id))).ReadObjectId());
    }

    [Fact]
    public void Times_order_like_their_CompareTo()
    {
        var random = new Random(108);
        var kinds = new[] { DateTimeKind.Unspecified, DateTimeKind.Utc, DateTimeKind.Local };
        var dates = new List<DateTime> { DateTime.MinValue, DateTime.MaxValue };
        var offsets = new List<DateTimeOffset> { DateTimeOffset.MinValue, DateTimeOffset.MaxValue };
        var spans = new List<TimeSpan> { TimeSpan.MinValue, TimeSpan.MaxValue, TimeSpan.Zero, TimeSpan.FromTicks(-1) };
        var days = new List<DateOnly> { DateOnly.MinValue, DateOnly.MaxValue };
        var times = new List<TimeOnly> { TimeOnly.MinValue, TimeOnly.MaxValue };
        for (var i = 0; i < RandomCount; i++)
        {
            var ticks = random.NextInt64(DateTime.MinValue.Ticks + TimeSpan.TicksPerDay, DateTime.MaxValue.Ticks - TimeSpan.TicksPerDay);
            dates.Add(new DateTime(ticks, kinds[random.Next(3)]));
            offsets.Add(new DateTimeOffset(ticks - ticks % TimeSpan.TicksPerMinute, TimeSpan.FromMinutes(random.Next(-14 * 60, 14 * 60 + 1))));
            spans.Add(TimeSpan.FromTicks(random.NextInt64(long.MinValue, long.MaxValue)));
            days.Add(DateOnly.FromDayNumber(random.Next(DateOnly.MinValue.DayNumber, DateOnly.MaxValue.DayNumber + 1)));
            times.Add(new TimeOnly(random.NextInt64(0, TimeOnly.MaxValue.Ticks + 1)));
        }

        AssertOrderPreserved(dates, (a, b) => a.CompareTo(b), v => TestKeys.Encode((ref KeyWriter w) => w.WriteDateTime(v)));
        AssertOrderPreserved(offsets, (a, b) => a.UtcTicks != b.UtcTicks ? a.UtcTicks.CompareTo(b.UtcTicks) : a.Offset.CompareTo(b.Offset),
            v => TestKeys.Encode((ref KeyWriter w) => w.WriteDateTimeOffset(v)));
        AssertOrderPreserved(spans, (a, b) => a.CompareTo(b), v => TestKeys.Encode((ref KeyWriter w) => w.WriteTimeSpan(v)));
        AssertOrderPreserved(days, (a, b) => a.CompareTo(b), v => TestKeys.Encode((ref KeyWriter w) => w.WriteDateOnly(v)));
        AssertOrderPreserved(times, (a, b) => a.CompareTo(b), v => TestKeys.Encode((ref KeyWriter w) => w.WriteTimeOnly(v)));
    }

    [Fact]
    public void Booleans_order_false_before_true() =>
        AssertOrderPreserved([false, true, true, false], (a, b) => a.CompareTo(b), v => TestKeys.Encode((ref KeyWriter w) => w.WriteBoolean(v)));

    [Fact]
    public void Values_of_different_types_order_by_type_with_null_first()
    {
        byte[][] ascending =
        [
            TestKeys.Encode((ref KeyWriter w) => w.WriteNull()),
            TestKeys.Encode((ref KeyWriter w) => w.WriteDouble(double.NegativeInfinity)),
            TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal(decimal.MinValue)),
            TestKeys.Encode((ref KeyWriter w) => w.WriteInt64(long.MaxValue)),
            TestKeys.Encode((ref KeyWriter w) => w.WriteUInt64(ulong.MaxValue)),
            TestKeys.Str(""),
            TestKeys.Encode((ref KeyWriter w) => w.WriteBinary([])),
            TestKeys.Encode((ref KeyWriter w) => w.WriteGuid(Guid.Empty)),
            TestKeys.Encode((ref KeyWriter w) => w.WriteObjectId(new byte[12])),
            TestKeys.Encode((ref KeyWriter w) => w.WriteBoolean(false)),
            TestKeys.Encode((ref KeyWriter w) => w.WriteDateTime(DateTime.MinValue)),
            TestKeys.Encode((ref KeyWriter w) => w.WriteDateTimeOffset(DateTimeOffset.MinValue)),
            TestKeys.Encode((ref KeyWriter w) => w.WriteDateOnly(DateOnly.MinValue)),
            TestKeys.Encode((ref KeyWriter w) => w.WriteTimeOnly(TimeOnly.MinValue)),
            TestKeys.Encode((ref KeyWriter w) => w.WriteTimeSpan(TimeSpan.MinValue)),
        ];
        for (var i = 1; i < ascending.Length; i++)
            Assert.True(TestKeys.Compare(ascending[i - 1], ascending[i]) < 0, $"type {i - 1} should sort before type {i}");
    }

    [Fact]
    public void Composites_order_component_by_component_with_nulls_first()
    {
        var random = new Random(109);
        string?[] strings = [null, "", "a", "a\0", "ab", "b", "\U0001F600"];
        var values = new List<(string? Text, int? Number)>();
        for (var i = 0; i < RandomCount; i++)
            values.Add((strings[random.Next(strings.Length)], random.Next(4) == 0 ? null : random.Next(-3, 4)));

        AssertOrderPreserved(values, CompareComposite, v => TestKeys.Encode((ref KeyWriter w) =>
        {
            if (v.Text is null) w.WriteNull(); else w.WriteString(v.Text);
            if (v.Number is null) w.WriteNull(); else w.WriteInt32(v.Number.Value);
        }));
    }

    internal static int CompareByCodePoint(string a, string b)
    {
        var left = a.EnumerateRunes().GetEnumerator();
        var right = b.EnumerateRunes().GetEnumerator();
        while (true)
        {
            var hasLeft = left.MoveNext();
            var hasRight = right.MoveNext();
            if (!hasLeft || !hasRight)
                return hasLeft.CompareTo(hasRight);
            var comparison = left.Current.Value.CompareTo(right.Current.Value);
            if (comparison != 0)
                return comparison;
        }
    }

    private static int CompareComposite((string? Text, int? Number) a, (string? Text, int? Number) b)
    {
        var first = (a.Text, b.Text) switch
        {
            (null, null) => 0,
            (null, _) => -1,
            (_, null) => 1,
            _ => CompareByCodePoint(a.Text, b.Text),
        };
        if (first != 0)
            return first;
        return Nullable.Compare(a.Number, b.Number);
    }

    private static byte[] EncodeInteger(Int128 value) =>
        value < 0 || value <= long.MaxValue
            ? TestKeys.Encode((ref KeyWriter w) => w.WriteInt64((long)value))
            : TestKeys.Encode((ref KeyWriter w) => w.WriteUInt64((ulong)value));

    private static void AssertOrderPreserved<T>(IReadOnlyList<T> values, Func<T, T, int> compare, Func<T, byte[]> encode)
    {
        var encoded = values.Select(encode).ToArray();
        for (var i = 0; i < values.Count; i++)
        {
            for (var j = 0; j < values.Count; j++)
            {
                var expected = Math.Sign(compare(values[i], values[j]));
                var actual = TestKeys.Compare(encoded[i], encoded[j]);
                if (expected != actual)
                    Assert.Fail($"compare({values[i]}, {values[j]}) is {expected} but the encodings compare {actual}");
            }
        }
    }
}
