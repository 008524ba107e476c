using System;
using System.Collections;
using System.Collections.Generic;
using System.Collections.Immutable;

namespace BLite.Generators.Model;

/// <summary>
/// An immutable array compared by content, so pipeline models holding lists stay equatable and
/// Roslyn can cache a step whose inputs did not change.
/// </summary>
internal readonly struct EquatableArray<T> : IEquatable<EquatableArray<T>>, IEnumerable<T>
    where T : IEquatable<T>
{
    private readonly T[]? _items;

    public EquatableArray(T[] items)
    {
        _items = items;
    }

    public static EquatableArray<T> Empty => new(Array.Empty<T>());

    public int Count => _items?.Length ?? 0;

    public T this[int index] => _items![index];

    public ReadOnlySpan<T> AsSpan() => _items ?? Array.Empty<T>();

    public bool Equals(EquatableArray<T> other) => AsSpan().SequenceEqual(other.AsSpan());

    public override bool Equals(object? obj) => obj is EquatableArray<T> other && Equals(other);

    public override int GetHashCode()
    {
        var hash = 17;
        foreach (var item in AsSpan())
        {
            hash = unchecked((hash * 31) + (item?.GetHashCode() ?? 0));
        }

        return hash;
    }

    public IEnumerator<T> GetEnumerator() => ((IEnumerable<T>)(_items ?? Array.Empty<T>())).GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    public static bool operator ==(EquatableArray<T> left, EquatableArray<T> right) => left.Equals(right);

    public static bool operator !=(EquatableArray<T> left, EquatableArray<T> right) => !left.Equals(right);
}

internal static class EquatableArray
{
    public static EquatableArray<T> ToEquatableArray<T>(this IEnumerable<T> items)
        where T : IEquatable<T>
        => new(items is T[] array ? array : new List<T>(items).ToArray());

    public static EquatableArray<T> ToEquatableArray<T>(this ImmutableArray<T> items)
        where T : IEquatable<T>
        => new(items.IsDefault ? Array.Empty<T>() : System.Linq.ImmutableArrayExtensions.ToArray(items));
}
