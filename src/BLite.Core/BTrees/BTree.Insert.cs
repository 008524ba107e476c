using System.Buffers;
using BLite.Core.Storage;

namespace BLite.Core.BTrees;

internal sealed partial class BTree
{
    private const int StackCellLimit = 1024;

    /// <summary>Adds the entry; returns false and changes nothing when the key is already present.</summary>
    public bool Insert(IPageWriter pages, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => Put(pages, key, value, replace: false);

    /// <summary>Adds the entry or replaces the value of an existing key (freeing its old overflow chain).</summary>
    public void Upsert(IPageWriter pages, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => Put(pages, key, value, replace: true);

    /// <summary>Replaces the value of an existing key (freeing its old overflow chain); returns false and changes nothing when the key is absent.</summary>
    public bool Replace(IPageWriter pages, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => Put(pages, key, value, replace: true, insertIfAbsent: false);

    private bool Put(IPageWriter pages, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, bool replace, bool insertIfAbsent = true)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var payloadSize = pages.PagePayloadSize;
        var maxKeySize = GetMaxKeySize(payloadSize);
        if (key.Length > maxKeySize)
            throw new BLiteKeyTooLargeException(key.Length, maxKeySize);

        Span<uint> pathPages = stackalloc uint[MaxDepth];
        Span<int> pathChildIndexes = stackalloc int[MaxDepth];
        // Searched (and copied, for an insert that fits) as the descent returned it, without
        // looking the same page up again.
        var leafImage = Seek(pages, RootPageId, SeekTarget.Key, key, pathPages, pathChildIndexes, out var level);
        var leafId = pathPages[level];
        var index = BTreeNode.LowerBound(leafImage.Span, key, out var found);
        if (found ? !replace : !insertIfAbsent)
            return false;

        var inline = (long)BTreeNode.CellHeaderSize + key.Length + value.Length <= MaxCellSize(payloadSize);
        var cellSize = BTreeNode.CellHeaderSize + key.Length + (inline ? value.Length : BTreeNode.OverflowReferenceSize);
        if (inline && !found && TryInsertIntoLeaf(pages.WritePage(leafId, leafImage).Span, index, cellSize, key, value))
            return true;

        byte[]? rented = null;
        var cell = cellSize <= StackCellLimit
            ? stackalloc byte[StackCellLimit]
            : (rented = ArrayPool<byte>.Shared.Rent(cellSize));
        cell = cell[..cellSize];
        try
        {
            if (inline)
            {
                BTreeNode.WriteLeafCell(cell, key, (uint)value.Length);
                value.CopyTo(cell[(BTreeNode.CellHeaderSize + key.Length)..]);
            }
            else
            {
                var firstPage = OverflowChain.Write(pages, value);
                BTreeNode.WriteLeafCell(cell, key, (uint)value.Length | BTreeNode.OverflowFlag);
                System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(cell[(BTreeNode.CellHeaderSize + key.Length)..], firstPage);
            }

            if (found)
            {
                var leaf = pages.WritePage(leafId).Span;
                var oldChain = BTreeNode.CellOverflowPage(BTreeNode.Cell(leaf, index));
                if (oldChain != 0)
                    OverflowChain.Free(pages, oldChain);
                BTreeNode.RemoveCell(leaf, index);
            }
            InsertCell(pages, pathPages, pathChildIndexes, level, index, cell);
            return true;
        }
        finally
        {
            if (rented is not null)
                ArrayPool<byte>.Shared.Return(rented);
        }
    }

    /// <summary>
    /// The common case: the new entry fits in its leaf, so its cell is written in place rather
    /// than assembled in a buffer and copied in (a document is copied once, not twice).
    /// </summary>
    private static bool TryInsertIntoLeaf(Span<byte> leaf, int index, int cellSize, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var destination = BTreeNode.TryInsertCell(leaf, index, cellSize);
        if (destination.IsEmpty)
            return false;
        BTreeNode.WriteLeafCell(destination, key, (uint)value.Length);
        value.CopyTo(destination[(BTreeNode.CellHeaderSize + key.Length)..]);
        return true;
    }

    /// <summary>Puts a raw cell at slot <paramref name="index"/> of the node at <paramref name="level"/>, splitting upwards as needed.</summary>
    /// <param name="ascending">
    /// The cell is a separator for a new rightmost leaf of the whole tree (an append past its last
    /// key): a branch that splits for it keeps all but its last cell, as a full leaf does for an
    /// append (see <see cref="AppendLeaf"/>), so ascending inserts leave full branches behind and
    /// split them half as often.
    /// </param>
    private void InsertCell(IPageWriter pages, Span<uint> pathPages, Span<int> pathChildIndexes, int level, int index, ReadOnlySpan<byte> cell, bool ascending = false)
    {
        var pageId = pathPages[level];
        var page = pages.WritePage(pageId).Span;
        var destination = BTreeNode.TryInsertCell(page, index, cell.Length);
        if (!destination.IsEmpty)
        {
            cell.CopyTo(destination);
            return;
        }

        var leaf = BTreeNode.IsLeaf(page);
        var appendAtEnd = leaf && index == BTreeNode.Count(page) && BTreeNode.SecondLink(page) == 0;
        if (appendAtEnd && level > 0)
        {
            AppendLeaf(pages, pathPages, pathChildIndexes, level, page, cell);
            return;
        }

        using var batch = new CellBatch(page.Length + cell.Length, BTreeNode.Count(page) + 1);
        for (var i = 0; i < BTreeNode.Count(page); i++)
        {
            if (i == index)
                batch.Add(cell);
            batch.Add(BTreeNode.Cell(page, i));
        }
        if (index == BTreeNode.Count(page))
            batch.Add(cell);

        var branchAppend = !leaf && ascending && index == BTreeNode.Count(page);
        if (level == 0)
        {
            SplitRoot(pages, page, batch, leaf, appendAtEnd || branchAppend);
            return;
        }

        var capacity = page.Length - BTreeNode.HeaderSize;
        var rightId = pages.AllocatePage();
        var right = pages.WritePage(rightId).Span;
        int separatorIndex;
        if (leaf)
        {
            separatorIndex = batch.ChooseLeafSplit(capacity, appendAtEnd);
            var previous = BTreeNode.FirstLink(page);
            var next = BTreeNode.SecondLink(page);
            RebuildLeaf(page, batch, 0, separatorIndex, previous, rightId);
            RebuildLeaf(right, batch, separatorIndex, batch.Count, pageId, next);
            if (next != 0)
                BTreeNode.SetFirstLink(pages.WritePage(next).Span, rightId);
        }
        else
        {
            separatorIndex = batch.ChooseBranchSplit(capacity, branchAppend);
            RebuildBranch(page, batch, 0, separatorIndex, BTreeNode.FirstLink(page));
            RebuildBranch(right, batch, separatorIndex + 1, batch.Count, BTreeNode.CellChild(batch[separatorIndex]));
        }

        InsertSeparator(pages, pathPages, pathChildIndexes, level - 1, pathChildIndexes[level], BTreeNode.CellKey(batch[separatorIndex]), rightId, branchAppend);
    }

    /// <summary>
    /// An append past the last key of the tree into a full leaf (ascending inserts): the leaf
    /// keeps every cell it has, as a balanced split that leaves the left page full would (see
    /// <see cref="CellBatch.ChooseLeafSplit"/>), and the new cell starts a new right sibling. Only
    /// the old leaf's sibling link changes, so its cells are not copied out and back.
    /// </summary>
    private void AppendLeaf(IPageWriter pages, Span<uint> pathPages, Span<int> pathChildIndexes, int level, Span<byte> page, ReadOnlySpan<byte> cell)
    {
        var pageId = pathPages[level];
        var rightId = pages.AllocatePage();
        var right = pages.WritePage(rightId).Span;
        BTreeNode.Initialize(right, BTreeNode.LeafKind);
        BTreeNode.SetFirstLink(right, pageId);
        BTreeNode.AppendCell(right, cell);
        BTreeNode.SetSecondLink(page, rightId);
        InsertSeparator(pages, pathPages, pathChildIndexes, level - 1, pathChildIndexes[level], BTreeNode.CellKey(cell), rightId, ascending: true);
    }

    /// <summary>Adds a branch cell (separator, right child) at key slot <paramref name="index"/> of the branch at <paramref name="level"/>.</summary>
    private void InsertSeparator(IPageWriter pages, Span<uint> pathPages, Span<int> pathChildIndexes, int level, int index, ReadOnlySpan<byte> separator, uint rightChild, bool ascending = false)
    {
        Span<byte> cell = stackalloc byte[BTreeNode.CellHeaderSize + separator.Length];
        BTreeNode.WriteBranchCell(cell, separator, rightChild);
        InsertCell(pages, pathPages, pathChildIndexes, level, index, cell, ascending);
    }

    // The root keeps its page id: its cells move into two new children and it becomes a
    // branch with one separator between them, so the tree grows by one level.
    private static void SplitRoot(IPageWriter pages, Span<byte> root, CellBatch batch, bool leaf, bool appendAtEnd)
    {
        var capacity = root.Length - BTreeNode.HeaderSize;
        var leftId = pages.AllocatePage();
        var rightId = pages.AllocatePage();
        var left = pages.WritePage(leftId).Span;
        var right = pages.WritePage(rightId).Span;
        int separatorIndex;
        if (leaf)
        {
            separatorIndex = batch.ChooseLeafSplit(capacity, appendAtEnd);
            RebuildLeaf(left, batch, 0, separatorIndex, 0, rightId);
            RebuildLeaf(right, batch, separatorIndex, batch.Count, leftId, 0);
        }
        else
        {
            separatorIndex = batch.ChooseBranchSplit(capacity, appendAtEnd);
            RebuildBranch(left, batch, 0, separatorIndex, BTreeNode.FirstLink(root));
            RebuildBranch(right, batch, separatorIndex + 1, batch.Count, BTreeNode.CellChild(batch[separatorIndex]));
        }
        BTreeNode.Initialize(root, BTreeNode.BranchKind);
        BTreeNode.SetFirstLink(root, leftId);
        var separator = BTreeNode.CellKey(batch[separatorIndex]);
        Span<byte> cell = stackalloc byte[BTreeNode.CellHeaderSize + separator.Length];
        BTreeNode.WriteBranchCell(cell, separator, rightId);
        BTreeNode.AppendCell(root, cell);
    }

    private static void RebuildLeaf(Span<byte> page, CellBatch batch, int start, int end, uint previous, uint next)
    {
        BTreeNode.Initialize(page, BTreeNode.LeafKind);
        BTreeNode.SetFirstLink(page, previous);
        BTreeNode.SetSecondLink(page, next);
        batch.AppendTo(page, start, end);
    }

    private static void RebuildBranch(Span<byte> page, CellBatch batch, int start, int end, uint leftmostChild)
    {
        BTreeNode.Initialize(page, BTreeNode.BranchKind);
        BTreeNode.SetFirstLink(page, leftmostChild);
        batch.AppendTo(page, start, end);
    }
}
