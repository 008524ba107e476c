using BLite.Core.Storage;

namespace BLite.Core.BTrees;

/// <summary>
/// Walks the entries of a <see cref="KeyRange"/> in key order (or reverse), leaf by leaf along
/// the sibling links. Call <see cref="MoveNext"/> before reading the first entry. Key and
/// inline values are views of the page (valid while the snapshot is); an overflow value is
/// read into a new array the first time <see cref="Value"/> is asked for at that entry.
/// A transient cursor reads the leaves after the first with <see cref="IPageReader.ReadPageAhead"/>
/// (past a full cache, a run of leaves in file order comes in with one read), so its keys and
/// inline values are valid only until the next <see cref="MoveNext"/>.
/// </summary>
internal sealed class BTreeCursor
{
    private readonly IPageReader _pages;
    private readonly uint _rootPageId;
    private readonly KeyRange _range;
    private readonly bool _descending;
    private readonly bool _transient;
    private PageReadAhead? _readAhead;
    private ReadOnlyMemory<byte> _leaf;
    private int _index;
    private CursorState _state;
    private byte[]? _seekKey;
    private ReadOnlyMemory<byte>? _value;
    private bool _startBoundPassed;

    internal BTreeCursor(IPageReader pages, uint rootPageId, KeyRange range, bool descending, bool transient = false)
    {
        _transient = transient;
        _pages = pages;
        _rootPageId = rootPageId;
        _range = range;
        _descending = descending;
    }

    private enum CursorState { BeforeStart, OnEntry, Ended }

    public bool Descending => _descending;

    public ReadOnlySpan<byte> Key
    {
        get
        {
            EnsureOnEntry();
            return BTreeNode.Key(_leaf.Span, _index);
        }
    }

    public ReadOnlyMemory<byte> KeyMemory
    {
        get
        {
            EnsureOnEntry();
            var key = BTreeNode.Key(_leaf.Span, _index);
            var offset = BTreeNode.CellOffset(_leaf.Span, _index) + BTreeNode.CellHeaderSize;
            return _leaf.Slice(offset, key.Length);
        }
    }

    public ReadOnlyMemory<byte> Value
    {
        get
        {
            EnsureOnEntry();
            _value ??= BTree.ReadValue(_pages, _leaf, _index);
            return _value.Value;
        }
    }

    public ReadOnlySpan<byte> ValueSpan => Value.Span;

    /// <summary>Length of the current value, without reading an overflow chain.</summary>
    public int ValueLength
    {
        get
        {
            EnsureOnEntry();
            return BTreeNode.ValueLength(_leaf.Span, _index, out _);
        }
    }

    /// <summary>
    /// Copies the first bytes of the current value into <paramref name="destination"/> and returns
    /// how many were copied (fewer when the value is shorter), reading only the first page of an
    /// overflow chain rather than the whole value.
    /// </summary>
    public int CopyValuePrefix(Span<byte> destination)
    {
        EnsureOnEntry();
        var page = _leaf.Span;
        var length = Math.Min(destination.Length, BTreeNode.ValueLength(page, _index, out var overflow));
        if (overflow)
            OverflowChain.ReadPrefix(_pages, BTreeNode.OverflowPage(page, _index), destination[..length]);
        else
            page.Slice(BTreeNode.ValueOffset(page, _index), length).CopyTo(destination);
        return length;
    }

    /// <summary>
    /// Repositions the cursor so the next <see cref="MoveNext"/> returns the first key in the
    /// range at or after <paramref name="key"/> (at or before it, when descending).
    /// </summary>
    public void Seek(ReadOnlySpan<byte> key)
    {
        _seekKey = key.ToArray();
        _state = CursorState.BeforeStart;
        _value = null;
    }

    public bool MoveNext()
    {
        _value = null;
        switch (_state)
        {
            case CursorState.Ended:
                return false;
            case CursorState.BeforeStart:
                Position();
                _state = CursorState.OnEntry;
                break;
            default:
                _index += _descending ? -1 : 1;
                break;
        }

        for (var hops = 0L; ; hops++)
        {
            if (!SettleOnLeafEntry())
                return End();
            var key = BTreeNode.Key(_leaf.Span, _index);
            if (_descending ? !_range.IsAboveLower(key) : !_range.IsBelowUpper(key))
                return End();
            // Keys only move away from the starting bound, so once one entry is inside it the
            // rest are too and only the far bound needs checking.
            if (_startBoundPassed || (_descending ? _range.IsBelowUpper(key) : _range.IsAboveLower(key)))
            {
                _startBoundPassed = true;
                return true;
            }
            _index += _descending ? -1 : 1;
            if (hops > int.MaxValue)
                throw new BLiteCorruptionException(BTree.CorruptionSource, null, "B+ tree cursor does not terminate; leaf links form a cycle.");
        }
    }

    private bool End()
    {
        _state = CursorState.Ended;
        _leaf = default;
        return false;
    }

    // Steps over leaf boundaries (and empty leaves) until the index points at an entry.
    private bool SettleOnLeafEntry()
    {
        for (var hops = 0; ; hops++)
        {
            var page = _leaf.Span;
            var count = BTreeNode.Count(page);
            if (_index >= 0 && _index < count)
                return true;
            var sibling = _descending ? BTreeNode.FirstLink(page) : BTreeNode.SecondLink(page);
            if (sibling == 0)
                return false;
            _leaf = ReadLeaf(sibling);
            _index = _descending ? BTreeNode.Count(_leaf.Span) - 1 : 0;
            if (hops > int.MaxValue - 1)
                return false;
        }
    }

    private void Position()
    {
        _startBoundPassed = false;
        var useSeek = _seekKey is not null && (_descending
            ? !_range.HasUpperBound || _seekKey.AsSpan().SequenceCompareTo(_range.UpperBound) < 0
            : !_range.HasLowerBound || _seekKey.AsSpan().SequenceCompareTo(_range.LowerBound) > 0);
        var bounded = useSeek || (_descending ? _range.HasUpperBound : _range.HasLowerBound);
        if (!bounded)
        {
            _leaf = BTree.Seek(_pages, _rootPageId, _descending ? BTree.SeekTarget.Last : BTree.SeekTarget.First, default, default, default, out _);
            _index = _descending ? BTreeNode.Count(_leaf.Span) - 1 : 0;
            return;
        }

        var start = useSeek ? _seekKey : (_descending ? _range.UpperBound : _range.LowerBound);
        var inclusive = useSeek || (_descending ? _range.UpperInclusive : _range.LowerInclusive);
        _leaf = BTree.Seek(_pages, _rootPageId, BTree.SeekTarget.Key, start, default, default, out _);
        var index = BTreeNode.LowerBound(_leaf.Span, start, out var found);
        if (_descending)
            _index = found && inclusive ? index : index - 1;
        else
            _index = found && !inclusive ? index + 1 : index;
    }

    private ReadOnlyMemory<byte> ReadLeaf(uint pageId)
    {
        var memory = _transient ? _pages.ReadPageAhead(pageId, _readAhead ??= new PageReadAhead()) : _pages.ReadPage(pageId);
        var kind = BTreeNode.Kind(memory.Span);
        if (kind != BTreeNode.LeafKind)
            BTree.ThrowNotANode(pageId, kind);
        return memory;
    }

    private void EnsureOnEntry()
    {
        if (_state != CursorState.OnEntry)
            throw new InvalidOperationException("The cursor is not on an entry: call MoveNext first and stop when it returns false.");
    }
}
