namespace BLite.Core.BTrees;

/// <summary>
/// What <see cref="BTreeVerifier"/> found: the pages the tree owns (nodes and overflow pages,
/// so a database-wide check can find pages owned twice or by nobody) and every problem seen.
/// Verification reports instead of throwing, so one run lists all damage; call
/// <see cref="ThrowIfInvalid"/> to turn problems into a <see cref="BLiteCorruptionException"/>.
/// </summary>
internal sealed class BTreeVerification
{
    internal BTreeVerification(uint rootPageId, HashSet<uint> ownedPages, List<string> problems, long entryCount, int depth)
    {
        RootPageId = rootPageId;
        OwnedPages = ownedPages;
        Problems = problems;
        EntryCount = entryCount;
        Depth = depth;
    }

    public uint RootPageId { get; }

    public IReadOnlySet<uint> OwnedPages { get; }

    public IReadOnlyList<string> Problems { get; }

    public bool IsValid => Problems.Count == 0;

    public long EntryCount { get; }

    /// <summary>Levels from the root to the leaves: 1 for a tree that is a single leaf.</summary>
    public int Depth { get; }

    public void ThrowIfInvalid(string filePath)
    {
        if (IsValid)
            return;
        const int shown = 10;
        var summary = string.Join("; ", Problems.Take(shown));
        if (Problems.Count > shown)
            summary += $"; and {Problems.Count - shown} more";
        throw new BLiteCorruptionException(filePath, RootPageId, $"B+ tree rooted here fails verification: {summary}.");
    }
}
