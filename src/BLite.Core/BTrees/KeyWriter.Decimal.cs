namespace BLite.Core.BTrees;

// Decimal: after the tag, a class byte (0x00 negative, 0x01 zero, 0x02 positive). Zero ends
// there. Otherwise the value is written as 0.d1d2..dk x 10^E with d1 != 0 and no trailing zero
// digits (so 1.0, 1.00 and 1 are the same key): one byte E + 128, then the digits as nibbles
// (digit + 1), then a 0 nibble, padded with a 0 nibble to a whole byte. For negative values
// every byte after the class byte is inverted, which reverses their order.
internal ref partial struct KeyWriter
{
    internal const byte DecimalNegative = 0x00;
    internal const byte DecimalZero = 0x01;
    internal const byte DecimalPositive = 0x02;
    internal const int DecimalExponentBias = 128;

    public void WriteDecimal(decimal value)
    {
        Span<int> parts = stackalloc int[4];
        decimal.GetBits(value, parts);
        var mantissa = ((UInt128)(uint)parts[2] << 64) | ((ulong)(uint)parts[1] << 32) | (uint)parts[0];
        if (mantissa == 0)
        {
            var zero = Reserve(2);
            zero[0] = (byte)KeyType.Decimal;
            zero[1] = DecimalZero;
            return;
        }

        var scale = (parts[3] >> 16) & 0xFF;
        var negative = parts[3] < 0;

        // Least significant digit first; at most 29 digits for a 96-bit mantissa.
        Span<byte> digits = stackalloc byte[32];
        var count = 0;
        while (mantissa != 0)
        {
            (mantissa, var digit) = UInt128.DivRem(mantissa, 10);
            digits[count++] = (byte)digit;
        }
        var exponent = count - scale;
        var lowest = 0;
        while (digits[lowest] == 0)
            lowest++;
        var significant = count - lowest;

        var span = Reserve(3 + (significant + 2) / 2);
        span[0] = (byte)KeyType.Decimal;
        span[1] = negative ? DecimalNegative : DecimalPositive;
        span[2] = (byte)(exponent + DecimalExponentBias);
        var body = span[3..];
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
