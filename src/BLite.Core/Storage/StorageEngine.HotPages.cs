using System.Numerics;
using BLite.Core.Diagnostics;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage;

/// <summary>
/// A lock-free memo of cached page versions for point reads: a lookup by id reads the catalog
/// anchor, the primary root, a branch or two and a leaf, and taking the engine lock for each of
/// them was most of its cost.
/// </summary>
/// <remarks>
/// A slot holds the version its page id last found under the lock, and serves every snapshot in
/// that version's range (<see cref="PageVersion.Seq"/> up to <see cref="PageVersion.ReplacedAt"/>):
/// exactly the snapshots the locked lookup would hand that version to. Only a reader that
/// registered its snapshot consults the memo, and the version a registered snapshot sees is never
/// dropped, so its image is the one the lookup would return; cached images are never mutated (an
/// evicted image is only forgotten, and then the slot reads as a miss; only a dropped version's
/// array is reused). Entries come only from cache hits, whose checksums were verified when they
/// entered the cache. A commit leaves the slots of the pages it did not change valid, and a slot
/// keeps no image alive: an evicted or dropped version has none, so the memo can have a slot for
/// every page the cache holds without holding more memory than its array.
/// </remarks>
internal sealed partial class StorageEngine
{
    private const int MinHotPageSlots = 64;
    private const int MaxHotPageSlots = 1 << 16;

    // As many slots as the cache budget has pages (a power of two, 64 to 65,536), indexed by page
    // id: page ids are dense, so the pages of a database the cache holds each get their own slot.
    private readonly PageVersion?[] _hotPages;
    private readonly SplitCounter _hotPageHits = new();

    /// <summary>The memo's slot count for a cache of <paramref name="budgetBytes"/>.</summary>
    internal static int HotPageSlotsFor(long budgetBytes, int pageSize)
    {
        var pages = budgetBytes / pageSize;
        return pages <= MinHotPageSlots ? MinHotPageSlots : (int)Math.Min(MaxHotPageSlots, BitOperations.RoundUpToPowerOf2((ulong)pages));
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
        var version = TryGetHotVersion(pageId, snapshot);
        image = version?.Image!;
        return image is not null;
    }

    /// <summary>
    /// <see cref="TryGetHotPage"/>'s version rather than its image (null on a miss), for a reader
    /// that remembers which versions a descent went through (the point index). Its
    /// <see cref="PageVersion.Image"/> read afterwards may be null (evicted since): check it.
    /// </summary>
    internal PageVersion? TryGetHotVersion(uint pageId, long snapshot)
    {
        var version = Volatile.Read(ref _hotPages[pageId & (_hotPages.Length - 1)]);
        if (version is not null && version.PageId == pageId && version.ServesCached(snapshot) && !Volatile.Read(ref _disposed))
        {
            // The clock hand of the page cache must still see the page as used.
            if (!version.Referenced)
            {
                version.Referenced = true;
            }

            return version;
        }

        return null;
    }

    /// <summary>
    /// Under the engine lock, after a cache hit: remembers the version unless its slot holds
    /// another page's version that the newest snapshot still reads (an old reader does not take
    /// slots from the current ones; two current pages on one slot take it in turn).
    /// </summary>
    private void RememberHotPage(PageVersion version)
    {
        ref var slot = ref _hotPages[version.PageId & (_hotPages.Length - 1)];
        var held = slot;
        if (!ReferenceEquals(held, version)
            && (held is null || held.ReplacedAt != long.MaxValue || held.Image is null || version.ReplacedAt == long.MaxValue))
        {
            Volatile.Write(ref slot, version);
        }
    }
}
