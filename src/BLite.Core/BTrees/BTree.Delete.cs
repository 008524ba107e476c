using BLite.Core.Storage;

namespace BLite.Core.BTrees;

internal sealed partial class BTree
{
    /// <summary>Removes the entry (and its overflow chain); returns false when the key is absent.</summary>
    public bool Delete(IPageWriter pages, ReadOnlySpan<byte> key)
    {
        ArgumentNullException.ThrowIfNull(pages);
        if (key.Length > GetMaxKeySize(pages.PagePayloadSize))
            return false;

        Span<uint> pathPages = stackalloc uint[MaxDepth];
        Span<int> pathChildIndexes = stackalloc int[MaxDepth];
        // The leaf the descent returns is searched and copied as it is: each further lookup of it
        // (engine lock, page table) would miss the CPU's caches again at 1M documents.
        var leafImage = Seek(pages, RootPageId, SeekTarget.Key, key, pathPages, pathChildIndexes, out var level);
        var leafId = pathPages[level];
        var index = BTreeNode.LowerBound(leafImage.Span, key, out var exists);
        if (!exists)
            return false;

        var leaf = pages.WritePage(leafId, leafImage).Span;
        var chain = BTreeNode.CellOverflowPage(BTreeNode.Cell(leaf, index));
        if (chain != 0)
            OverflowChain.Free(pages, chain);
        BTreeNode.RemoveCell(leaf, index);
        if (level > 0 && BTreeNode.UsedSpace(leaf) < UnderflowThreshold(pages.PagePayloadSize))
            Rebalance(pages, pathPages, pathChildIndexes, level);
        return true;
    }

    /// <summary>
    /// Fixes an underfull node at <paramref name="level"/> (not the root) with an adjacent
    /// sibling under the same parent: merges the two when their cells fit in one page,
    /// otherwise redistributes the cells evenly by bytes and replaces the separator.
    /// </summary>
    private void Rebalance(IPageWriter pages, Span<uint> pathPages, Span<int> pathChildIndexes, int level)
    {
        var parentLevel = level - 1;
        var parent = pages.ReadPage(pathPages[parentLevel]).Span;
        if (BTreeNode.Count(parent) == 0)
            throw new BLiteCorruptionException(CorruptionSource, pathPages[parentLevel], "a non-root B+ tree branch has no separator keys.");

        var childIndex = pathChildIndexes[level];
        var separatorIndex = childIndex > 0 ? childIndex - 1 : 0;
        var leftId = BTreeNode.Child(parent, separatorIndex);
        var rightId = BTreeNode.Child(parent, separatorIndex + 1);
        var left = pages.WritePage(leftId).Span;
        var right = pages.WritePage(rightId).Span;
        var capacity = left.Length - BTreeNode.HeaderSize;
        var leaf = BTreeNode.IsLeaf(left);

        using var batch = new CellBatch(2 * left.Length, BTreeNode.Count(left) + BTreeNode.Count(right) + 1);
        batch.AddAll(left);
        if (!leaf)
            batch.AddBranchCell(BTreeNode.Key(parent, separatorIndex), BTreeNode.FirstLink(right));
        batch.AddAll(right);

        if (batch.TotalSpace <= capacity)
        {
            if (leaf)
            {
                var next = BTreeNode.SecondLink(right);
                RebuildLeaf(left, batch, 0, batch.Count, BTreeNode.FirstLink(left), next);
                if (next != 0)
                    BTreeNode.SetFirstLink(pages.WritePage(next).Span, leftId);
            }
            else
            {
                RebuildBranch(left, batch, 0, batch.Count, BTreeNode.FirstLink(left));
            }
            pages.FreePage(rightId);
            RemoveSeparator(pages, pathPages, pathChildIndexes, parentLevel, separatorIndex);
            return;
        }

        int newSeparator;
        if (leaf)
        {
            newSeparator = batch.ChooseLeafSplit(capacity, appendAtEnd: false);
            var previous = BTreeNode.FirstLink(left);
            var next = BTreeNode.SecondLink(right);
            RebuildLeaf(left, batch, 0, newSeparator, previous, rightId);
            RebuildLeaf(right, batch, newSeparator, batch.Count, leftId, next);
        }
        else
        {
            newSeparator = batch.ChooseBranchSplit(capacity);
            RebuildBranch(left, batch, 0, newSeparator, BTreeNode.FirstLink(left));
            RebuildBranch(right, batch, newSeparator + 1, batch.Count, BTreeNode.CellChild(batch[newSeparator]));
        }

        // The new separator may be longer than the old one, so re-inserting it can split the parent.
        BTreeNode.RemoveCell(pages.WritePage(pathPages[parentLevel]).Span, separatorIndex);
        InsertSeparator(pages, pathPages, pathChildIndexes, parentLevel, separatorIndex, BTreeNode.CellKey(batch[newSeparator]), rightId);
    }

    private void RemoveSeparator(IPageWriter pages, Span<uint> pathPages, Span<int> pathChildIndexes, int level, int separatorIndex)
    {
        var page = pages.WritePage(pathPages[level]).Span;
        BTreeNode.RemoveCell(page, separatorIndex);
        if (level > 0)
        {
            if (BTreeNode.UsedSpace(page) < UnderflowThreshold(pages.PagePayloadSize))
                Rebalance(pages, pathPages, pathChildIndexes, level);
            return;
        }

        // A root branch left with one child: pull the child's content up into the root page,
        // so the root id stays put and the tree loses a level.
        if (BTreeNode.Count(page) == 0)
        {
            var onlyChild = BTreeNode.FirstLink(page);
            pages.ReadPage(onlyChild).Span.CopyTo(page);
            pages.FreePage(onlyChild);
        }
    }
}
