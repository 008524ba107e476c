namespace BLite.Core.Query;

/// <summary>
/// Encoded primary keys packed back to back in one growing array (no array per key), which can be
/// sorted bytewise (the primary index's order) and stripped of duplicates in place.
/// </summary>
/// <remarks>
/// The entries of one equality run of a secondary index come in primary-key order (an index key
/// ends with the primary key), so the keys of a join through one value, or through values whose
/// documents do not interleave, arrive already sorted: the buffer notices that as keys are added
/// and then skips the sort.
/// </remarks>
internal sealed class PrimaryKeyBuffer
{
    private byte[] _bytes = new byte[512];
    private int _used;
    private KeySlot[] _slots = new KeySlot[32];
    private bool _ascending = true;

    public int Count { get; private set; }

    public ReadOnlySpan<byte> this[int index] => _bytes.AsSpan(_slots[index].Offset, _slots[index].Length);

    public void Add(ReadOnlySpan<byte> key)
    {
        if (_used + key.Length > _bytes.Length)
        {
            Array.Resize(ref _bytes, Math.Max(_bytes.Length * 2, _used + key.Length));
        }

        if (Count == _slots.Length)
        {
            Array.Resize(ref _slots, _slots.Length * 2);
        }

        if (_ascending && Count > 0 && key.SequenceCompareTo(this[Count - 1]) < 0)
        {
            _ascending = false;
        }

        key.CopyTo(_bytes.AsSpan(_used));
        _slots[Count++] = new KeySlot(_used, key.Length);
        _used += key.Length;
    }

    public void SortDistinct()
    {
        if (!_ascending)
        {
            _slots.AsSpan(0, Count).Sort(new BytewiseOrder(_bytes));
            _ascending = true;
        }

        var kept = 0;
        for (var i = 0; i < Count; i++)
        {
            if (kept == 0 || !this[i].SequenceEqual(this[kept - 1]))
            {
                _slots[kept++] = _slots[i];
            }
        }

        Count = kept;
    }

    private readonly record struct KeySlot(int Offset, int Length);

    /// <summary>A struct comparer, so the sort is specialised for it instead of calling a delegate per comparison.</summary>
    private readonly struct BytewiseOrder(byte[] bytes) : IComparer<KeySlot>
    {
        public int Compare(KeySlot x, KeySlot y) => bytes.AsSpan(x.Offset, x.Length).SequenceCompareTo(bytes.AsSpan(y.Offset, y.Length));
    }
}
