using System.Collections;

using BLite.Bson;

namespace BLite;

/// <summary>An ordered list of <see cref="BsonValue"/>s; items are written without field ids.</summary>
public sealed class BsonArray : IList<BsonValue>, IReadOnlyList<BsonValue>, IEquatable<BsonArray>, IComparable<BsonArray>
{
    private readonly List<BsonValue> _items;

    public BsonArray()
    {
        _items = [];
    }

    public BsonArray(IEnumerable<BsonValue> items)
    {
        ArgumentNullException.ThrowIfNull(items);
        _items = [.. items];
    }

    public int Count => _items.Count;

    bool ICollection<BsonValue>.IsReadOnly => false;

    public BsonValue this[int index]
    {
        get => _items[index];
        set => _items[index] = value;
    }

    public void Add(BsonValue item) => _items.Add(item);

    public void Insert(int index, BsonValue item) => _items.Insert(index, item);

    public bool Remove(BsonValue item) => _items.Remove(item);

    public void RemoveAt(int index) => _items.RemoveAt(index);

    public void Clear() => _items.Clear();

    public bool Contains(BsonValue item) => _items.Contains(item);

    public int IndexOf(BsonValue item) => _items.IndexOf(item);

    public void CopyTo(BsonValue[] array, int arrayIndex) => _items.CopyTo(array, arrayIndex);

    public List<BsonValue>.Enumerator GetEnumerator() => _items.GetEnumerator();

    IEnumerator<BsonValue> IEnumerable<BsonValue>.GetEnumerator() => _items.GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => _items.GetEnumerator();

    public void WriteTo(ref BsonSpanWriter writer, BsonFieldDictionary dictionary)
    {
        ArgumentNullException.ThrowIfNull(dictionary);
        var token = writer.BeginArray();
        foreach (var item in _items)
        {
            writer.WriteItemHeader(item.Type);
            item.WriteTo(ref writer, dictionary);
        }

        writer.EndArray(token);
    }

    /// <summary>Reads the array at the reader's position (its item header, if any, already read).</summary>
    public static BsonArray ReadFrom(ref BsonSpanReader reader, BsonFieldDictionary dictionary)
    {
        ArgumentNullException.ThrowIfNull(dictionary);
        var array = new BsonArray();
        reader.ReadArrayStart();
        while (reader.TryReadItemHeader(out var type))
        {
            array._items.Add(BsonValue.ReadFrom(ref reader, type, dictionary));
        }

        return array;
    }

    public string ToJson(BsonJsonMode mode = BsonJsonMode.Relaxed) => BsonJsonWriter.Write(this, mode);

    public override string ToString() => ToJson();

    public bool Equals(BsonArray? other)
    {
        if (ReferenceEquals(this, other))
        {
            return true;
        }

        if (other is null || other.Count != Count)
        {
            return false;
        }

        for (var i = 0; i < _items.Count; i++)
        {
            if (!_items[i].Equals(other._items[i]))
            {
                return false;
            }
        }

        return true;
    }

    public override bool Equals(object? obj) => Equals(obj as BsonArray);

    public override int GetHashCode()
    {
        var hash = new HashCode();
        foreach (var item in _items)
        {
            hash.Add(item);
        }

        return hash.ToHashCode();
    }

    public int CompareTo(BsonArray? other)
    {
        if (other is null)
        {
            return 1;
        }

        var common = Math.Min(Count, other.Count);
        for (var i = 0; i < common; i++)
        {
            var result = _items[i].CompareTo(other._items[i]);
            if (result != 0)
            {
                return result;
            }
        }

        return Count.CompareTo(other.Count);
    }
}
