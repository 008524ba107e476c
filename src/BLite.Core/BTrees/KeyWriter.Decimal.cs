using BLite.Bson;

namespace BLite.Core.BTrees;

// Decimal (decimal and Decimal128 alike): after the tag, a class byte (0x00 negative, 0x01 zero,
// 0x02 positive). Zero ends there. Otherwise the value is written as 0.d1d2..dk x 10^E with
// d1 != 0 and no trailing zero digits (so 1.0, 1.00 and 1 are the same key): one byte E + 128
// when -27 <= E <= 29 (every .NET decimal), else an escape byte (0x00 below, 0xFF above) and
// two bytes E + 0x8000 big-endian; then the digits as nibbles (digit + 1), then a 0 nibble,
// padded with a 0 nibble to a whole byte. Infinity is the escape 0xFF and 0xFFFE with no digits,
// -Infinity its negative, and NaN the negative class with 0xFF 0xFFFF (so it sorts first). For
// negative values every byte after the class byte is inverted, which reverses their order.
internal ref partial struct KeyWriter
{
    internal const byte DecimalNegative = 0x00;
    internal const byte DecimalZero = 0x01;
    internal const byte DecimalPositive = 0x02;
    internal const int DecimalExponentBias = 128;
    internal const int MinShortDecimalExponent = -27;
    internal const int MaxShortDecimalExponent = 29;
    internal const int WideDecimalExponentBias = 0x8000;
    internal const byte WideDecimalBelow = 0x00;
    internal const byte WideDecimalAbove = 0xFF;
    internal const ushort DecimalInfinity = 0xFFFE;
    internal const ushort DecimalNaN = 0xFFFF;

    public void WriteDecimal(decimal value)
    {
        Span<int> parts = stackalloc int[4];
        decimal.GetBits(value, parts);
        var mantissa = ((UInt128)(uint)parts[2] << 64) | ((ulong)(uint)parts[1] << 32) | (uint)parts[0];
        WriteDecimalParts(parts[3] < 0, mantissa, -((parts[3] >> 16) & 0xFF));
    }

    /// <summary>Every Decimal128, NaN and ±Infinity included; a value a .NET decimal holds gets the same key as that decimal.</summary>
    public void WriteDecimal128(BsonDecimal128 value)
    {
        if (value.IsNaN)
        {
            WriteDecimalSpecial(negative: true, DecimalNaN);
        }
        else if (value.IsInfinity)
        {
            WriteDecimalSpecial(value.IsNegative, DecimalInfinity);
        }
        else if (value.TryGetFiniteParts(out var negative, out var coefficient, out var exponent))
        {
            WriteDecimalParts(negative, coefficient, exponent);
        }
    }

    private void WriteDecimalSpecial(bool negative, ushort marker)
    {
        var span = Reserve(5);
        span[0] = (byte)KeyType.Decimal;
        span[1] = negative ? DecimalNegative : DecimalPositive;
        span[2] = WideDecimalAbove;
        span[3] = (byte)(marker >> 8);
        span[4] = (byte)marker;
        if (negative)
        {
            foreach (ref var b in span[2..])
                b = (byte)~b;
        }
    }

    /// <summary>(−1)^negative × coefficient × 10^exponent, coefficient below 10^34.</summary>
    private void WriteDecimalParts(bool negative, UInt128 coefficient, int exponent)
    {
        if (coefficient == 0)
        {
            var zero = Reserve(2);
            zero[0] = (byte)KeyType.Decimal;
            zero[1] = DecimalZero;
            return;
        }

        // Least significant digit first; at most 34 digits.
        Span<byte> digits = stackalloc byte[40];
        var count = 0;
        while (coefficient != 0)
        {
            (coefficient, var digit) = UInt128.DivRem(coefficient, 10);
            digits[count++] = (byte)digit;
        }
        var adjusted = count + exponent;
        var lowest = 0;
        while (digits[lowest] == 0)
            lowest++;
        var significant = count - lowest;

        var wide = adjusted is < MinShortDecimalExponent or > MaxShortDecimalExponent;
        var head = wide ? 5 : 3;
        var span = Reserve(head + (significant + 2) / 2);
        span[0] = (byte)KeyType.Decimal;
        span[1] = negative ? DecimalNegative : DecimalPositive;
        if (wide)
        {
            var biased = adjusted + WideDecimalExponentBias;
            span[2] = adjusted < 0 ? WideDecimalBelow : WideDecimalAbove;
            span[3] = (byte)(biased >> 8);
            span[4] = (byte)biased;
        }
        else
        {
            span[2] = (byte)(adjusted + DecimalExponentBias);
        }

        var body = span[head..];
        body.Clear();
        for (var i = 0; i < significant; i++)
        {
            var nibble = (byte)(digits[count - 1 - i] + 1);
            body[i >> 1] |= (i & 1) == 0 ? (byte)(nibble << 4) : nibble;
        }
        if (negative)
        {
            foreach (ref var b in span[2..])
                b = (byte)~b;
        }
    }
}
