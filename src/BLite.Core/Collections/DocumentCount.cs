using BLite.Core.BTrees;
using BLite.Core.Collections.Catalog;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

/// <summary>
/// A collection's document count: on its stats page while that page's pending flag is clear,
/// otherwise in the engine's in-memory counter keyed by the stats page's id, and failing both (a
/// read-only view of a database another process writes, or before recovery recounted) by walking
/// the primary index. Inserts and deletes therefore touch the stats page once per checkpoint
/// interval instead of on every write (docs/storage.md, "Counters").
/// </summary>
internal static class DocumentCount
{
    public static long Read(IPageReader pages, CollectionInfo collection) =>
        Current(pages, collection, pages.ReadPage(collection.StatsPage).Span);

    /// <summary>
    /// Records a change of <paramref name="delta"/> documents, made to the primary index just
    /// before the call: when the count must be walked from the index, the walk already holds it.
    /// </summary>
    public static void Add(IPageWriter pages, CollectionInfo collection, long delta)
    {
        var stats = pages.ReadPage(collection.StatsPage).Span;
        var pending = CollectionStats.IsCountPending(stats);
        var count = !pending ? CollectionStats.ReadCount(stats) + delta
            : pages.TryReadCounter(collection.StatsPage, out var counted) ? counted + delta
            : CountEntries(pages, collection);
        pages.SetCounter(collection.StatsPage, count);
        if (!pending)
        {
            // The first change since the last checkpoint marks the page, so a crash before the
            // next checkpoint is known to leave its count stale.
            CollectionStats.SetCountPending(pages.WritePage(collection.StatsPage).Span, true);
        }
    }

    /// <summary>Writes the exact count back to the stats page and clears its pending flag, when set.</summary>
    public static void Persist(IPageWriter pages, CollectionInfo collection)
    {
        var stats = pages.ReadPage(collection.StatsPage).Span;
        if (!CollectionStats.IsCountPending(stats))
        {
            return;
        }

        var count = Read(pages, collection);
        var writable = pages.WritePage(collection.StatsPage).Span;
        CollectionStats.WriteCount(writable, count);
        CollectionStats.SetCountPending(writable, false);
    }

    private static long Current(IPageReader pages, CollectionInfo collection, ReadOnlySpan<byte> stats) =>
        !CollectionStats.IsCountPending(stats) ? CollectionStats.ReadCount(stats)
        : pages.TryReadCounter(collection.StatsPage, out var count) ? count
        : CountEntries(pages, collection);

    public static long CountEntries(IPageReader pages, CollectionInfo collection)
    {
        long count = 0;
        var cursor = TreeCursor.Open(BTree.Open(collection.PrimaryRoot), pages, KeyRange.All, descending: false);
        while (cursor.MoveNext())
        {
            count++;
        }

        return count;
    }
}
