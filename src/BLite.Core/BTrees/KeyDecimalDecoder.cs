using BLite.Bson;

namespace BLite.Core.BTrees;

/// <summary>Turns the body of a decimal key component (after its tag) back into a number.</summary>
internal static class KeyDecimalDecoder
{
    public static decimal Decode(ReadOnlySpan<byte> body)
    {
        var value = Decode128(body);
        return value.TryToDecimal(out var exact)
            ? exact
            : throw new FormatException("Malformed index key: decimal component is out of range.");
    }

    public static BsonDecimal128 Decode128(ReadOnlySpan<byte> body)
    {
        if (body[0] == KeyWriter.DecimalZero)
            return BsonDecimal128.Zero;
        var negative = body[0] == KeyWriter.DecimalNegative;
        var invert = negative ? (byte)0xFF : (byte)0x00;
        var exponentByte = (byte)(body[1] ^ invert);
        int adjusted;
        var digitsStart = 2;
        if (exponentByte is KeyWriter.WideDecimalBelow or KeyWriter.WideDecimalAbove)
        {
            var wide = (ushort)(((body[2] ^ invert) << 8) | (body[3] ^ invert));
            if (wide == KeyWriter.DecimalNaN)
                return BsonDecimal128.NaN;
            if (wide == KeyWriter.DecimalInfinity)
                return negative ? BsonDecimal128.NegativeInfinity : BsonDecimal128.PositiveInfinity;
            adjusted = wide - KeyWriter.WideDecimalExponentBias;
            digitsStart = 4;
        }
        else
        {
            adjusted = exponentByte - KeyWriter.DecimalExponentBias;
        }

        UInt128 digits = 0;
        var count = 0;
        for (var i = digitsStart; i < body.Length; i++)
        {
            var b = (byte)(body[i] ^ invert);
            if (!TakeNibble(b >> 4, ref digits, ref count) || !TakeNibble(b & 0x0F, ref digits, ref count))
                break;
        }

        // Trailing zeros were dropped from the key: put back what the exponent range needs.
        var exponent = adjusted - count;
        for (; exponent > 6111 && count < 34; exponent--, count++)
            digits *= 10;
        if (count == 0 || count > 34 || exponent is < -6176 or > 6111)
            throw new FormatException("Malformed index key: decimal component is out of range.");
        return BsonDecimal128.FromParts(negative, digits, exponent);
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
