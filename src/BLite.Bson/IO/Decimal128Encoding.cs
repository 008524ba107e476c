using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace BLite.Bson;

/// <summary>
/// Exact conversion between .NET <see cref="decimal"/> and IEEE 754-2008 decimal128 in the BID
/// layout BSON uses. Bytes 0–7 are the low 64 bits, bytes 8–15 the high 64 bits (little-endian).
/// High word: bit 63 sign, bits 49–62 biased exponent (bias 6176), bits 0–48 the top of the
/// 113-bit coefficient. A .NET decimal (96-bit coefficient, scale 0–28) is written with exponent
/// -scale and its own coefficient, so sign, scale and trailing zeros survive; negative zero keeps
/// its sign bit.
/// </summary>
internal static class Decimal128Encoding
{
    public const int Size = 16;

    private const int ExponentBias = 6176;
    private const int MaxDecimalScale = 28;
    private const ulong CoefficientHighMask = (1UL << 49) - 1;
    private static readonly UInt128 _maxCanonicalCoefficient = UInt128.Parse("9999999999999999999999999999999999");
    private static readonly UInt128 _max96 = (UInt128.One << 96) - 1;

    public static void Write(decimal value, Span<byte> destination)
    {
        Span<int> bits = stackalloc int[4];
        decimal.GetBits(value, bits);
        var low = (uint)bits[0] | ((ulong)(uint)bits[1] << 32);
        var scale = (bits[3] >> 16) & 0xFF;
        var high = (uint)bits[2] | ((ulong)(ExponentBias - scale) << 49);
        if (bits[3] < 0)
        {
            high |= 1UL << 63;
        }

        BinaryPrimitives.WriteUInt64LittleEndian(destination, low);
        BinaryPrimitives.WriteUInt64LittleEndian(destination[8..], high);
    }

    /// <summary>Reads 16 bytes; throws <see cref="BsonFormatException"/> when no decimal holds the value exactly.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static decimal Read(ReadOnlySpan<byte> source, int offset)
    {
        var low = BinaryPrimitives.ReadUInt64LittleEndian(source);
        var high = BinaryPrimitives.ReadUInt64LittleEndian(source[8..]);
        var scale = ExponentBias - (int)((high >> 49) & 0x3FFF);
        if (((high >> 61) & 0x3) != 0x3 && (high & CoefficientHighMask) <= uint.MaxValue && (uint)scale <= MaxDecimalScale)
        {
            // What Write produces: a 96-bit coefficient (always canonical) with a decimal's own
            // scale, which FromParts would return unchanged. Inlined: a document holds many.
            return new decimal((int)(uint)low, (int)(uint)(low >> 32), (int)(uint)high, (high >> 63) != 0, (byte)scale);
        }

        return ReadOther(low, high, offset);
    }

    /// <summary>Special values, and coefficients or exponents a decimal does not hold as they are.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static decimal ReadOther(ulong low, ulong high, int offset)
    {
        var negative = (high >> 63) != 0;
        var biasedExponent = (int)((high >> 49) & 0x3FFF);
        if (((high >> 61) & 0x3) == 0x3)
        {
            // Combination field 11xxx: infinity, NaN, or a coefficient of 2^113 or more (non-canonical).
            var special = (high >> 58) & 0x1F;
            var what = special == 0x1E ? (negative ? "-Infinity" : "Infinity")
                : special == 0x1F ? "NaN"
                : "a non-canonical value";
            throw new BsonFormatException($"Decimal128 {what} cannot be represented by a .NET decimal", offset);
        }

        var exponent = biasedExponent - ExponentBias;
        var coefficient = new UInt128(high & CoefficientHighMask, low);
        if (coefficient > _maxCanonicalCoefficient)
        {
            throw new BsonFormatException("Decimal128 coefficient exceeds 34 digits (non-canonical)", offset);
        }

        return FromParts(negative, coefficient, exponent, offset);
    }

    /// <summary>
    /// The decimal equal to (-1)^sign × coefficient × 10^exponent, keeping as much of the given
    /// scale as a decimal allows; throws when the value would need rounding or is out of range.
    /// </summary>
    public static decimal FromParts(bool negative, UInt128 coefficient, int exponent, long offset) =>
        TryFromParts(negative, coefficient, exponent, out var value)
            ? value
            : throw OutOfRange(negative, coefficient, exponent, offset);

    /// <summary>Like <see cref="FromParts"/>, returning false instead of throwing.</summary>
    public static bool TryFromParts(bool negative, UInt128 coefficient, int exponent, out decimal value)
    {
        value = 0m;
        if (coefficient == UInt128.Zero)
        {
            exponent = Math.Clamp(exponent, -MaxDecimalScale, 0);
        }

        while (exponent > 0)
        {
            if (coefficient > _max96 / 10)
            {
                return false;
            }

            coefficient *= 10;
            exponent--;
        }

        while (exponent < -MaxDecimalScale || coefficient > _max96)
        {
            if (exponent >= 0)
            {
                return false;
            }

            var (quotient, remainder) = UInt128.DivRem(coefficient, 10);
            if (remainder != UInt128.Zero)
            {
                return false;
            }

            coefficient = quotient;
            exponent++;
        }

        var lowBits = (ulong)coefficient;
        var highBits = (uint)(coefficient >> 64);
        value = new decimal((int)(uint)lowBits, (int)(uint)(lowBits >> 32), (int)highBits, negative, (byte)-exponent);
        return true;
    }

    private static BsonFormatException OutOfRange(bool negative, UInt128 coefficient, int exponent, long offset) =>
        new($"Decimal128 value {(negative ? "-" : "")}{coefficient}E{exponent} cannot be represented exactly by a .NET decimal", offset);
}
