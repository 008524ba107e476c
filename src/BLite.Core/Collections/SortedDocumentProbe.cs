using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

/// <summary>
/// Reads the documents of a join by primary key, the keys sorted and distinct, through one
/// <see cref="BTreePathFinger"/> on the primary index: consecutive keys share the upper levels of
/// their descents and each leaf is read once. Index-order reads use <see cref="DocumentProbe"/>.
/// A key the primary index lacks is corruption; a document is valid until the next read.
/// </summary>
internal sealed class SortedDocumentProbe
{
    private readonly BTreePathFinger _primary;
    private readonly string _filePath;

    internal SortedDocumentProbe(BTree primary, IPageReader pages, string filePath)
    {
        _primary = new BTreePathFinger(primary, pages);
        _filePath = filePath;
    }

    public ReadOnlyMemory<byte> Read(ReadOnlySpan<byte> primaryKey)
    {
        if (!_primary.TryGet(primaryKey, out var document))
        {
            DocumentProbe.ThrowDangling(_filePath, primaryKey);
        }

        return document;
    }
}
