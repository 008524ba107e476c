using System.Numerics;
using BLite.Bson;

namespace BLite.Core.BTrees;

// Every number (integers of every width, double, decimal, Decimal128) is one Number component,
// ordered by exact value, so the types interleave as MongoDB compares them (docs/format.md 4.1).
// After the tag, a class byte: NaN, -Infinity, negative, zero, positive, +Infinity. A non-zero
// value is written in binary as 1.f × 2^E: E in one byte (E + 128) when -127 <= E <= 126, else an
// escape byte (0x00 below, 0xFF above) and E + 0x8000 in two bytes big-endian; then the fraction
// bits f, seven per byte in bits 7..1, bit 0 set when more bytes follow, ending at the last
// non-zero group. Integers and doubles have at most 63 fraction bits, so they end within nine
// bytes. A decimal whose binary expansion is longer (0.1 is infinite) writes nine bytes all with
// bit 0 set (its first 63 bits, truncated) and then its exact decimal digits: the normalised
// adjusted exponent (as E above) and the digits as nibbles (digit + 1), a 0 nibble, a 0 pad
// nibble if needed. Two values with the same 63 truncated bits are then both decimals and order
// by their digits; an exactly binary value with the same bits stops earlier with bit 0 clear, so
// it sorts first, and it is smaller. For negative values every byte after the class byte is
// inverted, reversing their order.
internal ref partial struct KeyWriter
{
    internal const byte NumberNaN = 0x00;
    internal const byte NumberNegativeInfinity = 0x01;
    internal const byte NumberNegative = 0x02;
    internal const byte NumberZero = 0x03;
    internal const byte NumberPositive = 0x04;
    internal const byte NumberPositiveInfinity = 0x05;
    internal const int ShortExponentBias = 128;
    internal const int MinShortExponent = -127;
    internal const int MaxShortExponent = 126;
    internal const int WideExponentBias = 0x8000;
    internal const byte WideExponentBelow = 0x00;
    internal const byte WideExponentAbove = 0xFF;
    internal const int FractionGroups = 9;
    internal const ulong FractionMask = 0x7FFF_FFFF_FFFF_FFFFUL;

    public void WriteByte(byte value) => WriteInt64(value);

    public void WriteSByte(sbyte value) => WriteInt64(value);

    public void WriteInt16(short value) => WriteInt64(value);

    public void WriteUInt16(ushort value) => WriteInt64(value);

    public void WriteInt32(int value) => WriteInt64(value);

    public void WriteUInt32(uint value) => WriteInt64(value);

    public void WriteInt64(long value) =>
        WriteInteger(value < 0, value < 0 ? (ulong)-(value + 1) + 1 : (ulong)value);

    public void WriteUInt64(ulong value) => WriteInteger(false, value);

    /// <summary>Every NaN payload is one key below -Infinity (as <see cref="double.CompareTo(double)"/>); -0.0 is 0.</summary>
    public void WriteDouble(double value)
    {
        if (double.IsNaN(value) || double.IsInfinity(value) || value == 0)
        {
            WriteNumberClass(double.IsNaN(value) ? NumberNaN : value == 0 ? NumberZero : value > 0 ? NumberPositiveInfinity : NumberNegativeInfinity);
            return;
        }

        var bits = BitConverter.DoubleToInt64Bits(value);
        var biased = (int)(bits >> 52) & 0x7FF;
        var mantissa = (ulong)bits & 0xF_FFFF_FFFF_FFFFUL;
        if (biased == 0)
        {
            // Subnormal: move the leading one out of the fraction.
            var leading = 63 - BitOperations.LeadingZeroCount(mantissa);
            WriteBinary(value < 0, leading - 1074, (mantissa << (63 - leading)) & FractionMask, null);
        }
        else
        {
            WriteBinary(value < 0, biased - 1023, mantissa << 11, null);
        }
    }

    public void WriteSingle(float value) => WriteDouble(value);

    public void WriteDecimal(decimal value)
    {
        Span<int> parts = stackalloc int[4];
        decimal.GetBits(value, parts);
        var coefficient = ((UInt128)(uint)parts[2] << 64) | ((ulong)(uint)parts[1] << 32) | (uint)parts[0];
        WriteDecimalParts(parts[3] < 0, coefficient, -((parts[3] >> 16) & 0xFF));
    }

    /// <summary>Every Decimal128, NaN and ±Infinity included, by exact value: 10 is the same key as the integer 10.</summary>
    public void WriteDecimal128(BsonDecimal128 value)
    {
        if (value.IsNaN)
        {
            WriteNumberClass(NumberNaN);
        }
        else if (value.IsInfinity)
        {
            WriteNumberClass(value.IsNegative ? NumberNegativeInfinity : NumberPositiveInfinity);
        }
        else if (value.TryGetFiniteParts(out var negative, out var coefficient, out var exponent))
        {
            WriteDecimalParts(negative, coefficient, exponent);
        }
    }

    private void WriteNumberClass(byte numberClass)
    {
        var span = Reserve(2);
        span[0] = (byte)KeyType.Number;
        span[1] = numberClass;
    }

    private void WriteInteger(bool negative, ulong magnitude)
    {
        if (magnitude == 0)
        {
            WriteNumberClass(NumberZero);
            return;
        }

        var leading = 63 - BitOperations.LeadingZeroCount(magnitude);
        WriteBinary(negative, leading, (magnitude << (63 - leading)) & FractionMask, null);
    }

    /// <summary>(−1)^negative × coefficient × 10^exponent with coefficient below 10^34.</summary>
    private void WriteDecimalParts(bool negative, UInt128 coefficient, int exponent)
    {
        if (coefficient == UInt128.Zero)
        {
            WriteNumberClass(NumberZero);
            return;
        }

        var (binaryExponent, fraction, exact) = ToBinary(coefficient, exponent);
        WriteBinary(negative, binaryExponent, fraction, exact ? null : (coefficient, exponent));
    }

    /// <summary>The binary exponent and first 63 fraction bits of c × 10^e, and whether they are the whole value.</summary>
    private static (int Exponent, ulong Fraction, bool Exact) ToBinary(UInt128 coefficient, int exponent)
    {
        if (exponent is >= -MaxFastScale and <= 0)
        {
            return ToBinaryFast(coefficient, -exponent);
        }

        BigInteger scaled;
        BigInteger remainder;
        int shift;
        if (exponent >= 0)
        {
            scaled = coefficient * BigInteger.Pow(10, exponent);
            remainder = BigInteger.Zero;
            shift = 0;
        }
        else
        {
            // Enough extra bits that the quotient keeps at least 64 significant ones.
            var divisor = BigInteger.Pow(10, -exponent);
            shift = Math.Max(0, 65 + (int)divisor.GetBitLength() - (int)((BigInteger)coefficient).GetBitLength());
            scaled = BigInteger.DivRem((BigInteger)coefficient << shift, divisor, out remainder);
        }

        var length = (int)scaled.GetBitLength();
        var binaryExponent = length - 1 - shift;
        if (length <= 64)
        {
            return (binaryExponent, ((ulong)scaled << (64 - length)) & FractionMask, remainder.IsZero);
        }

        var dropped = length - 64;
        var top = (ulong)(scaled >> dropped);
        var exact = remainder.IsZero && (scaled & ((BigInteger.One << dropped) - 1)).IsZero;
        return (binaryExponent, top & FractionMask, exact);
    }

    // 10^18 has 60 bits, so c shifted up to bit 126 and divided by it keeps at least 67 bits.
    private const int MaxFastScale = 18;

    /// <summary>
    /// <see cref="ToBinary"/> for c / 10^scale with scale at most 18 (every typical money amount)
    /// without big-integer allocations: c is shifted so its top bit is bit 126 and divided.
    /// </summary>
    private static (int Exponent, ulong Fraction, bool Exact) ToBinaryFast(UInt128 coefficient, int scale)
    {
        var shift = 127 - (128 - (int)UInt128.LeadingZeroCount(coefficient));
        var (quotient, remainder) = UInt128.DivRem(coefficient << shift, Pow10(scale));
        var length = 128 - (int)UInt128.LeadingZeroCount(quotient);
        var dropped = length - 64;
        var top = (ulong)(quotient >> dropped);
        var exact = remainder == UInt128.Zero && (quotient & ((UInt128.One << dropped) - 1)) == UInt128.Zero;
        return (length - 1 - shift, top & FractionMask, exact);
    }

    private static UInt128 Pow10(int exponent)
    {
        UInt128 result = 1;
        for (var i = 0; i < exponent; i++)
        {
            result *= 10;
        }

        return result;
    }

    private void WriteBinary(bool negative, int binaryExponent, ulong fraction, (UInt128 Coefficient, int Exponent)? decimalTail)
    {
        Reserve(1)[0] = (byte)KeyType.Number;
        Reserve(1)[0] = negative ? NumberNegative : NumberPositive;
        var body = _position;
        WriteOrderedExponent(binaryExponent);
        for (var group = 0; group < FractionGroups; group++)
        {
            var remainingBits = 56 - (7 * group);
            var bits = (byte)((fraction >> remainingBits) & 0x7F);
            var more = decimalTail is not null || (fraction & ((1UL << remainingBits) - 1)) != 0;
            Reserve(1)[0] = (byte)((bits << 1) | (more ? 1 : 0));
            if (!more)
            {
                break;
            }
        }

        if (decimalTail is { } tail)
        {
            WriteDecimalDigits(tail.Coefficient, tail.Exponent);
        }

        if (negative)
        {
            foreach (ref var b in _destination[body.._position])
            {
                b = (byte)~b;
            }
        }
    }

    private void WriteOrderedExponent(int exponent)
    {
        if (exponent is >= MinShortExponent and <= MaxShortExponent)
        {
            Reserve(1)[0] = (byte)(exponent + ShortExponentBias);
            return;
        }

        var span = Reserve(3);
        var biased = exponent + WideExponentBias;
        span[0] = exponent < 0 ? WideExponentBelow : WideExponentAbove;
        span[1] = (byte)(biased >> 8);
        span[2] = (byte)biased;
    }

    /// <summary>The value as 0.d1d2…dk × 10^A (d1 ≠ 0, no trailing zeros): A, then the digits as nibbles.</summary>
    private void WriteDecimalDigits(UInt128 coefficient, int exponent)
    {
        // Least significant digit first; at most 34 digits.
        Span<byte> digits = stackalloc byte[40];
        var count = 0;
        while (coefficient != UInt128.Zero)
        {
            (coefficient, var digit) = UInt128.DivRem(coefficient, 10);
            digits[count++] = (byte)digit;
        }

        var lowest = 0;
        while (digits[lowest] == 0)
        {
            lowest++;
        }

        WriteOrderedExponent(count + exponent);
        var significant = count - lowest;
        var body = Reserve((significant + 2) / 2);
        body.Clear();
        for (var i = 0; i < significant; i++)
        {
            var nibble = (byte)(digits[count - 1 - i] + 1);
            body[i >> 1] |= (i & 1) == 0 ? (byte)(nibble << 4) : nibble;
        }
    }
}
