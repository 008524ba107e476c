using System.Buffers;

namespace BLite.Core.BTrees;

/// <summary>
/// A scratch list of raw node cells, copied out of pages so that one or two pages can be
/// rebuilt from them (split, merge, redistribution) without reading and writing the same
/// bytes at once. Buffers are pooled.
/// </summary>
internal sealed class CellBatch : IDisposable
{
    private byte[] _bytes;
    private int[] _offsets;
    private int[] _lengths;
    private int _used;

    public CellBatch(int byteCapacity, int cellCapacity)
    {
        _bytes = ArrayPool<byte>.Shared.Rent(byteCapacity);
        _offsets = ArrayPool<int>.Shared.Rent(cellCapacity);
        _lengths = ArrayPool<int>.Shared.Rent(cellCapacity);
    }

    public int Count { get; private set; }

    /// <summary>Bytes the cells need in a page, slots included.</summary>
    public int TotalSpace { get; private set; }

    public ReadOnlySpan<byte> this[int index] => _bytes.AsSpan(_offsets[index], _lengths[index]);

    public int SpaceOf(int index) => _lengths[index] + BTreeNode.SlotSize;

    public void Add(ReadOnlySpan<byte> cell)
    {
        EnsureCapacity(cell.Length);
        cell.CopyTo(_bytes.AsSpan(_used));
        _offsets[Count] = _used;
        _lengths[Count] = cell.Length;
        _used += cell.Length;
        TotalSpace += cell.Length + BTreeNode.SlotSize;
        Count++;
    }

    public void AddBranchCell(ReadOnlySpan<byte> key, uint child)
    {
        var length = BTreeNode.CellHeaderSize + key.Length;
        EnsureCapacity(length);
        BTreeNode.WriteBranchCell(_bytes.AsSpan(_used, length), key, child);
        _offsets[Count] = _used;
        _lengths[Count] = length;
        _used += length;
        TotalSpace += length + BTreeNode.SlotSize;
        Count++;
    }

    public void AddAll(ReadOnlySpan<byte> page)
    {
        var count = BTreeNode.Count(page);
        for (var i = 0; i < count; i++)
            Add(BTreeNode.Cell(page, i));
    }

    /// <summary>Copies the cells in [<paramref name="start"/>, <paramref name="end"/>) to the end of <paramref name="page"/>.</summary>
    public void AppendTo(Span<byte> page, int start, int end)
    {
        for (var i = start; i < end; i++)
            BTreeNode.AppendCell(page, this[i]);
    }

    /// <summary>
    /// Where to cut a run of leaf cells into two pages: left takes [0, m), right [m, Count).
    /// Balances bytes, except that an append at the end of the tree (ascending inserts) leaves
    /// the left page full, so sequential loads fill pages instead of leaving them half empty.
    /// </summary>
    public int ChooseLeafSplit(int capacity, bool appendAtEnd)
    {
        if (appendAtEnd && TotalSpace - SpaceOf(Count - 1) <= capacity)
            return Count - 1;
        return ChooseBalanced(capacity, 1, Count - 1, middleMovesUp: false);
    }

    /// <summary>
    /// Branch split: left takes [0, m), cell m moves up as separator, right takes (m, Count). For
    /// an append at the end (ascending keys) the left keeps all it can and the right starts with
    /// the new cell alone, since later appends land there.
    /// </summary>
    public int ChooseBranchSplit(int capacity, bool appendAtEnd = false)
    {
        if (appendAtEnd && Count >= 3 && TotalSpace - SpaceOf(Count - 2) - SpaceOf(Count - 1) <= capacity)
            return Count - 2;
        return ChooseBalanced(capacity, 1, Count - 2, middleMovesUp: true);
    }

    public void Dispose()
    {
        ArrayPool<byte>.Shared.Return(_bytes);
        ArrayPool<int>.Shared.Return(_offsets);
        ArrayPool<int>.Shared.Return(_lengths);
        _bytes = [];
        _offsets = [];
        _lengths = [];
    }

    private int ChooseBalanced(int capacity, int first, int last, bool middleMovesUp)
    {
        var best = -1;
        var bestLarger = int.MaxValue;
        var left = 0;
        for (var i = 0; i < first; i++)
            left += SpaceOf(i);
        for (var m = first; m <= last; m++)
        {
            var right = TotalSpace - left - (middleMovesUp ? SpaceOf(m) : 0);
            var larger = Math.Max(left, right);
            if (left <= capacity && right <= capacity && larger < bestLarger)
            {
                best = m;
                bestLarger = larger;
            }
            left += SpaceOf(m);
        }
        if (best < 0)
            throw new InvalidOperationException("No split point fits both B+ tree pages; cell size limits were violated.");
        return best;
    }

    private void EnsureCapacity(int length)
    {
        if (_used + length > _bytes.Length)
        {
            var bigger = ArrayPool<byte>.Shared.Rent(Math.Max(_bytes.Length * 2, _used + length));
            _bytes.AsSpan(0, _used).CopyTo(bigger);
            ArrayPool<byte>.Shared.Return(_bytes);
            _bytes = bigger;
        }
        if (Count == _offsets.Length)
        {
            _offsets = Grow(_offsets);
            _lengths = Grow(_lengths);
        }
    }

    private int[] Grow(int[] array)
    {
        var bigger = ArrayPool<int>.Shared.Rent(array.Length * 2);
        array.AsSpan(0, Count).CopyTo(bigger);
        ArrayPool<int>.Shared.Return(array);
        return bigger;
    }
}
