namespace BLite.Core.Query;

/// <summary>
/// Encoded primary keys packed back to back in one growing array (no array per key), which can be
/// sorted bytewise (the primary index's order) and stripped of duplicates in place.
/// </summary>
internal sealed class PrimaryKeyBuffer
{
    private byte[] _bytes = new byte[256];
    private int _used;
    private KeySlot[] _slots = new KeySlot[16];

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

        key.CopyTo(_bytes.AsSpan(_used));
        _slots[Count++] = new KeySlot(_used, key.Length);
        _used += key.Length;
    }

    public void SortDistinct()
    {
        var bytes = _bytes;
        Array.Sort(_slots, 0, Count, Comparer<KeySlot>.Create((a, b) =>
            bytes.AsSpan(a.Offset, a.Length).SequenceCompareTo(bytes.AsSpan(b.Offset, b.Length))));
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
}
