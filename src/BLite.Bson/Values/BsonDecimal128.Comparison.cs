namespace BLite.Bson;

// Numeric equality and total order: NaN (any sign) first, then -Infinity, the finite values by
// value (every zero equal, 1.0 = 1.00), +Infinity last.
public readonly partial struct BsonDecimal128
{
    public bool Equals(BsonDecimal128 other) => CompareTo(other) == 0;

    public override bool Equals(object? obj) => obj is BsonDecimal128 other && Equals(other);

    public override int GetHashCode()
    {
        var kind = Decompose(out var negative, out var coefficient, out var exponent);
        if (kind != Kind.Finite)
        {
            return HashCode.Combine(kind, kind == Kind.Infinity && negative);
        }

        Normalize(ref coefficient, ref exponent);
        return HashCode.Combine(coefficient != UInt128.Zero && negative, coefficient, exponent);
    }

    public int CompareTo(BsonDecimal128 other)
    {
        var (leftRank, rightRank) = (Rank(this), Rank(other));
        if (leftRank != rightRank || leftRank != 2)
        {
            return leftRank.CompareTo(rightRank);
        }

        Decompose(out var leftNegative, out var leftCoefficient, out var leftExponent);
        other.Decompose(out var rightNegative, out var rightCoefficient, out var rightExponent);
        var leftSign = leftCoefficient == UInt128.Zero ? 0 : leftNegative ? -1 : 1;
        var rightSign = rightCoefficient == UInt128.Zero ? 0 : rightNegative ? -1 : 1;
        if (leftSign != rightSign || leftSign == 0)
        {
            return leftSign.CompareTo(rightSign);
        }

        var magnitude = CompareMagnitudes(leftCoefficient, leftExponent, rightCoefficient, rightExponent);
        return leftSign > 0 ? magnitude : -magnitude;
    }

    public static bool operator ==(BsonDecimal128 left, BsonDecimal128 right) => left.Equals(right);

    public static bool operator !=(BsonDecimal128 left, BsonDecimal128 right) => !left.Equals(right);

    public static bool operator <(BsonDecimal128 left, BsonDecimal128 right) => left.CompareTo(right) < 0;

    public static bool operator >(BsonDecimal128 left, BsonDecimal128 right) => left.CompareTo(right) > 0;

    public static bool operator <=(BsonDecimal128 left, BsonDecimal128 right) => left.CompareTo(right) <= 0;

    public static bool operator >=(BsonDecimal128 left, BsonDecimal128 right) => left.CompareTo(right) >= 0;

    /// <summary>0 NaN, 1 −Infinity, 2 finite, 3 +Infinity.</summary>
    private static int Rank(BsonDecimal128 value) => value.Decompose(out var negative, out _, out _) switch
    {
        Kind.NaN => 0,
        Kind.Infinity => negative ? 1 : 3,
        _ => 2,
    };

    /// <summary>Compares two non-zero magnitudes c×10^e: first by adjusted exponent, then digit by digit.</summary>
    private static int CompareMagnitudes(UInt128 leftCoefficient, int leftExponent, UInt128 rightCoefficient, int rightExponent)
    {
        var leftDigits = DigitCount(leftCoefficient);
        var rightDigits = DigitCount(rightCoefficient);
        var byAdjusted = (leftExponent + leftDigits).CompareTo(rightExponent + rightDigits);
        if (byAdjusted != 0)
        {
            return byAdjusted;
        }

        // Same adjusted exponent: scale the shorter coefficient up to the same digit count (at
        // most 34 digits, which a UInt128 holds) and compare.
        for (; leftDigits < rightDigits; leftDigits++)
        {
            leftCoefficient *= 10;
        }

        for (; rightDigits < leftDigits; rightDigits++)
        {
            rightCoefficient *= 10;
        }

        return leftCoefficient.CompareTo(rightCoefficient);
    }

    internal static int DigitCount(UInt128 coefficient)
    {
        var count = 1;
        while (coefficient >= 10)
        {
            coefficient /= 10;
            count++;
        }

        return count;
    }
}
