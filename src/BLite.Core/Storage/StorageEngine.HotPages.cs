using System.Numerics;
using BLite.Core.Diagnostics;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage;

/// <summary>
/// A small lock-free memo of cached page images for point reads: a lookup by id reads the
/// catalog anchor, the primary root and a leaf, and taking the engine lock for each of them was
/// most of its cost.
/// </summary>
/// <remarks>
/// An entry is keyed on the exact snapshot that found it, and only a reader that registered that
/// snapshot consults it, so it returns the very image the locked lookup would: the version a
/// registered snapshot sees is never dropped, and cached images are never mutated (an evicted image
/// is only forgotten; only a dropped version's array is reused). Entries come only from cache hits,
/// whose checksums were verified when they entered the cache. Each commit makes every entry stale,
/// and a slot is only ever taken by a newer snapshot, so a working set larger than the memo
/// does not allocate an entry per read.
/// </remarks>
internal sealed partial class StorageEngine
{
    private const int MinHotPageSlots = 64;
    private const int MaxHotPageSlots = 4096;

    // An eighth of the cache budget's pages (a power of two, 64 to 4096): enough that the pages
    // a point read walks in a database of some thousands of documents all find a slot, while the
    // images a slot keeps alive after the cache evicted them stay a small share of the budget.
    private readonly HotPage?[] _hotPages;
    private readonly SplitCounter _hotPageHits = new();

    /// <summary>The memo's slot count for a cache of <paramref name="budgetBytes"/>.</summary>
    internal static int HotPageSlotsFor(long budgetBytes, int pageSize)
    {
        var share = budgetBytes / pageSize / 8;
        return share <= MinHotPageSlots ? MinHotPageSlots : (int)Math.Min(MaxHotPageSlots, 1L << BitOperations.Log2((ulong)share));
    }

    /// <summary>Page reads served by the memo without the engine lock (included in <see cref="CacheHits"/>).</summary>
    internal long HotPageHits => _hotPageHits.Value;

    /// <summary>
    /// Adds the memo hits a reader counted on its own, once per reader rather than once per page;
    /// a reader lent to one thread passes that thread's <see cref="ThreadSlot"/> (-1 otherwise),
    /// and then adds without an atomic instruction.
    /// </summary>
    internal void AddHotPageHits(int slot, int hits) => _hotPageHits.Add(slot, hits);

    /// <summary>
    /// The memoized image of <paramref name="pageId"/> at <paramref name="snapshot"/>, for a reader
    /// that registered that snapshot. The caller counts the hit (see <see cref="AddHotPageHits"/>).
    /// </summary>
    internal bool TryGetHotPage(uint pageId, long snapshot, out byte[] image)
    {
        var hot = Volatile.Read(ref _hotPages[pageId & (_hotPages.Length - 1)]);
        if (hot is not null && hot.PageId == pageId && hot.Snapshot == snapshot && !Volatile.Read(ref _disposed))
        {
            // The clock hand of the page cache must still see the page as used.
            if (!hot.Version.Referenced)
            {
                hot.Version.Referenced = true;
            }

            image = hot.Image;
            return true;
        }

        image = null!;
        return false;
    }

    /// <summary>
    /// Under the engine lock, after a cache hit: remembers the image unless its slot already serves
    /// this snapshot or a newer one (the memo follows the newest snapshot; an old reader does not
    /// take slots back from the current ones).
    /// </summary>
    private void RememberHotPage(PageVersion version, long snapshot, byte[] image)
    {
        ref var slot = ref _hotPages[version.PageId & (_hotPages.Length - 1)];
        if (slot is null || slot.Snapshot < snapshot)
        {
            Volatile.Write(ref slot, new HotPage(version.PageId, snapshot, image, version));
        }
    }

    private sealed class HotPage(uint pageId, long snapshot, byte[] image, PageVersion version)
    {
        public readonly uint PageId = pageId;
        public readonly long Snapshot = snapshot;
        public readonly byte[] Image = image;
        public readonly PageVersion Version = version;
    }
}
