namespace BLite.Core.Storage.Encryption;

/// <summary>
/// Where things lie in an encrypted database file (format 2). Physical page 0 is the clear
/// <see cref="EncryptionHeader"/> with its two <see cref="VersionRecord"/> slots. The engine's
/// pages follow in groups of K: each group starts with the two slots of its version map page
/// (<see cref="PageVersionMap"/>), then holds K engine pages.
/// <code>
/// physical page 0                 header
/// physical 1 + g(K+2) + s         version map page of group g, slot s (0 or 1)
/// physical 1 + g(K+2) + 2 + i     engine page gK + i
/// </code>
/// K is how many 8-byte entries fit in a map page's payload after its 8-byte counter.
/// </summary>
internal readonly struct EncryptedLayout(int pageSize)
{
    public int PageSize { get; } = pageSize;

    /// <summary>Engine pages per group, K.</summary>
    public int PagesPerGroup { get; } = (PageCipher.PayloadSize(pageSize) - PageVersionMap.CounterSize) / PageVersionMap.EntrySize;

    private int GroupSpan => PagesPerGroup + 2;

    public long PageOffset(uint pageId) =>
        (1L + (pageId / (uint)PagesPerGroup * (long)GroupSpan) + 2 + (pageId % (uint)PagesPerGroup)) * PageSize;

    public long MapOffset(int group, int slot) => (1L + ((long)group * GroupSpan) + slot) * PageSize;

    /// <summary>The engine page stored at <paramref name="physicalOffset"/>, or null for the header and the map pages.</summary>
    public uint? PageAt(long physicalOffset)
    {
        var stored = (physicalOffset / PageSize) - 1;
        if (stored < 0 || stored % GroupSpan < 2)
        {
            return null;
        }

        return (uint)((stored / GroupSpan * PagesPerGroup) + (stored % GroupSpan) - 2);
    }

    public int GroupOf(uint pageId) => (int)(pageId / (uint)PagesPerGroup);

    /// <summary>The engine's view of the length of a file <paramref name="physicalLength"/> bytes long.</summary>
    public long LogicalLength(long physicalLength)
    {
        var stored = (physicalLength / PageSize) - 1;
        if (stored <= 0)
        {
            return 0;
        }

        var pages = (stored / GroupSpan * PagesPerGroup) + Math.Max(0, (stored % GroupSpan) - 2);
        return pages * PageSize;
    }

    public long PhysicalLength(long logicalLength)
    {
        var pages = logicalLength / PageSize;
        return pages == 0 ? PageSize : PageOffset((uint)(pages - 1)) + PageSize;
    }
}
