using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

/// <summary>The one place the collections layer walks a B+ tree, so cursors above it share one shape.</summary>
internal sealed class TreeCursor
{
    private readonly BTreeCursor _cursor;

    private TreeCursor(BTreeCursor cursor)
    {
        _cursor = cursor;
    }

    public ReadOnlySpan<byte> Key => _cursor.Key;

    public ReadOnlyMemory<byte> Value => _cursor.Value;

    /// <summary>A <paramref name="transient"/> cursor's key and value are valid only until the next move.</summary>
    public static TreeCursor Open(BTree tree, IPageReader pages, KeyRange range, bool descending, bool transient = false) =>
        new(tree.Scan(pages, range, descending, transient));

    public bool MoveNext() => _cursor.MoveNext();
}
