using System.Runtime.CompilerServices;
using BLite.Core.Storage;
using BLite.Core.Storage.Paging;

namespace BLite.Core.BTrees;

internal sealed partial class BTree
{
    /// <summary>
    /// The leaf and slot for a point read of <paramref name="key"/>: from the reader's point index
    /// when it knows them for this snapshot, else from one descent, which is offered to the index
    /// when every page on it came from the hot-page memo. Keys longer than a
    /// <see cref="ShortKey"/> always descend.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static ReadOnlySpan<byte> FindPoint(IPageReader pages, uint rootPageId, ReadOnlySpan<byte> key, out int index, out bool found)
    {
        if (key.Length > ShortKey.MaxLength)
        {
            var leaf = FindLeafSpan(pages, rootPageId, key);
            index = BTreeNode.LowerBound(leaf, key, out found);
            return leaf;
        }

        if (pages.TryFindPoint(rootPageId, key, out var image, out index))
        {
            found = true;
            return new ReadOnlySpan<byte>(image, 0, pages.PagePayloadSize);
        }

        return DescendRemembering(pages, rootPageId, key, out index, out found);
    }

    /// <summary><see cref="FindPoint"/> for a caller that keeps the value as memory.</summary>
    internal static ReadOnlyMemory<byte> FindPointMemory(IPageReader pages, uint rootPageId, ReadOnlySpan<byte> key, out int index, out bool found)
    {
        if (key.Length <= ShortKey.MaxLength && pages.TryFindPoint(rootPageId, key, out var image, out index))
        {
            found = true;
            return new ReadOnlyMemory<byte>(image, 0, pages.PagePayloadSize);
        }

        // The descent is the one FindLeaf takes; offering it to the index is left to span reads,
        // which every lookup by id goes through.
        var leaf = Seek(pages, rootPageId, SeekTarget.Key, key, default, default, out _);
        index = BTreeNode.LowerBound(leaf.Span, key, out found);
        return leaf;
    }

    // FindLeafSpan's checks, keeping the versions the reader names on the way.
    private static ReadOnlySpan<byte> DescendRemembering(IPageReader pages, uint rootPageId, ReadOnlySpan<byte> key, out int index, out bool found)
    {
        var path = default(PointPath);
        var depth = 0;
        var remembered = true;
        var pageId = rootPageId;
        for (var level = 0; level < MaxDepth; level++)
        {
            var page = pages.ReadNodeSpan(pageId, out var version);
            if (version is null || depth == StorageEngine.PointPathDepth)
            {
                remembered = false;
            }
            else
            {
                path[depth++] = version;
            }

            var kind = BTreeNode.Kind(page);
            if (kind == BTreeNode.LeafKind)
            {
                index = BTreeNode.LowerBound(page, key, out found);
                if (found && remembered)
                {
                    pages.RememberPoint(rootPageId, key, ((ReadOnlySpan<PageVersion>)path)[..depth], index);
                }

                return page;
            }

            if (kind != BTreeNode.BranchKind)
            {
                ThrowNotANode(pageId, kind);
            }

            pageId = BTreeNode.Child(page, BTreeNode.ChildIndexFor(page, key));
        }

        throw TooDeep();
    }

    [InlineArray(StorageEngine.PointPathDepth)]
    private struct PointPath
    {
        private PageVersion _level;
    }
}
