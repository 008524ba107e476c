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
    /// The payload of <paramref name="pageId"/> in this snapshot. The memory is never mutated
    /// afterwards (writers copy on write), so a caller may hold it for as long as it likes.
    /// Throws <c>BLiteCorruptionException</c> naming file and page when the page fails its checksum.
    /// </summary>
    ReadOnlyMemory<byte> ReadPage(uint pageId);

    /// <summary>
    /// The value of an in-memory counter (<see cref="StorageEngine.TryGetCounter"/>) in this
    /// snapshot; false when none is known, and then the caller derives it from the pages.
    /// </summary>
    bool TryReadCounter(uint key, out long value)
    {
        value = 0;
        return false;
    }
}
