using System.Globalization;
using System.Text;

namespace BLite.Bson.Jsonb;

/// <summary>Number text that survives PostgreSQL's numeric type unchanged.</summary>
internal static class JsonbNumbers
{
    /// <summary>
    /// The shortest round-trip digits of a finite double, written positionally and always with a
    /// fraction: <c>1.0E+20</c> becomes <c>100000000000000000000.0</c>, <c>1.5E-07</c> becomes <c>0.00000015</c>.
    /// </summary>
    public static string PositionalDouble(double value)
    {
        var text = value.ToString("R", CultureInfo.InvariantCulture);
        var e = text.IndexOf('E', StringComparison.Ordinal);
        if (e < 0)
        {
            return text.Contains('.', StringComparison.Ordinal) ? text : text + ".0";
        }

        var exponent = int.Parse(text.AsSpan(e + 1), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
        var mantissa = text.AsSpan(0, e);
        var negative = mantissa[0] == '-';
        if (negative)
        {
            mantissa = mantissa[1..];
        }

        var point = mantissa.IndexOf('.');
        var digits = point < 0 ? mantissa.ToString() : string.Concat(mantissa[..point], mantissa[(point + 1)..]);
        var pointAt = (point < 0 ? mantissa.Length : point) + exponent;
        var result = new StringBuilder(digits.Length + Math.Abs(exponent) + 4);
        if (negative)
        {
            result.Append('-');
        }

        if (pointAt <= 0)
        {
            result.Append("0.").Append('0', -pointAt).Append(digits);
        }
        else if (pointAt >= digits.Length)
        {
            result.Append(digits).Append('0', pointAt - digits.Length).Append(".0");
        }
        else
        {
            result.Append(digits, 0, pointAt).Append('.').Append(digits, pointAt, digits.Length - pointAt);
        }

        return result.ToString();
    }

    /// <summary>Whether Decimal128 text is plain positional notation that numeric keeps exactly (not -0, NaN, infinity or an exponent).</summary>
    public static bool IsPlainDecimal(string text)
    {
        var digits = text.AsSpan(text.StartsWith('-') ? 1 : 0);
        if (digits.IsEmpty || digits.ContainsAnyExcept("0123456789."))
        {
            return false;
        }

        return !text.StartsWith('-') || digits.ContainsAnyExcept("0.");
    }
}
