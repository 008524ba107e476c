namespace BLite.Core.Query;

/// <summary>
/// One contiguous stretch of index keys to walk. Bounds are encoded field keys with the prefix
/// semantics of <see cref="Collections.RawCollection.ScanIndex"/>: an inclusive bound takes
/// every key starting with it, an exclusive one skips them all; a null side is open.
/// </summary>
/// <param name="PrefixComponents">How many leading key components every key of the run shares (points).</param>
/// <param name="PrefixBytes">Their encoded length: the next component's type tag sits at this offset.</param>
internal sealed record ScanRun(byte[]? Lower, bool LowerInclusive, byte[]? Upper, bool UpperInclusive, int PrefixComponents, int PrefixBytes)
{
    public static ScanRun All { get; } = new(null, true, null, true, 0, 0);

    /// <summary>The run's bounds as the range an index scan takes.</summary>
    public BTrees.KeyRange Range => Collections.TransactionalBsonCollection.BuildRange(Lower, LowerInclusive, Upper, UpperInclusive);
}
