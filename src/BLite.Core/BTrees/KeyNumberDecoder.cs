using System.Numerics;
using BLite.Bson;

namespace BLite.Core.BTrees;

/// <summary>
/// Turns a Number component (after its tag) back into a value. The key keeps the value, not its
/// type: an integral value in the 64-bit range comes back as Int64 (UInt64 above it), another
/// value a double holds exactly as Double, anything else as Decimal128 (trailing zeros dropped).
/// </summary>
internal static class KeyNumberDecoder
{
    // Decimal128's limits: coefficient below 10^34, exponent -6176..6111.
    private const int MinExponent = -6176;
    private const int MaxExponent = 6111;
    private const int MaxDigits = 34;

    private static readonly BigInteger MaxCoefficient = BigInteger.Pow(10, 34);

    /// <summary>The length of the component body starting at <paramref name="body"/>[0] (its class byte).</summary>
    public static int Measure(ReadOnlySpan<byte> body) => Parse(body, out _, out _, out _, out _);

    public static BsonValue Decode(ReadOnlySpan<byte> body)
    {
        var numberClass = body.IsEmpty ? throw Malformed("empty number") : body[0];
        switch (numberClass)
        {
            case KeyWriter.NumberNaN: return double.NaN;
            case KeyWriter.NumberNegativeInfinity: return double.NegativeInfinity;
            case KeyWriter.NumberZero: return 0L;
            case KeyWriter.NumberPositiveInfinity: return double.PositiveInfinity;
        }

        Parse(body, out var exponent, out var fraction, out var tail, out var negative);
        if (tail is { } digits)
        {
            return BsonDecimal128.FromParts(negative, digits.Coefficient, digits.Exponent);
        }

        var significand = (1UL << 63) | fraction;
        var trailing = BitOperations.TrailingZeroCount(significand);
        if (exponent is >= 0 and <= 63 && trailing >= 63 - exponent)
        {
            var magnitude = significand >> (63 - exponent);
            if (!negative)
            {
                return magnitude <= long.MaxValue ? (BsonValue)(long)magnitude : magnitude;
            }

            if (magnitude <= 1UL << 63)
            {
                return magnitude == 1UL << 63 ? long.MinValue : -(long)magnitude;
            }
        }

        // A double holds 53 significant bits (fewer below 2^-1022).
        var doubleBits = exponent >= -1022 ? 53 : 53 - (-1022 - exponent);
        if (exponent is >= -1074 and <= 1023 && 64 - trailing <= doubleBits)
        {
            var value = Math.ScaleB((double)(significand >> trailing), exponent - 63 + trailing);
            return negative ? -value : value;
        }

        return ToDecimal128(negative, significand, exponent - 63);
    }

    /// <summary>The value as an exact Decimal128 (trailing zeros dropped); a double with more than 34 significant digits (0.1) has none.</summary>
    public static BsonDecimal128 DecodeDecimal128(ReadOnlySpan<byte> body)
    {
        var numberClass = body.IsEmpty ? throw Malformed("empty number") : body[0];
        switch (numberClass)
        {
            case KeyWriter.NumberNaN: return BsonDecimal128.NaN;
            case KeyWriter.NumberNegativeInfinity: return BsonDecimal128.NegativeInfinity;
            case KeyWriter.NumberZero: return BsonDecimal128.Zero;
            case KeyWriter.NumberPositiveInfinity: return BsonDecimal128.PositiveInfinity;
        }

        Parse(body, out var exponent, out var fraction, out var tail, out var negative);
        return tail is { } digits
            ? BsonDecimal128.FromParts(negative, digits.Coefficient, digits.Exponent)
            : ToDecimal128(negative, (1UL << 63) | fraction, exponent - 63);
    }

    /// <summary>An exactly binary value m × 2^p as a Decimal128, when one holds it exactly.</summary>
    private static BsonDecimal128 ToDecimal128(bool negative, ulong significand, int power)
    {
        BigInteger coefficient = significand;
        var exponent = 0;
        if (power >= 0)
        {
            coefficient <<= power;
        }
        else
        {
            coefficient *= BigInteger.Pow(5, -power);
            exponent = power;
        }

        // Trailing zeros dropped (they must go when the coefficient has more than 34 digits).
        while (coefficient >= MaxCoefficient || (exponent < MaxExponent && coefficient % 10 == 0))
        {
            var quotient = BigInteger.DivRem(coefficient, 10, out var remainder);
            if (!remainder.IsZero)
            {
                throw Malformed("the number has no exact Decimal128");
            }

            coefficient = quotient;
            exponent++;
        }

        if (exponent is < MinExponent or > MaxExponent)
        {
            throw Malformed("number out of Decimal128 range");
        }

        return BsonDecimal128.FromParts(negative, (UInt128)coefficient, exponent);
    }

    private static int Parse(ReadOnlySpan<byte> body, out int exponent, out ulong fraction, out (UInt128 Coefficient, int Exponent)? tail, out bool negative)
    {
        exponent = 0;
        fraction = 0;
        tail = null;
        negative = false;
        if (body.IsEmpty)
        {
            throw Malformed("empty number");
        }

        var numberClass = body[0];
        if (numberClass is KeyWriter.NumberNaN or KeyWriter.NumberNegativeInfinity or KeyWriter.NumberZero or KeyWriter.NumberPositiveInfinity)
        {
            return 1;
        }

        if (numberClass is not (KeyWriter.NumberNegative or KeyWriter.NumberPositive))
        {
            throw Malformed($"invalid number class 0x{numberClass:X2}");
        }

        negative = numberClass == KeyWriter.NumberNegative;
        var invert = negative ? (byte)0xFF : (byte)0x00;
        var position = 1;
        exponent = ReadExponent(body, ref position, invert);
        var more = true;
        for (var group = 0; group < KeyWriter.FractionGroups && more; group++)
        {
            var b = (byte)(Byte(body, position++) ^ invert);
            fraction |= (ulong)(b >> 1) << (56 - (7 * group));
            more = (b & 1) != 0;
        }

        if (!more)
        {
            return position;
        }

        var adjusted = ReadExponent(body, ref position, invert);
        UInt128 digits = 0;
        var count = 0;
        while (true)
        {
            var b = (byte)(Byte(body, position++) ^ invert);
            if (!TakeNibble(b >> 4, ref digits, ref count) || !TakeNibble(b & 0x0F, ref digits, ref count))
            {
                break;
            }
        }

        // Trailing zeros were dropped from the key: put back what the exponent range needs.
        var decimalExponent = adjusted - count;
        for (; decimalExponent > MaxExponent && count < MaxDigits; decimalExponent--, count++)
        {
            digits *= 10;
        }

        if (count == 0 || decimalExponent is < MinExponent or > MaxExponent)
        {
            throw Malformed("decimal digits out of range");
        }

        tail = (digits, decimalExponent);
        return position;
    }

    private static int ReadExponent(ReadOnlySpan<byte> body, ref int position, byte invert)
    {
        var first = (byte)(Byte(body, position++) ^ invert);
        if (first is not (KeyWriter.WideExponentBelow or KeyWriter.WideExponentAbove))
        {
            return first - KeyWriter.ShortExponentBias;
        }

        var high = (byte)(Byte(body, position++) ^ invert);
        var low = (byte)(Byte(body, position++) ^ invert);
        return ((high << 8) | low) - KeyWriter.WideExponentBias;
    }

    private static byte Byte(ReadOnlySpan<byte> body, int position) =>
        position < body.Length ? body[position] : throw Malformed("number is truncated");

    private static bool TakeNibble(int nibble, ref UInt128 digits, ref int count)
    {
        if (nibble == 0)
        {
            return false;
        }

        if (count == MaxDigits)
        {
            throw Malformed("decimal component has more than 34 digits");
        }

        digits = (digits * 10) + (uint)(nibble - 1);
        count++;
        return true;
    }

    private static FormatException Malformed(string message) => new("Malformed index key: " + message + ".");
}
