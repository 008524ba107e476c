using System.Globalization;
using System.Numerics;
using BLite.Bson;
using BLite.Core.BTrees;

namespace BLite.Core.Tests.BTrees;

/// <summary>
/// Every numeric type in one key class: keys of mixed int, long, ulong, double, decimal and
/// Decimal128 values must order exactly as their mathematical values do (NaN first, then
/// -Infinity, ..., +Infinity), and exactly as <see cref="BsonValue.CompareTo(BsonValue)"/> does.
/// The expected order comes from an independent exact rational comparison.
/// </summary>
public sealed class NumericKeyOrderTests
{
    private const int Seed = 4714;

    [Fact]
    public void Mixed_numeric_types_order_by_exact_value_in_keys_and_in_BsonValue_comparison()
    {
        var values = MixedNumbers(new Random(Seed), 120);
        var keys = values.Select(Key).ToArray();
        var ties = 0;
        for (var i = 0; i < values.Count; i++)
        {
            for (var j = 0; j < values.Count; j++)
            {
                var expected = CompareExactly(values[i], values[j]);
                ties += expected == 0 && values[i].Type != values[j].Type ? 1 : 0;
                var byKey = TestKeys.Compare(keys[i], keys[j]);
                var byValue = Math.Sign(values[i].CompareTo(values[j]));
                if (byKey != expected || byValue != expected)
                {
                    Assert.Fail($"seed {Seed}: {Describe(values[i])} vs {Describe(values[j])} is {expected} exactly, {byKey} by key, {byValue} by CompareTo");
                }
            }
        }

        // The scenario really mixed types: equal values of different types met (5 and 5.0 and 5m).
        Assert.True(ties > 20, $"only {ties} cross-type ties");
        Assert.True(values.Select(v => v.Type).Distinct().Count() == 5);
    }

    [Fact]
    public void A_number_key_decodes_to_an_equal_value()
    {
        foreach (var value in MixedNumbers(new Random(Seed + 1), 80))
        {
            var decoded = new KeyReader(Key(value)).ReadNumber();
            Assert.True(CompareExactly(decoded, value) == 0, $"{Describe(value)} decoded as {Describe(decoded)}");
        }
    }

    [Fact]
    public void Doubles_and_decimals_that_differ_beyond_the_seventeenth_digit_still_order_exactly()
    {
        // The double 0.1 is 0.1000000000000000055511151231257827021181583404541015625.
        BsonValue tenth = 0.1;
        BsonValue below = BsonDecimal128.Parse("0.1000000000000000055511151231257827");
        BsonValue above = BsonDecimal128.Parse("0.1000000000000000055511151231257828");
        BsonValue decimalTenth = BsonDecimal128.Parse("0.1");

        Assert.True(decimalTenth.CompareTo(tenth) < 0 && below.CompareTo(tenth) < 0 && above.CompareTo(tenth) > 0);
        Assert.True(TestKeys.Compare(Key(decimalTenth), Key(below)) < 0);
        Assert.True(TestKeys.Compare(Key(below), Key(tenth)) < 0);
        Assert.True(TestKeys.Compare(Key(tenth), Key(above)) < 0);
        Assert.Equal(Key(10), Key(BsonDecimal128.Parse("1E+1")));
        var twoToMinus30 = BsonDecimal128.Parse("9.31322574615478515625E-10");
        Assert.Equal(Key(Math.ScaleB(1.0, -30)), Key(twoToMinus30));
        Assert.True(new KeyReader(Key(twoToMinus30)).ReadDecimal128().BitsEqual(twoToMinus30));
        Assert.Throws<FormatException>(() => new KeyReader(Key(tenth)).ReadDecimal128());
        Assert.Equal(Key(2.5), Key(BsonDecimal128.Parse("2.50")));
        Assert.Equal(Key(ulong.MaxValue), Key(BsonDecimal128.Parse("18446744073709551615")));
    }

    [Fact]
    public void Common_integers_and_doubles_have_short_keys()
    {
        Assert.Equal(4, Key(5).Length);
        Assert.True(Key(1_000_000).Length <= 6);
        Assert.True(Key(long.MaxValue).Length <= 12);
        Assert.True(Key(Math.PI).Length <= 11);
        Assert.True(Key(19.99m).Length <= 16);
    }

    private static byte[] Key(BsonValue value) => TestKeys.Encode((ref KeyWriter w) => w.WriteBsonValue(value));

    private static string Describe(BsonValue value) => $"{value.Type} {value}";

    internal static List<BsonValue> MixedNumbers(Random random, int perKind)
    {
        var values = new List<BsonValue>
        {
            double.NaN, -double.NaN, double.NegativeInfinity, double.PositiveInfinity, -0.0, 0.0, double.Epsilon, -double.Epsilon,
            double.MaxValue, double.MinValue, 9223372036854775808.0, 18446744073709551616.0, 9007199254740992.0,
            long.MinValue, long.MaxValue, ulong.MaxValue, (ulong)long.MaxValue + 1, 0, 5, 5L, 5.0, 5m, -5,
            decimal.MaxValue, decimal.MinValue, 0.1m, 0.10m, 2.6m,
            BsonDecimal128.NaN, BsonDecimal128.PositiveInfinity, BsonDecimal128.NegativeInfinity, BsonDecimal128.MaxValue,
            BsonDecimal128.MinValue, BsonDecimal128.Parse("1E-6176"), BsonDecimal128.Parse("-0E+300"), BsonDecimal128.Parse("1E+1"),
            BsonDecimal128.Parse("9223372036854775807.5"), BsonDecimal128.Parse("9223372036854775808"), BsonDecimal128.Parse("1E+400"),
            BsonDecimal128.Parse("-1E-400"), BsonDecimal128.Parse("5.000"),
        };
        for (var i = 0; i < perKind; i++)
        {
            var small = random.Next(-40, 40);
            values.Add(random.Next(3) == 0 ? small : random.Next());
            values.Add(random.Next(2) == 0 ? (long)small * 1000 : random.NextInt64(long.MinValue, long.MaxValue));
            values.Add((ulong)random.NextInt64() << 1);
            var d = random.Next(4) switch
            {
                0 => BitConverter.Int64BitsToDouble(random.NextInt64(long.MinValue, long.MaxValue)),
                1 => small / 4.0,
                2 => (random.NextDouble() - 0.5) * 1000,
                _ => Math.ScaleB(random.NextDouble(), random.Next(-1074, 1024)),
            };
            values.Add(d);
            values.Add(random.Next(2) == 0 ? small / 4m : new decimal(random.Next(), random.Next(), 0, random.Next(2) == 0, (byte)random.Next(0, 29)));
            values.Add(random.Next(4) switch
            {
                0 => BsonDecimal128.FromParts(random.Next(2) == 0, ((UInt128)(ulong)random.NextInt64() << 50 ^ (ulong)random.NextInt64()) % UInt128.Parse("10000000000000000000000000000000000"), random.Next(-40, 40)),
                1 => BsonDecimal128.FromParts(small < 0, (ulong)Math.Abs(small) * 25, random.Next(-3, 3)),
                // A double written with 34 significant digits: a neighbour of the double, not equal to it.
                2 when double.IsFinite(d) => BsonDecimal128.Parse(d.ToString("E33", CultureInfo.InvariantCulture)),
                _ => BsonDecimal128.FromParts(random.Next(2) == 0, (ulong)random.Next(1, 1000), random.Next(-6176, 6112)),
            });
        }

        return values;
    }

    /// <summary>Exact: NaN first, then -Infinity, the finite values as rationals, +Infinity.</summary>
    internal static int CompareExactly(BsonValue left, BsonValue right)
    {
        var (leftRank, leftNumerator, leftDenominator) = Rational(left);
        var (rightRank, rightNumerator, rightDenominator) = Rational(right);
        if (leftRank != rightRank || leftRank != 2)
        {
            return Math.Sign(leftRank.CompareTo(rightRank));
        }

        return Math.Sign((leftNumerator * rightDenominator).CompareTo(rightNumerator * leftDenominator));
    }

    private static (int Rank, BigInteger Numerator, BigInteger Denominator) Rational(BsonValue value)
    {
        switch (value.Type)
        {
            case BsonType.Int32 or BsonType.Int64:
                return (2, value.Type == BsonType.Int32 ? value.AsInt32 : value.AsInt64, BigInteger.One);
            case BsonType.UInt64:
                return (2, value.AsUInt64, BigInteger.One);
            case BsonType.Double:
                var d = value.AsDouble;
                if (double.IsNaN(d))
                {
                    return (0, 0, 1);
                }

                if (double.IsInfinity(d))
                {
                    return (d < 0 ? 1 : 3, 0, 1);
                }

                var bits = BitConverter.DoubleToInt64Bits(d);
                var biased = (int)(bits >> 52) & 0x7FF;
                BigInteger mantissa = bits & 0xF_FFFF_FFFF_FFFFL;
                if (biased != 0)
                {
                    mantissa += BigInteger.One << 52;
                }

                var power = Math.Max(biased, 1) - 1075;
                mantissa = d < 0 ? -mantissa : mantissa;
                return power >= 0 ? (2, mantissa << power, BigInteger.One) : (2, mantissa, BigInteger.One << -power);
            default:
                var m = value.AsDecimal128;
                if (m.IsNaN)
                {
                    return (0, 0, 1);
                }

                if (m.IsInfinity)
                {
                    return (m.IsNegative ? 1 : 3, 0, 1);
                }

                m.TryGetFiniteParts(out var negative, out var coefficient, out var exponent);
                BigInteger signed = negative ? -(BigInteger)coefficient : coefficient;
                return exponent >= 0 ? (2, signed * BigInteger.Pow(10, exponent), BigInteger.One) : (2, signed, BigInteger.Pow(10, -exponent));
        }
    }
}
