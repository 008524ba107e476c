using BLite.Core.Storage;

namespace BLite.Core.BTrees;

/// <summary>
/// Point lookups on one tree for keys that arrive mostly in key order, as the primary keys behind
/// a secondary index do (equal field values are stored in primary-key order). The leaf of the last
/// lookup, then its neighbour towards the key, are tried before a descent from the root, so a run
/// of keys in the same or the next leaf costs no root-to-leaf walk and reads each leaf once.
/// Pages are read with <see cref="IPageReader.ReadPageTransient"/>, and the next leaves with
/// <see cref="IPageReader.ReadPageAhead"/>: a value found is valid until the next lookup.
/// </summary>
internal sealed class BTreeFinger
{
    private readonly IPageReader _pages;
    private readonly uint _rootPageId;
    private ReadOnlyMemory<byte> _leaf;
    private readonly PageReadAhead _readAhead = new();

    public BTreeFinger(BTree tree, IPageReader pages)
    {
        ArgumentNullException.ThrowIfNull(tree);
        ArgumentNullException.ThrowIfNull(pages);
        _pages = pages;
        _rootPageId = tree.RootPageId;
    }

    public bool TryGet(ReadOnlySpan<byte> key, out ReadOnlyMemory<byte> value)
    {
        if (!_leaf.IsEmpty && !Covers(_leaf.Span, key, out var above))
        {
            var sibling = above ? BTreeNode.SecondLink(_leaf.Span) : BTreeNode.FirstLink(_leaf.Span);
            _leaf = sibling == 0 ? default : ReadLeaf(sibling);
            if (!_leaf.IsEmpty && !Covers(_leaf.Span, key, out _))
            {
                _leaf = default;
            }
        }

        if (_leaf.IsEmpty)
        {
            _leaf = BTree.SeekTransient(_pages, _rootPageId, key, ref _readAhead.Scratch);
        }

        var index = BTreeNode.LowerBound(_leaf.Span, key, out var found);
        value = found ? BTree.ReadValue(_pages, _leaf, index) : default;
        return found;
    }

    /// <summary>
    /// Whether <paramref name="key"/> lies between the leaf's first and last keys, the only leaf
    /// that can then hold it; otherwise <paramref name="above"/> says which neighbour to try.
    /// </summary>
    private static bool Covers(ReadOnlySpan<byte> leaf, ReadOnlySpan<byte> key, out bool above)
    {
        var count = BTreeNode.Count(leaf);
        above = count > 0 && BTreeNode.Key(leaf, count - 1).SequenceCompareTo(key) < 0;
        return count > 0 && !above && BTreeNode.Key(leaf, 0).SequenceCompareTo(key) <= 0;
    }

    private ReadOnlyMemory<byte> ReadLeaf(uint pageId)
    {
        var memory = _pages.ReadPageAhead(pageId, _readAhead);
        var kind = BTreeNode.Kind(memory.Span);
        if (kind != BTreeNode.LeafKind)
            BTree.ThrowNotANode(pageId, kind);
        return memory;
    }
}
