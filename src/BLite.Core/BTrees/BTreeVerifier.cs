using BLite.Core.Storage;

namespace BLite.Core.BTrees;

/// <summary>
/// Structural check of one B+ tree: node headers and cell bounds, key order within nodes,
/// separators bounding their subtrees, uniform leaf depth, leaf sibling links both ways,
/// overflow chains, and every page reached exactly once.
/// </summary>
internal static class BTreeVerifier
{
    public static BTreeVerification Verify(IPageReader pages, uint rootPageId)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var walk = new Walk(pages);
        walk.Visit(rootPageId, 1, null, null, isRoot: true);
        walk.CheckLeafChain();
        return new BTreeVerification(rootPageId, walk.Owned, walk.Problems, walk.Entries, walk.LeafDepth);
    }

    private sealed class Walk(IPageReader pages)
    {
        private readonly int _payloadSize = pages.PagePayloadSize;
        private readonly List<(uint Id, uint Previous, uint Next)> _leaves = [];

        public HashSet<uint> Owned { get; } = [];

        public List<string> Problems { get; } = [];

        public long Entries { get; private set; }

        public int LeafDepth { get; private set; }

        public void Visit(uint pageId, int depth, byte[]? lower, byte[]? upper, bool isRoot)
        {
            if (depth > BTree.MaxDepth)
            {
                Problems.Add($"page {pageId} is deeper than {BTree.MaxDepth} levels");
                return;
            }
            if (pageId == PageIds.Header)
            {
                Problems.Add("a child pointer refers to page 0");
                return;
            }
            if (!Owned.Add(pageId))
            {
                Problems.Add($"page {pageId} is reached more than once");
                return;
            }

            ReadOnlySpan<byte> page;
            try
            {
                page = pages.ReadPage(pageId).Span;
            }
            catch (BLiteCorruptionException exception)
            {
                Problems.Add($"page {pageId} cannot be read: {exception.Message}");
                return;
            }

            var kind = BTreeNode.Kind(page);
            if (kind != BTreeNode.LeafKind && kind != BTreeNode.BranchKind)
            {
                Problems.Add($"page {pageId} has kind 0x{kind:X2}, not a B+ tree node");
                return;
            }
            if (!CheckLayout(pageId, page))
                return;

            var count = BTreeNode.Count(page);
            CheckKeys(pageId, page, lower, upper);
            if (kind == BTreeNode.LeafKind)
                VisitLeaf(pageId, page, depth, isRoot);
            else
                VisitBranch(pageId, page, depth, lower, upper, isRoot, count);
        }

        public void CheckLeafChain()
        {
            for (var i = 0; i < _leaves.Count; i++)
            {
                var expectedPrevious = i == 0 ? 0 : _leaves[i - 1].Id;
                var expectedNext = i == _leaves.Count - 1 ? 0 : _leaves[i + 1].Id;
                if (_leaves[i].Previous != expectedPrevious)
                    Problems.Add($"leaf {_leaves[i].Id} links back to {_leaves[i].Previous}, expected {expectedPrevious}");
                if (_leaves[i].Next != expectedNext)
                    Problems.Add($"leaf {_leaves[i].Id} links forward to {_leaves[i].Next}, expected {expectedNext}");
            }
        }

        private void VisitLeaf(uint pageId, ReadOnlySpan<byte> page, int depth, bool isRoot)
        {
            if (LeafDepth == 0)
                LeafDepth = depth;
            else if (LeafDepth != depth)
                Problems.Add($"leaf {pageId} is at depth {depth}, other leaves at {LeafDepth}");
            _leaves.Add((pageId, BTreeNode.FirstLink(page), BTreeNode.SecondLink(page)));

            var count = BTreeNode.Count(page);
            if (count == 0 && !isRoot)
                Problems.Add($"non-root leaf {pageId} is empty");
            var maxCell = BTree.MaxCellSize(_payloadSize);
            for (var i = 0; i < count; i++)
            {
                Entries++;
                if (BTreeNode.CellSize(page, i) > maxCell)
                    Problems.Add($"leaf {pageId} cell {i} is {BTreeNode.CellSize(page, i)} bytes, above the cell limit {maxCell}");
                var length = BTreeNode.ValueLength(page, i, out var overflow);
                if (!overflow)
                    continue;
                var problem = OverflowChain.Check(pages, BTreeNode.OverflowPage(page, i), length, Owned.Add);
                if (problem is not null)
                    Problems.Add($"leaf {pageId} cell {i}: {problem}");
            }
        }

        private void VisitBranch(uint pageId, ReadOnlySpan<byte> page, int depth, byte[]? lower, byte[]? upper, bool isRoot, int count)
        {
            if (count == 0 && !isRoot)
                Problems.Add($"non-root branch {pageId} has no keys");
            if (count == 0 && isRoot)
                Problems.Add($"root branch {pageId} has no keys (it should have been collapsed)");
            // Copy what the recursion needs: the span may not survive other reads on every engine.
            var children = new uint[count + 1];
            var keys = new byte[count][];
            for (var i = 0; i <= count; i++)
                children[i] = BTreeNode.Child(page, i);
            for (var i = 0; i < count; i++)
                keys[i] = BTreeNode.Key(page, i).ToArray();
            for (var i = 0; i <= count; i++)
                Visit(children[i], depth + 1, i == 0 ? lower : keys[i - 1], i == count ? upper : keys[i], isRoot: false);
        }

        private bool CheckLayout(uint pageId, ReadOnlySpan<byte> page)
        {
            var count = BTreeNode.Count(page);
            var cellAreaStart = BTreeNode.CellAreaStart(page);
            var slotsEnd = BTreeNode.HeaderSize + count * BTreeNode.SlotSize;
            if (slotsEnd > cellAreaStart || cellAreaStart > page.Length)
            {
                Problems.Add($"page {pageId} header is inconsistent: {count} cells, cell area at {cellAreaStart}");
                return false;
            }
            var leaf = BTreeNode.IsLeaf(page);
            var live = 0;
            for (var i = 0; i < count; i++)
            {
                var offset = BTreeNode.CellOffset(page, i);
                if (offset < cellAreaStart || offset + BTreeNode.CellHeaderSize > page.Length)
                {
                    Problems.Add($"page {pageId} cell {i} starts outside the cell area at {offset}");
                    return false;
                }
                var size = BTreeNode.CellSizeAt(page, offset, leaf);
                if (offset + size > page.Length)
                {
                    Problems.Add($"page {pageId} cell {i} runs past the end of the page");
                    return false;
                }
                live += size;
            }
            if (live + BTreeNode.Fragmented(page) != page.Length - cellAreaStart)
                Problems.Add($"page {pageId} cell bytes ({live}) and fragmented bytes ({BTreeNode.Fragmented(page)}) do not fill its cell area");
            return true;
        }

        private void CheckKeys(uint pageId, ReadOnlySpan<byte> page, byte[]? lower, byte[]? upper)
        {
            var count = BTreeNode.Count(page);
            var maxKey = BTree.GetMaxKeySize(_payloadSize);
            for (var i = 0; i < count; i++)
            {
                var key = BTreeNode.Key(page, i);
                if (key.Length > maxKey)
                    Problems.Add($"page {pageId} key {i} is {key.Length} bytes, above the limit {maxKey}");
                if (i > 0 && BTreeNode.Key(page, i - 1).SequenceCompareTo(key) >= 0)
                    Problems.Add($"page {pageId} keys {i - 1} and {i} are not in ascending order");
                if (lower is not null && key.SequenceCompareTo(lower) < 0)
                    Problems.Add($"page {pageId} key {i} is below its separator");
                if (upper is not null && key.SequenceCompareTo(upper) >= 0)
                    Problems.Add($"page {pageId} key {i} is not below the next separator");
            }
        }
    }
}
