namespace BLite.Core.Query;

/// <summary>
/// Encoded primary keys packed back to back in one growing array (no array per key), which can be
/// sorted bytewise (the primary index's order) and stripped of duplicates in place.
/// </summary>
/// <remarks>
/// The entries of one equality run of a secondary index come in primary-key order (an index key
/// ends with the primary key), so the keys of a join arrive as a few ascending runs, one per
/// outer value. The buffer notes where each ascending run starts as keys are added and sorts by
/// merging neighbouring runs: one run (a join through one value, or through values whose
/// documents do not interleave) needs no sort at all, and k runs need log2(k) merge passes
/// instead of a general sort.
/// </remarks>
internal sealed class PrimaryKeyBuffer
{
    private byte[] _bytes = new byte[512];
    private int _used;
    private KeySlot[] _slots = new KeySlot[32];
    private KeySlot[]? _merged;
    private int[] _runStarts = new int[8];
    private int _runs;

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

        if (Count == 0 || key.SequenceCompareTo(this[Count - 1]) < 0)
        {
            if (_runs == _runStarts.Length)
            {
                Array.Resize(ref _runStarts, _runStarts.Length * 2);
            }

            _runStarts[_runs++] = Count;
        }

        key.CopyTo(_bytes.AsSpan(_used));
        _slots[Count++] = new KeySlot(_used, key.Length);
        _used += key.Length;
    }

    public void SortDistinct()
    {
        if (_runs > 1)
        {
            MergeRuns();
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
        _runs = Count == 0 ? 0 : 1;
        _runStarts[0] = 0;
    }

    /// <summary>Merges neighbouring ascending runs pairwise, pass after pass, until one run is left.</summary>
    private void MergeRuns()
    {
        var source = _slots;
        var target = _merged is { } spare && spare.Length >= Count ? spare : new KeySlot[_slots.Length];
        while (_runs > 1)
        {
            var merged = 0;
            for (var run = 0; run < _runs; run += 2)
            {
                var start = _runStarts[run];
                var middle = run + 1 < _runs ? _runStarts[run + 1] : Count;
                var end = run + 2 < _runs ? _runStarts[run + 2] : Count;
                Merge(source, start, middle, end, target);
                _runStarts[merged++] = start;
            }

            _runs = merged;
            (source, target) = (target, source);
        }

        _merged = target;
        _slots = source;
    }

    private void Merge(KeySlot[] source, int start, int middle, int end, KeySlot[] target)
    {
        var left = start;
        var right = middle;
        var output = start;
        while (left < middle && right < end)
        {
            target[output++] = Key(source[right]).SequenceCompareTo(Key(source[left])) < 0 ? source[right++] : source[left++];
        }

        Array.Copy(source, left, target, output, middle - left);
        output += middle - left;
        Array.Copy(source, right, target, output, end - right);
    }

    private ReadOnlySpan<byte> Key(KeySlot slot) => _bytes.AsSpan(slot.Offset, slot.Length);

    private readonly record struct KeySlot(int Offset, int Length);
}
