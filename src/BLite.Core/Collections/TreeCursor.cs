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

    public static TreeCursor Open(BTree tree, IPageReader pages, KeyRange range, bool descending) =>
        new(tree.Scan(pages, range, descending));

    public bool MoveNext() => _cursor.MoveNext();
}
