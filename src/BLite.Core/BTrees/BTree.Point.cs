using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using BLite.Core.Storage;
using BLite.Core.Storage.Paging;

namespace BLite.Core.BTrees;

internal sealed partial class BTree
{
    /// <summary>
    /// Whether the tree holds <paramref name="key"/>: from the reader's point index when it knows
    /// the key for this snapshot, else from one descent, which is offered to the index when every
    /// page on it came from the hot-page memo. Keys longer than a <see cref="ShortKey"/> always descend.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static bool ContainsPoint(IPageReader pages, uint rootPageId, ReadOnlySpan<byte> key)
    {
        if (key.Length > ShortKey.MaxLength)
        {
            BTreeNode.LowerBound(FindLeafSpan(pages, rootPageId, key), key, out var found);
            return found;
        }

        if (pages.TryFindPoint(rootPageId, key, out _, out _))
        {
            return true;
        }

        DescendRemembering(pages, rootPageId, key, out _, out var present);
        return present;
    }

    /// <summary>
    /// <see cref="ContainsPoint"/>'s lookup returning the value: its inline bytes, or the 4-byte
    /// overflow reference when <paramref name="valueWord"/> has <see cref="BTreeNode.OverflowFlag"/>
    /// (its other bits are the value's length).
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static bool TryFindValue(IPageReader pages, uint rootPageId, ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value, out uint valueWord)
    {
        if (key.Length <= ShortKey.MaxLength && pages.TryFindPoint(rootPageId, key, out var image, out var location))
        {
            valueWord = location.ValueWord;
            var length = (valueWord & BTreeNode.OverflowFlag) == 0 ? (int)valueWord : BTreeNode.OverflowReferenceSize;

            // Unchecked on purpose: the index proved that this image holds the bytes the descent
            // read the location from, where the offset and length were checked against the page
            // (every cached image is a whole page). Checking again would load the array's header,
            // a cache line of its own, on every lookup.
            value = MemoryMarshal.CreateReadOnlySpan(ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(image), location.ValueOffset), length);
            return true;
        }

        int index;
        bool found;
        ReadOnlySpan<byte> page;
        if (key.Length <= ShortKey.MaxLength)
        {
            page = DescendRemembering(pages, rootPageId, key, out index, out found);
        }
        else
        {
            page = FindLeafSpan(pages, rootPageId, key);
            index = BTreeNode.LowerBound(page, key, out found);
        }

        if (!found)
        {
            value = default;
            valueWord = 0;
            return false;
        }

        valueWord = BTreeNode.ValueWord(page, index);
        value = page.Slice(BTreeNode.ValueOffset(page, index), (valueWord & BTreeNode.OverflowFlag) == 0 ? (int)valueWord : BTreeNode.OverflowReferenceSize);
        return true;
    }

    /// <summary><see cref="TryFindValue"/> for a caller that keeps the leaf as memory.</summary>
    internal static ReadOnlyMemory<byte> FindPointMemory(IPageReader pages, uint rootPageId, ReadOnlySpan<byte> key, out int index, out bool found)
    {
        if (key.Length <= ShortKey.MaxLength && pages.TryFindPoint(rootPageId, key, out var image, out var location))
        {
            index = location.Index;
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
                    var location = new PointLocation(index, BTreeNode.ValueOffset(page, index), BTreeNode.ValueWord(page, index));
                    pages.RememberPoint(rootPageId, key, ((ReadOnlySpan<PageVersion>)path)[..depth], location);
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
