using System.Diagnostics.CodeAnalysis;
using BLite.Core.BTrees;
using BLite.Core.Collections.Indexes;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

/// <summary>
/// Reads the documents an index names, by primary key, through one <see cref="BTreeFinger"/> on
/// the primary index: keys that arrive in (mostly) ascending order share leaves and skip the
/// descent from the root. A key the primary index lacks is corruption, since an index entry
/// always belongs to a stored document. A document is valid until the next read.
/// </summary>
internal sealed class DocumentProbe
{
    private readonly BTreeFinger _primary;
    private readonly string _filePath;

    internal DocumentProbe(BTree primary, IPageReader pages, string filePath)
    {
        _primary = new BTreeFinger(primary, pages);
        _filePath = filePath;
    }

    public ReadOnlyMemory<byte> Read(ReadOnlySpan<byte> primaryKey)
    {
        if (!_primary.TryGet(primaryKey, out var document))
        {
            ThrowDangling(_filePath, primaryKey);
        }

        return document;
    }

    /// <summary>An index entry whose document the primary index lacks: the file is corrupt.</summary>
    [DoesNotReturn]
    internal static void ThrowDangling(string filePath, ReadOnlySpan<byte> primaryKey) =>
        throw new BLiteCorruptionException(filePath, null, $"a secondary index entry points to primary key {IndexKeyText.Describe(primaryKey)}, which has no document.");
}
