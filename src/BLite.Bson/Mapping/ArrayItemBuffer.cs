using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace BLite.Bson.Mapping;

/// <summary>
/// The items of one C-BSON array, gathered while a generated deserializer reads them, so the
/// collection is created once at its exact size without walking the array a second time to count
/// it first. The first <see cref="InlineCapacity"/> items stay on the stack; longer arrays spill
/// into a pooled array, returned when the collection is made.
/// </summary>
/// <remarks>
/// A deserializer that throws part-way leaves a spilled array unreturned: the pool does not need
/// it back, and the collector reclaims it.
/// </remarks>
public ref struct ArrayItemBuffer<T>
{
    /// <summary>How many items fit before the buffer rents an array: the usual short lists (lines, tags, notes).</summary>
    public const int InlineCapacity = 8;

    private InlineItems _inline;
    private T[]? _spill;
    private int _count;

    public readonly int Count => _count;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Add(T item)
    {
        var count = _count;
        if (count < InlineCapacity)
        {
            _inline[count] = item;
            _count = count + 1;
            return;
        }

        AddSpilled(item);
    }

    public List<T> ToList()
    {
        var list = new List<T>(_count);
        CollectionsMarshal.SetCount(list, _count);
        CopyTo(CollectionsMarshal.AsSpan(list));
        return list;
    }

    /// <summary>
    /// Puts the items into <paramref name="list"/> when it is empty (a list a member's initializer
    /// made, sized here to exactly the items), so it need not be replaced by a new one; false, with
    /// the items kept, when the list is null or already holds items.
    /// </summary>
    public bool TryFill(List<T>? list)
    {
        if (list is null || list.Count != 0)
        {
            return false;
        }

        if (list.Capacity < _count)
        {
            list.Capacity = _count;
        }

        CollectionsMarshal.SetCount(list, _count);
        CopyTo(CollectionsMarshal.AsSpan(list));
        return true;
    }

    /// <summary>Like <see cref="TryFill(List{T})"/> for a set: fills it when it is empty, keeping its comparer.</summary>
    public bool TryFill(HashSet<T>? set)
    {
        if (set is null || set.Count != 0)
        {
            return false;
        }

        set.EnsureCapacity(_count);
        AddTo(set);
        return true;
    }

    public T[] ToArray()
    {
        if (_count == 0)
        {
            return [];
        }

        var array = GC.AllocateUninitializedArray<T>(_count);
        CopyTo(array);
        return array;
    }

    public HashSet<T> ToHashSet()
    {
        var set = new HashSet<T>(_count);
        AddTo(set);
        return set;
    }

    private void AddTo(HashSet<T> set)
    {
        var items = Items;
        for (var i = 0; i < items.Length; i++)
        {
            set.Add(items[i]);
        }

        Release();
    }

    [UnscopedRef]
    private readonly ReadOnlySpan<T> Items =>
        _spill is { } spill ? spill.AsSpan(0, _count) : ((ReadOnlySpan<T>)_inline)[.._count];

    private void CopyTo(Span<T> destination)
    {
        Items.CopyTo(destination);
        Release();
    }

    private void Release()
    {
        if (_spill is { } spill)
        {
            ArrayPool<T>.Shared.Return(spill, clearArray: RuntimeHelpers.IsReferenceOrContainsReferences<T>());
            _spill = null;
        }

        _count = 0;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void AddSpilled(T item)
    {
        var spill = _spill;
        if (spill is null)
        {
            spill = ArrayPool<T>.Shared.Rent(InlineCapacity * 4);
            ((ReadOnlySpan<T>)_inline).CopyTo(spill);
            ((Span<T>)_inline).Clear();
            _spill = spill;
        }
        else if (_count == spill.Length)
        {
            var larger = ArrayPool<T>.Shared.Rent(spill.Length * 2);
            spill.AsSpan().CopyTo(larger);
            ArrayPool<T>.Shared.Return(spill, clearArray: RuntimeHelpers.IsReferenceOrContainsReferences<T>());
            spill = larger;
            _spill = spill;
        }

        spill[_count++] = item;
    }

    [InlineArray(InlineCapacity)]
    private struct InlineItems
    {
        private T _element0;
    }
}
