using System.Numerics;

namespace BLite.Bson;

// A Decimal128 against a double by exact value, as MongoDB compares them: the double 0.1 is
// 0.1000000000000000055511151231257827..., so it is greater than the Decimal128 0.1. NaN
// (either type) equals NaN and sorts below every other number.
public readonly partial struct BsonDecimal128
{
    /// <summary>Compares this value with <paramref name="other"/> exactly, without rounding either side.</summary>
    public int CompareTo(double other)
    {
        if (double.IsNaN(other) || IsNaN)
        {
            return (double.IsNaN(other) ? 1 : 0) - (IsNaN ? 1 : 0);
        }

        if (double.IsInfinity(other) || IsInfinity)
        {
            var left = IsInfinity ? (IsNegative ? -1 : 1) : 0;
            var right = double.IsInfinity(other) ? Math.Sign(other) : 0;
            return left.CompareTo(right);
        }

        Decompose(out var negative, out var coefficient, out var exponent);
        var leftSign = coefficient == UInt128.Zero ? 0 : negative ? -1 : 1;
        var rightSign = Math.Sign(other);
        if (leftSign != rightSign || leftSign == 0)
        {
            return leftSign.CompareTo(rightSign);
        }

        var magnitude = CompareWithBinary(coefficient, exponent, Math.Abs(other));
        return leftSign > 0 ? magnitude : -magnitude;
    }

    /// <summary>coefficient × 10^exponent against a positive finite double.</summary>
    private static int CompareWithBinary(UInt128 coefficient, int exponent, double value)
    {
        var bits = BitConverter.DoubleToInt64Bits(value);
        var biased = (int)(bits >> 52) & 0x7FF;
        var mantissa = bits & 0xF_FFFF_FFFF_FFFFL;
        if (biased == 0)
        {
            biased = 1;
        }
        else
        {
            mantissa |= 1L << 52;
        }

        var binaryExponent = biased - 1075;

        // Far apart in magnitude: decided by the estimate, no big numbers needed.
        var leftLog2 = (DigitCount(coefficient) - 1 + exponent) * 3.321928094887362;
        var rightLog2 = Math.Log2(mantissa) + binaryExponent;
        if (Math.Abs(leftLog2 - rightLog2) > 8)
        {
            return leftLog2.CompareTo(rightLog2);
        }

        // c × 2^e × 5^e against m × 2^b: move the powers of 5 to the side where they multiply.
        var left = (BigInteger)coefficient;
        var right = (BigInteger)mantissa;
        if (exponent >= 0)
        {
            left *= BigInteger.Pow(5, exponent);
        }
        else
        {
            right *= BigInteger.Pow(5, -exponent);
        }

        var shift = exponent - binaryExponent;
        return shift >= 0 ? (left << shift).CompareTo(right) : left.CompareTo(right << -shift);
    }
}
