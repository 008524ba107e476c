using System.Globalization;
using System.Text;

namespace BLite.Bson;

// The string form of the BSON Decimal128 specification: IEEE 754-2008 to-scientific-string out,
// and its numeric-string grammar in (with the specification's exact-rounding and clamping rules).
public readonly partial struct BsonDecimal128
{
    /// <summary>
    /// The specification's string form: <c>NaN</c>, <c>Infinity</c>, <c>-Infinity</c>; plain
    /// notation (<c>1.50</c>, <c>-0.000001</c>) when the exponent is at most 0 and the adjusted
    /// exponent at least −6; otherwise scientific (<c>1.0E-9</c>, <c>1E+3</c>, <c>-0E+9</c>).
    /// </summary>
    public override string ToString()
    {
        var kind = Decompose(out var negative, out var coefficient, out var exponent);
        if (kind == Kind.NaN)
        {
            return "NaN";
        }

        if (kind == Kind.Infinity)
        {
            return negative ? "-Infinity" : "Infinity";
        }

        var digits = coefficient.ToString(CultureInfo.InvariantCulture);
        var adjusted = exponent + digits.Length - 1;
        var text = new StringBuilder(digits.Length + 12);
        if (negative)
        {
            text.Append('-');
        }

        if (exponent <= 0 && adjusted >= -6)
        {
            if (exponent == 0)
            {
                text.Append(digits);
            }
            else if (digits.Length > -exponent)
            {
                text.Append(digits, 0, digits.Length + exponent).Append('.').Append(digits, digits.Length + exponent, -exponent);
            }
            else
            {
                text.Append("0.").Append('0', -exponent - digits.Length).Append(digits);
            }
        }
        else
        {
            text.Append(digits[0]);
            if (digits.Length > 1)
            {
                text.Append('.').Append(digits, 1, digits.Length - 1);
            }

            text.Append('E').Append(adjusted >= 0 ? "+" : "").Append(adjusted.ToString(CultureInfo.InvariantCulture));
        }

        return text.ToString();
    }

    /// <summary>Parses the specification's numeric string; throws <see cref="FormatException"/> naming the problem.</summary>
    public static BsonDecimal128 Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        return TryParse(text, out var value, out var problem)
            ? value
            : throw new FormatException($"\"{text}\" is not a Decimal128: {problem}.");
    }

    public static bool TryParse(string? text, out BsonDecimal128 value) => TryParse(text, out value, out _);

    /// <summary>
    /// Accepts <c>[sign] digits [. [digits]] [(e|E) [sign] digits]</c> (or <c>[sign] . digits</c>),
    /// and, ignoring case, <c>[sign] Infinity</c>, <c>[sign] Inf</c> and <c>[sign] NaN</c>. No
    /// whitespace. More than 34 significant digits or an exponent beyond the range is accepted only
    /// when it changes no value (trailing zeros dropped, zeros clamped); otherwise it is refused,
    /// never rounded.
    /// </summary>
    public static bool TryParse(string? text, out BsonDecimal128 value, out string problem)
    {
        value = default;
        if (string.IsNullOrEmpty(text))
        {
            problem = "the text is empty";
            return false;
        }

        var i = 0;
        var negative = false;
        if (text[0] is '+' or '-')
        {
            negative = text[0] == '-';
            i = 1;
        }

        var rest = text.AsSpan(i);
        if (rest.Equals("Infinity", StringComparison.OrdinalIgnoreCase) || rest.Equals("Inf", StringComparison.OrdinalIgnoreCase))
        {
            value = negative ? NegativeInfinity : PositiveInfinity;
            problem = "";
            return true;
        }

        if (rest.Equals("NaN", StringComparison.OrdinalIgnoreCase))
        {
            value = negative ? new BsonDecimal128(NaNHigh | SignBit, 0) : NaN;
            problem = "";
            return true;
        }

        // Digits are kept as text, leading zeros dropped, so any number of them can be checked
        // for exactness before building the coefficient.
        var significant = new StringBuilder();
        var fractionDigits = 0;
        var anyDigit = false;
        var seenPoint = false;
        for (; i < text.Length; i++)
        {
            var c = text[i];
            if (c == '.')
            {
                if (seenPoint)
                {
                    problem = $"a second decimal point at position {i}";
                    return false;
                }

                seenPoint = true;
                continue;
            }

            if (c is < '0' or > '9')
            {
                break;
            }

            anyDigit = true;
            if (significant.Length > 0 || c != '0')
            {
                significant.Append(c);
            }

            if (seenPoint)
            {
                fractionDigits++;
            }
        }

        if (!anyDigit)
        {
            problem = i < text.Length && char.IsLetter(text[i])
                ? "only Infinity, Inf and NaN (any case, optionally signed) are accepted as words"
                : "no digits";
            return false;
        }

        long exponent = 0;
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
                exponent = Math.Min((exponent * 10) + (text[i] - '0'), 1_000_000_000L);
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
            problem = $"unexpected character '{text[i]}' at position {i}";
            return false;
        }

        exponent -= fractionDigits;
        return TryBuild(negative, significant, exponent, out value, out problem);
    }

    private static bool TryBuild(bool negative, StringBuilder digits, long exponent, out BsonDecimal128 value, out string problem)
    {
        value = default;
        if (digits.Length == 0)
        {
            // Zero: any exponent is clamped into range without changing the value.
            value = FromParts(negative, UInt128.Zero, (int)Math.Clamp(exponent, MinExponent, MaxExponent));
            problem = "";
            return true;
        }

        // Too many digits, or an exponent below the minimum: drop trailing zeros (exact) only.
        while (digits.Length > MaxDigits || exponent < MinExponent)
        {
            if (digits[^1] != '0')
            {
                problem = digits.Length > MaxDigits
                    ? "more than 34 significant digits, and dropping them would round the value"
                    : $"the exponent is below {MinExponent} and the value would have to be rounded (underflow)";
                return false;
            }

            digits.Length--;
            exponent++;
        }

        // An exponent above the maximum: pad the coefficient with zeros (clamping) while it fits.
        while (exponent > MaxExponent)
        {
            if (digits.Length >= MaxDigits)
            {
                problem = $"the value exceeds the Decimal128 range (overflow: exponent above {MaxExponent})";
                return false;
            }

            digits.Append('0');
            exponent--;
        }

        value = FromParts(negative, UInt128.Parse(digits.ToString(), CultureInfo.InvariantCulture), (int)exponent);
        problem = "";
        return true;
    }
}
