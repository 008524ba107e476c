namespace BLite.Bson.Jsonb;

/// <summary>
/// The fixed forms BLite writes for dates and decimals, parsed straight from UTF-8 bytes: no
/// strings, no culture-aware parsing (these were most of a document's decoding time). Shared by
/// the generated jsonb readers and the jsonb to C-BSON transcoder.
/// </summary>
internal static class JsonbTextParsing
{
    /// <summary>Length of <see cref="JsonbMemberWriter.DateFormat"/> text: <c>2024-02-29T23:59:59.1234567</c>.</summary>
    public const int DateTextLength = 27;

    /// <summary>Plain digits with an optional sign and fraction, as numeric prints them: the coefficient and scale kept exactly.</summary>
    public static bool TryParseDecimal(ReadOnlySpan<byte> text, out BsonDecimal128 value)
    {
        value = default;
        var negative = text is [(byte)'-', ..];
        var digits = 0;
        var scale = -1;
        UInt128 coefficient = 0;
        foreach (var c in negative ? text[1..] : text)
        {
            if (c == '.' && scale < 0)
            {
                scale = 0;
                continue;
            }

            if (c is < (byte)'0' or > (byte)'9' || ++digits > 34)
            {
                return false;
            }

            coefficient = (coefficient * 10) + (uint)(c - '0');
            scale += scale >= 0 ? 1 : 0;
        }

        if (digits == 0 || scale == 0)
        {
            return false;
        }

        value = BsonDecimal128.FromParts(negative, coefficient, scale < 0 ? 0 : -scale);
        return true;
    }

    /// <summary>The fixed-width date text as a clock reading (Kind unspecified).</summary>
    public static bool TryParseDate(ReadOnlySpan<byte> t, out DateTime clock)
    {
        clock = default;
        if (t.Length != DateTextLength || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' || t[16] != ':' || t[19] != '.'
            || !TryDigits(t[..4], out var year) || !TryDigits(t.Slice(5, 2), out var month) || !TryDigits(t.Slice(8, 2), out var day)
            || !TryDigits(t.Slice(11, 2), out var hour) || !TryDigits(t.Slice(14, 2), out var minute) || !TryDigits(t.Slice(17, 2), out var second)
            || !TryDigits(t[20..], out var fraction)
            || year < 1 || month is < 1 or > 12 || day < 1 || day > DateTime.DaysInMonth(year, month) || hour > 23 || minute > 59 || second > 59)
        {
            return false;
        }

        clock = new DateTime(year, month, day, hour, minute, second).AddTicks(fraction);
        return true;
    }

    private static bool TryDigits(ReadOnlySpan<byte> text, out int value)
    {
        value = 0;
        foreach (var c in text)
        {
            if (c is < (byte)'0' or > (byte)'9')
            {
                return false;
            }

            value = (value * 10) + (c - '0');
        }

        return true;
    }
}
