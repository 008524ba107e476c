namespace BLite.Bson;

/// <summary>
/// Parses decimal text exactly: [sign] digits [. digits] [e|E [sign] digits]. Unlike
/// decimal.Parse it never rounds; text a decimal cannot hold exactly is refused.
/// </summary>
internal static class DecimalText
{
    private const int MaxDigits = 36;

    public static bool TryParse(string text, out decimal value, out string problem)
    {
        value = 0m;
        var i = 0;
        var negative = false;
        if (i < text.Length && text[i] is '-' or '+')
        {
            negative = text[i] == '-';
            i++;
        }

        var coefficient = UInt128.Zero;
        var significantDigits = 0;
        var fractionDigits = 0;
        var anyDigit = false;
        var inFraction = false;
        for (; i < text.Length; i++)
        {
            var c = text[i];
            if (c == '.' && !inFraction)
            {
                inFraction = true;
                continue;
            }

            if (c is < '0' or > '9')
            {
                break;
            }

            anyDigit = true;
            if (significantDigits > 0 || c != '0')
            {
                if (++significantDigits > MaxDigits)
                {
                    problem = $"more than {MaxDigits} significant digits";
                    return false;
                }
            }

            coefficient = (coefficient * 10) + (uint)(c - '0');
            if (inFraction)
            {
                fractionDigits++;
            }
        }

        if (!anyDigit)
        {
            problem = text is "Infinity" or "-Infinity" or "NaN" ? $"{text} has no .NET decimal form" : "no digits";
            return false;
        }

        var exponent = 0;
        if (i < text.Length && text[i] is 'e' or 'E')
        {
            i++;
            var exponentNegative = false;
            if (i < text.Length && text[i] is '-' or '+')
            {
                exponentNegative = text[i] == '-';
                i++;
            }

            var exponentDigits = 0;
            for (; i < text.Length && text[i] is >= '0' and <= '9'; i++)
            {
                exponent = Math.Min((exponent * 10) + (text[i] - '0'), 100_000);
                exponentDigits++;
            }

            if (exponentDigits == 0)
            {
                problem = "the exponent has no digits";
                return false;
            }

            exponent = exponentNegative ? -exponent : exponent;
        }

        if (i != text.Length)
        {
            problem = $"unexpected character '{text[i]}'";
            return false;
        }

        try
        {
            value = Decimal128Encoding.FromParts(negative, coefficient, exponent - fractionDigits, 0);
        }
        catch (BsonFormatException)
        {
            problem = "the value cannot be represented exactly by a .NET decimal";
            return false;
        }

        problem = "";
        return true;
    }
}
