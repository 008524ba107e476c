namespace BLite;

/// <summary>A snapshot of the engine's memory, WAL and activity figures.</summary>
/// <param name="CachedBytes">Bytes of page images in the cache (bounded by the budget).</param>
/// <param name="PinnedBytes">Bytes of old page versions kept for long readers after checkpoints.</param>
/// <param name="CacheBudgetBytes">The configured cache budget.</param>
/// <param name="WalBytes">Bytes of the current WAL generation (header and frames).</param>
/// <param name="WalFileBytes">Length of the WAL device (earlier, longer generations leave it longer).</param>
/// <param name="Checkpoints">Checkpoints completed since open.</param>
/// <param name="Commits">Transactions committed since open (to the WAL, or published in memory).</param>
/// <param name="ActiveReaders">Open read transactions.</param>
/// <param name="TrackedPages">Pages with in-memory version or cache metadata.</param>
public sealed record StorageStatistics(
    long CachedBytes,
    long PinnedBytes,
    long CacheBudgetBytes,
    long WalBytes,
    long WalFileBytes,
    long Checkpoints,
    long Commits,
    int ActiveReaders,
    int TrackedPages)
{
    /// <summary>
    /// Commits an in-memory database published straight as page versions, writing no log frame
    /// (<c>Durability.InMemory</c>; 0 for a file). There the cache holds every page version, the
    /// database itself, whatever the budget.
    /// </summary>
    public long InMemoryCommits { get; init; }
}
