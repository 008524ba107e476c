using System.Globalization;

namespace BLite.Bson;

// Conversions: from .NET numbers always exact; to decimal only when exact (OverflowException
// otherwise); to double rounded to nearest, through the string form.
public readonly partial struct BsonDecimal128
{
    /// <summary>Exact: the decimal's coefficient, scale (as a negative exponent) and sign, trailing zeros kept.</summary>
    public static implicit operator BsonDecimal128(decimal value)
    {
        Span<byte> bytes = stackalloc byte[Size];
        Decimal128Encoding.Write(value, bytes);
        return ReadFrom(bytes);
    }

    public static implicit operator BsonDecimal128(long value) =>
        FromParts(value < 0, value < 0 ? (UInt128)(-(Int128)value) : (UInt128)value, 0);

    public static implicit operator BsonDecimal128(ulong value) => FromParts(false, value, 0);

    public static implicit operator BsonDecimal128(int value) => (long)value;

    /// <summary>
    /// The .NET decimal with exactly this value (the scale kept where a decimal allows it). NaN,
    /// ±Infinity, values beyond ±79,228,162,514,264,337,593,543,950,335 and values needing more than
    /// 28 decimal places throw <see cref="OverflowException"/>: nothing is ever rounded.
    /// </summary>
    public static explicit operator decimal(BsonDecimal128 value) =>
        value.TryToDecimal(out var result)
            ? result
            : throw new OverflowException($"Decimal128 {value} has no exactly equal .NET decimal.");

    /// <summary>The nearest double (NaN and ±Infinity map to theirs).</summary>
    public double ToDouble() => double.Parse(ToString(), NumberStyles.Float, CultureInfo.InvariantCulture);

    public bool TryToDecimal(out decimal result)
    {
        if (Decompose(out var negative, out var coefficient, out var exponent) != Kind.Finite)
        {
            result = 0m;
            return false;
        }

        return Decimal128Encoding.TryFromParts(negative, coefficient, exponent, out result);
    }

    /// <summary>The value as an Int64 when it is a whole number in range.</summary>
    public bool TryToInt64(out long result)
    {
        result = 0;
        if (Decompose(out var negative, out var coefficient, out var exponent) != Kind.Finite)
        {
            return false;
        }

        Normalize(ref coefficient, ref exponent);
        for (; exponent > 0; exponent--)
        {
            if (coefficient > (UInt128)long.MaxValue)
            {
                return false;
            }

            coefficient *= 10;
        }

        if (exponent < 0 || coefficient > (negative ? (UInt128)long.MaxValue + 1 : (UInt128)long.MaxValue))
        {
            return false;
        }

        result = negative ? (long)(-(Int128)coefficient) : (long)coefficient;
        return true;
    }

    /// <summary>Drops trailing zeros of a non-zero coefficient into the exponent; zero becomes 0E0.</summary>
    internal static void Normalize(ref UInt128 coefficient, ref int exponent)
    {
        if (coefficient == UInt128.Zero)
        {
            exponent = 0;
            return;
        }

        while (true)
        {
            var (quotient, remainder) = UInt128.DivRem(coefficient, 10);
            if (remainder != UInt128.Zero)
            {
                return;
            }

            coefficient = quotient;
            exponent++;
        }
    }
}
