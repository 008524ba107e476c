namespace BLite.Core.BTrees;

/// <summary>Turns the body of a decimal key component (after its tag) back into a decimal.</summary>
internal static class KeyDecimalDecoder
{
    public static decimal Decode(ReadOnlySpan<byte> body)
    {
        if (body[0] == KeyWriter.DecimalZero)
            return 0m;
        var negative = body[0] == KeyWriter.DecimalNegative;
        var invert = negative ? (byte)0xFF : (byte)0x00;
        var exponent = (byte)(body[1] ^ invert) - KeyWriter.DecimalExponentBias;

        UInt128 digits = 0;
        var count = 0;
        for (var i = 2; i < body.Length; i++)
        {
            var b = (byte)(body[i] ^ invert);
            if (!TakeNibble(b >> 4, ref digits, ref count) || !TakeNibble(b & 0x0F, ref digits, ref count))
                break;
        }

        var scale = count - exponent;
        for (; scale < 0 && digits >> 96 == 0; scale++)
            digits *= 10;
        if (scale < 0 || scale > 28 || digits >> 96 != 0)
            throw new FormatException("Malformed index key: decimal component is out of range.");
        return new decimal((int)(uint)digits, (int)(uint)(digits >> 32), (int)(uint)(digits >> 64), negative, (byte)scale);
    }

    private static bool TakeNibble(int nibble, ref UInt128 digits, ref int count)
    {
        if (nibble == 0)
            return false;
        digits = digits * 10 + (uint)(nibble - 1);
        count++;
        return true;
    }
}
