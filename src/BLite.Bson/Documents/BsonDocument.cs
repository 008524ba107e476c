using System.Collections;

using BLite.Bson;

namespace BLite;

/// <summary>
/// A schemaless document: fields in insertion order, names case-sensitive (ordinal) and unique.
/// </summary>
public sealed partial class BsonDocument : IEnumerable<KeyValuePair<string, BsonValue>>, IEquatable<BsonDocument>, IComparable<BsonDocument>
{
    // Small documents are searched linearly; past this size a name index is built on demand.
    private const int IndexThreshold = 8;

    private readonly List<KeyValuePair<string, BsonValue>> _fields = [];
    private Dictionary<string, int>? _index;

    public BsonDocument()
    {
    }

    public BsonDocument(IEnumerable<KeyValuePair<string, BsonValue>> fields)
    {
        ArgumentNullException.ThrowIfNull(fields);
        foreach (var field in fields)
        {
            Add(field.Key, field.Value);
        }
    }

    public int Count => _fields.Count;

    public IEnumerable<string> Names
    {
        get
        {
            foreach (var entry in _fields)
            {
                yield return entry.Key;
            }
        }
    }

    /// <summary>Gets a field (throws <see cref="KeyNotFoundException"/> when absent) or sets one (adds or replaces in place).</summary>
    public BsonValue this[string name]
    {
        get => TryGetValue(name, out var value) ? value : throw new KeyNotFoundException($"The document has no field \"{name}\".");
        set
        {
            var position = IndexOf(name);
            if (position >= 0)
            {
                _fields[position] = new(name, value);
            }
            else
            {
                Append(name, value);
            }
        }
    }

    /// <summary>The field at <paramref name="position"/> in document order.</summary>
    public KeyValuePair<string, BsonValue> GetField(int position) => _fields[position];

    /// <summary>Adds a field; throws <see cref="ArgumentException"/> if the name is already present.</summary>
    public BsonDocument Add(string name, BsonValue value)
    {
        if (IndexOf(name) >= 0)
        {
            throw new ArgumentException($"The document already has a field \"{name}\".", nameof(name));
        }

        Append(name, value);
        return this;
    }

    public bool TryGetValue(string name, out BsonValue value)
    {
        var position = IndexOf(name);
        if (position < 0)
        {
            value = default;
            return false;
        }

        value = _fields[position].Value;
        return true;
    }

    public bool ContainsKey(string name) => IndexOf(name) >= 0;

    public bool Remove(string name)
    {
        var position = IndexOf(name);
        if (position < 0)
        {
            return false;
        }

        _fields.RemoveAt(position);
        _index = null;
        return true;
    }

    /// <summary>Follows a dotted path ("a.b.2.c") through documents and arrays (numeric parts index arrays).</summary>
    public bool TryGetPath(string path, out BsonValue value)
    {
        ArgumentNullException.ThrowIfNull(path);
        BsonValue current = this;
        foreach (var part in path.Split('.'))
        {
            if (current.IsDocument && current.AsDocument.TryGetValue(part, out var child))
            {
                current = child;
            }
            else if (current.IsArray && int.TryParse(part, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var index)
                     && index < current.AsArray.Count)
            {
                current = current.AsArray[index];
            }
            else
            {
                value = default;
                return false;
            }
        }

        value = current;
        return true;
    }

    public List<KeyValuePair<string, BsonValue>>.Enumerator GetEnumerator() => _fields.GetEnumerator();

    IEnumerator<KeyValuePair<string, BsonValue>> IEnumerable<KeyValuePair<string, BsonValue>>.GetEnumerator() => _fields.GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => _fields.GetEnumerator();

    public bool Equals(BsonDocument? other)
    {
        if (ReferenceEquals(this, other))
        {
            return true;
        }

        if (other is null || other.Count != Count)
        {
            return false;
        }

        for (var i = 0; i < _fields.Count; i++)
        {
            if (!string.Equals(_fields[i].Key, other._fields[i].Key, StringComparison.Ordinal)
                || !_fields[i].Value.Equals(other._fields[i].Value))
            {
                return false;
            }
        }

        return true;
    }

    public override bool Equals(object? obj) => Equals(obj as BsonDocument);

    public override int GetHashCode()
    {
        var hash = new HashCode();
        foreach (var field in _fields)
        {
            hash.Add(field.Key, StringComparer.Ordinal);
            hash.Add(field.Value);
        }

        return hash.ToHashCode();
    }

    /// <summary>Field by field in document order: name (ordinal), then value; a prefix sorts first.</summary>
    public int CompareTo(BsonDocument? other)
    {
        if (other is null)
        {
            return 1;
        }

        var common = Math.Min(Count, other.Count);
        for (var i = 0; i < common; i++)
        {
            var result = string.CompareOrdinal(_fields[i].Key, other._fields[i].Key);
            if (result == 0)
            {
                result = _fields[i].Value.CompareTo(other._fields[i].Value);
            }

            if (result != 0)
            {
                return result;
            }
        }

        return Count.CompareTo(other.Count);
    }

    public override string ToString() => ToJson();

    private int IndexOf(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (_fields.Count <= IndexThreshold)
        {
            for (var i = 0; i < _fields.Count; i++)
            {
                if (string.Equals(_fields[i].Key, name, StringComparison.Ordinal))
                {
                    return i;
                }
            }

            return -1;
        }

        if (_index is null)
        {
            _index = new Dictionary<string, int>(_fields.Count, StringComparer.Ordinal);
            for (var i = 0; i < _fields.Count; i++)
            {
                _index[_fields[i].Key] = i;
            }
        }

        return _index.TryGetValue(name, out var position) ? position : -1;
    }

    private void Append(string name, BsonValue value)
    {
        _index?.Add(name, _fields.Count);
        _fields.Add(new(name, value));
    }
}
