namespace BLite.Core.BTrees;

/// <summary>
/// A range of encoded keys with optional lower and upper bounds, each inclusive or exclusive.
/// Bounds are copied on creation, so a range may outlive the spans it was built from.
/// </summary>
internal sealed class KeyRange
{
    private readonly byte[]? _lower;
    private readonly byte[]? _upper;

    private KeyRange(byte[]? lower, bool lowerInclusive, byte[]? upper, bool upperInclusive)
    {
        _lower = lower;
        LowerInclusive = lowerInclusive;
        _upper = upper;
        UpperInclusive = upperInclusive;
    }

    /// <summary>Every key in the tree.</summary>
    public static KeyRange All { get; } = new(null, true, null, true);

    public bool HasLowerBound => _lower is not null;

    public bool HasUpperBound => _upper is not null;

    public ReadOnlySpan<byte> LowerBound => _lower;

    public ReadOnlySpan<byte> UpperBound => _upper;

    public bool LowerInclusive { get; }

    public bool UpperInclusive { get; }

    public static KeyRange Exact(ReadOnlySpan<byte> key)
    {
        var copy = key.ToArray();
        return new KeyRange(copy, true, copy, true);
    }

    /// <summary>Keys from <paramref name="lower"/> upwards, with no upper bound.</summary>
    public static KeyRange From(ReadOnlySpan<byte> lower, bool inclusive = true) => new(lower.ToArray(), inclusive, null, true);

    /// <summary>Keys up to <paramref name="upper"/>, with no lower bound.</summary>
    public static KeyRange To(ReadOnlySpan<byte> upper, bool inclusive = true) => new(null, true, upper.ToArray(), inclusive);

    public static KeyRange Between(ReadOnlySpan<byte> lower, bool lowerInclusive, ReadOnlySpan<byte> upper, bool upperInclusive) =>
        new(lower.ToArray(), lowerInclusive, upper.ToArray(), upperInclusive);

    /// <summary>
    /// Every key that starts with <paramref name="prefix"/>: whole leading components of a
    /// composite, or a string component's start written with <see cref="KeyWriter.WriteStringPrefix(ReadOnlySpan{char})"/>.
    /// </summary>
    public static KeyRange Prefix(ReadOnlySpan<byte> prefix)
    {
        var lower = prefix.ToArray();
        // The smallest byte string greater than every key with this prefix: drop trailing 0xFF
        // bytes and increment the last remaining one. A prefix of only 0xFF bytes has no upper bound.
        var end = prefix.Length;
        while (end > 0 && prefix[end - 1] == 0xFF)
            end--;
        if (end == 0)
            return new KeyRange(lower, true, null, true);
        var upper = prefix[..end].ToArray();
        upper[end - 1]++;
        return new KeyRange(lower, true, upper, false);
    }

    /// <summary>Whether <paramref name="key"/> is at or above the lower bound.</summary>
    public bool IsAboveLower(ReadOnlySpan<byte> key)
    {
        if (_lower is null)
            return true;
        var comparison = key.SequenceCompareTo(_lower);
        return comparison > 0 || (comparison == 0 && LowerInclusive);
    }

    /// <summary>Whether <paramref name="key"/> is at or below the upper bound.</summary>
    public bool IsBelowUpper(ReadOnlySpan<byte> key)
    {
        if (_upper is null)
            return true;
        var comparison = key.SequenceCompareTo(_upper);
        return comparison < 0 || (comparison == 0 && UpperInclusive);
    }

    public bool Contains(ReadOnlySpan<byte> key) => IsAboveLower(key) && IsBelowUpper(key);
}
