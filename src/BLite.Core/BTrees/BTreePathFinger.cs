using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using BLite.Core.Storage;

namespace BLite.Core.BTrees;

/// <summary>
/// Lookups on one tree for sorted keys, as the inner side of a join asks them: the finger
/// remembers the path of its last descent, for each node on it the page and the key interval the
/// node covers (from the separators of its parent, lower inclusive, upper exclusive). The next key
/// climbs only as far as the lowest node whose interval holds it and descends from there, so keys
/// close together share the upper levels, and keys in the same leaf cost no page read at all.
/// </summary>
/// <remarks>
/// Only the join uses it (<see cref="Query.IndexJoinScan"/>). Index-order document reads keep the
/// lighter <see cref="BTreeFinger"/>, which tries the last leaf and its neighbour: their keys are
/// mostly adjacent, and the path's bookkeeping per descent cost them more than the pages it saves
/// (BENCHMARKS.md, "The two-hop finger is reverted").
/// Pages are read with <see cref="IPageReader.ReadPageTransient"/>: a leaf (and a value found in
/// it) is valid until the next lookup or <see cref="NextLeaf"/>. A finger belongs to one snapshot
/// or transaction and must neither outlive it nor be used across a write: the recorded path, and
/// the branch pages it keeps, describe the tree as that reader saw it.
/// </remarks>
internal sealed class BTreePathFinger
{
    private readonly IPageReader _pages;
    private readonly uint _rootPageId;
    private PathNode[] _path = new PathNode[2];
    private int _leafLevel = -1;
    private bool _leafOnPath;
    private ReadOnlyMemory<byte> _leaf;
    private byte[]? _scratch;

    public BTreePathFinger(BTree tree, IPageReader pages)
    {
        ArgumentNullException.ThrowIfNull(tree);
        ArgumentNullException.ThrowIfNull(pages);
        _pages = pages;
        _rootPageId = tree.RootPageId;
    }

    /// <summary>Looks <paramref name="key"/> up; an inline value found is a view of the leaf, valid until the next call.</summary>
    public bool TryGet(ReadOnlySpan<byte> key, out ReadOnlyMemory<byte> value)
    {
        var leaf = Seek(key, out var index, out var found);
        value = found ? BTree.ReadValue(_pages, leaf, index) : default;
        return found;
    }

    /// <summary>
    /// The leaf whose interval holds <paramref name="key"/>, and in it the first entry at or
    /// above the key (<paramref name="index"/> may equal the leaf's count: the entry is then the
    /// first of a following leaf, see <see cref="NextLeaf"/>).
    /// </summary>
    public ReadOnlyMemory<byte> Seek(ReadOnlySpan<byte> key, out int index, out bool found)
    {
        var leaf = Locate(key);
        index = BTreeNode.LowerBound(leaf.Span, key, out found);
        return leaf;
    }

    /// <summary>Moves to the leaf after the current one along the sibling links; false at the last leaf.</summary>
    public bool NextLeaf(out ReadOnlyMemory<byte> leaf)
    {
        var next = _leaf.IsEmpty ? 0 : BTreeNode.SecondLink(_leaf.Span);
        if (next == 0)
        {
            leaf = default;
            return false;
        }

        _leaf = ReadNode(next, out var kind);
        if (kind != BTreeNode.LeafKind)
            BTree.ThrowNotANode(next, kind);
        // The path still describes the nodes it recorded; this leaf is simply not one of them.
        _leafOnPath = false;
        leaf = _leaf;
        return true;
    }

    private ReadOnlyMemory<byte> Locate(ReadOnlySpan<byte> key)
    {
        if (_leafLevel < 0)
            return Descend(0, key);

        if (_leafOnPath ? _path[_leafLevel].Covers(key) : Holds(_leaf.Span, key))
            return _leaf;

        // The root covers every key, so the climb always ends. A leaf on the path was just
        // found not to cover the key: the climb starts at its parent.
        var level = _leafOnPath && _leafLevel > 0 ? _leafLevel - 1 : _leafLevel;
        while (level > 0 && !_path[level].Covers(key))
            level--;
        return Descend(level, key);
    }

    /// <summary>Whether a leaf reached along the links holds <paramref name="key"/> between its first and last keys.</summary>
    private static bool Holds(ReadOnlySpan<byte> leaf, ReadOnlySpan<byte> key)
    {
        var count = BTreeNode.Count(leaf);
        return count > 0
            && BTreeNode.Key(leaf, 0).SequenceCompareTo(key) <= 0
            && BTreeNode.Key(leaf, count - 1).SequenceCompareTo(key) >= 0;
    }

    private ReadOnlyMemory<byte> Descend(int level, ReadOnlySpan<byte> key)
    {
        var pageId = level == 0 ? _rootPageId : _path[level].PageId;
        if (level == 0)
            _path[0].SetRoot(_rootPageId);
        for (; level < BTree.MaxDepth; level++)
        {
            var memory = _path[level].Branch;
            var kind = BTreeNode.BranchKind;
            if (memory.IsEmpty)
            {
                memory = ReadNode(pageId, out kind);
            }

            if (kind == BTreeNode.LeafKind)
            {
                _leafLevel = level;
                _leafOnPath = true;
                _leaf = memory;
                return memory;
            }

            if (kind != BTreeNode.BranchKind)
                BTree.ThrowNotANode(pageId, kind);
            var stable = IsStable(memory);
            _path[level].Branch = stable ? memory : default;
            if (level + 1 == BTree.MaxDepth)
                break;
            if (level + 1 == _path.Length)
                Array.Resize(ref _path, Math.Min(_path.Length * 2, BTree.MaxDepth));
            // The page may live in the scratch the child is read into next: take what the path
            // needs from it first.
            var childIndex = BTreeNode.ChildIndexFor(memory.Span, key);
            pageId = BTreeNode.Child(memory.Span, childIndex);
            _path[level + 1].SetChild(pageId, ref _path[level], memory, stable, childIndex);
        }

        throw new BLiteCorruptionException(BTree.CorruptionSource, null, $"B+ tree is deeper than {BTree.MaxDepth} levels; its pages form a cycle.");
    }

    /// <summary>
    /// Whether a page read is the reader's own image rather than the scratch the next read
    /// overwrites: images from the cache are never changed while a snapshot that sees them is
    /// open, so a branch kept from one descent serves the next without being read again.
    /// </summary>
    private bool IsStable(ReadOnlyMemory<byte> memory) =>
        MemoryMarshal.TryGetArray(memory, out var segment) && !ReferenceEquals(segment.Array, _scratch);

    private ReadOnlyMemory<byte> ReadNode(uint pageId, out byte kind)
    {
        var memory = _pages.ReadPageTransient(pageId, ref _scratch);
        kind = BTreeNode.Kind(memory.Span);
        return memory;
    }

    /// <summary>One node of the recorded path and the key interval its parent's separators give it.</summary>
    private struct PathNode
    {
        private ReadOnlyMemory<byte> _low;
        private ReadOnlyMemory<byte> _high;
        private bool _hasLow;
        private bool _hasHigh;
        private byte[]? _lowCopy;
        private byte[]? _highCopy;

        public uint PageId { get; private set; }

        /// <summary>The branch's page, kept when it is not in the scratch (see <see cref="IsStable"/>).</summary>
        public ReadOnlyMemory<byte> Branch { get; set; }

        public readonly bool Covers(ReadOnlySpan<byte> key) =>
            (!_hasLow || _low.Span.SequenceCompareTo(key) <= 0)
            && (!_hasHigh || key.SequenceCompareTo(_high.Span) < 0);

        public void SetRoot(uint pageId)
        {
            Forget(pageId);
            _hasLow = false;
            _hasHigh = false;
        }

        /// <summary>
        /// Child <paramref name="childIndex"/> of <paramref name="branch"/> holds the keys at or
        /// above separator childIndex-1 and below separator childIndex; at either end it inherits
        /// the parent's bound. Separators are views of a <paramref name="stable"/> branch page and
        /// copies of one in the scratch; an inherited bound is the parent's view, which stays
        /// valid because a descent that changes a node also sets every node below it.
        /// </summary>
        public void SetChild(uint pageId, ref PathNode parent, ReadOnlyMemory<byte> branch, bool stable, int childIndex)
        {
            Forget(pageId);
            if (childIndex == 0)
                (_low, _hasLow) = (parent._low, parent._hasLow);
            else
                (_low, _hasLow) = (Separator(branch, childIndex - 1, stable, ref _lowCopy), true);

            if (childIndex == BTreeNode.Count(branch.Span))
                (_high, _hasHigh) = (parent._high, parent._hasHigh);
            else
                (_high, _hasHigh) = (Separator(branch, childIndex, stable, ref _highCopy), true);
        }

        private void Forget(uint pageId)
        {
            if (PageId != pageId)
            {
                Branch = default;
            }

            PageId = pageId;
        }

        private static ReadOnlyMemory<byte> Separator(ReadOnlyMemory<byte> branch, int index, bool stable, ref byte[]? copy)
        {
            var page = branch.Span;
            var key = BTreeNode.Key(page, index);
            if (stable)
            {
                // The key is a view of the page: its place in the page is where it starts.
                var offset = (int)Unsafe.ByteOffset(ref MemoryMarshal.GetReference(page), ref MemoryMarshal.GetReference(key));
                return branch.Slice(offset, key.Length);
            }

            if (copy is null || copy.Length < key.Length)
                copy = new byte[Math.Max(16, key.Length)];
            key.CopyTo(copy);
            return copy.AsMemory(0, key.Length);
        }
    }
}
