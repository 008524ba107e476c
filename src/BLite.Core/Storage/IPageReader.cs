using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage;

/// <summary>
/// Read access to page payloads as of one snapshot. This is the seam between the storage
/// engine (which owns page headers, checksums, the WAL and the cache) and the structures
/// built on pages (B+ trees, overflow chains, the catalog).
/// </summary>
internal interface IPageReader
{
    /// <summary>Bytes of each page that belong to the caller: the page size less the storage layer's own header.</summary>
    int PagePayloadSize { get; }

    /// <summary>
    /// The payload of <paramref name="pageId"/> in this snapshot. The memory is not mutated while
    /// the snapshot is open (writers copy on write); once no snapshot sees this version its array
    /// is reused for a later copy, so a caller must not keep it past its reader.
    /// Throws <c>BLiteCorruptionException</c> naming file and page when the page fails its checksum.
    /// </summary>
    ReadOnlyMemory<byte> ReadPage(uint pageId);

    /// <summary>
    /// <see cref="ReadPage"/> as a span, for a caller done with the page before its reader ends (a
    /// point read's descent): a reader that holds the page as an array skips what building and
    /// taking apart a <see cref="ReadOnlyMemory{T}"/> costs.
    /// </summary>
    ReadOnlySpan<byte> ReadPageSpan(uint pageId) => ReadPage(pageId).Span;

    /// <summary>
    /// The leaf image (<see cref="PagePayloadSize"/> bytes of it are the payload) and slot that
    /// hold <paramref name="key"/> in the tree rooted at <paramref name="rootPageId"/>, when the
    /// engine's point index can say so for this snapshot without a descent. False means "descend"
    /// (never "absent"); a reader that sees uncommitted writes always answers false.
    /// </summary>
    bool TryFindPoint(uint rootPageId, ReadOnlySpan<byte> key, out byte[] leaf, out int index)
    {
        leaf = null!;
        index = 0;
        return false;
    }

    /// <summary>
    /// <see cref="ReadPageSpan"/> for a point read's descent, naming the cached version the page
    /// came from when the reader took it from the hot-page memo (null otherwise), so the descent
    /// can be remembered (<see cref="RememberPoint"/>).
    /// </summary>
    ReadOnlySpan<byte> ReadNodeSpan(uint pageId, out PageVersion? version)
    {
        version = null;
        return ReadPageSpan(pageId);
    }

    /// <summary>Offers the point index a descent whose every page <see cref="ReadNodeSpan"/> named (root first).</summary>
    void RememberPoint(uint rootPageId, ReadOnlySpan<byte> key, ReadOnlySpan<PageVersion> path, int index)
    {
    }

    /// <summary>
    /// The payload of <paramref name="pageId"/> for a cursor that needs it only until it reads its
    /// next page. A cached page is returned as it is; a page not in the cache is cached while the
    /// cache has room, and otherwise read into <paramref name="scratch"/> (allocated on first
    /// use, then reused) without evicting anything. A walk over more pages than the cache holds
    /// then allocates nothing per page and leaves the cache's working set in place; the price is
    /// that the memory returned may be overwritten by the caller's next read with the same scratch.
    /// </summary>
    ReadOnlyMemory<byte> ReadPageTransient(uint pageId, ref byte[]? scratch) => ReadPage(pageId);

    /// <summary>
    /// As <see cref="ReadPageTransient"/>, for a scan that moves forward through the file: a page
    /// not in a full cache may come from <paramref name="readAhead"/>'s window of consecutive pages,
    /// read with one device read (see <see cref="PageReadAhead"/>). The memory is valid until the
    /// next read with the same <paramref name="readAhead"/>.
    /// </summary>
    ReadOnlyMemory<byte> ReadPageAhead(uint pageId, PageReadAhead readAhead) => ReadPageTransient(pageId, ref readAhead.Scratch);

    /// <summary>
    /// The value of an in-memory counter (<see cref="StorageEngine.TryGetCounter"/>) in this
    /// snapshot; false when none is known, and then the caller derives it from the pages.
    /// </summary>
    bool TryReadCounter(uint key, out long value)
    {
        value = 0;
        return false;
    }

    /// <summary>
    /// The registration every reader of this same committed snapshot shares, whose
    /// <see cref="StorageEngine.SnapshotReaders.Memo"/> a layer above may fill with what it derived
    /// from the snapshot's pages; null for a reader that sees uncommitted writes (a write transaction).
    /// </summary>
    StorageEngine.SnapshotReaders? SharedSnapshot => null;
}
